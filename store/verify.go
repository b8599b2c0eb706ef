package store

import (
	"hash"
	"hash/crc32"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/oocgraph/ooc/internal/fault"
)

func newCRC() hash.Hash32 { return crc32.New(castagnoli) }

// Verify opens dir and checks everything the format promises: every checksum, the
// structure of every shard, that every list decodes to exactly its degree of neighbours
// in range and in ascending order (strictly, unless duplicates were kept), no self-loop
// unless they were kept, and that the lists agree with each other: an undirected
// graph's are symmetric, a directed graph's in-lists are the transpose of its
// out-lists, with equal weights on both sides of every edge in a weighted graph.
func Verify(dir string) (*Manifest, error) {
	g, err := Open(dir)
	if err != nil {
		return nil, err
	}
	defer g.Close()
	if err := g.Check(); err != nil {
		return nil, err
	}
	shards := g.Shards()
	errs := make([]error, len(shards))
	sums := make([]edgeSums, len(shards))
	var wg fault.Group
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, s := range shards {
		sem <- struct{}{}
		wg.Go(func() {
			sums[i], errs[i] = verifyLists(s, g.M.Options)
			if errs[i] == nil && g.M.FloatWeights() {
				errs[i] = verifyFloatWeights(s)
			}
			<-sem
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if err := g.checkTranspose(sums); err != nil {
		return nil, err
	}
	return g.M, nil
}

// edgeSums are a shard's sums, mod 2^64, of edgeHash over its entries (v, u), v the
// list's vertex and u a neighbour: fwd of edgeHash(v, u), rev of edgeHash(u, v). The
// graph's lists agree when the out-lists' fwd equals the rev of the lists that must
// mirror them (the out-lists themselves when undirected, else the in-lists): the two
// sides are then the same multiset of edges, up to a chance of 2^-64.
type edgeSums struct{ fwd, rev uint64 }

// edgeHash mixes an ordered pair into 64 bits (the SplitMix64 finalizer).
func edgeHash(a, b uint32) uint64 {
	x := uint64(a)<<32 | uint64(b)
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// weightedHash is edgeHash with the edge's weight mixed in, so that the sums compare
// (from, to, weight) triples: a weight that differs between an edge and its mirror
// shows as lists that disagree. Unweighted graphs use weight 0, which leaves edgeHash.
func weightedHash(a, b, w uint32) uint64 {
	if w == 0 {
		return edgeHash(a, b)
	}
	return edgeHash(a, b) ^ edgeHash(w, ^w)
}

// weightAt is the weight of the k-th entry of v's list, 0 in a graph without weights.
func weightAt(ws []uint32, k int) uint32 {
	if ws == nil {
		return 0
	}
	return ws[k]
}

func verifyLists(s *Shard, opt BuildOptions) (edgeSums, error) {
	var it ListIter
	var sums edgeSums
	sec, _ := s.section(SecAdj)
	for v := s.Lo; v < s.Hi(); v++ {
		s.Iter(&it, v)
		first, prev := true, uint32(0)
		ws := s.WeightsOf(v)
		for k := 0; it.Next(); k++ {
			u, w := it.Value(), weightAt(ws, k)
			if !first && (u < prev || (!opt.KeepDuplicates && u == prev)) {
				return sums, corrupt(s.Path, sec.Offset+int64(s.ListOffset(v-s.Lo)), "adjacency list of vertex %d is out of order or repeats a neighbour (neighbour %d after %d)", v, u, prev)
			}
			if u == v && !opt.KeepSelfLoops {
				return sums, corrupt(s.Path, sec.Offset+int64(s.ListOffset(v-s.Lo)), "adjacency list of vertex %d holds a self-loop, which the manifest says were dropped", v)
			}
			first, prev = false, u
			sums.fwd += weightedHash(v, u, w)
			sums.rev += weightedHash(u, v, w)
		}
		if it.Err() != nil {
			return sums, s.listError(v)
		}
	}
	return sums, nil
}

// CheckFloatWeights checks that every weight of the shard is the bit pattern of a
// non-negative finite float32, as a graph with float32 weights requires (Verify checks
// it; SSSP checks it before computing with the weights): a CorruptError names the first
// that is not.
func (s *Shard) CheckFloatWeights() error { return verifyFloatWeights(s) }

// verifyFloatWeights checks that every weight of a float32-weighted shard is the bit
// pattern of a non-negative finite float (-0 is stored as +0): below 0x7F800000, the
// pattern of +Inf. Those order as their bits do, which dedup and sorting rely on.
func verifyFloatWeights(s *Shard) error {
	sec, _ := s.section(SecWeights)
	for k, w := range s.Weights {
		if w >= 0x7F800000 {
			return corrupt(s.Path, sec.Offset+4*int64(k), "weight %d is %#08x, not a non-negative finite float32", k, w)
		}
	}
	return nil
}

// checkTranspose compares the sums of the out-lists with those of the lists that must
// mirror them, and on a mismatch finds the first vertex whose lists disagree.
func (g *Graph) checkTranspose(sums []edgeSums) error {
	var out, mirror uint64
	for i, s := range g.Shards() {
		if s.Dir == Out {
			out += sums[i].fwd
		}
		if s.Dir == In || !g.M.Directed {
			mirror += sums[i].rev
		}
	}
	if out == mirror {
		return nil
	}
	what := "the graph is undirected but its lists are not symmetric: an edge is stored in one direction only"
	if g.M.Directed {
		what = "the in-lists are not the transpose of the out-lists"
	}
	if g.M.Weighted {
		what += " (or an edge's weight differs from its mirror's)"
	}
	return g.locateMismatch(what)
}

// locateMismatch runs through the lists again, on one core, summing every edge's hash
// with a sign at its smaller end (the out-lists' entries +, their mirrors' -), and names
// the first vertex whose sum is not zero; past 2^28 vertices it names only the graph.
// It runs only on a graph already known to be damaged.
func (g *Graph) locateMismatch(what string) error {
	n := g.M.Vertices
	if n > 1<<28 {
		return corrupt(filepath.Join(g.Dir, ManifestName), -1, "%s", what)
	}
	acc := make([]uint64, n)
	var it ListIter
	for _, s := range g.Shards() {
		for v := s.Lo; v < s.Hi(); v++ {
			ws := s.WeightsOf(v)
			s.Iter(&it, v)
			for k := 0; it.Next(); k++ {
				a, b := v, it.Value() // the edge a->b as the out-lists hold it
				w := weightAt(ws, k)
				if s.Dir == In {
					a, b = b, a
				}
				if g.M.Directed {
					if s.Dir == Out {
						acc[min(a, b)] += weightedHash(a, b, w)
					} else {
						acc[min(a, b)] -= weightedHash(a, b, w)
					}
					continue
				}
				if a != b { // a self-loop is its own mirror
					acc[min(a, b)] += weightedHash(min(a, b), max(a, b), w) * signOf(a < b)
				}
			}
		}
	}
	for v, x := range acc {
		if x != 0 {
			s := g.Out().ShardOf(uint32(v))
			sec, _ := s.section(SecAdj)
			return corrupt(s.Path, sec.Offset+int64(s.ListOffset(uint32(v)-s.Lo)), "%s (vertex %d and a neighbour disagree)", what, v)
		}
	}
	return corrupt(filepath.Join(g.Dir, ManifestName), -1, "%s", what)
}

// signOf is +1 or -1 (mod 2^64) as a multiplier.
func signOf(plus bool) uint64 {
	if plus {
		return 1
	}
	return ^uint64(0)
}

// checkIDsDistinct checks that no two vertices share an original id. Ascending ids were
// checked by Open. Others (degree order) are marked in a bitmap over their range, one bit
// per id, when the range is at most 64 ids per vertex (always, unless --relabel kept
// sparse ids), else sorted in a copy.
func (g *Graph) checkIDsDistinct() error {
	if g.M.IDs == nil || g.idsAsc || g.M.Vertices == 0 {
		return nil
	}
	n := int64(g.M.Vertices)
	lo, hi := g.idAt(0), g.idAt(0)
	for i := range n {
		lo, hi = min(lo, g.idAt(i)), max(hi, g.idAt(i))
	}
	dup := func(i int64) error {
		return corrupt(filepath.Join(g.Dir, g.M.IDs.File), g.idOffset(i), "original id %d of vertex %d is given to an earlier vertex too", g.idAt(i), i)
	}
	if hi-lo < 64*uint64(n) {
		seen := make([]uint64, (hi-lo)/64+1)
		for i := range n {
			x := g.idAt(i) - lo
			if seen[x/64]&(1<<(x%64)) != 0 {
				return dup(i)
			}
			seen[x/64] |= 1 << (x % 64)
		}
		return nil
	}
	ids := make([]uint64, n)
	for i := range ids {
		ids[i] = g.idAt(int64(i))
	}
	slices.Sort(ids)
	for i := 1; i < len(ids); i++ {
		if ids[i] == ids[i-1] {
			for j := int64(0); ; j++ { // the first vertex whose id occurred before
				if g.idAt(j) == ids[i] {
					for k := j + 1; ; k++ {
						if g.idAt(k) == ids[i] {
							return dup(k)
						}
					}
				}
			}
		}
	}
	return nil
}
