package sssp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oocgraph/ooc/bfs"
	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/internal/testseed"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

// hashWeight weighs the edge {u, v} by a hash of its ends in [1, maxW], the same both
// ways, so an undirected graph has symmetric weights.
func hashWeight(maxW uint32) func(u, v uint32, _ int) uint32 {
	return func(u, v uint32, _ int) uint32 {
		a, b := uint64(min(u, v)), uint64(max(u, v))
		h := (a*0x9e3779b97f4a7c15 ^ b*0xc2b2ae3d27d4eb4f) >> 17
		return 1 + uint32(h%uint64(maxW))
	}
}

// bellmanFord relaxes every edge of plain lists until nothing changes: the oracle.
func bellmanFord(out [][]uint32, w func(u, v uint32, k int) uint32, src uint32) []uint32 {
	return bellmanFordSum(out, w, src, func(d uint64, w uint32) uint64 { return d + uint64(w) })
}

// bellmanFordSum is bellmanFord with the sum of a distance and a weight given.
func bellmanFordSum(out [][]uint32, w func(u, v uint32, k int) uint32, src uint32, add func(d uint64, w uint32) uint64) []uint32 {
	dist := make([]uint64, len(out))
	for v := range dist {
		dist[v] = Inf
	}
	dist[src] = 0
	for changed := true; changed; {
		changed = false
		for u, l := range out {
			if dist[u] == Inf {
				continue
			}
			for k, v := range l {
				if d := add(dist[u], w(uint32(u), v, k)); d < dist[v] {
					dist[v], changed = d, true
				}
			}
		}
	}
	r := make([]uint32, len(dist))
	for v, d := range dist {
		r[v] = uint32(d)
	}
	return r
}

// checkAll runs SSSP from each source on the graph built with each shard size, on the
// compressed shards and the flat CSR, with 1 and 3 workers and several deltas, and
// compares the distances with want (Bellman-Ford on plain lists) and validate.SSSP.
func checkAll(t *testing.T, name string, n uint32, edges []testgraph.Edge, directed, loops bool, weight func(u, v uint32, k int) uint32, srcs []uint32) {
	t.Helper()
	lists, build := testgraph.Lists, testgraph.Build
	if loops {
		lists, build = testgraph.ListsWithLoops, testgraph.BuildWithLoops
	}
	out, _ := lists(n, edges, directed)
	sizes := []int64{1, 64, 0}
	if n > 1000 {
		sizes = []int64{1 << 14, 0}
	}
	for _, shardBytes := range sizes {
		g := build(t, n, edges, directed, shardBytes)
		flat, err := store.NewFlat(g)
		if err != nil {
			t.Fatal(err)
		}
		w, err := NewMemWeights(flat, weight)
		if err != nil {
			t.Fatal(err)
		}
		for _, src := range srcs {
			var want []uint32
			if n <= 3000 {
				want = bellmanFord(out, weight, src)
				if err := validate.SSSP(g, w, src, want); err != nil {
					t.Fatalf("%s: Dijkstra disagrees with Bellman-Ford: %v", name, err)
				}
			} else { // Bellman-Ford takes a pass per edge of a long path
				d, err := validate.Dijkstra(g, w, src)
				if err != nil {
					t.Fatal(err)
				}
				want = make([]uint32, n)
				for v := range d {
					want[v] = uint32(d[v])
				}
			}
			var firstParent []uint32
			for _, a := range []store.Adjacency{store.NewCompressed(g), flat} {
				for _, workers := range []int{1, 3} {
					for _, delta := range []uint32{0, 1, 7, 1 << 30} {
						where := fmt.Sprintf("%s shardBytes=%d src=%d %T workers=%d delta=%d", name, shardBytes, src, a, workers, delta)
						r, err := Run(a, w, src, Options{Workers: workers, Delta: delta})
						if err != nil {
							t.Fatalf("%s: %v", where, err)
						}
						if !slices.Equal(r.Dist, want) {
							t.Fatalf("%s: distances\n got %v\nwant %v", where, r.Dist, want)
						}
						parent, err := Parents(a, w, r, workers)
						if err != nil {
							t.Fatalf("%s: parents: %v", where, err)
						}
						if err := validate.SSSPParents(g, w, src, r.Dist, parent); err != nil {
							t.Fatalf("%s: %v", where, err)
						}
						if firstParent == nil {
							firstParent = parent
						} else if !slices.Equal(parent, firstParent) {
							t.Fatalf("%s: parents differ from the first run's", where)
						}
						var reached uint64
						for _, d := range want {
							if d != Inf {
								reached++
							}
						}
						if r.Reached != reached || r.Source != src || len(r.Steps) == 0 || (delta != 0 && r.Delta != delta) {
							t.Fatalf("%s: reached %d (want %d), source %d, %d steps, delta %d", where, r.Reached, reached, r.Source, len(r.Steps), r.Delta)
						}
					}
				}
			}
		}
	}
}

