//go:build cuda

package ooc_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/oocgraph/ooc"
	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

// checkSSSP runs SSSP with parents from each of srcs on the GPU at every budget of bs and
// compares with the CPU engine (distances, parents and vertices reached exactly equal)
// and with Dijkstra (validate: distances equal, parents a shortest-path tree).
func checkSSSP(t *testing.T, name string, g *store.Graph, opt ooc.SSSPOptions, srcs []uint32, bs []int64) {
	t.Helper()
	checkSSSPAt(t, name, g, opt, srcs, bs, nil)
}

// checkSSSPAt is checkSSSP; on, when not nil, also sees every GPU result.
func checkSSSPAt(t *testing.T, name string, g *store.Graph, opt ooc.SSSPOptions, srcs []uint32, bs []int64,
	on func(vram int64, r *ooc.SSSPResult)) {
	t.Helper()
	opt.Parents = true
	cpu, err := ooc.Open(g, "cpu", ooc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cpu.Close()
	w, err := ooc.EdgeWeights(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]*ooc.SSSPResult, len(srcs))
	for i, src := range srcs {
		if want[i], err = cpu.SSSP(src, opt); err != nil {
			t.Fatalf("%s: cpu sssp from %d: %v", name, src, err)
		}
	}
	for _, b := range bs {
		e, err := ooc.Open(g, "gpu", ooc.Options{VRAM: b})
		if err != nil {
			t.Fatalf("%s: vram %d: %v", name, b, err)
		}
		for i, src := range srcs {
			at := fmt.Sprintf("%s vram %d src %d", name, b, src)
			got, err := e.SSSP(src, opt)
			if err != nil {
				t.Fatalf("%s: %v", at, err)
			}
			if !slices.Equal(got.Dist, want[i].Dist) {
				v := 0
				for got.Dist[v] == want[i].Dist[v] {
					v++
				}
				t.Fatalf("%s: dist[%d] = %d, cpu says %d", at, v, got.Dist[v], want[i].Dist[v])
			}
			if !slices.Equal(got.Parent, want[i].Parent) {
				v := 0
				for got.Parent[v] == want[i].Parent[v] {
					v++
				}
				t.Fatalf("%s: parent[%d] = %d, cpu says %d", at, v, got.Parent[v], want[i].Parent[v])
			}
			if got.Reached != want[i].Reached {
				t.Errorf("%s: reached %d, cpu %d", at, got.Reached, want[i].Reached)
			}
			if err := validate.SSSP(g, w, src, got.Dist); err != nil {
				t.Fatalf("%s: %v", at, err)
			}
			if err := validate.SSSPParents(g, w, src, got.Dist, got.Parent); err != nil {
				t.Fatalf("%s: %v", at, err)
			}
			if on != nil {
				on(b, got)
			}
		}
		checkMemory(t, name, e, b)
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSSSPGPUCases: the edge cases with every weight 1 (the BFS levels; the empty graph
// has no source on either backend).
func TestSSSPGPUCases(t *testing.T) {
	needGPU(t)
	for _, c := range testgraph.Cases() {
		for _, shard := range []int64{0, 64} {
			g := testgraph.BuildWithLoops(t, c.N, c.Edges, c.Directed, shard)
			name := fmt.Sprintf("%s/shard%d", c, shard)
			if c.N == 0 {
				e, err := ooc.Open(g, "gpu", ooc.Options{})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := e.SSSP(0, ooc.SSSPOptions{UnitWeights: true}); err == nil {
					t.Errorf("%s: sssp from 0 on the empty graph: no error", name)
				}
				e.Close()
				continue
			}
			srcs := []uint32{0, c.N - 1}
			checkSSSP(t, name, g, ooc.SSSPOptions{UnitWeights: true}, srcs, budgets(t, g))
		}
	}
}

// randomWeighted is a random weighted graph of n vertices with about m edges, weights in
// [1, maxW], plus three hubs with lists of many blocks (warp-shared on the device).
func randomWeighted(r *rand.Rand, n uint32, m int, maxW uint32) []parse.WEdge {
	var edges []parse.WEdge
	for range m {
		edges = append(edges, parse.WEdge{U: r.Uint64N(uint64(n)), V: r.Uint64N(uint64(n)), W: 1 + r.Uint32N(maxW)})
	}
	for h := range 3 {
		for range min(int(n)-1, 5000) {
			edges = append(edges, parse.WEdge{U: uint64(h * 7), V: r.Uint64N(uint64(n)), W: 1 + r.Uint32N(maxW)})
		}
	}
	return append(edges, parse.WEdge{U: uint64(n - 1), V: uint64(n - 1), W: 1}) // fixes n
}

func TestSSSPGPURandom(t *testing.T) {
	needGPU(t)
	r := rand.New(rand.NewPCG(randomSeed(t), 21))
	type spec struct {
		n     uint32
		m     int
		maxW  uint32
		shard int64
	}
	for _, sp := range []spec{{1000, 5000, 255, 0}, {1000, 5000, 2, 2048}, {20000, 200000, 4000, 1 << 16}, {50000, 60000, 1 << 20, 1 << 15}} {
		for _, directed := range []bool{false, true} {
			g := ingestWeighted(t, randomWeighted(r, sp.n, sp.m, sp.maxW), directed, sp.shard)
			name := fmt.Sprintf("random(n=%d,m=%d,w<=%d,shard=%d,directed=%v)", sp.n, sp.m, sp.maxW, sp.shard, directed)
			srcs := []uint32{0, uint32(r.IntN(int(sp.n)))}
			checkSSSP(t, name, g, ooc.SSSPOptions{}, srcs, budgets(t, g))
			checkSSSP(t, name+" unit", g, ooc.SSSPOptions{UnitWeights: true}, srcs[:1], budgets(t, g)[:2])
			// bins of one distance, a few, and one bin for everything (Bellman-Ford)
			for _, d := range []uint32{1, 3, 1 << 30} {
				checkSSSP(t, fmt.Sprintf("%s delta %d", name, d), g, ooc.SSSPOptions{Delta: d}, srcs[:1], budgets(t, g))
			}
		}
	}
}

// TestSSSPGPUUnitIsBFS: with every weight 1 the GPU's distances are the GPU BFS levels.
func TestSSSPGPUUnitIsBFS(t *testing.T) {
	needGPU(t)
	r := rand.New(rand.NewPCG(5, 5))
	g := testgraph.Build(t, 5000, testgraph.Random(r, 5000, 20000), false, 1<<14)
	e, err := ooc.Open(g, "gpu", ooc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	sp, err := e.SSSP(3, ooc.SSSPOptions{UnitWeights: true})
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.BFS(3)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sp.Dist, b.Level) {
		t.Fatal("unit-weight distances differ from the BFS levels")
	}
}

// TestSSSPGPUPath: a weighted path of 10^5 vertices (10^5 rounds), resident and pinned,
// both ways.
func TestSSSPGPUPath(t *testing.T) {
	needGPU(t)
	const n = 100000
	r := rand.New(rand.NewPCG(7, 7))
	var path []parse.WEdge
	for i := uint64(0); i+1 < n; i++ {
		path = append(path, parse.WEdge{U: i, V: i + 1, W: 1 + r.Uint32N(255)})
	}
	for _, directed := range []bool{false, true} {
		g := ingestWeighted(t, path, directed, 1<<16)
		bs := budgets(t, g)
		checkSSSP(t, fmt.Sprintf("path1e5/directed=%v", directed), g, ooc.SSSPOptions{}, []uint32{0, n / 2}, []int64{bs[0], bs[1]})
	}
}

// TestSSSPGPUStream runs SSSP with the held rounds' chunks forced through the staging
// buffers and forced in place (OOC_GPU_STREAM) and chosen by the link, with tiny staging
// buffers (OOC_GPU_STAGE) so that the streamed out-shards split into many chunks (more
// than sp_hold_mark counts in shared memory on the larger graphs) and the hubs' lists
// exceed a chunk (read in place), at budgets that pin all or most lists and the weights
// (1, 2 and 4 bytes each). Distances and parents must equal the CPU's; with always every
// round is held and the rounds copy, on the graphs large enough that the budgets pin
// lists (on the smallest, all rounds or none are held).
func TestSSSPGPUStream(t *testing.T) {
	needGPU(t)
	const stage = 512
	t.Setenv("OOC_GPU_STAGE", "512B")
	r := rand.New(rand.NewPCG(11, 11))
	type spec struct {
		n      uint32
		m      int
		maxW   uint32
		pinned bool // the budgets pin lists
	}
	for _, mode := range []string{"always", "never", "auto"} {
		t.Run(mode, func(t *testing.T) {
			t.Setenv("OOC_GPU_STREAM", mode)
			for _, sp := range []spec{{300, 1500, 255, false}, {5000, 60000, 255, true}, {20000, 100000, 4000, true},
				{3000, 20000, 1 << 20, true}} {
				for _, directed := range []bool{false, true} {
					g := ingestWeighted(t, randomWeighted(r, sp.n, sp.m, sp.maxW), directed, 1<<14)
					name := fmt.Sprintf("%s random(n=%d,m=%d,w<=%d,directed=%v)", mode, sp.n, sp.m, sp.maxW, directed)
					srcs := []uint32{0, uint32(r.IntN(int(sp.n)))}
					var held, rounds int
					var copied int64
					on := func(vram int64, res *ooc.SSSPResult) {
						for _, s := range res.Steps {
							rounds++
							if s.Held {
								held++
							}
							copied += s.BytesCopied
						}
					}
					bs := streamBudgets(t, g, stage)
					checkSSSPAt(t, name, g, ooc.SSSPOptions{}, srcs, bs, on)
					checkSSSPAt(t, name+" delta 1", g, ooc.SSSPOptions{Delta: 1}, srcs[:1], bs[:1], on)
					checkSSSPAt(t, name+" unit", g, ooc.SSSPOptions{UnitWeights: true}, srcs[:1], bs[:1], on)
					t.Logf("%s: %d of %d rounds held, %d bytes copied", name, held, rounds, copied)
					switch mode {
					case "always":
						if (sp.pinned || held > 0) && (held != rounds || copied == 0) {
							t.Errorf("%s: %d of %d rounds held, %d bytes copied", name, held, rounds, copied)
						}
					case "never":
						if held != 0 {
							t.Errorf("%s: %d rounds held", name, held)
						}
					}
				}
			}
			if mode != "always" {
				return
			}
			for _, c := range testgraph.Cases() {
				if c.N == 0 {
					continue
				}
				g := testgraph.BuildWithLoops(t, c.N, c.Edges, c.Directed, 64)
				checkSSSP(t, fmt.Sprintf("%s %s", mode, c), g, ooc.SSSPOptions{UnitWeights: true}, []uint32{0, c.N - 1},
					streamBudgets(t, g, stage))
			}
		})
	}
}

// TestSSSPGPUOverflowNotShortest: a relaxation past the largest distance fails a GPU run
// only where no shorter path reaches the vertex, as on the CPU: the triangle whose two
// long edges sum past it beside a short one and the one edge at the limit answer as the
// CPU does at every budget; a path whose distance exceeds it fails on both, naming its end.
func TestSSSPGPUOverflowNotShortest(t *testing.T) {
	needGPU(t)
	const near = 3 << 30
	for _, directed := range []bool{false, true} {
		tri := ingestWeighted(t, []parse.WEdge{{U: 0, V: 1, W: near}, {U: 1, V: 2, W: near}, {U: 0, V: 2, W: 1}}, directed, 0)
		checkSSSP(t, fmt.Sprintf("triangle/directed=%v", directed), tri, ooc.SSSPOptions{}, []uint32{0, 1}, budgets(t, tri))
		one := ingestWeighted(t, []parse.WEdge{{U: 0, V: 1, W: 1<<32 - 2}}, directed, 0)
		checkSSSP(t, fmt.Sprintf("one edge/directed=%v", directed), one, ooc.SSSPOptions{}, []uint32{0}, budgets(t, one))
		path := ingestWeighted(t, []parse.WEdge{{U: 0, V: 1, W: near}, {U: 1, V: 2, W: near}}, directed, 0)
		for _, backend := range []string{"cpu", "gpu"} {
			e, err := ooc.Open(path, backend, ooc.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if r, err := e.SSSP(0, ooc.SSSPOptions{}); err == nil || !strings.Contains(err.Error(), "vertex 2 exceeds") {
				t.Errorf("path past the limit, %s, directed %v: %v, %v; want vertex 2 named", backend, directed, r, err)
			}
			e.Close()
		}
	}
}
