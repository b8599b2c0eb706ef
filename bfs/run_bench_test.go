package bfs

import (
	"math/rand/v2"
	"os"
	"testing"

	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
)

// benchGraph opens the graph directory named by OOC_BENCH_GRAPH, or skips; the worker
// count comes from OOC_BENCH_WORKERS (default 1). With OOC_BENCH_FLAT=1 the graph is
// decompressed into a store.Flat first: the uncompressed baseline.
func benchGraph(b *testing.B) (store.Adjacency, int) {
	g, w := testgraph.BenchGraph(b)
	if os.Getenv("OOC_BENCH_FLAT") == "1" {
		f, err := store.NewFlat(g)
		if err != nil {
			b.Fatal(err)
		}
		return f, w
	}
	return store.NewCompressed(g), w
}

// BenchmarkRun searches the graph in OOC_BENCH_GRAPH from 8 seeded random sources with
// an edge each, one search per iteration: the engine's time without a process's start.
// kernel-ns/op is the searches' own time (Result.Seconds: their arrays' allocation
// included, the summary after them not).
// OOC_BENCH_STRICT=1 sets Options.StrictSwitch, OOC_BENCH_NOLEVELS=1 Options.NoLevels.
func BenchmarkRun(b *testing.B) {
	c, workers := benchGraph(b)
	r := rand.New(rand.NewPCG(1, 1))
	var srcs []uint32
	for len(srcs) < 8 {
		if v := r.Uint32N(c.NumVertices()); c.Degree(store.Out, v) > 0 {
			srcs = append(srcs, v)
		}
	}
	opt := Options{Workers: workers, StrictSwitch: os.Getenv("OOC_BENCH_STRICT") == "1", NoLevels: os.Getenv("OOC_BENCH_NOLEVELS") == "1"}
	var edges uint64
	var kernel float64
	b.ResetTimer()
	for i := range b.N {
		res, err := Run(c, srcs[i%len(srcs)], opt)
		if err != nil {
			b.Fatal(err)
		}
		edges += res.EdgesTraversed
		kernel += res.Seconds
	}
	b.ReportMetric(float64(edges)/b.Elapsed().Seconds()/1e6, "Medges/s")
	b.ReportMetric(kernel/float64(b.N)*1e9, "kernel-ns/op")
}
