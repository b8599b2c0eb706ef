//go:build cuda

package ooc_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/oocgraph/ooc"
	"github.com/oocgraph/ooc/ingest"
	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
)

// randomFloatWeight is a non-negative float32 of a spread of magnitudes: zero, tiny
// (denormal included), below one, and up to 10^4, so that sums round.
func randomFloatWeight(r *rand.Rand) float32 {
	switch x := r.IntN(10); {
	case x == 0:
		return 0
	case x == 1:
		return math.Float32frombits(1 + r.Uint32N(1<<23)) // a denormal
	case x < 4:
		return r.Float32() * 1e-3
	case x < 8:
		return r.Float32()
	default:
		return 1 + r.Float32()*1e4
	}
}

// ingestFloat writes edges as "u v w" text with float weights (shortest round-tripping
// digits) and ingests it with --weights --float-weights.
func ingestFloat(t *testing.T, r *rand.Rand, n uint32, edges []testgraph.Edge, directed bool, shardBytes int64) *store.Graph {
	t.Helper()
	var b strings.Builder
	for _, e := range edges {
		fmt.Fprintf(&b, "%d %d %s\n", e.U, e.V, strconv.FormatFloat(float64(randomFloatWeight(r)), 'g', -1, 32))
	}
	fmt.Fprintf(&b, "%d %d 1\n", n-1, n-1) // fixes n
	in := filepath.Join(t.TempDir(), "f.txt")
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	g := ingestFile(t, in, ingest.Options{Directed: directed, ShardBytes: shardBytes, Weights: true, FloatWeights: true})
	if !g.M.FloatWeights() {
		t.Fatal("the graph's weights are not float32")
	}
	return g
}

// TestSSSPGPUFloat runs SSSP on float32 weights on the device at every budget (lists and
// weights resident, pinned, read zero-copy, streamed by held rounds) and compares with the
// CPU engine (distances and parents exactly: both add float32s in path order) and with
// Dijkstra, on random graphs with hubs, at the default bin width and at narrow and wide
// ones, and on the edge cases.
func TestSSSPGPUFloat(t *testing.T) {
	needGPU(t)
	r := rand.New(rand.NewPCG(5, 20))
	for _, mode := range []string{"auto", "always"} {
		t.Run(mode, func(t *testing.T) {
			t.Setenv("OOC_GPU_STAGE", "512B")
			t.Setenv("OOC_GPU_STREAM", mode)
			for _, sp := range []struct {
				n uint32
				m int
			}{{300, 1500}, {5000, 60000}, {20000, 100000}} {
				for _, directed := range []bool{false, true} {
					var edges []testgraph.Edge
					for range sp.m {
						edges = append(edges, testgraph.Edge{U: r.Uint32N(sp.n), V: r.Uint32N(sp.n)})
					}
					for range min(int(sp.n)-1, 5000) { // a hub of many blocks: warps share it
						edges = append(edges, testgraph.Edge{U: 7, V: r.Uint32N(sp.n)})
					}
					g := ingestFloat(t, r, sp.n, edges, directed, 1<<14)
					name := fmt.Sprintf("%s float random(n=%d,m=%d,directed=%v)", mode, sp.n, sp.m, directed)
					srcs := []uint32{0, 7, r.Uint32N(sp.n)}
					bs := streamBudgets(t, g, 512)
					checkSSSP(t, name, g, ooc.SSSPOptions{}, srcs, bs)
					checkSSSP(t, name+" delta 1e-3", g, ooc.SSSPOptions{FloatDelta: 1e-3}, srcs[:1], bs[:1])
					checkSSSP(t, name+" delta 1e6", g, ooc.SSSPOptions{FloatDelta: 1e6}, srcs[:1], bs[:1])
				}
			}
		})
	}
	for _, c := range testgraph.Cases() {
		if c.N == 0 {
			continue
		}
		g := ingestFloat(t, r, c.N, c.Edges, c.Directed, 64)
		checkSSSP(t, "float "+c.String(), g, ooc.SSSPOptions{}, []uint32{0, c.N - 1}, budgets(t, g))
	}
}
