package ooc

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/oocgraph/ooc/afforest"
	"github.com/oocgraph/ooc/bfs"
	"github.com/oocgraph/ooc/gen"
	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/parallel"
	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/internal/testseed"
	"github.com/oocgraph/ooc/kcore"
	"github.com/oocgraph/ooc/pagerank"
	"github.com/oocgraph/ooc/sssp"
	"github.com/oocgraph/ooc/store"
)

func TestOpenChoosesBackend(t *testing.T) {
	g := testgraph.Build(t, 4, testgraph.Pairs(0, 1), false, 0)
	// a cuda build registers "gpu" from init: take it out for this test
	mu.Lock()
	saved, had := backends["gpu"]
	delete(backends, "gpu")
	mu.Unlock()
	defer func() {
		mu.Lock()
		delete(backends, "gpu")
		if had {
			backends["gpu"] = saved
		}
		mu.Unlock()
	}()
	if _, err := Open(g, "gpu", Options{}); !errors.Is(err, ErrNoBackend) {
		t.Fatalf("gpu without a registered backend: %v", err)
	}
	if _, err := Open(g, "tpu", Options{}); !errors.Is(err, ErrNoBackend) {
		t.Fatalf("unknown backend: %v", err)
	}
	// CheckBackend refuses what Open refuses by the name alone, and takes the rest
	for name, refused := range map[string]bool{"gpu": true, "tpu": true, "CPU": true, "auto": false, "": false, "cpu": false} {
		if err := CheckBackend(name); errors.Is(err, ErrNoBackend) != refused || (err != nil) != refused {
			t.Errorf("CheckBackend(%q) without gpu: %v, want refused %v", name, err, refused)
		}
	}
	e, err := Open(g, "auto", Options{})
	if err != nil || e.Name() != "cpu" {
		t.Fatalf("auto without gpu: %v, %v", e, err)
	}
	Register("gpu", func(*store.Graph, Options) (Engine, error) { return nil, errors.New("no device") })
	if e, err = Open(g, "auto", Options{}); err != nil || e.Name() != "cpu" {
		t.Fatalf("auto with a failing gpu: %v, %v", e, err)
	}
	if _, err = Open(g, "gpu", Options{}); err == nil {
		t.Fatal("explicit gpu that fails to open returned no error")
	}
	if err := CheckBackend("gpu"); err != nil {
		t.Errorf("CheckBackend(gpu) with gpu registered: %v", err)
	}
}

// TestOpenBackendBeforeCheck: a backend name Open refuses is refused before the graph's
// checksums are read (the whole graph's bytes, minutes on a large one): a damaged graph
// with "tpu" is refused for the name.
func TestOpenBackendBeforeCheck(t *testing.T) {
	dir := testgraph.Dir(t, 4, []testgraph.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, false)
	path := filepath.Join(dir, "out-00000.shard")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[4096+2] ^= 1 // a neighbour byte: only the checksum tells
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if _, err := Open(g, "cpu", Options{}); !errors.Is(err, store.ErrCorrupt) {
		t.Fatalf("a damaged graph opened: %v", err)
	}
	if _, err := Open(g, "tpu", Options{}); !errors.Is(err, ErrNoBackend) || errors.Is(err, store.ErrCorrupt) {
		t.Errorf("tpu on a damaged graph: %v, want the backend refused first", err)
	}
}

