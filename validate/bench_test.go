package validate_test

import (
	"testing"

	"github.com/oocgraph/ooc/afforest"
	"github.com/oocgraph/ooc/bfs"
	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

// benchGraph opens the graph named by OOC_BENCH_GRAPH (a kron22, say), or skips.
func benchGraph(b *testing.B) *store.Graph {
	g, _ := testgraph.BenchGraph(b)
	return g
}

// BenchmarkBFSCheck checks one BFS tree of the graph, from its vertex of highest degree.
func BenchmarkBFSCheck(b *testing.B) {
	g := benchGraph(b)
	a := store.NewCompressed(g)
	var src, top uint32
	for v := range g.NumVertices() {
		if d := a.Degree(store.Out, v); d > top {
			src, top = v, d
		}
	}
	r, err := bfs.Run(a, src, bfs.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(g.NumEdges()) * 4)
	b.ResetTimer()
	for range b.N {
		if err := validate.BFS(g, src, r.Parent, r.Level); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCCCheck checks the graph's components.
func BenchmarkCCCheck(b *testing.B) {
	g := benchGraph(b)
	r, err := afforest.Run(store.NewCompressed(g), afforest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(g.NumEdges()) * 4)
	b.ResetTimer()
	for range b.N {
		if _, err := validate.CC(g, r.Labels); err != nil {
			b.Fatal(err)
		}
	}
}
