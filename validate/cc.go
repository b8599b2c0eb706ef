package validate

import (
	"github.com/oocgraph/ooc/store"
)

// Partition is what CC found out about a valid labelling.
type Partition struct {
	Components uint64
	Largest    uint64 // vertices in the largest component
}

// CC checks that labels partition the vertices into the connected components of g
// (weakly connected ones on a directed graph); the label values themselves are
// arbitrary. It checks in parallel that every edge joins equal labels, so each component
// lies within one label class, and then that there are as many distinct labels as
// components, counted by a sequential union-find over the out-lists (a method
// independent of the engines'), so no class holds two components.
func CC(g *store.Graph, labels []uint32) (Partition, error) {
	n := g.NumVertices()
	if uint64(len(labels)) != uint64(n) {
		return Partition{}, invalid("%d labels for %d vertices", len(labels), n)
	}
	err := eachShard(g.Out(), func(s *store.Shard) error {
		var it store.ListIter
		for u := s.Lo; u < s.Hi(); u++ {
			for s.Iter(&it, u); it.Next(); {
				if v := it.Value(); labels[u] != labels[v] {
					return invalid("edge %d -> %d joins labels %d and %d, expected one component", u, v, labels[u], labels[v])
				}
			}
			if it.Err() != nil {
				return s.ListError(u)
			}
		}
		return nil
	})
	if err != nil {
		return Partition{}, err
	}
	uf, err := UnionFind(g)
	if err != nil {
		return Partition{}, err
	}
	comps, largest := countRoots(uf)
	if classes := countLabels(labels); classes != comps {
		return Partition{}, invalid("%d distinct labels but %d components: some label covers several components", classes, comps)
	}
	return Partition{Components: comps, Largest: largest}, nil
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
