package bfs

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/oocgraph/ooc/store"
)

// benchGraph opens the graph directory named by OOC_BENCH_GRAPH, or skips; the worker
// count comes from OOC_BENCH_WORKERS (default 1).
func benchGraph(b *testing.B) (*store.Compressed, int) {
	dir := os.Getenv("OOC_BENCH_GRAPH")
	if dir == "" {
		b.Skip("OOC_BENCH_GRAPH names no graph")
	}
	g, err := store.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { g.Close() })
	w, _ := strconv.Atoi(os.Getenv("OOC_BENCH_WORKERS"))
	return store.NewCompressed(g), max(w, 1)
}

// BenchmarkRun searches the graph in OOC_BENCH_GRAPH from 8 seeded random sources with
// an edge each, one search per iteration: the engine's time without a process's start.
func BenchmarkRun(b *testing.B) {
	c, workers := benchGraph(b)
	r := rand.New(rand.NewPCG(1, 1))
	var srcs []uint32
	for len(srcs) < 8 {
		if v := r.Uint32N(c.NumVertices()); c.Degree(store.Out, v) > 0 {
			srcs = append(srcs, v)
		}
	}
	var edges uint64
	b.ResetTimer()
	for i := range b.N {
		res, err := Run(c, srcs[i%len(srcs)], Options{Workers: workers})
		if err != nil {
			b.Fatal(err)
		}
		edges += res.EdgesTraversed
	}
	b.ReportMetric(float64(edges)/b.Elapsed().Seconds()/1e6, "Medges/s")
}
