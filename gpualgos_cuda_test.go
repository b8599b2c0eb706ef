//go:build cuda

package ooc_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/oocgraph/ooc"
	"github.com/oocgraph/ooc/ingest"
	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

// checkAlgos runs PageRank and k-core on g at every budget of bs on the GPU and compares
// with the CPU engine and the references of package validate: PageRank within its error
// bound of the float64 power iteration and, when both ran as many iterations, within 1e-5
// of the CPU's scores in L1; core numbers and the levels' K and Removed equal. onPR, when
// not nil, also sees every GPU PageRank result.
func checkAlgos(t *testing.T, name string, g *store.Graph, bs []int64, onPR func(vram int64, r *ooc.PageRankResult)) {
	t.Helper()
	cpu, err := ooc.Open(g, "cpu", ooc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cpu.Close()
	wantPR, err := cpu.PageRank(ooc.PageRankOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantKC, err := cpu.KCore()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bs {
		e, err := ooc.Open(g, "gpu", ooc.Options{VRAM: b})
		if err != nil {
			t.Fatalf("%s: vram %d: %v", name, b, err)
		}
		pr, err := e.PageRank(ooc.PageRankOptions{})
		if err != nil {
			t.Fatalf("%s vram %d: pagerank: %v", name, b, err)
		}
		if onPR != nil {
			onPR(b, pr)
		}
		comparePR(t, fmt.Sprintf("%s vram %d", name, b), g, pr, wantPR)
		kc, err := e.KCore()
		if err != nil {
			t.Fatalf("%s vram %d: kcore: %v", name, b, err)
		}
		compareKCore(t, fmt.Sprintf("%s vram %d", name, b), g, kc, wantKC)
		checkMemory(t, name, e, b)
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func comparePR(t *testing.T, name string, g *store.Graph, got, want *ooc.PageRankResult) {
	t.Helper()
	if len(got.Scores) != len(want.Scores) {
		t.Fatalf("%s: pagerank: %d scores, cpu %d", name, len(got.Scores), len(want.Scores))
	}
	if d := got.Iterations - want.Iterations; d < -1 || d > 1 || got.Converged != want.Converged && got.Iterations < 100 {
		t.Errorf("%s: pagerank: %d iterations (converged %v), cpu %d (%v)", name, got.Iterations, got.Converged, want.Iterations, want.Converged)
	}
	var l1 float64
	for v := range got.Scores {
		l1 += math.Abs(float64(got.Scores[v]) - float64(want.Scores[v]))
	}
	if got.Iterations == want.Iterations && l1 > 1e-5 {
		t.Errorf("%s: pagerank: scores %.3g from the cpu's in L1 after the same %d iterations", name, l1, got.Iterations)
	}
	if d, err := validate.PageRank(g, got.Scores, got.ErrorBound()); err != nil {
		t.Errorf("%s: pagerank: %v (%.3g)", name, err, d)
	}
	if len(got.Iters) != got.Iterations {
		t.Errorf("%s: pagerank: %d iteration stats for %d iterations", name, len(got.Iters), got.Iterations)
	}
}

func compareKCore(t *testing.T, name string, g *store.Graph, got, want *ooc.KCoreResult) {
	t.Helper()
	if !slices.Equal(got.Core, want.Core) {
		i := 0
		for got.Core[i] == want.Core[i] {
			i++
		}
		t.Errorf("%s: kcore: core[%d] = %d, cpu says %d", name, i, got.Core[i], want.Core[i])
	}
	if got.MaxCore != want.MaxCore || len(got.Levels) != len(want.Levels) {
		t.Errorf("%s: kcore: max core %d in %d levels, cpu %d in %d", name, got.MaxCore, len(got.Levels), want.MaxCore, len(want.Levels))
	} else {
		for i, l := range got.Levels {
			if w := want.Levels[i]; l.K != w.K || l.Removed != w.Removed || l.Edges != w.Edges {
				t.Errorf("%s: kcore: level %d: k %d removed %d edges %d, cpu %d %d %d", name, i, l.K, l.Removed, l.Edges, w.K, w.Removed, w.Edges)
			}
		}
	}
	if _, err := validate.KCore(g, got.Core); err != nil {
		t.Errorf("%s: kcore: %v", name, err)
	}
}

func TestAlgosCases(t *testing.T) {
	needGPU(t)
	for _, c := range testgraph.Cases() {
		for _, shard := range []int64{0, 64} {
			for _, loops := range []bool{false, true} {
				build := testgraph.Build
				if loops {
					build = testgraph.BuildWithLoops
				}
				g := build(t, c.N, c.Edges, c.Directed, shard)
				checkAlgos(t, fmt.Sprintf("%s/shard%d/loops=%v", c, shard, loops), g, budgets(t, g), nil)
			}
		}
	}
	// a path of 10^5 vertices: PageRank's slow mixing, k-core's one level of many rounds
	var path []testgraph.Edge
	for i := uint32(0); i+1 < 100000; i++ {
		path = append(path, testgraph.Edge{U: i, V: i + 1})
	}
	for _, directed := range []bool{false, true} {
		g := testgraph.Build(t, 100000, path, directed, 1<<14)
		checkAlgos(t, fmt.Sprintf("path1e5/directed=%v", directed), g, budgets(t, g), nil)
	}
}

func TestAlgosRandom(t *testing.T) {
	needGPU(t)
	randomGraphs(t, rand.New(rand.NewPCG(randomSeed(t), 2)), func(name string, g *store.Graph) {
		checkAlgos(t, name, g, budgets(t, g), nil)
	})
}

// TestPageRankStream runs PageRank with the staging buffers forced on and off and chosen by
// the link (OOC_GPU_STREAM), tiny (OOC_GPU_STAGE) so that shards split into many chunks and
// a hub's list exceeds a chunk, at budgets that pin all adjacency. The scores must match,
// and the byte counters say what happened: always copies every iteration, never copies
// nothing and reads zero-copy.
func TestPageRankStream(t *testing.T) {
	needGPU(t)
	const stage = 512
	t.Setenv("OOC_GPU_STAGE", "512B")
	r := rand.New(rand.NewPCG(9, 9))
	for _, mode := range []string{"always", "never", "auto"} {
		t.Run(mode, func(t *testing.T) {
			t.Setenv("OOC_GPU_STREAM", mode)
			for _, directed := range []bool{false, true} {
				edges := testgraph.Random(r, 20000, 300000)
				for i := 1; i < 20000; i++ {
					edges = append(edges, testgraph.Edge{U: uint32(i), V: 3}) // an in-hub
				}
				g := testgraph.Build(t, 20000, edges, directed, 1<<14)
				name := fmt.Sprintf("%s directed=%v", mode, directed)
				var copied, zero int64
				checkAlgos(t, name, g, streamBudgets(t, g, stage), func(vram int64, res *ooc.PageRankResult) {
					for _, it := range res.Iters {
						copied += it.BytesCopied
						zero += it.BytesZeroCopy
						if mode == "always" && it.BytesCopied == 0 {
							t.Errorf("%s vram %d: iteration %d copied nothing", name, vram, it.Iter)
						}
					}
				})
				t.Logf("%s: %d bytes copied, %d zero-copy", name, copied, zero)
				if mode == "never" && (copied != 0 || zero == 0) {
					t.Errorf("%s: copied %d bytes, read %d zero-copy", name, copied, zero)
				}
				if mode == "always" && zero == 0 {
					t.Errorf("%s: the hub's list, larger than a chunk, was not read zero-copy", name)
				}
			}
		})
	}
}

// TestAlgosRealGraphs checks PageRank and k-core on the real graphs (directed and
// undirected) resident, with all adjacency pinned and with about half of it on the device.
func TestAlgosRealGraphs(t *testing.T) {
	needGPU(t)
	for _, file := range []string{"facebook_combined.txt.gz", "luxembourg_osm.mtx.gz", "soc-Slashdot0902.txt.gz"} {
		t.Run(file, func(t *testing.T) {
			path := testgraph.Real(t, file)
			for _, directed := range []bool{false, true} {
				dir := filepath.Join(t.TempDir(), "g.ooc")
				if _, err := ingest.File(path, ingest.Options{Dest: dir, Directed: directed, ShardBytes: 256 << 10}); err != nil {
					t.Fatal(err)
				}
				g, err := store.Open(dir)
				if err != nil {
					t.Fatal(err)
				}
				defer g.Close()
				bs := budgets(t, g)
				checkAlgos(t, fmt.Sprintf("%s directed=%v", file, directed), g, []int64{bs[0], bs[2], bs[3]}, nil)
			}
		})
	}
}