// TestWorkersBounded: the API runs every algorithm on parallel.MaxWorkers workers and
// refuses one more, naming the field, as the CLI refuses --workers 4097: a count past
// the bound had been cut to it, and gen's Write and parse's Parse, which did not cut
// it, made channels of a slot a worker (2^40: a fatal out-of-memory, no error).
func TestWorkersBounded(t *testing.T) {
	g := testgraph.Build(t, 6, testgraph.Pairs(0, 1, 1, 2, 2, 3, 3, 0, 4, 5), false, 0)
	const most = parallel.MaxWorkers
	e, err := Open(g, "cpu", Options{Workers: most})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if r, err := e.BFS(0); err != nil || r.Reached != 4 {
		t.Errorf("BFS: %v reached, %v", r, err)
	}
	if r, err := e.CC(); err != nil || r.Components != 2 {
		t.Errorf("CC: %v", err)
	}
	if _, err := e.KCore(); err != nil {
		t.Errorf("KCore: %v", err)
	}
	if _, err := e.PageRank(PageRankOptions{Workers: most, MaxIters: 3}); err != nil {
		t.Errorf("PageRank: %v", err)
	}
	if r, err := e.SSSP(0, SSSPOptions{UnitWeights: true}); err != nil || r.Dist[2] != 2 {
		t.Errorf("SSSP: %v", err)
	}

	for _, past := range []int{most + 1, math.MaxInt} {
		want := func(what string, err error, field string) {
			t.Helper()
			if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%s %d", field, past)) {
				t.Errorf("%s: %v, want a refusal naming %s %d", what, err, field, past)
			}
		}
		_, err := Open(g, "cpu", Options{Workers: past})
		want("Open", err, "Options.Workers")
		_, err = e.PageRank(PageRankOptions{Workers: past})
		want("engine PageRank", err, "Options.Workers")
		adj := store.NewCompressed(g)
		_, err = bfs.Run(adj, 0, bfs.Options{Workers: past})
		want("bfs.Run", err, "bfs: Options.Workers")
		_, err = afforest.Run(adj, afforest.Options{Workers: past})
		want("afforest.Run", err, "afforest: Options.Workers")
		_, err = kcore.Run(adj, kcore.Options{Workers: past})
		want("kcore.Run", err, "kcore: Options.Workers")
		_, err = sssp.Run(adj, sssp.NewUnitWeights(adj), 0, sssp.Options{Workers: past})
		want("sssp.Run", err, "sssp: Options.Workers")
		_, err = sssp.Parents(adj, sssp.NewUnitWeights(adj), &sssp.Result{Dist: make([]uint32, 6)}, past)
		want("sssp.Parents", err, "sssp: Parents' workers")
		err = gen.Generate(gen.Spec{Kind: "urand", Scale: 4, EdgeFactor: 2}, past, func([]gen.Edge) error { return nil })
		want("gen.Generate", err, "gen: workers")
		_, err = parse.Parse(strings.NewReader("0 1\n"), parse.ParseOptions{Workers: past}, func([]parse.Edge) error { return nil })
		want("parse.Parse", err, "parse: ParseOptions.Workers")
	}
}

// TestNegativeCountsRefused: a negative worker count or device budget is refused naming
// its field, by Open, by an engine's PageRank (whose zero Workers means the engine's)
// and by each algorithm package's Run, as the CLI refuses --workers -1 and --vram -1;
// each took a negative count as its default before.
func TestNegativeCountsRefused(t *testing.T) {
	g := testgraph.Build(t, 6, testgraph.Pairs(0, 1, 1, 2, 2, 3, 3, 0, 4, 5), false, 0)
	want := func(what string, err error, field string) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), field+" -1") {
			t.Errorf("%s: %v, want a refusal naming %s -1", what, err, field)
		}
	}
	_, err := Open(g, "cpu", Options{Workers: -1})
	want("Open", err, "Options.Workers")
	_, err = Open(g, "cpu", Options{VRAM: -1})
	want("Open", err, "Options.VRAM")
	e, err := Open(g, "cpu", Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	_, err = e.PageRank(PageRankOptions{Workers: -1})
	want("engine PageRank", err, "Options.Workers")
	if _, err := e.PageRank(PageRankOptions{}); err != nil {
		t.Errorf("engine PageRank with the engine's workers: %v", err)
	}
	adj := store.NewCompressed(g)
	_, err = bfs.Run(adj, 0, bfs.Options{Workers: -1})
	want("bfs.Run", err, "bfs: Options.Workers")
	_, err = afforest.Run(adj, afforest.Options{Workers: -1})
	want("afforest.Run", err, "afforest: Options.Workers")
	_, err = kcore.Run(adj, kcore.Options{Workers: -1})
	want("kcore.Run", err, "kcore: Options.Workers")
	_, err = pagerank.Run(adj, pagerank.Options{Workers: -1})
	want("pagerank.Run", err, "pagerank: Options.Workers")
	_, err = sssp.Run(adj, sssp.NewUnitWeights(adj), 0, sssp.Options{Workers: -1})
	want("sssp.Run", err, "sssp: Options.Workers")
}

