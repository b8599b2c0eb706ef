//go:build cuda

package ooc_test

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/oocgraph/ooc"
	"github.com/oocgraph/ooc/afforest"
	"github.com/oocgraph/ooc/bfs"
	"github.com/oocgraph/ooc/gpu"
	"github.com/oocgraph/ooc/internal/cuda"
	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/internal/testseed"
	"github.com/oocgraph/ooc/kcore"
	"github.com/oocgraph/ooc/pagerank"
	"github.com/oocgraph/ooc/sssp"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

var (
	seed = flag.Uint64("seed", 0, "seed of the random graphs (0: OOC_SEED, or a fresh one)")
	long = flag.Bool("long", false, "also check larger random graphs")
)

func needGPU(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skipf("no GPU: %v", err)
	}
}

// budgets are the --vram values a graph is checked at: everything resident, only the
// per-vertex state (all sections pinned), and the state plus half of the graph.
func budgets(t *testing.T, g *store.Graph) []int64 {
	p, err := gpu.Make(g.NumVertices(), gpu.Sizes(g), 1<<40, work(g))
	if err != nil {
		t.Fatal(err)
	}
	state := gpu.Sum(p.State)
	graph, index := int64(0), int64(0)
	for _, s := range gpu.Sizes(g) {
		graph += s.Directory + s.Adj + 2*gpu.Align
		index += s.Directory + gpu.Align
	}
	first := gpu.FirstBytes(g.NumVertices(), gpu.FirstK) + gpu.Align
	// resident; state only (all pinned); indexes and first neighbours on the device, all
	// adjacency pinned; about half the graph resident
	return []int64{state + graph + 1<<20, state, state + index + first, state + graph/2}
}

// check runs BFS from a few sources and CC on g at every budget and compares with the CPU
// engine: levels equal, parents valid (Graph500 validator), labels equal.
func check(t *testing.T, name string, g *store.Graph) {
	checkAt(t, name, g, budgets(t, g), nil)
}

// checkAt is check at the budgets bs; onBFS, when not nil, also sees every GPU BFS result.
func checkAt(t *testing.T, name string, g *store.Graph, bs []int64, onBFS func(vram int64, r *ooc.BFSResult)) {
	cpu, err := ooc.Open(g, "cpu", ooc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cpu.Close()
	n := g.NumVertices()
	srcs := []uint32{}
	if n > 0 {
		srcs = append(srcs, 0, n-1, n/2, n/3)
	}
	wantCC, err := cpu.CC()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bs {
		e, err := ooc.Open(g, "gpu", ooc.Options{VRAM: b})
		if err != nil {
			t.Fatalf("%s: vram %d: %v", name, b, err)
		}
		for _, src := range srcs {
			want, err := cpu.BFS(src)
			if err != nil {
				t.Fatal(err)
			}
			got, err := e.BFS(src)
			if err != nil {
				t.Fatalf("%s vram %d src %d: %v", name, b, src, err)
			}
			if !slices.Equal(got.Level, want.Level) {
				i := 0
				for got.Level[i] == want.Level[i] {
					i++
				}
				t.Errorf("%s vram %d src %d: level[%d] = %d, cpu says %d (%s)", name, b, src, i, int32(got.Level[i]), int32(want.Level[i]), e.Plan())
			}
			if onBFS != nil {
				onBFS(b, got)
			}
			if err := validate.BFS(g, src, got.Parent, got.Level); err != nil {
				t.Errorf("%s vram %d src %d: %v", name, b, src, err)
			}
			if got.Reached != want.Reached || got.EdgesTraversed != want.EdgesTraversed || got.Depth != want.Depth {
				t.Errorf("%s vram %d src %d: reached/edges/depth %d/%d/%d, cpu %d/%d/%d", name, b, src,
					got.Reached, got.EdgesTraversed, got.Depth, want.Reached, want.EdgesTraversed, want.Depth)
			}
		}
		got, err := e.CC()
		if err != nil {
			t.Fatalf("%s vram %d cc: %v", name, b, err)
		}
		if !slices.Equal(got.Labels, wantCC.Labels) || got.Components != wantCC.Components || got.Largest != wantCC.Largest {
			t.Errorf("%s vram %d: cc differs from cpu: %d comps (largest %d), cpu %d (%d)", name, b,
				got.Components, got.Largest, wantCC.Components, wantCC.Largest)
		}
		if _, err := validate.CC(g, got.Labels); err != nil {
			t.Errorf("%s vram %d: %v", name, b, err)
		}
		checkMemory(t, name, e, b)
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
	}
	// without sampling every vertex links its whole list (cc_finish's warp-shared path for
	// long lists carries all the work)
	for _, b := range bs[:min(2, len(bs))] {
		e, err := ooc.Open(g, "gpu", ooc.Options{VRAM: b, AfforestRounds: ooc.NoSampling})
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.CC()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Labels, wantCC.Labels) {
			t.Errorf("%s vram %d: cc without sampling differs from cpu: %d comps (largest %d), cpu %d (%d)", name, b,
				got.Components, got.Largest, wantCC.Components, wantCC.Largest)
		}
		e.Close()
	}
}

