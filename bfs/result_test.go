package bfs

import (
	"testing"

	"github.com/oocgraph/ooc/internal/testgraph"
)

func TestSummarize(t *testing.T) {
	// path 0-1-2, isolated 3, edge 4-5: BFS from 0 reaches 3 vertices over 2 edges.
	g := testgraph.Build(t, 6, testgraph.Pairs(0, 1, 1, 2, 4, 5), false, 0)
	r := &Result{Level: []uint32{0, 1, 2, Unreached, Unreached, Unreached}}
	Summarize(g, r)
	if r.Reached != 3 || r.Depth != 2 || r.EdgesTraversed != 2 {
		t.Fatalf("got reached %d depth %d edges %d, want 3 2 2", r.Reached, r.Depth, r.EdgesTraversed)
	}
	// without levels: the vertices with parents, the depth left as it was
	r = &Result{Parent: []uint32{0, 0, 1, Unreached, Unreached, Unreached}, Depth: 7}
	Summarize(g, r)
	if r.Reached != 3 || r.Depth != 7 || r.EdgesTraversed != 2 {
		t.Fatalf("parents alone: got reached %d depth %d edges %d, want 3 7 2", r.Reached, r.Depth, r.EdgesTraversed)
	}
}
