package afforest

import (
	"os"
	"strconv"
	"testing"

	"github.com/oocgraph/ooc/store"
)

// BenchmarkRun labels the components of the graph in OOC_BENCH_GRAPH (a graph
// directory) once per iteration on OOC_BENCH_WORKERS workers (default 1): the engine's
// time without a process's start.
func BenchmarkRun(b *testing.B) {
	dir := os.Getenv("OOC_BENCH_GRAPH")
	if dir == "" {
		b.Skip("OOC_BENCH_GRAPH names no graph")
	}
	g, err := store.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	w, _ := strconv.Atoi(os.Getenv("OOC_BENCH_WORKERS"))
	c := store.NewCompressed(g)
	b.SetBytes(int64(c.NumEdges()) * 4)
	b.ResetTimer()
	for range b.N {
		if _, err := Run(c, Options{Workers: max(w, 1)}); err != nil {
			b.Fatal(err)
		}
	}
}