func TestSSSPCases(t *testing.T) {
	for _, c := range testgraph.Cases() {
		if c.N == 0 {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			checkAll(t, c.String(), c.N, c.Edges, c.Directed, false, hashWeight(100), []uint32{0, c.N - 1, c.N / 2})
		})
	}
	e := testgraph.Pairs(0, 0, 0, 1, 1, 1, 1, 2, 3, 3)
	t.Run("selfloops-kept", func(t *testing.T) { checkAll(t, "selfloops-kept", 4, e, false, true, hashWeight(9), []uint32{0, 3}) })
	t.Run("directed-selfloops-kept", func(t *testing.T) {
		checkAll(t, "directed-selfloops-kept", 4, e, true, true, hashWeight(9), []uint32{0, 2})
	})
}

// TestSSSPShortcut: the direct edge 0 -> 2 weighs more than the path through 1, and the
// heavy edge is found first in a wide bin.
func TestSSSPShortcut(t *testing.T) {
	w := func(u, v uint32, _ int) uint32 {
		if min(u, v) == 0 && max(u, v) == 2 {
			return 10
		}
		return 3
	}
	checkAll(t, "shortcut", 4, testgraph.Pairs(0, 1, 1, 2, 0, 2, 2, 3), false, false, w, []uint32{0})
}

func TestSSSPLongPath(t *testing.T) {
	const n = 100000
	path := make([]testgraph.Edge, n-1)
	for i := range path {
		path[i] = testgraph.Edge{U: uint32(i), V: uint32(i + 1)}
	}
	checkAll(t, "path-1e5", n, path, false, false, hashWeight(255), []uint32{0, n / 3})
}

func TestSSSPRandom(t *testing.T) {
	seed := testseed.Seed(t)
	r := rand.New(rand.NewPCG(seed, 5))
	for i := range 6 {
		n := uint32(1 + r.IntN(2000))
		m := r.IntN(8 * int(n))
		directed := i%2 == 1
		maxW := []uint32{1, 255, 1 << 20}[i%3]
		srcs := []uint32{uint32(r.IntN(int(n))), uint32(r.IntN(int(n)))}
		checkAll(t, fmt.Sprintf("random#%d(n=%d,m=%d,directed=%v,maxW=%d)", i, n, m, directed, maxW), n, testgraph.Random(r, n, m), directed, false, hashWeight(maxW), srcs)
	}
}

// TestUnitWeightsAreBFS: with every weight 1 the distances are the BFS levels.
func TestUnitWeightsAreBFS(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	for _, directed := range []bool{false, true} {
		g := testgraph.Build(t, 3000, testgraph.Random(r, 3000, 9000), directed, 0)
		a := store.NewCompressed(g)
		w := NewUnitWeights(a)
		for _, src := range []uint32{0, 17, 2999} {
			b, err := bfs.Run(a, src, bfs.Options{})
			if err != nil {
				t.Fatal(err)
			}
			s, err := Run(a, w, src, Options{Workers: 3})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(s.Dist, b.Level) || s.Reached != b.Reached {
				t.Fatalf("directed=%v src=%d: unit-weight distances differ from BFS levels", directed, src)
			}
		}
	}
}