func TestCases(t *testing.T) {
	needGPU(t)
	for _, c := range testgraph.Cases() {
		for _, shard := range []int64{0, 64} {
			g := testgraph.Build(t, c.N, c.Edges, c.Directed, shard)
			check(t, fmt.Sprintf("%s/shard%d", c, shard), g)
		}
	}
}

func TestRandom(t *testing.T) {
	needGPU(t)
	randomGraphs(t, rand.New(rand.NewPCG(randomSeed(t), 1)), func(name string, g *store.Graph) { check(t, name, g) })
}

// randomSeed is -seed when given, else testseed.Seed's (OOC_SEED, or a fresh one, logged).
func randomSeed(t *testing.T) uint64 {
	t.Helper()
	if *seed != 0 {
		t.Logf("seed %d (-seed)", *seed)
		return *seed
	}
	return testseed.Seed(t)
}

// randomGraphs builds TestRandom's and TestAlgosRandom's graphs from r, each undirected
// and directed, and calls each with its name: m random edges on n vertices, and
// vertices 0, 7 and 14 given up to 20,000 more neighbours (lists of many blocks, which
// the device splits over a warp or the grid); with -long 2^20 vertices too.
func randomGraphs(t *testing.T, r *rand.Rand, each func(name string, g *store.Graph)) {
	type spec struct {
		n     uint32
		m     int
		shard int64
	}
	specs := []spec{{1000, 5000, 0}, {1000, 5000, 2048}, {20000, 300000, 1 << 16}, {50000, 60000, 1 << 15}}
	if *long {
		specs = append(specs, spec{1 << 20, 16 << 20, 4 << 20})
	}
	for _, sp := range specs {
		for _, directed := range []bool{false, true} {
			edges := testgraph.Random(r, sp.n, sp.m)
			for h := 0; h < 3; h++ {
				for i := 0; i < min(int(sp.n)-1, 20000); i++ {
					edges = append(edges, testgraph.Edge{U: uint32(h * 7), V: uint32(r.IntN(int(sp.n)))})
				}
			}
			g := testgraph.Build(t, sp.n, edges, directed, sp.shard)
			each(fmt.Sprintf("random(n=%d,m=%d,shard=%d,directed=%v)", sp.n, len(edges), sp.shard, directed), g)
		}
	}
}

// TestBudgetRefused checks that a budget below the per-vertex state is refused with the
// budget that would run.
func TestBudgetRefused(t *testing.T) {
	needGPU(t)
	g := testgraph.Build(t, 100000, testgraph.Random(rand.New(rand.NewPCG(1, 1)), 100000, 1000), false, 0)
	if _, err := ooc.Open(g, "gpu", ooc.Options{VRAM: 1 << 20}); err == nil {
		t.Fatal("1 MiB budget accepted for 100000 vertices")
	} else {
		t.Log(err)
	}
}

