package bfs

import (
	"math/rand/v2"
	"testing"

	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
)

// TestSampleBottomUp checks the bottom-up estimate on a cycle, where every vertex has
// two neighbours: each unvisited vertex checks one neighbour against a full frontier
// and two against an empty one, so the estimate is exact; with no unvisited vertex to
// draw, it counts the mean degree.
func TestSampleBottomUp(t *testing.T) {
	const n = 1000
	var edges []testgraph.Edge
	for v := uint32(0); v < n; v++ {
		edges = append(edges, testgraph.Edge{U: v, V: (v + 1) % n})
	}
	g := testgraph.Build(t, n, edges, false, 0)
	flat, err := store.NewFlat(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []store.Adjacency{store.NewCompressed(g), flat} {
		b := newBFS(a, 1, true)
		b.init()
		for v := uint32(0); v < n; v += 2 { // half visited
			b.parent[v] = v
		}
		b.front = make([]uint64, (n+63)/64)
		rng := uint64(12345)
		if got := b.sampleBottomUp(&rng, n/2); got != n {
			t.Errorf("%T, empty frontier: estimate %v, want %d", a, got, n)
		}
		for i := range b.front {
			b.front[i] = ^uint64(0)
		}
		if got := b.sampleBottomUp(&rng, n/2); got != n/2 {
			t.Errorf("%T, full frontier: estimate %v, want %d", a, got, n/2)
		}
		for v := range b.parent {
			b.parent[v] = uint32(v)
		}
		if got := b.sampleBottomUp(&rng, 5); got != 10 {
			t.Errorf("%T, none to draw: estimate %v, want 10", a, got)
		}
		if got := b.sampleBottomUp(&rng, 0); got != 0 {
			t.Errorf("%T, none unvisited: estimate %v, want 0", a, got)
		}
	}
}

// TestScanCostVisited holds scanCost by the first visited neighbour to scanCost by the
// frontier's bitmap before every level of searches on random graphs (directed and
// undirected, with hubs whose lists run to several blocks): an unvisited vertex's
// visited in-neighbours are all in the frontier, so the counts agree.
func TestScanCostVisited(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	for _, directed := range []bool{false, true} {
		const n = 3000
		edges := testgraph.Random(r, n, 6000)
		for h := range uint32(4) { // hubs: lists of many blocks, near and far gaps
			for range 400 {
				edges = append(edges, testgraph.Edge{U: h * 700, V: uint32(r.IntN(n))})
				edges = append(edges, testgraph.Edge{U: uint32(r.IntN(n)), V: h*700 + 1})
			}
			for k := range uint32(300) {
				edges = append(edges, testgraph.Edge{U: h*700 + 2, V: h*700 + 3 + k})
			}
		}
		g := testgraph.Build(t, n, edges, directed, 0)
		out, _ := testgraph.Lists(n, edges, directed)
		flat, err := store.NewFlat(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, src := range []uint32{0, 1, 2, 1402, 2999} {
			level := refLevels(out, src)
			for _, a := range []store.Adjacency{store.NewCompressed(g), flat} {
				b := newBFS(a, 1, false)
				b.init()
				b.front = make([]uint64, (n+63)/64)
				for depth, last := uint32(0), deepest(level); depth <= last; depth++ {
					clear(b.front)
					for v := range uint32(n) {
						if l := level[v]; l <= depth {
							b.parent[v] = v
							if l == depth {
								b.front[v>>6] |= 1 << (v & 63)
							}
						}
					}
					for v := range uint32(n) {
						if b.parent[v] != unreached {
							continue
						}
						if got, want := b.scanCost(v, true), b.scanCost(v, false); got != want {
							t.Fatalf("%T directed %v source %d depth %d vertex %d: %d by visited, %d by the frontier", a, directed, src, depth, v, got, want)
						}
					}
				}
			}
		}
	}
}

// TestDearer holds the draws that stop where they show a dearer bottom-up level
// (dearer) to the rule that goes bottom-up (run) on the same draws taken whole, before
// every level of searches on a random graph with hubs and isolated vertices: where
// they stop, that rule stays top-down for the frontier's edges weighed; and they stop
// short of the whole draws for some of the edges (else the test shows nothing).
func TestDearer(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 11))
	// above 64*buFirst unvisited vertices, so that the first draws decide; the last
	// 500 vertices isolated
	const n = 6000
	edges := testgraph.Random(r, n-500, 12000)
	for h := range uint32(4) {
		for range 400 {
			edges = append(edges, testgraph.Edge{U: h * 700, V: uint32(r.IntN(n - 500))})
		}
	}
	g := testgraph.Build(t, n, edges, false, 0)
	out, _ := testgraph.Lists(n, edges, false)
	short := 0
	for _, src := range []uint32{0, 1, 1402, 3001} {
		level := refLevels(out, src)
		b := newBFS(store.NewCompressed(g), 1, false)
		b.init()
		for depth, last := uint32(0), deepest(level); depth < last; depth++ {
			unvisited := uint64(0)
			for v := range uint32(n) {
				if l := level[v]; l <= depth {
					b.parent[v] = v
				} else {
					unvisited++
				}
			}
			k := buSampleSize(unvisited)
			whole := sampleAt(src, depth, false)
			whole.visited = true
			b.drawBottomUp(&whole, unvisited, min(buFirst, k))
			first, firstFound := b.buCost(&whole, unvisited), whole.found
			b.drawBottomUp(&whole, unvisited, k)
			all := b.buCost(&whole, unvisited)
			// run's rule on the whole draws and the frontier's edges e
			bottomUp := func(e float64) bool {
				if k > buFirst && firstFound == buFirst && (e > buMargin*first || buMargin*e < first) {
					return e > first
				}
				return e > all
			}
			for range 50 {
				e := int64(r.Float64() * 1.5 * min(first, all))
				s := sampleAt(src, depth, false)
				s.visited, s.most, s.edges = true, k, e
				b.drawBottomUp(&s, unvisited, min(buFirst, k))
				if !b.dearer(&s, unvisited) {
					b.drawBottomUp(&s, unvisited, k)
					if !b.dearer(&s, unvisited) {
						continue
					}
				}
				if bottomUp(float64(e)) {
					t.Fatalf("source %d depth %d: draws stopped at %d of %d found as dearer than %d edges, but the rule goes bottom-up (estimates %v by the first draws, %v by all)", src, depth, s.found, whole.found, e, first, all)
				}
				if s.tries < whole.tries {
					short++
				}
			}
		}
	}
	if short == 0 {
		t.Fatal("no draws stopped short")
	}
}

// deepest is the highest level that refLevels gave a vertex (Unreached aside).
func deepest(level []uint32) uint32 {
	d := uint32(0)
	for _, l := range level {
		if l != Unreached {
			d = max(d, l)
		}
	}
	return d
}
