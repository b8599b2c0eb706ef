package ooc_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oocgraph/ooc"
	"github.com/oocgraph/ooc/ingest"
	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/internal/testseed"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

// ingestWeighted writes edges as "u v w" text and ingests it with --weights.
func ingestWeighted(t *testing.T, edges []parse.WEdge, directed bool, shardBytes int64) *store.Graph {
	t.Helper()
	var b strings.Builder
	for _, e := range edges {
		fmt.Fprintf(&b, "%d %d %d\n", e.U, e.V, e.W)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "w.txt")
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return ingestFile(t, in, ingest.Options{Directed: directed, ShardBytes: shardBytes, Weights: true})
}

func ingestFile(t *testing.T, in string, opt ingest.Options) *store.Graph {
	t.Helper()
	opt.Dest = filepath.Join(t.TempDir(), "g.ooc")
	if _, err := ingest.File(in, opt); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Verify(opt.Dest); err != nil {
		t.Fatal(err)
	}
	g, err := store.Open(opt.Dest)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

// ssspChecked runs SSSP on the CPU engine with the graph's weights and checks the
// distances and parents against Dijkstra (validate), returning the distances.
func ssspChecked(t *testing.T, g *store.Graph, src uint32, opt ooc.SSSPOptions) []uint32 {
	t.Helper()
	e, err := ooc.Open(g, "cpu", ooc.Options{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	opt.Parents = true
	r, err := e.SSSP(src, opt)
	if err != nil {
		t.Fatal(err)
	}
	w, err := ooc.EdgeWeights(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := validate.SSSP(g, w, src, r.Dist); err != nil {
		t.Fatal(err)
	}
	if err := validate.SSSPParents(g, w, src, r.Dist, r.Parent); err != nil {
		t.Fatal(err)
	}
	return r.Dist
}

// dijkstraPlain computes distances over the input edges themselves (the smallest weight
// of each repeated pair wins by itself), independent of the store.
func dijkstraPlain(n uint32, edges []parse.WEdge, directed bool, src uint32) []uint32 {
	dist := make([]uint64, n)
	for i := range dist {
		dist[i] = ooc.Infinity
	}
	dist[src] = 0
	done := make([]bool, n)
	for {
		u, best := -1, uint64(ooc.Infinity)
		for v := range dist { // O(n^2): the graphs here are small
			if !done[v] && dist[v] < best {
				u, best = v, dist[v]
			}
		}
		if u < 0 {
			break
		}
		done[u] = true
		for _, e := range edges {
			a, b := uint32(e.U), uint32(e.V)
			for range 2 {
				if int(a) == u && best+uint64(e.W) < dist[b] {
					dist[b] = best + uint64(e.W)
				}
				if directed {
					break
				}
				a, b = b, a
			}
		}
	}
	r := make([]uint32, n)
	for v, d := range dist {
		r[v] = uint32(d)
	}
	return r
}

func TestWeightedSSSPRandom(t *testing.T) {
	seed := testseed.Seed(t)
	r := rand.New(rand.NewPCG(seed, 20))
	for i := range 4 {
		n := uint32(50 + r.IntN(300))
		var edges []parse.WEdge
		for range r.IntN(6 * int(n)) {
			u, v := r.Uint64N(uint64(n)), r.Uint64N(uint64(n))
			edges = append(edges, parse.WEdge{U: u, V: v, W: r.Uint32N([]uint32{2, 256, 1 << 20}[i%3])})
			if r.IntN(8) == 0 { // a repeat with another weight
				edges = append(edges, parse.WEdge{U: u, V: v, W: r.Uint32N(300)})
			}
		}
		edges = append(edges, parse.WEdge{U: uint64(n - 1), V: uint64(n - 1), W: 1}) // fixes n
		directed := i%2 == 1
		g := ingestWeighted(t, edges, directed, []int64{0, 4096}[i%2])
		for _, src := range []uint32{0, uint32(r.IntN(int(n)))} {
			got := ssspChecked(t, g, src, ooc.SSSPOptions{})
			if want := dijkstraPlain(n, edges, directed, src); !slices.Equal(got, want) {
				t.Fatalf("seed %d graph %d src %d: distances differ from Dijkstra over the input edges", seed, i, src)
			}
		}
	}
}

// TestWeightedSSSPDIMACS: of repeated arcs the lightest counts.
func TestWeightedSSSPDIMACS(t *testing.T) {
	in := filepath.Join(t.TempDir(), "road.gr")
	os.WriteFile(in, []byte("p sp 4 6\na 1 2 70\na 1 2 3\na 2 3 5\na 2 3 50\na 1 3 9\na 3 4 1\n"), 0o644)
	g := ingestFile(t, in, ingest.Options{Directed: true, Weights: true})
	if got := ssspChecked(t, g, 0, ooc.SSSPOptions{}); !slices.Equal(got, []uint32{0, 3, 8, 9}) {
		t.Fatalf("distances %v, want [0 3 8 9]", got)
	}
}

// TestWeightedSSSPUnitIsBFS: a graph whose stored weights are all 1 gives the BFS
// levels, as --unit-weights does on the same lists.
func TestWeightedSSSPUnitIsBFS(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	var edges []parse.WEdge
	for range 3000 {
		edges = append(edges, parse.WEdge{U: r.Uint64N(1000), V: r.Uint64N(1000), W: 1})
	}
	g := ingestWeighted(t, edges, false, 0)
	stored := ssspChecked(t, g, 0, ooc.SSSPOptions{})
	unit := ssspChecked(t, g, 0, ooc.SSSPOptions{UnitWeights: true})
	e, err := ooc.Open(g, "cpu", ooc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	b, err := e.BFS(0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(stored, unit) || !slices.Equal(stored, b.Level) {
		t.Fatal("stored unit weights, --unit-weights and BFS levels disagree")
	}
}

func TestSSSPNeedsWeights(t *testing.T) {
	g := testgraph.Build(t, 3, []testgraph.Edge{{U: 0, V: 1}}, false, 0)
	e, err := ooc.Open(g, "cpu", ooc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.SSSP(0, ooc.SSSPOptions{}); !errors.Is(err, ooc.ErrNoWeights) || !strings.Contains(err.Error(), "--weights") {
		t.Fatalf("sssp on an unweighted graph: %v, want ErrNoWeights naming --weights", err)
	}
}

// TestWeightedSSSPRealGraph weighs the edges of a real road network by a hash of their
// ends and checks the distances from two sources against Dijkstra.
func TestWeightedSSSPRealGraph(t *testing.T) {
	path := testgraph.Real(t, "luxembourg_osm.mtx.gz")
	var edges []parse.WEdge
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, err = parse.Parse(f, parse.ParseOptions{Name: path, Workers: 1}, func(b []parse.Edge) error {
		for _, e := range b {
			a, c := min(e.U, e.V), max(e.U, e.V)
			edges = append(edges, parse.WEdge{U: e.U, V: e.V, W: uint32(1 + (a*2654435761^c*40503)%1000)})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	g := ingestWeighted(t, edges, false, 1<<17)
	if g.NumVertices() != 114599 || len(g.Out().Shards) < 2 {
		t.Fatalf("%d vertices in %d shards", g.NumVertices(), len(g.Out().Shards))
	}
	for _, src := range []uint32{0, 70000} {
		ssspChecked(t, g, src, ooc.SSSPOptions{})
	}
}

// TestSSSPFloatEngines: on a graph ingested with float32 weights (a real MatrixMarket
// file of fractional values) the CPU engine's distances are float32 and pass Dijkstra's
// check, with FloatDelta given or not (the GPU engine's are held to them by
// TestSSSPGPUFloat).
func TestSSSPFloatEngines(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	const n = 400
	var b strings.Builder
	es := testgraph.Random(r, n, 2000)
	fmt.Fprintf(&b, "%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n", n, n, len(es))
	for _, e := range es {
		fmt.Fprintf(&b, "%d %d %g\n", e.U+1, e.V+1, r.Float64()*10)
	}
	in := filepath.Join(t.TempDir(), "f.mtx")
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	g := ingestFile(t, in, ingest.Options{Directed: true, Weights: true})
	if !g.M.FloatWeights() {
		t.Fatalf("weight_type %q, want float32", g.M.WeightType)
	}
	for _, fd := range []float32{0, 0.25} {
		d := ssspChecked(t, g, 0, ooc.SSSPOptions{FloatDelta: fd})
		var fractional bool
		for _, x := range d {
			f := math.Float32frombits(x)
			fractional = fractional || (x != ooc.Infinity && f != float32(math.Trunc(float64(f))))
		}
		if !fractional {
			t.Fatalf("FloatDelta %g: no fractional distance: not float32 distances?", fd)
		}
	}
}