// driverSlack is what the driver may take beyond ooc's own allocations: the loaded
// modules and the rounding of each allocation to the driver's pages. Kernel stacks are
// not in it: the context's stack limit is 0 (internal/cuda), and with the default 1 KiB
// the driver would take about 260 MiB more on an H200.
const driverSlack = 32 << 20

// checkMemory holds an engine to its --vram budget (issue 5): the allocator never went
// past it, and the driver's own count of memory taken since the context was created
// stays within it plus driverSlack.
func checkMemory(t *testing.T, name string, e ooc.Engine, vram int64) {
	t.Helper()
	budget, peak, driver, err := e.(interface {
		Memory() (budget, peak, driver int64, err error)
	}).Memory()
	if err != nil {
		t.Fatal(err)
	}
	if budget != vram || peak > budget {
		t.Errorf("%s: --vram %d: allocator budget %d, peak %d", name, vram, budget, peak)
	}
	t.Logf("%s: --vram %d: allocator peak %d, the driver reports %d bytes taken", name, vram, peak, driver)
	if driver > vram+driverSlack {
		t.Errorf("%s: --vram %d: the driver reports %d bytes taken (allocator peak %d)", name, vram, driver, peak)
	}
}

// streamBudgets are budgets at which the adjacency stays pinned but the two staging buffers
// fit: the indexes, staging and first neighbours on the device, or no first neighbours.
func streamBudgets(t *testing.T, g *store.Graph, stage int64) []int64 {
	p, err := gpu.Make(g.NumVertices(), gpu.Sizes(g), 1<<40, work(g))
	if err != nil {
		t.Fatal(err)
	}
	state := gpu.Sum(p.State)
	// the indexes as the plan places them: with more slack, four packed first neighbours
	// (a few bytes a vertex) would fit where the test means two and the staging buffers
	var index int64
	for _, s := range gpu.Sizes(g) {
		index += (s.Directory + gpu.Align - 1) / gpu.Align * gpu.Align
	}
	first := gpu.FirstBytes(g.NumVertices(), gpu.FirstK) + gpu.Align
	stg := 2 * gpu.StageBuffer(stage)
	// two staging buffers with or without the first neighbours; the whole ring
	return []int64{state + index + first + stg + 4096, state + index + stg + 4096, state + index + first + 4*stg + 4096}
}

