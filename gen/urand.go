package gen

// urand is the uniform random graph of GAPBS (Beamer, Asanović, Patterson, "The GAP
// Benchmark Suite", 2015): EdgeFactor * 2^Scale edges whose endpoints are independent and
// uniform over the vertices. Vertex ids carry no structure, so no permutation is needed.
type urand struct {
	spec Spec
	mask uint64
}

func newURand(s Spec) *urand { return &urand{spec: s, mask: s.Vertices() - 1} }

func (g *urand) block(dst []Edge, b uint64) []Edge {
	lo, hi := g.spec.blockRange(b)
	r := newRNG(g.spec.Seed, streamURand, b)
	for range hi - lo {
		// Scale <= 31, so each half of one draw is one endpoint.
		x := r.next()
		dst = append(dst, Edge{x & g.mask, (x >> 32) & g.mask})
	}
	return dst
}
