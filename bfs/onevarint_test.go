package bfs

import (
	"math/rand"
	"slices"
	"testing"

	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

// TestOneVarintClaims searches, top-down only and on one goroutine, a directed graph in
// one shard whose levels 1 to 3 are frontiers of a thousand lists of one neighbour
// each, most a varint of several bytes, the neighbour new to the search or claimed
// already (by a list before it, or at an earlier level): the batch after one of
// serialBatch/4 such lists decodes them first (oneVarints) and claims from what it
// decoded. The levels must be the oracle's, with and without claimRoads's branch-free
// claims (claimAllMax), and the parents a valid tree.
func TestOneVarintClaims(t *testing.T) {
	defer func(p, c uint32) { prefetchParentsMin, claimAllMax = p, c }(prefetchParentsMin, claimAllMax)
	prefetchParentsMin = 0
	r := rand.New(rand.NewSource(3))
	const k, n = 1000, 6000
	var edges []testgraph.Edge
	for i := uint32(1); i <= k; i++ {
		edges = append(edges, testgraph.Edge{U: 0, V: i}) // level 1: 1..k
	}
	// levels 2 and 3: each vertex of the level before points at one of the next range,
	// a quarter of them at the same one as the vertex before, an eighth back at a
	// vertex of level 1
	for lo := uint32(1); lo < 1+2*k; lo += k {
		next := lo + k + uint32(r.Intn(k))
		for u := lo; u < lo+k; u++ {
			v := next
			switch r.Intn(8) {
			case 0:
				v = 1 + uint32(r.Intn(k))
			case 1, 2:
			default:
				next = lo + k + uint32(r.Intn(int(n-lo-k)))
				v = next
			}
			edges = append(edges, testgraph.Edge{U: u, V: v})
		}
	}
	g := testgraph.Build(t, n, edges, true, 0)
	out, _ := testgraph.Lists(n, edges, true)
	want := refLevels(out, 0)
	for _, c := range []uint32{0, ^uint32(0)} {
		claimAllMax = c
		res, err := Run(store.NewCompressed(g), 0, Options{Alpha: 1, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Level, want) {
			t.Fatalf("claimAllMax %d: levels\n got %v\nwant %v", c, res.Level, want)
		}
		if err := validate.BFS(g, 0, res.Parent, res.Level); err != nil {
			t.Fatalf("claimAllMax %d: %v", c, err)
		}
	}
}
