//go:build cuda

package ingest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/cuda"
	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
)

// The GPU ingest against its twin, the CPU ingest, and against the plain reference:
// random graphs with hubs (lists of many blocks), self-loops, repeated and reversed edges
// and isolated vertices, both directions, every drop option, both vertex orders, and
// shards small enough to be cut many times. Shards and ids.bin must be byte-identical.

func needGPU(t *testing.T) {
	t.Helper()
	if err := cuda.Available(); err != nil {
		t.Skipf("no GPU: %v", err)
	}
}

// sameGraph checks that the GPU's graph at gpuDir and the CPU's at cpuDir agree: the
// manifests' counts and order, every shard's bytes and ids.bin's.
func sameGraph(t *testing.T, grep, crep *Report, gpuDir, cpuDir string) {
	t.Helper()
	gm, cm := grep.Manifest, crep.Manifest
	if gm.Vertices != cm.Vertices || gm.Edges != cm.Edges || gm.SelfLoopsDropped != cm.SelfLoopsDropped ||
		gm.DuplicatesDropped != cm.DuplicatesDropped || gm.InputEdges != cm.InputEdges || gm.Bytes != cm.Bytes ||
		gm.VertexOrder != cm.VertexOrder || gm.IDBase != cm.IDBase || countOrNil(gm.ReciprocalPairs) != countOrNil(cm.ReciprocalPairs) {
		t.Errorf("manifests differ:\ngpu %+v\ncpu %+v", *gm, *cm)
	}
	gs, cs := shardFiles(t, gpuDir), shardFiles(t, cpuDir)
	if len(gs) != len(cs) {
		t.Errorf("%d shards on the GPU, %d on the CPU", len(gs), len(cs))
	}
	for name, b := range cs {
		if !bytes.Equal(gs[name], b) {
			t.Errorf("%s differs (%d bytes on the GPU, %d on the CPU)", name, len(gs[name]), len(b))
		}
	}
	gi, _ := os.ReadFile(filepath.Join(gpuDir, "ids.bin"))
	ci, _ := os.ReadFile(filepath.Join(cpuDir, "ids.bin"))
	if !bytes.Equal(gi, ci) {
		t.Errorf("ids.bin differs (%d bytes on the GPU, %d on the CPU)", len(gi), len(ci))
	}
}

func TestGPUMatchesCPU(t *testing.T) {
	needGPU(t)
	rng, _ := seededRand(t, 41)
	type shape struct {
		n uint64
		m int
	}
	shapes := []shape{{1, 1}, {2, 3}, {70, 3000}, {1000, 1}, {5000, 40000}, {300000, 200000}, {1 << 20, 600000}, {4096, -1}}
	for i, sh := range shapes {
		var edges []parse.Edge
		if sh.m < 0 {
			edges = meshAndRuns(64)
		} else {
			edges = randomEdges(rng, sh.n, sh.m)
		}
		if i == 3 {
			edges = append(edges, parse.Edge{U: 999, V: 0}) // the top vertex's only edge
		}
		path := writeEdgeFile(t, edges)
		for _, opt := range []Options{
			{},
			{Directed: true},
			{KeepSelfLoops: true, KeepDuplicates: true},
			{Directed: true, KeepSelfLoops: true},
			{Order: store.OrderDegree},
			{Order: store.OrderDegree, Directed: true, KeepSelfLoops: true},
			{Order: store.OrderDegree, KeepDuplicates: true, ShardBytes: 4096},
			{ShardBytes: 4096},
			{Order: OrderAuto},
			{Order: OrderAuto, Directed: true},
		} {
			name := fmt.Sprintf("n%d_m%d_dir%v_loops%v_dups%v_%s_shard%d", sh.n, len(edges), opt.Directed, opt.KeepSelfLoops, opt.KeepDuplicates, opt.Order, opt.ShardBytes)
			t.Run(name, func(t *testing.T) {
				dir := t.TempDir()
				cpuOpt, gpuOpt := opt, opt
				cpuOpt.Dest, cpuOpt.Backend = filepath.Join(dir, "cpu.ooc"), BackendCPU
				gpuOpt.Dest, gpuOpt.Backend = filepath.Join(dir, "gpu.ooc"), BackendGPU
				rep, err := File(path, gpuOpt)
				if err != nil {
					t.Fatalf("gpu ingest: %v", err)
				}
				if rep.Backend == BackendCPU {
					t.Fatalf("--backend gpu built on the CPU")
				}
				w := reference(edges, opt)
				checkGraph(t, gpuOpt.Dest, w, opt)
				if opt.Order == OrderAuto {
					cpuOpt.Order = rep.Manifest.VertexOrder // the GPU compares exact sizes, the CPU a sample's
				}
				crep, err := File(path, cpuOpt)
				if err != nil {
					t.Fatalf("cpu ingest: %v", err)
				}
				sameGraph(t, rep, crep, gpuOpt.Dest, cpuOpt.Dest)
			})
		}
	}
}