// TestStreamModes runs BFS and CC with the bottom-up double buffer forced on and off, at
// budgets that pin all or most adjacency, with tiny staging buffers (OOC_GPU_STAGE) so that
// shards split into many chunks and hubs' lists exceed a chunk (read zero-copy), on many
// small shards. Answers must equal the CPU's, the allocator must stay within --vram, and the
// byte counters must say what happened: always copies when a bottom-up level ran over a
// pinned shard, never copies nothing.
func TestStreamModes(t *testing.T) {
	needGPU(t)
	const stage = 512
	t.Setenv("OOC_GPU_STAGE", "512B")
	r := rand.New(rand.NewPCG(7, 7))
	for _, mode := range []string{"always", "never", "auto"} {
		t.Run(mode, func(t *testing.T) {
			t.Setenv("OOC_GPU_STREAM", mode)
			for _, sp := range []struct {
				n     uint32
				m     int
				shard int64
			}{{20000, 300000, 1 << 14}, {5000, 80000, 4096}} {
				for _, directed := range []bool{false, true} {
					edges := testgraph.Random(r, sp.n, sp.m)
					for i := 0; i < int(sp.n)-1; i++ { // a hub whose list is larger than a chunk
						edges = append(edges, testgraph.Edge{U: 3, V: uint32(i + 1)})
					}
					g := testgraph.Build(t, sp.n, edges, directed, sp.shard)
					bs := streamBudgets(t, g, stage)
					for _, b := range bs {
						p, err := gpu.Make(g.NumVertices(), gpu.Sizes(g), b, work(g))
						if err != nil {
							t.Fatal(err)
						}
						if p.Stage == 0 || p.Pinned == 0 {
							t.Fatalf("vram %d: plan has no staging or nothing pinned:\n%s", b, p)
						}
						if b == bs[2] && p.Stages != gpu.StageRing {
							t.Fatalf("vram %d: plan has %d staging buffers, not the ring of %d:\n%s", b, p.Stages, gpu.StageRing, p)
						}
					}
					name := fmt.Sprintf("%s n=%d m=%d shard=%d directed=%v", mode, sp.n, len(edges), sp.shard, directed)
					var bottomUp, copied, zero int64
					checkAt(t, name, g, bs, func(vram int64, res *ooc.BFSResult) {
						for _, l := range res.Levels {
							if l.Direction == ooc.BottomUp {
								bottomUp++
							}
						}
						copied += res.BytesCopied
						zero += res.BytesZeroCopy
						if res.BytesCopied+res.BytesZeroCopy > 0 && res.LinkSeconds <= 0 {
							t.Errorf("%s vram %d: %d bytes over the link in %g s", name, vram, res.BytesCopied+res.BytesZeroCopy, res.LinkSeconds)
						}
					})
					t.Logf("%s: %d bottom-up levels, %d bytes copied, %d zero-copy", name, bottomUp, copied, zero)
					if bottomUp == 0 {
						t.Errorf("%s: no bottom-up level ran: the test checks nothing", name)
					}
					switch mode {
					case "always":
						if copied == 0 {
							t.Errorf("%s: OOC_GPU_STREAM=always copied nothing", name)
						}
					case "never":
						if copied != 0 || zero == 0 {
							t.Errorf("%s: OOC_GPU_STREAM=never copied %d bytes, read %d zero-copy", name, copied, zero)
						}
					}
				}
			}
		})
	}
}

// work is the workspace the gpu backend reserves (gpu_cuda.go's gpuWork, default options).
func work(g *store.Graph) []gpu.Item {
	n := g.NumVertices()
	return gpu.Largest(bfs.DeviceState(n, gpu.Sizes(g)), afforest.DeviceState(n, afforest.Options{}),
		pagerank.DeviceState(n, gpu.Sizes(g)), kcore.DeviceState(n), sssp.DeviceState(n, gpu.Sizes(g)))
}

