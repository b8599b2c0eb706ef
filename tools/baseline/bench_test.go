package baseline

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/oocgraph/ooc/afforest"
	"github.com/oocgraph/ooc/bfs"
	"github.com/oocgraph/ooc/gen"
	"github.com/oocgraph/ooc/ingest"
	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/parallel"
	"github.com/oocgraph/ooc/kcore"
	"github.com/oocgraph/ooc/pagerank"
	"github.com/oocgraph/ooc/sssp"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

// The benchmark graph: a Graph500 Kronecker graph, generated and ingested once per run.
//
//	go test -run XXX -bench . ./tools/baseline -args -kron.scale 22
//	go test -run XXX -bench . ./tools/baseline -args -graph friendster.ooc
var (
	kronScale = flag.Int("kron.scale", 14, "scale of the benchmark Kronecker graph")
	kronEF    = flag.Int("kron.ef", 16, "edge factor of the benchmark Kronecker graph")
	graphDir  = flag.String("graph", "", "benchmark this graph directory; when it does not exist, generate the Kronecker graph into it and keep it")
)

var (
	tmpDir    string
	kronOnce  sync.Once
	kronGraph *store.Graph
	kronFlat  *store.Flat
	kronErr   error
)

func TestMain(m *testing.M) {
	flag.Parse()
	var err error
	if tmpDir, err = os.MkdirTemp("", "ooc-baseline-"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	if kronGraph != nil {
		kronGraph.Close()
	}
	os.RemoveAll(tmpDir)
	os.Exit(code)
}

// kron returns the benchmark graph (checked) and its flat copy.
func kron(tb testing.TB) (*store.Graph, *store.Flat) {
	kronOnce.Do(func() {
		spec := gen.Spec{Kind: "kron", Scale: *kronScale, EdgeFactor: *kronEF, Seed: 1}
		dir := *graphDir
		if dir == "" {
			dir = filepath.Join(tmpDir, spec.String()+".ooc")
		}
		if _, err := os.Stat(dir); err != nil {
			_, kronErr = ingest.FromEdges(ingest.Options{Dest: dir}, store.InputInfo{Name: spec.String(), Bytes: -1, Format: "gen"},
				parse.Header{Vertices: spec.Vertices()}, func(emit func([]parse.Edge) error) error {
					return gen.Generate(spec, 0, func(b []gen.Edge) error {
						e := make([]parse.Edge, len(b))
						for i, x := range b {
							e[i] = parse.Edge{U: x.U, V: x.V}
						}
						return emit(e)
					})
				})
			if kronErr != nil {
				return
			}
		}
		if kronGraph, kronErr = store.Open(dir); kronErr != nil {
			return
		}
		if kronErr = kronGraph.Check(); kronErr != nil {
			return
		}
		kronFlat, kronErr = store.NewFlat(kronGraph)
	})
	if kronErr != nil {
		tb.Fatal(kronErr)
	}
	return kronGraph, kronFlat
}

// sources picks k distinct vertices with edges, seeded, as Graph500 does.
func sources(g *store.Graph, k int) []uint32 {
	r := rand.New(rand.NewPCG(1, 2))
	var s []uint32
	for tries := 0; len(s) < k && tries < 1000*k; tries++ {
		v := r.Uint32N(g.NumVertices())
		if g.Out().ShardOf(v).Degree(v) > 0 && !slices.Contains(s, v) {
			s = append(s, v)
		}
	}
	return s
}

// TestBaselinesAgree checks that the baselines answer like the engines on the
// benchmark graph, so the benchmarks compare equal work.
func TestBaselinesAgree(t *testing.T) {
	g, f := kron(t)
	c := store.NewCompressed(g)
	for _, src := range sources(g, 3) {
		parent, level := BFS(f, src)
		if err := validate.BFS(g, src, parent, level); err != nil {
			t.Fatal(err)
		}
		for _, a := range []store.Adjacency{c, f} {
			r, err := bfs.Run(a, src, bfs.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(r.Level, level) {
				t.Fatalf("%T BFS from %d: levels differ from the sequential BFS", a, src)
			}
		}
	}
	labels := UnionFind(f)
	p, err := validate.CC(g, labels)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []store.Adjacency{c, f} {
		r, err := afforest.Run(a, afforest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Components != p.Components || r.Largest != p.Largest {
			t.Fatalf("%T afforest: %d components largest %d, union-find %d %d", a, r.Components, r.Largest, p.Components, p.Largest)
		}
	}
}

// benchBFS runs search from rotating sources and reports GTEPS (Graph500's edge count:
// undirected edges in the traversed component) over the search time the kernel reports
// (BFSResult.Seconds: initialization and search, not the allocation of the result), and
// GTEPS-wall over the whole benchmark time.
func benchBFS(b *testing.B, g *store.Graph, search func(src uint32) (edges uint64, secs float64)) {
	srcs := sources(g, 16)
	var edges uint64
	var secs float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e, s := search(srcs[i%len(srcs)])
		edges, secs = edges+e, secs+s
	}
	b.ReportMetric(float64(edges)/secs/1e9, "GTEPS")
	b.ReportMetric(float64(edges)/b.Elapsed().Seconds()/1e9, "GTEPS-wall")
}

// parallelBFS searches a with the engine's BFS.
func parallelBFS(tb testing.TB, a store.Adjacency) func(uint32) (uint64, float64) {
	return func(src uint32) (uint64, float64) {
		r, err := bfs.Run(a, src, bfs.Options{})
		if err != nil {
			tb.Fatal(err)
		}
		return r.EdgesTraversed, r.Seconds
	}
}

// sequentialBFS searches f with the sequential baseline; its time includes allocating
// the arrays (a few milliseconds against the seconds the search takes).
func sequentialBFS(g *store.Graph, f *store.Flat) func(uint32) (uint64, float64) {
	return func(src uint32) (uint64, float64) {
		t0 := time.Now()
		_, level := BFS(f, src)
		secs := time.Since(t0).Seconds()
		r := &bfs.Result{Level: level}
		bfs.Summarize(g, r)
		return r.EdgesTraversed, secs
	}
}

func BenchmarkBFS(b *testing.B) {
	g, f := kron(b)
	b.Run("compressed", func(b *testing.B) { benchBFS(b, g, parallelBFS(b, store.NewCompressed(g))) })
	b.Run("flat", func(b *testing.B) { benchBFS(b, g, parallelBFS(b, f)) })
	b.Run("sequential", func(b *testing.B) { benchBFS(b, g, sequentialBFS(g, f)) })
}

func BenchmarkCC(b *testing.B) {
	g, f := kron(b)
	c := store.NewCompressed(g)
	report := func(b *testing.B) {
		b.ReportMetric(float64(g.NumEdges())*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gedges/s")
	}
	for _, a := range []store.Adjacency{c, f} {
		name := map[bool]string{true: "compressed", false: "flat"}[a == store.Adjacency(c)]
		b.Run("afforest-"+name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := afforest.Run(a, afforest.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			report(b)
		})
	}
	b.Run("unionfind-sequential", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			UnionFind(f)
		}
		report(b)
	})
}

// BenchmarkPageRank runs 20 iterations per call (the tolerance is never reached) and
// reports the time of one iteration and the in-list entries read per second.
func BenchmarkPageRank(b *testing.B) {
	g, f := kron(b)
	for _, a := range []store.Adjacency{store.NewCompressed(g), f} {
		name := map[bool]string{true: "compressed", false: "flat"}[a != store.Adjacency(f)]
		b.Run(name, func(b *testing.B) {
			var iters int
			var secs float64
			for i := 0; i < b.N; i++ {
				r, err := pagerank.Run(a, pagerank.Options{MaxIters: 20, Tolerance: 1e-30})
				if err != nil {
					b.Fatal(err)
				}
				iters, secs = iters+r.Iterations, secs+r.Seconds
			}
			b.ReportMetric(secs/float64(iters)*1e3, "ms/iter")
			b.ReportMetric(float64(g.NumEdges())*float64(iters)/secs/1e9, "Gedges/s")
		})
	}
}

// BenchmarkSSSP runs delta-stepping from rotating sources with weights uniform in
// [1, 255] (a hash of each edge's ends, the same both ways), on the compressed shards and
// the flat CSR, and the sequential Dijkstra reference of package validate; it reports
// the edges relaxed per second (Dijkstra: the out-edges of the reached vertices).
func BenchmarkSSSP(b *testing.B) {
	g, f := kron(b)
	w, err := sssp.NewMemWeights(f, func(u, v uint32, _ int) uint32 {
		x, y := uint64(min(u, v)), uint64(max(u, v))
		return 1 + uint32(((x*0x9e3779b97f4a7c15)^(y*0xc2b2ae3d27d4eb4f))>>17%255)
	})
	if err != nil {
		b.Fatal(err)
	}
	srcs := sources(g, 8)
	for _, a := range []store.Adjacency{store.NewCompressed(g), f} {
		name := map[bool]string{true: "compressed", false: "flat"}[a != store.Adjacency(f)]
		b.Run(name, func(b *testing.B) {
			var edges uint64
			for i := 0; i < b.N; i++ {
				r, err := sssp.Run(a, w, srcs[i%len(srcs)], sssp.Options{})
				if err != nil {
					b.Fatal(err)
				}
				for _, s := range r.Steps {
					edges += s.Edges
				}
			}
			b.ReportMetric(float64(edges)/b.Elapsed().Seconds()/1e9, "Gedges/s")
		})
	}
	b.Run("dijkstra-sequential", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := validate.Dijkstra(g, w, srcs[i%len(srcs)]); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkKCore peels the benchmark graph on the compressed shards and the flat CSR, and
// runs the sequential Batagelj-Zaversnik reference of package validate.
func BenchmarkKCore(b *testing.B) {
	g, f := kron(b)
	report := func(b *testing.B) {
		b.ReportMetric(float64(g.NumEdges())*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gedges/s")
	}
	for _, a := range []store.Adjacency{store.NewCompressed(g), f} {
		name := map[bool]string{true: "compressed", false: "flat"}[a != store.Adjacency(f)]
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := kcore.Run(a, kcore.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			report(b)
		})
	}
	b.Run("bz-sequential", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := validate.CoreNumbers(g); err != nil {
				b.Fatal(err)
			}
		}
		report(b)
	})
}

// TestReportRatios prints the benchmark comparison in one table with -v
// (go test -run Ratios -v ./tools/baseline -args -ratios -kron.scale 20). Times are wall
// clock per call, allocation of the result arrays included, after one warm-up call.
var ratios = flag.Bool("ratios", false, "run TestReportRatios")

func TestReportRatios(t *testing.T) {
	if !*ratios {
		t.Skip("needs -ratios")
	}
	g, f := kron(t)
	c := store.NewCompressed(g)
	srcs := sources(g, 8)
	timeIt := func(run func(src uint32) (uint64, float64)) (gteps float64) {
		run(srcs[0]) // warm up: first touches of the mapped shards fault pages in
		var edges uint64
		var secs float64
		for _, src := range srcs {
			e, s := run(src)
			edges, secs = edges+e, secs+s
		}
		return float64(edges) / secs / 1e9
	}
	gc, gf, gs := timeIt(parallelBFS(t, c)), timeIt(parallelBFS(t, f)), timeIt(sequentialBFS(g, f))
	ccTime := func(run func()) float64 {
		best := 1e9
		for i := 0; i < 3; i++ {
			t0 := time.Now()
			run()
			best = min(best, time.Since(t0).Seconds())
		}
		return best
	}
	cc, cf := ccTime(func() { afforest.Run(c, afforest.Options{}) }), ccTime(func() { afforest.Run(f, afforest.Options{}) })
	cs := ccTime(func() { UnionFind(f) })
	t.Logf("graph: %d vertices, %d directed edges, %d workers", g.NumVertices(), g.NumEdges(), parallel.Workers(0))
	t.Logf("BFS GTEPS: compressed %.3f, flat %.3f, sequential %.3f; compressed/flat %.2f, compressed/sequential %.2f", gc, gf, gs, gc/gf, gc/gs)
	t.Logf("CC seconds: afforest compressed %.4f, flat %.4f, sequential union-find %.4f; speedup vs union-find %.2fx (compressed), %.2fx (flat)", cc, cf, cs, cs/cc, cs/cf)
}