// TestSSSPParentsChecked: the parent check rejects a parent that is a neighbour but
// not on a shortest path, and one that is no neighbour.
func TestSSSPParentsChecked(t *testing.T) {
	w := func(u, v uint32, _ int) uint32 {
		if min(u, v) == 0 && max(u, v) == 2 {
			return 10
		}
		return 3
	}
	g := testgraph.Build(t, 4, testgraph.Pairs(0, 1, 1, 2, 0, 2, 2, 3), false, 0)
	a := store.NewCompressed(g)
	mw, err := NewMemWeights(a, w)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(a, mw, 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parents(a, mw, r, -1); err == nil || !strings.Contains(err.Error(), "workers -1") {
		t.Errorf("Parents with -1 workers: %v, want a refusal naming them", err)
	}
	parent, err := Parents(a, mw, r, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(parent, []uint32{0, 0, 1, 2}) {
		t.Fatalf("parents %v, want [0 0 1 2]", parent)
	}
	for _, bad := range [][]uint32{{0, 0, 0, 2}, {0, 0, 1, 1}, {0, 0, 1, Inf}} {
		if err := validate.SSSPParents(g, mw, 0, r.Dist, bad); !errors.Is(err, validate.ErrInvalid) {
			t.Errorf("parents %v: %v, want ErrInvalid", bad, err)
		}
	}
}

func TestSSSPErrors(t *testing.T) {
	g := testgraph.Build(t, 3, testgraph.Pairs(0, 1, 1, 2), false, 0)
	a := store.NewCompressed(g)
	big, err := NewMemWeights(a, func(_, _ uint32, _ int) uint32 { return 3 << 30 })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(a, big, 0, Options{}); err == nil || !strings.Contains(err.Error(), "exceeds") {
		t.Errorf("distance overflow: %v", err)
	}
	if _, err := Run(a, big, 3, Options{}); !errors.Is(err, store.ErrNoVertex) {
		t.Errorf("source 3 of 3: %v", err)
	}
	other := testgraph.Build(t, 3, testgraph.Pairs(0, 1, 0, 2), false, 0)
	w, err := NewMemWeights(store.NewCompressed(other), hashWeight(5))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(a, w, 1, Options{}); err == nil || !strings.Contains(err.Error(), "weights for") {
		t.Errorf("misaligned weights: %v", err)
	}
}

// TestSSSPOverflowNotShortest: a path too long to represent is an error only when it is
// the shortest. A path 0-1-2 of two weights near the limit beside an edge 0-2 of weight
// 1, and an edge 0-1 of the largest representable distance (relaxed back to 0 from 1),
// were refused ("the distance to vertex 0 exceeds ...") though every distance fits.
func TestSSSPOverflowNotShortest(t *testing.T) {
	g := testgraph.Build(t, 3, testgraph.Pairs(0, 1, 1, 2, 0, 2), false, 0)
	a := store.NewCompressed(g)
	for _, float := range []bool{false, true} {
		big, near := uint32(Inf-1), uint32(3<<30)
		if float {
			big, near = math.Float32bits(math.MaxFloat32), math.Float32bits(3e38)
		}
		one := uint32(1)
		if float {
			one = math.Float32bits(1)
		}
		weigh := func(u, v uint32, _ int) uint32 {
			if u+v == 2 { // the edge 0-2
				return one
			}
			return near
		}
		newWeights := NewMemWeights
		if float {
			newWeights = NewMemFloatWeights
		}
		w, err := newWeights(a, weigh)
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 2} {
			r, err := Run(a, w, 0, Options{Workers: workers})
			if err != nil || !slices.Equal(r.Dist, []uint32{0, near, one}) {
				t.Errorf("float %v, %d workers: %v, %v; want distances 0, %#x, %#x", float, workers, r, err, near, one)
			}
		}
		pair := testgraph.Build(t, 2, testgraph.Pairs(0, 1), false, 0)
		pa := store.NewCompressed(pair)
		pw, err := newWeights(pa, func(_, _ uint32, _ int) uint32 { return big })
		if err != nil {
			t.Fatal(err)
		}
		if r, err := Run(pa, pw, 0, Options{}); err != nil || r.Dist[1] != big {
			t.Errorf("float %v: one edge of the largest distance: %v, %v", float, r, err)
		}
	}
}

// TestSSSPParentsHub: the parent check of a star's leaves, each the hub's child, holds the
// hub's list decoded (walking it to each leaf took minutes: quadratic), and still
// refuses a leaf whose parent is another leaf or whose distance is not the hub's plus
// the weight.
func TestSSSPParentsHub(t *testing.T) {
	const leaves = 200_000
	var star []testgraph.Edge
	for v := uint32(1); v <= leaves; v++ {
		star = append(star, testgraph.Edge{U: 0, V: v})
	}
	for _, directed := range []bool{false, true} {
		g := testgraph.Build(t, leaves+1, star, directed, 0)
		a := store.NewCompressed(g)
		mw, err := NewMemWeights(a, hashWeight(100))
		if err != nil {
			t.Fatal(err)
		}
		r, err := Run(a, mw, 0, Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		parent, err := Parents(a, mw, r, 2)
		if err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		if err := validate.SSSPParents(g, mw, 0, r.Dist, parent); err != nil {
			t.Fatal(err)
		}
		if s := time.Since(t0); s > 20*time.Second {
			t.Errorf("directed %v: the check took %v", directed, s)
		}
		bad := slices.Clone(parent)
		bad[leaves/2] = 7
		if err := validate.SSSPParents(g, mw, 0, r.Dist, bad); !errors.Is(err, validate.ErrInvalid) {
			t.Errorf("directed %v: a leaf's parent another leaf: %v, want ErrInvalid", directed, err)
		}
		dist := slices.Clone(r.Dist)
		dist[leaves-3]++
		if err := validate.SSSPParents(g, mw, 0, dist, parent); !errors.Is(err, validate.ErrInvalid) {
			t.Errorf("directed %v: a leaf's distance off by one: %v, want ErrInvalid", directed, err)
		}
	}
}

// TestSSSPBadFloatDelta: a NaN, infinite or negative FloatDelta was dropped without a
// word on integer weights (and named only "bin width" on float ones); ooc sssp refuses
// such a --delta on any weights, and so does Run, naming the field.
func TestSSSPBadFloatDelta(t *testing.T) {
	g := testgraph.Build(t, 3, testgraph.Pairs(0, 1, 1, 2), false, 0)
	a := store.NewCompressed(g)
	ints, err := NewMemWeights(a, hashWeight(5))
	if err != nil {
		t.Fatal(err)
	}
	floats, err := NewMemFloatWeights(a, hashFloat(1, 0))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []Weights{ints, floats} {
		for _, d := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, -1e-40} {
			if _, err := Run(a, w, 0, Options{FloatDelta: float32(d)}); err == nil || !strings.Contains(err.Error(), "Options.FloatDelta") {
				t.Errorf("float weights %v, FloatDelta %g: %v", w.Float(), d, err)
			}
		}
		if _, err := Run(a, w, 0, Options{FloatDelta: 1e-40}); err != nil {
			t.Errorf("float weights %v, FloatDelta 1e-40: %v", w.Float(), err)
		}
	}
}
