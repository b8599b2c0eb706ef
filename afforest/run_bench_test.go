package afforest

import (
	"testing"

	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
)

// BenchmarkRun labels the components of the graph in OOC_BENCH_GRAPH (a graph
// directory) once per iteration on OOC_BENCH_WORKERS workers (default 1): the engine's
// time without a process's start. kernel-ns/op is the runs' own time (Result.Seconds).
func BenchmarkRun(b *testing.B) {
	g, w := testgraph.BenchGraph(b)
	c := store.NewCompressed(g)
	b.SetBytes(int64(c.NumEdges()) * 4)
	var kernel float64
	b.ResetTimer()
	for range b.N {
		res, err := Run(c, Options{Workers: w})
		if err != nil {
			b.Fatal(err)
		}
		kernel += res.Seconds
	}
	b.ReportMetric(kernel/float64(b.N)*1e9, "kernel-ns/op")
}
