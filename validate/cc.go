package validate

import (
	"sync/atomic"

	"github.com/oocgraph/ooc/store"
)

// Partition is what CC found out about a valid labelling.
type Partition struct {
	Components uint64
	Largest    uint64 // vertices in the largest component
}

// CC checks that labels partition the vertices into the connected components of g
// (weakly connected ones on a directed graph); the label values themselves are
// arbitrary. One pass over the lists on all cores checks that every edge joins equal
// labels, so each component lies within one label class, and feeds the edges to a
// concurrent union-find (a method independent of the engines'); then there must be as
// many distinct labels as components, so no class holds two components. An undirected
// graph stores each edge both ways; the pass reads each list only up to its own vertex.
func CC(g *store.Graph, labels []uint32) (Partition, error) {
	n := g.NumVertices()
	if uint64(len(labels)) != uint64(n) {
		return Partition{}, invalid("%d labels for %d vertices", len(labels), n)
	}
	uf := make([]uint32, n)
	for i := range uf {
		uf[i] = uint32(i)
	}
	directed, cg := g.Directed(), store.NewCompressed(g)
	err := eachPiece(g.Out(), func(s *store.Shard, lo, hi uint32) error {
		l := newLists(cg, store.Out)
		for u := lo; u < hi; u++ {
			deg, done := s.Degree(u), false
			for k := uint32(0); k < deg && !done; k += store.BlockSize {
				blk, err := l.block(u, k)
				if err != nil {
					return err
				}
				for _, v := range blk {
					if !directed && v > u {
						done = true
						break
					}
					if labels[u] != labels[v] {
						return invalid("edge %d -> %d joins labels %d and %d, expected one component", g.External(u), g.External(v), labels[u], labels[v])
					}
					unionAtomic(uf, u, v)
				}
			}
		}
		return nil
	})
	if err != nil {
		return Partition{}, err
	}
	comps, largest := countRoots(uf)
	if classes := countLabels(labels); classes != comps {
		return Partition{}, invalid("%d distinct labels but %d components: some label covers several components", classes, comps)
	}
	return Partition{Components: comps, Largest: largest}, nil
}

// findAtomic is Find for a forest that other goroutines link and halve at the same time.
func findAtomic(p []uint32, v uint32) uint32 {
	for {
		pv := atomic.LoadUint32(&p[v])
		if pv == v {
			return v
		}
		ppv := atomic.LoadUint32(&p[pv])
		if ppv != pv {
			atomic.CompareAndSwapUint32(&p[v], pv, ppv)
		}
		v = ppv
	}
}

// unionAtomic joins the sets of u and v under concurrent use: it links the larger root
// under the smaller only while the larger is still a root, so parents only decrease and
// no cycle forms.
func unionAtomic(p []uint32, u, v uint32) {
	for {
		a, b := findAtomic(p, u), findAtomic(p, v)
		if a == b {
			return
		}
		if a < b {
			a, b = b, a
		}
		if atomic.CompareAndSwapUint32(&p[a], a, b) {
			return
		}
		u, v = a, b
	}
}

// UnionFind returns the sequential union-find forest of g's out-edges (path halving,
// linking the larger root under the smaller): after it, find(v) names v's component. It
// is also the sequential baseline of the benchmarks.
func UnionFind(g *store.Graph) ([]uint32, error) {
	p := make([]uint32, g.NumVertices())
	for i := range p {
		p[i] = uint32(i)
	}
	var it store.ListIter
	for _, s := range g.Out().Shards {
		for u := s.Lo; u < s.Hi(); u++ {
			for s.Iter(&it, u); it.Next(); {
				Union(p, u, it.Value())
			}
			if it.Err() != nil {
				return nil, s.ListError(u)
			}
		}
	}
	return p, nil
}

// Find returns the root of v with path halving.
func Find(p []uint32, v uint32) uint32 {
	for p[v] != v {
		p[v] = p[p[v]]
		v = p[v]
	}
	return v
}

// Union joins the sets of u and v, keeping the smaller root.
func Union(p []uint32, u, v uint32) {
	a, b := Find(p, u), Find(p, v)
	if a < b {
		p[b] = a
	} else if b < a {
		p[a] = b
	}
}

func countRoots(p []uint32) (comps, largest uint64) {
	size := make([]uint32, len(p))
	for v := range p {
		size[Find(p, uint32(v))]++
	}
	for _, s := range size {
		if s > 0 {
			comps++
			largest = max(largest, uint64(s))
		}
	}
	return comps, largest
}

// countLabels counts distinct values with a bitmap over the 32-bit label space when the
// labels are vertex ids (the usual case) and a map otherwise.
func countLabels(labels []uint32) uint64 {
	n := uint64(len(labels))
	seen := make([]uint64, (n+63)/64)
	var other map[uint32]struct{}
	var count uint64
	for _, l := range labels {
		if uint64(l) < n {
			if seen[l>>6]&(1<<(l&63)) == 0 {
				seen[l>>6] |= 1 << (l & 63)
				count++
			}
			continue
		}
		if other == nil {
			other = make(map[uint32]struct{})
		}
		other[l] = struct{}{}
	}
	return count + uint64(len(other))
}
