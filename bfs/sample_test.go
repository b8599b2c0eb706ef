package bfs

import (
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
