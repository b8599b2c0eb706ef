package ooc_test

import (
	"testing"

	"github.com/oocgraph/ooc"
	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/validate"
)

func TestEngine(t *testing.T) {
	edges := []testgraph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 3, V: 4}}
	g := testgraph.Build(t, 6, edges, false, 0)
	for _, backend := range []string{"auto", "cpu"} {
		e, err := ooc.Open(g, backend, ooc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		// "auto" opens the GPU where a -tags cuda build finds one; the answers are the same
		if (backend == "cpu" && e.Name() != "cpu") || e.Plan() == "" {
			t.Fatalf("%s: opened %q with plan %q", backend, e.Name(), e.Plan())
		}
		b, err := e.BFS(1)
		if err != nil {
			t.Fatal(err)
		}
		if b.Reached != 3 || b.Depth != 1 || b.EdgesTraversed != 2 {
			t.Fatalf("bfs from 1: %+v", b)
		}
		if err := validate.BFS(g, 1, b.Parent, b.Level); err != nil {
			t.Fatal(err)
		}
		c, err := e.CC()
		if err != nil {
			t.Fatal(err)
		}
		if c.Components != 3 || c.Largest != 3 {
			t.Fatalf("cc: %d components, largest %d", c.Components, c.Largest)
		}
		e.Close()
	}
}
