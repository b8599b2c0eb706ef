package sssp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

// hashFloat weighs the edge {u, v} by a float32 (its bits) from a hash of its ends, the
// same both ways: a fraction of scale, zero for one edge in 16, and with spread the
// magnitudes spread over 2^±spread.
func hashFloat(scale float32, spread int) func(u, v uint32, _ int) uint32 {
	return func(u, v uint32, _ int) uint32 {
		a, b := uint64(min(u, v)), uint64(max(u, v))
		h := (a*0x9e3779b97f4a7c15 ^ b*0xc2b2ae3d27d4eb4f) >> 11
		if h%16 == 0 {
			return 0
		}
		x := scale * float32(h%(1<<20)+1) / (1 << 20)
		if spread > 0 {
			x = float32(math.Ldexp(float64(x), int(h>>20)%(2*spread+1)-spread))
		}
		return math.Float32bits(x)
	}
}

// bellmanFordFloat is bellmanFord with float32 sums, the bits compared: the least fixed
// point of d(v) = min(d(v), d(u) + w), each sum rounded, which is what the search and
// Dijkstra compute.
func bellmanFordFloat(out [][]uint32, w func(u, v uint32, k int) uint32, src uint32) []uint32 {
	return bellmanFordSum(out, w, src, func(d uint64, w uint32) uint64 {
		return uint64(math.Float32bits(math.Float32frombits(uint32(d)) + math.Float32frombits(w)))
	})
}

// checkFloat is checkAll for float weights: the distances (float32 bits) against
// Bellman-Ford with float32 sums (small graphs) and validate's Dijkstra, on compressed
// and flat lists, 1 and 3 workers, the default and given bin widths; the parents form a
// shortest-path tree and are the same for every run.
func checkFloat(t *testing.T, name string, n uint32, edges []testgraph.Edge, directed bool, weight func(u, v uint32, k int) uint32, srcs []uint32, deltas []float32) {
	t.Helper()
	out, _ := testgraph.Lists(n, edges, directed)
	for _, shardBytes := range []int64{1 << 12, 0} {
		g := testgraph.Build(t, n, edges, directed, shardBytes)
		flat, err := store.NewFlat(g)
		if err != nil {
			t.Fatal(err)
		}
		w, err := NewMemFloatWeights(flat, weight)
		if err != nil {
			t.Fatal(err)
		}
		for _, src := range srcs {
			d, err := validate.Dijkstra(g, w, src)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]uint32, n)
			for v := range d {
				want[v] = uint32(d[v])
			}
			if n <= 3000 {
				if bf := bellmanFordFloat(out, weight, src); !slices.Equal(bf, want) {
					t.Fatalf("%s: Dijkstra disagrees with Bellman-Ford", name)
				}
			}
			var firstParent []uint32
			for _, a := range []store.Adjacency{store.NewCompressed(g), flat} {
				for _, workers := range []int{1, 3} {
					for _, delta := range deltas {
						where := fmt.Sprintf("%s shardBytes=%d src=%d %T workers=%d delta=%g", name, shardBytes, src, a, workers, delta)
						r, err := Run(a, w, src, Options{Workers: workers, FloatDelta: delta, Parents: true})
						if err != nil {
							t.Fatalf("%s: %v", where, err)
						}
						if !r.Float || r.Delta != 0 || r.FloatDelta <= 0 || (delta != 0 && r.FloatDelta != delta) {
							t.Fatalf("%s: Float %v, Delta %d, FloatDelta %g", where, r.Float, r.Delta, r.FloatDelta)
						}
						if !slices.Equal(r.Dist, want) {
							for v := range want {
								if r.Dist[v] != want[v] {
									t.Fatalf("%s: vertex %d at %g, want %g", where, v, math.Float32frombits(r.Dist[v]), math.Float32frombits(want[v]))
								}
							}
						}
						if err := validate.SSSP(g, w, src, r.Dist); err != nil {
							t.Fatalf("%s: %v", where, err)
						}
						if err := validate.SSSPParents(g, w, src, r.Dist, r.Parent); err != nil {
							t.Fatalf("%s: %v", where, err)
						}
						if firstParent == nil {
							firstParent = r.Parent
						} else if !slices.Equal(r.Parent, firstParent) {
							t.Fatalf("%s: parents differ from the first run's", where)
						}
					}
				}
			}
		}
	}
}

func TestSSSPFloatRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 11))
	for i := range 6 {
		n := uint32(1 + r.IntN(2000))
		m := r.IntN(8 * int(n))
		directed := i%2 == 1
		scale, spread := []float32{1, 1e-38, 1e30}[i%3], []int{0, 20}[i/3]
		srcs := []uint32{uint32(r.IntN(int(n))), uint32(r.IntN(int(n)))}
		name := fmt.Sprintf("random#%d(n=%d,m=%d,directed=%v,scale=%g,spread=%d)", i, n, m, directed, scale, spread)
		checkFloat(t, name, n, testgraph.Random(r, n, m), directed, hashFloat(scale, spread), srcs, []float32{0, scale / 64, scale, scale * 1e6})
	}
}

func TestSSSPFloatCases(t *testing.T) {
	for _, c := range testgraph.Cases() {
		if c.N == 0 {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			checkFloat(t, c.String(), c.N, c.Edges, c.Directed, hashFloat(3.5, 4), []uint32{0, c.N - 1}, []float32{0, 0.1})
		})
	}
	zero := func(_, _ uint32, _ int) uint32 { return 0 }
	checkFloat(t, "zero-weights", 6, testgraph.Pairs(0, 1, 1, 2, 2, 3, 4, 5), false, zero, []uint32{0, 5}, []float32{0, 1e-30})
}

// TestSSSPFloatLongPath: a path of 10^5 vertices, every sum rounded in path order.
func TestSSSPFloatLongPath(t *testing.T) {
	const n = 100000
	path := make([]testgraph.Edge, n-1)
	for i := range path {
		path[i] = testgraph.Edge{U: uint32(i), V: uint32(i + 1)}
	}
	checkFloat(t, "path-1e5", n, path, false, hashFloat(0.1, 0), []uint32{0, n / 3}, []float32{0, 1e-3})
}

// TestSSSPFloatWholeNumbers: float weights that are small whole numbers give the integer
// run's distances, as floats (every sum is exact below 2^24).
func TestSSSPFloatWholeNumbers(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	g := testgraph.Build(t, 1500, testgraph.Random(r, 1500, 6000), true, 0)
	a := store.NewCompressed(g)
	iw, err := NewMemWeights(a, hashWeight(255))
	if err != nil {
		t.Fatal(err)
	}
	fw, err := NewMemFloatWeights(a, func(u, v uint32, k int) uint32 { return math.Float32bits(float32(hashWeight(255)(u, v, k))) })
	if err != nil {
		t.Fatal(err)
	}
	ir, err := Run(a, iw, 7, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	fr, err := Run(a, fw, 7, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for v := range ir.Dist {
		want := uint32(Inf)
		if ir.Dist[v] != Inf {
			want = math.Float32bits(float32(ir.Dist[v]))
		}
		if fr.Dist[v] != want {
			t.Fatalf("vertex %d: float distance %g, integer %d", v, math.Float32frombits(fr.Dist[v]), ir.Dist[v])
		}
	}
	if want := float32(255 / (float64(a.NumEdges()) / 1500)); fr.FloatDelta != want {
		t.Errorf("default float delta %g, want max weight over mean degree", fr.FloatDelta)
	}
}

func TestSSSPFloatErrors(t *testing.T) {
	g := testgraph.Build(t, 3, testgraph.Pairs(0, 1, 1, 2), false, 0)
	a := store.NewCompressed(g)
	big, err := NewMemFloatWeights(a, func(_, _ uint32, _ int) uint32 { return math.Float32bits(2.5e38) })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(a, big, 0, Options{}); err == nil || !strings.Contains(err.Error(), "exceeds the largest float32") {
		t.Errorf("distance overflow: %v", err)
	}
	for _, bad := range []uint32{0x7F800000, 0x7FC00000, 0x80000000, math.Float32bits(-1)} {
		if _, err := NewMemFloatWeights(a, func(_, _ uint32, _ int) uint32 { return bad }); err == nil {
			t.Errorf("weight bits %#x accepted", bad)
		}
	}
	w, err := NewMemFloatWeights(a, hashFloat(1, 0))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []float32{float32(math.Inf(1)), -1} {
		if _, err := Run(a, w, 0, Options{FloatDelta: d}); err == nil {
			t.Errorf("bin width %g accepted", d)
		}
	}
}
