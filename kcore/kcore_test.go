package kcore

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/internal/testseed"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

// refCores applies the definition to plain adjacency lists: for k = 1, 2, ... delete
// vertices of degree below k until none is left, and give the survivors core number at
// least k. A vertex's neighbours are its out- and in-lists (in is out when undirected).
func refCores(out, in [][]uint32, directed bool) []uint32 {
	n := len(out)
	nbrs := func(v int) []uint32 {
		if directed {
			return append(slices.Clone(out[v]), in[v]...)
		}
		return out[v]
	}
	core := make([]uint32, n)
	for k := uint32(1); ; k++ {
		deg := make([]int, n)
		gone := make([]bool, n)
		for v := range n {
			deg[v] = len(nbrs(v))
		}
		for changed := true; changed; {
			changed = false
			for v := range n {
				if !gone[v] && deg[v] < int(k) {
					gone[v], changed = true, true
					for _, u := range nbrs(v) {
						deg[u]--
					}
				}
			}
		}
		left := false
		for v := range n {
			if !gone[v] {
				core[v], left = k, true
			}
		}
		if !left {
			return core
		}
	}
}

// shardSizes are the ADJ section sizes a graph of n vertices is written with (large
// graphs skip the tiny shards, which would write thousands of files).
func shardSizes(n uint32) []int64 {
	if n > 1000 {
		return []int64{1 << 14, 0}
	}
	return []int64{1, 64, 0}
}

// checkAll runs k-core on the graph built with each shard size, on the compressed shards
// and the flat CSR, with 1 and 3 workers, with and without frequent hand-backs, and
// compares the core numbers with want (when not nil) and with validate.KCore.
func checkAll(t *testing.T, name string, n uint32, edges []testgraph.Edge, directed, loops bool, want []uint32) {
	t.Helper()
	build := testgraph.Build
	if loops {
		build = testgraph.BuildWithLoops
	}
	defer func(s int) { spillAt = s }(spillAt)
	for _, shardBytes := range shardSizes(n) {
		g := build(t, n, edges, directed, shardBytes)
		flat, err := store.NewFlat(g)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := validate.CoreNumbers(g)
		if err != nil {
			t.Fatal(err)
		}
		if want != nil && !slices.Equal(ref, want) {
			t.Fatalf("%s: Batagelj-Zaversnik disagrees with the oracle:\n got %v\nwant %v", name, ref, want)
		}
		for _, a := range []store.Adjacency{store.NewCompressed(g), flat} {
			for _, workers := range []int{1, 3} {
				for _, spill := range []int{1 << 14, 2} {
					spillAt = spill
					where := fmt.Sprintf("%s shardBytes=%d %T workers=%d spillAt=%d", name, shardBytes, a, workers, spill)
					r, err := Run(a, Options{Workers: workers})
					if err != nil {
						t.Fatalf("%s: %v", where, err)
					}
					kmax, err := validate.KCore(g, r.Core)
					if err != nil {
						t.Fatalf("%s: %v", where, err)
					}
					checkStats(t, where, r, kmax, g.NumVertices(), g.NumEdges(), directed)
				}
			}
		}
	}
}

// checkStats checks the summary: the max core, levels in increasing order whose removed
// vertices add up to n, each vertex's lists read once.
func checkStats(t *testing.T, where string, r *Result, kmax, n uint32, m uint64, directed bool) {
	t.Helper()
	if r.MaxCore != kmax {
		t.Fatalf("%s: max core %d, want %d", where, r.MaxCore, kmax)
	}
	var removed, edges uint64
	for i, l := range r.Levels {
		if i > 0 && l.K <= r.Levels[i-1].K {
			t.Fatalf("%s: level %d after level %d", where, l.K, r.Levels[i-1].K)
		}
		removed += l.Removed
		edges += l.Edges
	}
	if directed {
		m *= 2
	}
	if removed != uint64(n) || edges != m {
		t.Fatalf("%s: levels removed %d vertices and read %d edges, want %d and %d", where, removed, edges, n, m)
	}
}