// TestGPUHubList: one vertex with a list of many blocks and varints of every length.
func TestGPUHubList(t *testing.T) {
	needGPU(t)
	rng := rand.New(rand.NewPCG(7, 7))
	var edges []parse.Edge
	for range 100000 {
		edges = append(edges, parse.Edge{U: 5, V: rng.Uint64N(1 << 22)})
	}
	edges = append(edges, parse.Edge{U: 1<<22 + 7, V: 3})
	path := writeEdgeFile(t, edges)
	for _, opt := range []Options{{}, {Directed: true}} {
		dir := t.TempDir()
		gpuOpt := opt
		gpuOpt.Dest, gpuOpt.Backend = filepath.Join(dir, "gpu.ooc"), BackendGPU
		if _, err := File(path, gpuOpt); err != nil {
			t.Fatal(err)
		}
		checkGraph(t, gpuOpt.Dest, reference(edges, opt), opt)
	}
}

// TestGPUFallback: an input whose keys do not fit in the device's budget is read again and
// built by the CPU ingest with the automatic backend, and is an error with --backend gpu;
// neither leaves anything at the destination but the graph.
func TestGPUFallback(t *testing.T) {
	needGPU(t)
	rng, _ := seededRand(t, 43)
	edges := randomEdges(rng, 1<<16, 300000)
	path := writeEdgeFile(t, edges)
	dir := t.TempDir()
	opt := Options{Dest: filepath.Join(dir, "auto.ooc"), gpuBudget: 64 << 20}
	var log bytes.Buffer
	opt.Log = &log
	// the automatic backend leaves small files to the CPU: this one is small, so insist
	// through the same path a large file takes
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	rep, err := FileFrom(f, path, max(st.Size(), gpuMinBytes), opt)
	if err != nil {
		t.Fatalf("auto backend over budget: %v", err)
	}
	if rep.Backend != BackendCPU || !strings.Contains(log.String(), "building on the CPU") {
		t.Errorf("built on %q; log %q", rep.Backend, log.String())
	}
	checkGraph(t, opt.Dest, reference(edges, Options{}), Options{})
	opt.Dest, opt.Backend, opt.Log = filepath.Join(dir, "gpu.ooc"), BackendGPU, nil
	if _, err := File(path, opt); err == nil || !strings.Contains(err.Error(), "--backend gpu") {
		t.Errorf("--backend gpu over budget: %v", err)
	}
	if _, err := os.Stat(opt.Dest); !os.IsNotExist(err) {
		t.Errorf("the failed GPU ingest left %s: %v", opt.Dest, err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if n := e.Name(); n != "auto.ooc" && !strings.HasSuffix(n, ".lock") {
			t.Errorf("the directory holds %s", n)
		}
	}
}

// TestGPURealGraphs: the four real graphs of shared/data (gzip, SNAP text and MatrixMarket)
// on both backends, undirected and directed: the same bytes. A symmetric MatrixMarket
// file read --directed is left to the CPU.
func TestGPURealGraphs(t *testing.T) {
	needGPU(t)
	for _, file := range []string{"facebook_combined.txt.gz", "soc-Slashdot0902.txt.gz", "cnr-2000.txt.gz", "luxembourg_osm.mtx.gz"} {
		for _, directed := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s_directed%v", file, directed), func(t *testing.T) {
				path := testgraph.Real(t, file)
				dir := t.TempDir()
				gpuOpt := Options{Dest: filepath.Join(dir, "gpu.ooc"), Directed: directed, Backend: BackendGPU, Order: OrderAuto}
				rep, err := File(path, gpuOpt)
				if strings.HasSuffix(file, ".mtx.gz") && directed {
					if err == nil || !strings.Contains(err.Error(), "symmetric") {
						t.Errorf("a symmetric MatrixMarket file read --directed on the GPU: %v", err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				cpuOpt := gpuOpt
				cpuOpt.Dest, cpuOpt.Backend, cpuOpt.Order = filepath.Join(dir, "cpu.ooc"), BackendCPU, rep.Manifest.VertexOrder
				crep, err := File(path, cpuOpt)
				if err != nil {
					t.Fatal(err)
				}
				sameGraph(t, rep, crep, gpuOpt.Dest, cpuOpt.Dest)
				t.Logf("%s: %s order (GPU: exact sizes)", file, rep.Manifest.VertexOrder)
			})
		}
	}
}

// TestGPUFromEdges: generators' edges (FromEdges) on both backends, both orders: the same
// bytes; and an input over the device's budget built by the CPU pipeline, which calls the
// producer again.
func TestGPUFromEdges(t *testing.T) {
	needGPU(t)
	rng, _ := seededRand(t, 44)
	edges := randomEdges(rng, 1<<18, 400000)
	hdr := parse.Header{Vertices: 1<<18 + 5} // isolated vertices at the end
	for _, order := range []string{store.OrderInput, store.OrderDegree} {
		dir := t.TempDir()
		grep, err := fromEdges(t, edges, Options{Dest: filepath.Join(dir, "gpu.ooc"), Backend: BackendGPU, Order: order}, hdr)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(grep.Backend, BackendGPU) {
			t.Fatalf("built on %q", grep.Backend)
		}
		crep, err := fromEdges(t, edges, Options{Dest: filepath.Join(dir, "cpu.ooc"), Backend: BackendCPU, Order: order}, hdr)
		if err != nil {
			t.Fatal(err)
		}
		w := reference(edges, Options{})
		w.n = hdr.Vertices
		checkGraph(t, filepath.Join(dir, "gpu.ooc"), w, Options{})
		sameGraph(t, grep, crep, filepath.Join(dir, "gpu.ooc"), filepath.Join(dir, "cpu.ooc"))
	}
	calls := 0
	dest := filepath.Join(t.TempDir(), "auto.ooc")
	rep, err := FromEdges(Options{Dest: dest, gpuBudget: 64 << 20}, store.InputInfo{Name: "test"}, parse.Header{Entries: 1 << 30},
		func(emit func([]parse.Edge) error) error {
			calls++
			return emit(edges)
		})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Backend != BackendCPU || calls != 2 {
		t.Errorf("over the budget: built on %q after %d calls of the producer, want the CPU after 2", rep.Backend, calls)
	}
	checkGraph(t, dest, reference(edges, Options{}), Options{})
}

// meshAndRuns is a k x k grid numbered by rows (its inner lists are mirrored blocks) and
// vertex 0 linked to runs of consecutive ids with jumps between them (compact blocks with
// exceptions): format 6's block codings.
func meshAndRuns(k uint64) []parse.Edge {
	e := gridEdges(k, k)
	for _, r := range [][2]uint64{{100, 140}, {300, 310}, {1000, 1030}, {3000, 3003}, {4000, 4090}} {
		for u := r[0]; u < r[1]; u++ {
			e = append(e, parse.Edge{U: 0, V: u})
		}
	}
	return e
}