// TestAlgorithmsSubset opens the GPU engine for BFS and CC alone at budgets from the state
// up to everything resident, on a graph of long lists (the plan keeps four first
// neighbours where they fit, more at a budget with room for them): the plan reserves
// BFS's state, not the largest, answers equal the CPU's, and PageRank is refused with
// ErrNotOpened.
func TestAlgorithmsSubset(t *testing.T) {
	needGPU(t)
	r := rand.New(rand.NewPCG(19, 4))
	g := testgraph.Build(t, 4000, testgraph.Random(r, 4000, 120000), false, 1<<14)
	cpu, err := ooc.Open(g, "cpu", ooc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cpu.Close()
	wantCC, err := cpu.CC()
	if err != nil {
		t.Fatal(err)
	}
	n, sizes := g.NumVertices(), gpu.Sizes(g)
	state := gpu.Sum(bfs.DeviceState(n, sizes)) + gpu.Sum([]gpu.Item{gpu.TableItem(len(sizes))})
	if all := gpu.Sum(work(g)); all <= state-gpu.Align {
		t.Fatalf("the test needs a graph whose largest state is not BFS's: BFS %d, largest %d", state, all)
	}
	var graph, index int64
	for _, s := range sizes {
		graph += s.Directory + s.Adj + 2*gpu.Align
		index += s.Directory + gpu.Align
	}
	first4 := gpu.FirstBytes(n, gpu.FirstKMax) + gpu.Align
	first8 := gpu.FirstBytes(n, gpu.FirstKMore) + gpu.Align
	kept := map[int]bool{}
	for _, b := range []int64{state, state + index + first4 + 1<<10, state + index + first8 + 1<<10, state + graph/2,
		state + graph + 1<<20} {
		e, err := ooc.Open(g, "gpu", ooc.Options{VRAM: b, Algorithms: ooc.AlgoBFS | ooc.AlgoCC})
		if err != nil {
			t.Fatalf("vram %d: %v", b, err)
		}
		p := e.(interface{ GPUPlan() *gpu.Plan }).GPUPlan()
		kept[p.FirstK] = true
		for _, src := range []uint32{0, n / 2} {
			want, _ := cpu.BFS(src)
			got, err := e.BFS(src)
			if err != nil {
				t.Fatalf("vram %d src %d: %v", b, src, err)
			}
			if !slices.Equal(got.Level, want.Level) {
				t.Errorf("vram %d src %d: levels differ from the CPU's (%s)", b, src, e.Plan())
			}
		}
		got, err := e.CC()
		if err != nil {
			t.Fatalf("vram %d: %v", b, err)
		}
		if !slices.Equal(got.Labels, wantCC.Labels) {
			t.Errorf("vram %d: labels differ from the CPU's", b)
		}
		if _, err := e.PageRank(ooc.PageRankOptions{}); !errors.Is(err, ooc.ErrNotOpened) {
			t.Errorf("vram %d: PageRank on an engine opened for BFS and CC: %v", b, err)
		}
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
	}
	more := false
	for k := range kept {
		more = more || k > gpu.FirstKMax
	}
	if !kept[gpu.FirstKMax] || !more {
		t.Errorf("no budget kept %d first neighbours, or none more: %v", gpu.FirstKMax, kept)
	}
}

// cacheBudgets are two budgets at which the plan's staging buffers hold a list cache:
// the smallest (the most pinned lists beside the cache), and the one at which the cache
// leaves the fewest pinned list bytes out.
func cacheBudgets(t *testing.T, g *store.Graph) (most, few int64) {
	p, err := gpu.Make(g.NumVertices(), gpu.Sizes(g), 1<<40, work(g))
	if err != nil {
		t.Fatal(err)
	}
	var graph, least int64
	for _, s := range gpu.Sizes(g) {
		graph += s.Directory + s.Adj + 2*gpu.Align
	}
	for b := gpu.Sum(p.State); b < gpu.Sum(p.State)+graph; b += 256 {
		p, err := gpu.Make(g.NumVertices(), gpu.Sizes(g), b, work(g))
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Cache) == 0 {
			continue
		}
		var pinnedAdj int64
		for _, s := range p.Shards {
			if s.AdjAt == gpu.Pinned {
				pinnedAdj += s.Adj
			}
		}
		if most == 0 {
			most = b
		}
		if out := pinnedAdj - p.CacheBytes; few == 0 || out < least {
			few, least = b, out
		}
	}
	if most == 0 || few == 0 {
		t.Fatalf("no budget with a list cache (%d, %d)", most, few)
	}
	return most, few
}

