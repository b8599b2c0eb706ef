package testgraph

import (
	"os"
	"strconv"
	"testing"

	"github.com/oocgraph/ooc/store"
)

// BenchGraph opens the graph directory that OOC_BENCH_GRAPH names, closed when the
// benchmark ends, and returns it with the worker count OOC_BENCH_WORKERS asks for (1
// when unset). It skips the benchmark when no graph is named.
func BenchGraph(b *testing.B) (*store.Graph, int) {
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
	return g, max(w, 1)
}