// TestNegativeTuningRefused: Alpha, Beta, AfforestSamples, PageRank's Tolerance and
// MaxIters below 0 and AfforestRounds below NoSampling are refused naming the field, by
// Open, an engine's PageRank and each package's Run, as the CLI refuses --tolerance and
// --max-iters below 1. 0 is the default, NoSampling skips sampling, and a sample count
// past afforest.MaxSamples is cut to it.
func TestNegativeTuningRefused(t *testing.T) {
	g := testgraph.Build(t, 6, testgraph.Pairs(0, 1, 1, 2, 2, 3, 3, 0, 4, 5), false, 0)
	want := func(what string, err error, field string) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), field) {
			t.Errorf("%s: %v, want a refusal naming %s", what, err, field)
		}
	}
	for _, c := range []struct {
		opt   Options
		field string
	}{
		{Options{Alpha: -1}, "engine: Options.Alpha -1"},
		{Options{Beta: -3}, "engine: Options.Beta -3"},
		{Options{AfforestRounds: NoSampling - 1}, "engine: Options.AfforestRounds -2"},
		{Options{AfforestSamples: -1}, "engine: Options.AfforestSamples -1"},
	} {
		_, err := Open(g, "cpu", c.opt)
		want(fmt.Sprintf("Open(%+v)", c.opt), err, c.field)
	}
	e, err := Open(g, "cpu", Options{AfforestRounds: NoSampling, AfforestSamples: math.MaxInt})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if r, err := e.CC(); err != nil || r.Components != 2 {
		t.Errorf("CC without sampling, math.MaxInt samples: %v, %v", r, err)
	}
	_, err = e.PageRank(PageRankOptions{Tolerance: -1e-3})
	want("engine PageRank", err, "pagerank: Options.Tolerance -0.001")
	_, err = e.PageRank(PageRankOptions{MaxIters: -1})
	want("engine PageRank", err, "pagerank: Options.MaxIters -1")
	if r, err := e.PageRank(PageRankOptions{}); err != nil || r.Iterations == 0 {
		t.Errorf("PageRank with the defaults: %v, %v", r, err)
	}
	adj := store.NewCompressed(g)
	_, err = bfs.Run(adj, 0, bfs.Options{Alpha: -1})
	want("bfs.Run", err, "bfs: Options.Alpha -1")
	_, err = bfs.Run(adj, 0, bfs.Options{Beta: -1})
	want("bfs.Run", err, "bfs: Options.Beta -1")
	_, err = afforest.Run(adj, afforest.Options{Rounds: -5})
	want("afforest.Run", err, "afforest: Options.Rounds -5")
	_, err = afforest.Run(adj, afforest.Options{Samples: -1})
	want("afforest.Run", err, "afforest: Options.Samples -1")
	_, err = pagerank.Run(adj, pagerank.Options{MaxIters: -7})
	want("pagerank.Run", err, "pagerank: Options.MaxIters -7")
	_, err = pagerank.Run(adj, pagerank.Options{Tolerance: math.Inf(-1)})
	want("pagerank.Run", err, "pagerank: Options.Tolerance -Inf")
}

// EveryRun is one run of each algorithm on e, its result dropped: the calls that an
// engine closed, or one whose graph was closed, must refuse. The cuda tests of package
// ooc_test call it too.
func EveryRun(e Engine) map[string]func() error {
	return map[string]func() error{
		"BFS":      func() error { _, err := e.BFS(0); return err },
		"CC":       func() error { _, err := e.CC(); return err },
		"PageRank": func() error { _, err := e.PageRank(PageRankOptions{}); return err },
		"KCore":    func() error { _, err := e.KCore(); return err },
		"SSSP":     func() error { _, err := e.SSSP(0, SSSPOptions{UnitWeights: true}); return err },
	}
}

// SourceNotVertex runs every algorithm that takes a source on e from each source that
// no vertex of e's graph of n vertices has (n, n+1 and 2^32-1, bfs.Unreached), and
// returns the errors of those that do not refuse with an error matching
// store.ErrNoVertex. The cuda tests of package ooc_test call it too.
func SourceNotVertex(e Engine, n uint32) []error {
	var bad []error
	for _, src := range []uint32{n, n + 1, math.MaxUint32} {
		for name, run := range map[string]func() error{
			"BFS":               func() error { _, err := e.BFS(src); return err },
			"SSSP":              func() error { _, err := e.SSSP(src, SSSPOptions{UnitWeights: true}); return err },
			"SSSP with parents": func() error { _, err := e.SSSP(src, SSSPOptions{UnitWeights: true, Parents: true}); return err },
		} {
			if err := run(); !errors.Is(err, store.ErrNoVertex) {
				bad = append(bad, fmt.Errorf("%s from %d of %d vertices: %v, want ErrNoVertex", name, src, n, err))
			}
		}
	}
	return bad
}