// TestListCache runs BFS while the staging buffers hold pinned shards' lists (the list
// cache), then CC and k-core, then BFS again, with streaming automatic, forced off and
// forced on (bottom-up sweeps that stream give the buffers back in the middle of a
// search; CC gives them back at its start; the next BFS fills them again). Answers must
// equal the CPU's and the allocator must stay within --vram. (The staging buffers are
// reserved only when more lists stay pinned than they hold, so some always cross the
// link; the bytes they save are measured on the device: docs/log-2026-11-25.md.)
func TestListCache(t *testing.T) {
	needGPU(t)
	r := rand.New(rand.NewPCG(23, 5))
	for _, mode := range []string{"auto", "never", "always"} {
		t.Setenv("OOC_GPU_STREAM", mode)
		for _, directed := range []bool{false, true} {
			const n = 20000
			edges := testgraph.Random(r, n, 300000)
			for i := 0; i < n-1; i++ { // a hub whose list spans several blocks
				edges = append(edges, testgraph.Edge{U: 5, V: uint32(i + 1)})
			}
			g := testgraph.Build(t, n, edges, directed, 1<<14)
			cpu, err := ooc.Open(g, "cpu", ooc.Options{})
			if err != nil {
				t.Fatal(err)
			}
			wantCC, err := cpu.CC()
			if err != nil {
				t.Fatal(err)
			}
			wantKC, err := cpu.KCore()
			if err != nil {
				t.Fatal(err)
			}
			most, few := cacheBudgets(t, g)
			for _, b := range []int64{most, few} {
				name := fmt.Sprintf("%s directed=%v vram %d", mode, directed, b)
				e, err := ooc.Open(g, "gpu", ooc.Options{VRAM: b})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				bfsAll := func(pass int) {
					for _, src := range []uint32{0, 5, n / 2, n - 1} {
						want, err := cpu.BFS(src)
						if err != nil {
							t.Fatal(err)
						}
						got, err := e.BFS(src)
						if err != nil {
							t.Fatalf("%s src %d: %v", name, src, err)
						}
						if !slices.Equal(got.Level, want.Level) {
							t.Errorf("%s pass %d src %d: levels differ from the CPU's (%s)", name, pass, src, e.Plan())
						}
						if err := validate.BFS(g, src, got.Parent, got.Level); err != nil {
							t.Errorf("%s pass %d src %d: %v", name, pass, src, err)
						}
					}
				}
				bfsAll(1)
				cc, err := e.CC()
				if err != nil {
					t.Fatalf("%s: cc: %v", name, err)
				}
				if !slices.Equal(cc.Labels, wantCC.Labels) {
					t.Errorf("%s: cc labels differ from the CPU's", name)
				}
				bfsAll(2)
				kc, err := e.KCore()
				if err != nil {
					t.Fatalf("%s: kcore: %v", name, err)
				}
				compareKCore(t, name, g, kc, wantKC)
				checkMemory(t, name, e, b)
				if err := e.Close(); err != nil {
					t.Fatal(err)
				}
			}
			cpu.Close()
		}
	}
}

// smallGPUEngine is the GPU engine on a graph of 6 vertices (a triangle, an edge, an
// isolated vertex), for the tests of what the engine refuses; the caller closes it.
func smallGPUEngine(t *testing.T) (*store.Graph, ooc.Engine) {
	t.Helper()
	needGPU(t)
	g := testgraph.Build(t, 6, []testgraph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 0}, {U: 4, V: 5}}, false, 0)
	e, err := ooc.Open(g, "gpu", ooc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return g, e
}

// TestGPUClosedGraph: the GPU engine's runs on a graph closed under it are errors
// (ErrClosed), not device reads through the unmapped host pages.
func TestGPUClosedGraph(t *testing.T) {
	g, e := smallGPUEngine(t)
	defer e.Close()
	g.Close()
	for name, run := range ooc.EveryRun(e) {
		if err := run(); !errors.Is(err, store.ErrClosed) {
			t.Errorf("%s on a closed graph: %v, want ErrClosed", name, err)
		}
	}
}

// TestGPUEngineClosed: the GPU engine's runs after its Close are errors
// (ErrEngineClosed), not launches on freed streams, modules and buffers, and a second
// Close frees nothing again.
func TestGPUEngineClosed(t *testing.T) {
	_, e := smallGPUEngine(t)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
	for name, run := range ooc.EveryRun(e) {
		if err := run(); !errors.Is(err, ooc.ErrEngineClosed) {
			t.Errorf("%s after Close: %v, want ErrEngineClosed", name, err)
		}
	}
}

// TestGPUSourceNotVertex: the GPU engine refuses a source past the vertices, as the CPU
// engine does (TestSourceNotVertex).
func TestGPUSourceNotVertex(t *testing.T) {
	g, e := smallGPUEngine(t)
	defer e.Close()
	for _, err := range ooc.SourceNotVertex(e, g.NumVertices()) {
		t.Error(err)
	}
	if r, err := e.BFS(0); err != nil || r.Reached != 3 {
		t.Errorf("BFS from 0 after the refusals: %v, want 3 reached (%v)", r, err)
	}
}