func clique(lo, hi uint32) []testgraph.Edge {
	var e []testgraph.Edge
	for u := lo; u < hi; u++ {
		for v := u + 1; v < hi; v++ {
			e = append(e, testgraph.Edge{U: u, V: v})
		}
	}
	return e
}

func TestKCoreCases(t *testing.T) {
	for _, c := range testgraph.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			out, in := testgraph.Lists(c.N, c.Edges, c.Directed)
			want := refCores(out, in, c.Directed)
			checkAll(t, c.String(), c.N, c.Edges, c.Directed, false, want)
		})
	}
	// A 6-clique with a tail, a triangle and an isolated vertex: cores 5, 1, 2, 0.
	g := append(clique(0, 6), testgraph.Pairs(5, 6, 6, 7, 8, 9, 9, 10, 10, 8)...)
	want := []uint32{5, 5, 5, 5, 5, 5, 1, 1, 2, 2, 2, 0}
	t.Run("clique-tail-triangle", func(t *testing.T) { checkAll(t, "clique-tail-triangle", 12, g, false, false, want) })
	// Directed: each edge counts once toward both ends, so a directed triangle is a 2-core
	// and a reciprocal pair is a 2-core too.
	t.Run("directed-triangle-pair", func(t *testing.T) {
		checkAll(t, "directed-triangle-pair", 6, testgraph.Pairs(0, 1, 1, 2, 2, 0, 3, 4, 4, 3), true, false, []uint32{2, 2, 2, 2, 2, 0})
	})
	// A kept self-loop counts once toward its vertex's degree: on a path 0-1-2 with loops
	// at 1 and 2, vertex 0 has degree 1, vertex 1 degree 3, vertex 2 degree 2.
	t.Run("selfloops-kept", func(t *testing.T) {
		e := testgraph.Pairs(0, 1, 1, 2, 1, 1, 2, 2, 3, 3)
		out, in := testgraph.ListsWithLoops(4, e, false)
		want := refCores(out, in, false)
		if !slices.Equal(want, []uint32{1, 2, 2, 1}) {
			t.Fatalf("oracle gives %v", want)
		}
		checkAll(t, "selfloops-kept", 4, e, false, true, want)
		out, in = testgraph.ListsWithLoops(4, e, true)
		checkAll(t, "directed-selfloops-kept", 4, e, true, true, refCores(out, in, true))
	})
}

func TestKCoreLongPathAndStar(t *testing.T) {
	const n = 100000
	path := make([]testgraph.Edge, n-1)
	star := make([]testgraph.Edge, n-1)
	for i := range path {
		path[i] = testgraph.Edge{U: uint32(i), V: uint32(i + 1)}
		star[i] = testgraph.Edge{U: 0, V: uint32(i + 1)}
	}
	ones := make([]uint32, n)
	for i := range ones {
		ones[i] = 1
	}
	checkAll(t, "path-1e5", n, path, false, false, ones)
	checkAll(t, "star-1e5", n, star, false, false, ones)
	checkAll(t, "directed-path-1e5", n, path, true, false, ones)
}

func TestKCoreRandom(t *testing.T) {
	seed := testseed.Seed(t)
	r := rand.New(rand.NewPCG(seed, 4))
	for i := range 8 {
		n := uint32(1 + r.IntN(400))
		m := r.IntN(12 * int(n))
		directed := i%2 == 1
		e := testgraph.Random(r, n, m)
		out, in := testgraph.Lists(n, e, directed)
		want := refCores(out, in, directed)
		checkAll(t, fmt.Sprintf("random#%d(n=%d,m=%d,directed=%v)", i, n, m, directed), n, e, directed, false, want)
	}
	// larger, against Batagelj-Zaversnik only
	n := uint32(20000)
	e := testgraph.Random(r, n, 300000)
	checkAll(t, "random-large", n, e, false, false, nil)
}