// TestSourceNotVertex: the CPU engine refuses a source past the vertices.
func TestSourceNotVertex(t *testing.T) {
	g := testgraph.Build(t, 6, testgraph.Pairs(0, 1, 1, 2, 2, 3, 3, 0, 4, 5), false, 0)
	e, err := Open(g, "cpu", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, err := range SourceNotVertex(e, g.NumVertices()) {
		t.Error(err)
	}
}

// TestEngineClosed: the CPU engine's runs after its Close are errors matching
// ErrEngineClosed, and a second Close does nothing.
func TestEngineClosed(t *testing.T) {
	g := testgraph.Build(t, 6, testgraph.Pairs(0, 1, 1, 2, 2, 3, 3, 0, 4, 5), false, 0)
	e, err := Open(g, "cpu", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
	for name, run := range EveryRun(e) {
		if err := run(); !errors.Is(err, ErrEngineClosed) {
			t.Errorf("%s after Close: %v, want ErrEngineClosed", name, err)
		}
	}
}

// TestNilOrClosedGraph: Open of a nil graph, of a closed one, and a CPU engine's runs on
// a graph closed under it are errors; each was a nil dereference or a fault (SIGSEGV
// reading the unmapped lists), not an error.
func TestNilOrClosedGraph(t *testing.T) {
	if e, err := Open(nil, "cpu", Options{}); err == nil {
		t.Errorf("Open(nil) = %v, want an error", e)
	}
	g := testgraph.Build(t, 6, testgraph.Pairs(0, 1, 1, 2, 2, 3, 3, 0, 4, 5), false, 0)
	e, err := Open(g, "cpu", Options{})
	if err != nil {
		t.Fatal(err)
	}
	g.Close()
	if _, err := Open(g, "cpu", Options{}); !errors.Is(err, store.ErrClosed) {
		t.Errorf("Open of a closed graph: %v, want ErrClosed", err)
	}
	for name, run := range EveryRun(e) {
		if err := run(); !errors.Is(err, store.ErrClosed) {
			t.Errorf("%s on a closed graph: %v, want ErrClosed", name, err)
		}
	}
}

// closeOnLog is a Verbose writer that, at the first line an engine logs mid-run, closes
// the graph from another goroutine and returns once Close has begun, so the run goes on
// reading lists after Close was called.
type closeOnLog struct {
	g        *store.Graph
	once     sync.Once
	returned chan struct{} // closed when g.Close returns
}

func (w *closeOnLog) Write(p []byte) (int, error) {
	w.once.Do(func() {
		go func() {
			w.g.Close()
			close(w.returned)
		}()
		for !w.g.Closed() {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(20 * time.Millisecond) // the old Close unmapped right after marking
	})
	return len(p), nil
}

// TestCloseDuringRun: a graph closed by another goroutine during a CPU run stays mapped
// until the run ends (the run faulted on the unmapped lists: SIGSEGV), the run's answer
// is the one of an undisturbed run, Close returns after it, and the next run is refused.
func TestCloseDuringRun(t *testing.T) {
	r := rand.New(rand.NewPCG(testseed.Seed(t), 12))
	edges := append(testgraph.Random(r, 4000, 30000), testgraph.Pairs(4000, 4001, 4002, 4003, 4003, 4004)...)
	want := func() *CCResult {
		g := testgraph.Build(t, 4005, edges, false, 0)
		e, err := Open(g, "cpu", Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.CC()
		if err != nil {
			t.Fatal(err)
		}
		return res
	}()
	g := testgraph.Build(t, 4005, edges, false, 0)
	w := &closeOnLog{g: g, returned: make(chan struct{})}
	e, err := Open(g, "cpu", Options{Workers: 1, Verbose: w})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.CC()
	select {
	case <-w.returned:
		t.Error("Close returned before the run ended")
	default:
	}
	if err != nil {
		t.Fatalf("CC with Close during the run: %v", err)
	}
	if !slices.Equal(res.Labels, want.Labels) {
		t.Errorf("CC with Close during the run: %d components, want %d", res.Components, want.Components)
	}
	<-w.returned
	if _, err := e.BFS(0); !errors.Is(err, store.ErrClosed) {
		t.Errorf("BFS after Close: %v, want ErrClosed", err)
	}
}
