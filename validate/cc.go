package validate

import (
	"maps"
	"math/bits"
	"runtime"
	"sync/atomic"

	"github.com/oocgraph/ooc/internal/parallel"

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
//
// A vertex's label and its union-find parent share one word (a node), so that an edge
// to a vertex not in the caches misses them once for both; a vertex's own root is
// carried from edge to edge of its list rather than found again for each.
func CC(g *store.Graph, labels []uint32) (Partition, error) {
	n := g.NumVertices()
	if uint64(len(labels)) != uint64(n) {
		return Partition{}, invalid("%d labels for %d vertices", len(labels), n)
	}
	nodes := newNodes(labels)
	directed, nv := g.Directed(), n
	err := eachPiece(g.Out(), func(s *store.Shard, lo, hi uint32) error {
		var cur store.DirCursor
		cur.Reset(s)
		var b blocks
		for u := lo; u < hi; u++ {
			lu, ru := labels[u], u
			deg, list := cur.At(u - s.Lo)
			b.reset(u, deg, list, nv)
			for done := false; !done; {
				blk, ok := b.next()
				if !ok {
					return s.ListError(u)
				}
				if blk == nil {
					break
				}
				for _, v := range blk {
					if !directed && v >= u {
						done = true
						break
					}
					x := atomic.LoadUint64(&nodes[v])
					if label(x) != lu {
						return invalid("edge %d -> %d joins labels %d and %d, expected one component", g.External(u), g.External(v), lu, labels[v])
					}
					if parent(x) != ru { // else v already hangs under u's root
						ru = unionAtomic(nodes, ru, v)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		return Partition{}, err
	}
	comps, largest := countRoots(nodes)
	if classes := countLabels(labels); classes != comps {
		return Partition{}, invalid("%d distinct labels but %d components: some label covers several components", classes, comps)
	}
	return Partition{Components: comps, Largest: largest}, nil
}

// A node is a vertex's union-find parent (the low 32 bits) and its label (the high 32
// bits), read and linked atomically as one word.
func parent(x uint64) uint32 { return uint32(x) }
func label(x uint64) uint32  { return uint32(x >> 32) }

// newNodes makes every vertex its own root, beside its label, on all cores.
func newNodes(labels []uint32) []uint64 {
	nodes := make([]uint64, len(labels))
	parallel.For(runtime.GOMAXPROCS(0), len(labels), span, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			nodes[i] = uint64(labels[i])<<32 | uint64(i)
		}
	})
	return nodes
}

// span is the vertices of one chunk of the checks' per-vertex passes.
const span = 1 << 16

// findAtomic is Find for a forest that other goroutines link and halve at the same time.
func findAtomic(p []uint64, v uint32) uint32 {
	for {
		x := atomic.LoadUint64(&p[v])
		pv := parent(x)
		if pv == v {
			return v
		}
		ppv := parent(atomic.LoadUint64(&p[pv]))
		if ppv != pv {
			atomic.CompareAndSwapUint64(&p[v], x, x&^0xffffffff|uint64(ppv))
		}
		v = ppv
	}
}

// unionAtomic joins the sets of u and v under concurrent use and returns the root it
// left them under: it links the larger root under the smaller only while the larger is
// still a root, so parents only decrease and no cycle forms.
func unionAtomic(p []uint64, u, v uint32) uint32 {
	for {
		a, b := findAtomic(p, u), findAtomic(p, v)
		if a == b {
			return a
		}
		if a < b {
			a, b = b, a
		}
		x := atomic.LoadUint64(&p[a])
		if parent(x) == a && atomic.CompareAndSwapUint64(&p[a], x, x&^0xffffffff|uint64(b)) {
			return b
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

// countRoots counts the trees of the forest nodes and the vertices of the largest, on
// all cores. Consecutive vertices mostly share a root (the giant component's), so each
// worker adds a run of them to their root's size at once.
func countRoots(nodes []uint64) (comps, largest uint64) {
	workers := runtime.GOMAXPROCS(0)
	size := make([]uint32, len(nodes))
	parallel.For(workers, len(nodes), span, func(_, lo, hi int) {
		last, run := uint32(0), uint32(0)
		for v := lo; v < hi; v++ {
			r := findAtomic(nodes, uint32(v))
			if r != last && run > 0 {
				atomic.AddUint32(&size[last], run)
				run = 0
			}
			last, run = r, run+1
		}
		atomic.AddUint32(&size[last], run)
	})
	counts, tops := make([]uint64, workers), make([]uint64, workers)
	parallel.For(workers, len(size), span, func(w, lo, hi int) {
		for _, s := range size[lo:hi] {
			if s > 0 {
				counts[w]++
				tops[w] = max(tops[w], uint64(s))
			}
		}
	})
	for w := range workers {
		comps, largest = comps+counts[w], max(largest, tops[w])
	}
	return comps, largest
}

// countLabels counts distinct values, on all cores: with a bitmap over [0, n) for labels
// that are vertex ids (the usual case), each worker skipping the repeats of its last
// label, and with maps for the others.
func countLabels(labels []uint32) uint64 {
	n := uint64(len(labels))
	seen := make([]uint64, (n+63)/64)
	workers := runtime.GOMAXPROCS(0)
	other := make([]map[uint32]bool, workers)
	parallel.For(workers, len(labels), span, func(w, lo, hi int) {
		last := labels[lo] + 1 // not the first label
		for _, l := range labels[lo:hi] {
			if l == last {
				continue
			}
			last = l
			if uint64(l) < n {
				if word, bit := &seen[l>>6], uint64(1)<<(l&63); atomic.LoadUint64(word)&bit == 0 {
					atomic.OrUint64(word, bit)
				}
				continue
			}
			if other[w] == nil {
				other[w] = map[uint32]bool{}
			}
			other[w][l] = true
		}
	})
	var count uint64
	for _, x := range seen {
		count += uint64(bits.OnesCount64(x))
	}
	all := map[uint32]bool{}
	for _, m := range other {
		maps.Copy(all, m)
	}
	return count + uint64(len(all))
}
