package gen

// kron is the Graph500 Kronecker generator (Graph500 specification, section 3.2;
// Leskovec et al., "Kronecker graphs", JMLR 2010). Each edge picks, for each of the
// Scale bit levels, one quadrant of the adjacency matrix: top-left with probability A,
// top-right B, bottom-left C, bottom-right D. The specification's reference code draws
// the row bit first (1 with probability C+D) and then the column bit conditioned on it;
// one uniform draw compared against A, A+B and A+B+C gives exactly the same joint
// distribution with one draw per level instead of two.
type kron struct {
	spec          Spec
	tA, tAB, tABC uint64 // thresholds on a 32-bit uniform
	perm          Perm
}

func newKron(s Spec) *kron {
	threshold := func(p float64) uint64 { return uint64(p * (1 << 32)) }
	return &kron{
		spec: s,
		tA:   threshold(KronA),
		tAB:  threshold(KronA + KronB),
		tABC: threshold(KronA + KronB + KronC),
		perm: NewPerm(uint(s.Scale), s.Seed),
	}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// quadrant returns the row and column bits for a 32-bit uniform x: row = x >= A+B;
// col is set in [A, A+B) and [A+B+C, 1), which is the parity of the three comparisons.
func (k *kron) quadrant(x uint64) (row, col uint64) {
	ge1, ge2, ge3 := b2u(x >= k.tA), b2u(x >= k.tAB), b2u(x >= k.tABC)
	return ge2, ge1 ^ ge2 ^ ge3
}

func (k *kron) block(dst []Edge, b uint64) []Edge {
	lo, hi := k.spec.blockRange(b)
	r := newRNG(k.spec.Seed, streamKron, b)
	scale := k.spec.Scale
	for range hi - lo {
		var u, v uint64
		// Each 64-bit draw serves two levels.
		for l := 0; l < scale; l += 2 {
			x := r.next()
			row, col := k.quadrant(x & 0xffffffff)
			u, v = u<<1|row, v<<1|col
			if l+1 < scale {
				row, col = k.quadrant(x >> 32)
				u, v = u<<1|row, v<<1|col
			}
		}
		dst = append(dst, Edge{k.perm.At(u), k.perm.At(v)})
	}
	return dst
}
