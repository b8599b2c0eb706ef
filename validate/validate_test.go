package validate

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
)

const U = ^uint32(0) // bfs.Unreached

// The graph: 0-1, 0-2, 1-3, 2-3, 3-4, and 5-6 apart. A BFS from 0 gives levels
// 0 1 1 2 3 - -.
func fixture(t *testing.T) (*store.Graph, []uint32, []uint32) {
	edges := []testgraph.Edge{{U: 0, V: 1}, {U: 0, V: 2}, {U: 1, V: 3}, {U: 2, V: 3}, {U: 3, V: 4}, {U: 5, V: 6}}
	g := testgraph.Build(t, 7, edges, false, 0)
	return g, []uint32{0, 0, 0, 1, 3, U, U}, []uint32{0, 1, 1, 2, 3, U, U}
}

func TestBFSAcceptsValid(t *testing.T) {
	g, parent, level := fixture(t)
	if err := BFS(g, 0, parent, level); err != nil {
		t.Fatal(err)
	}
	parent[3] = 2 // the other valid tree
	if err := BFS(g, 0, parent, level); err != nil {
		t.Fatal(err)
	}
}

// TestBFSRejectsBroken mutates a valid result in each way the Graph500 checks forbid.
func TestBFSRejectsBroken(t *testing.T) {
	g, parent0, level0 := fixture(t)
	cases := []struct {
		name string
		src  uint32
		mut  func(p, l []uint32)
	}{
		{"source not its own parent", 0, func(p, l []uint32) { p[0] = 1 }},
		{"source level not 0", 0, func(p, l []uint32) { l[0] = 1 }},
		{"wrong source", 1, func(p, l []uint32) {}},
		{"parent is not a neighbour", 0, func(p, l []uint32) { p[4] = 1 }},
		{"tree edge skips a level", 0, func(p, l []uint32) { p[4], l[4] = 1, 2 }},
		{"level too deep", 0, func(p, l []uint32) { l[4] = 5 }},
		{"reached without a parent", 0, func(p, l []uint32) { p[4] = U }},
		{"parent without a level", 0, func(p, l []uint32) { l[4] = U }},
		{"unreached neighbour of a reached vertex", 0, func(p, l []uint32) { p[4], l[4] = U, U }},
		{"unreachable vertex reached", 0, func(p, l []uint32) { p[5], l[5] = 6, 4; p[6], l[6] = 5, 3 }},
		{"parent out of range", 0, func(p, l []uint32) { p[4] = 99 }},
		{"cycle of parents", 0, func(p, l []uint32) { p[1], p[3] = 3, 1 }},
		{"short arrays", 0, func(p, l []uint32) {}},
	}
	for _, c := range cases {
		p, l := slices.Clone(parent0), slices.Clone(level0)
		c.mut(p, l)
		if c.name == "short arrays" {
			p = p[:6]
		}
		if err := BFS(g, c.src, p, l); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: got %v, want an ErrInvalid", c.name, err)
		}
	}
}

func TestCC(t *testing.T) {
	g, _, _ := fixture(t)
	good := []uint32{7, 7, 7, 7, 7, 100, 100} // any label values
	p, err := CC(g, good)
	if err != nil || p.Components != 2 || p.Largest != 5 {
		t.Fatalf("valid labels: %+v, %v", p, err)
	}
	for name, labels := range map[string][]uint32{
		"split component":    {0, 0, 0, 3, 3, 5, 5},
		"merged components":  {0, 0, 0, 0, 0, 0, 0},
		"merged, big labels": {9, 9, 9, 9, 9, 9, 9},
		"short":              {0, 0, 0, 0, 0, 5},
	} {
		if _, err := CC(g, labels); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: got %v, want an ErrInvalid", name, err)
		}
	}
}

// TestSourceWithUnreachedNeighbour: on the path 0-1 searched from 1, vertex 0 left
// unreached breaks only the edge checked from the source's side.
func TestSourceWithUnreachedNeighbour(t *testing.T) {
	g := testgraph.Build(t, 2, []testgraph.Edge{{U: 0, V: 1}}, false, 0)
	if err := BFS(g, 1, []uint32{1, 1}, []uint32{1, 0}); err != nil {
		t.Fatal(err)
	}
	if err := BFS(g, 1, []uint32{U, 1}, []uint32{U, 0}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("got %v, want an ErrInvalid", err)
	}
}

// TestDeepBFS checks a search deeper than a byte of levels holds (a path of 600
// vertices, so the check reads the levels as they are) and one that fits, each valid
// and broken, and a path whose only deep level is a broken one.
func TestDeepBFS(t *testing.T) {
	for _, n := range []uint32{200, 600} {
		var edges []testgraph.Edge
		for v := range n - 1 {
			edges = append(edges, testgraph.Edge{U: v, V: v + 1})
		}
		g := testgraph.Build(t, n, edges, false, 0)
		parent, level := make([]uint32, n), make([]uint32, n)
		for v := range n {
			parent[v], level[v] = max(v, 1)-1, v
		}
		if err := BFS(g, 0, parent, level); err != nil {
			t.Fatalf("path of %d: %v", n, err)
		}
		for name, mut := range map[string]func(p, l []uint32){
			"level too deep":   func(p, l []uint32) { l[n-1] = n },
			"level of 255":     func(p, l []uint32) { l[n/2] = 255 },
			"level skips back": func(p, l []uint32) { l[n-1] = n - 3 },
			"unreached middle": func(p, l []uint32) { p[n/2], l[n/2] = U, U },
		} {
			p, l := slices.Clone(parent), slices.Clone(level)
			mut(p, l)
			if err := BFS(g, 0, p, l); !errors.Is(err, ErrInvalid) {
				t.Errorf("path of %d, %s: got %v, want an ErrInvalid", n, name, err)
			}
		}
	}
}

// TestBFSDamagedList: BFS reads testgraph.DamagedVertex's list on to its parent, its
// largest neighbour (the search's source), so to the list's end; on Damaged's
// "trailing" and "early" lists, whose blocks each decode, it must refuse the list where
// store.ListIter does (store.BlockEnds), not accept the result.
func TestBFSDamagedList(t *testing.T) {
	bad := uint32(testgraph.DamagedVertex)
	var nbrs []uint32 // bad's neighbours, as Damaged lays them out
	for k := uint32(0); k < 100; k++ {
		nbrs = append(nbrs, bad+1+2*k+k%3)
	}
	src := nbrs[len(nbrs)-1]
	for _, kind := range []string{"trailing", "early"} {
		g := testgraph.Damaged(t, kind)
		parent, level := make([]uint32, g.NumVertices()), make([]uint32, g.NumVertices())
		for i := range parent {
			parent[i], level[i] = U, U
		}
		for _, u := range nbrs {
			parent[u], level[u] = bad, 2
		}
		parent[src], level[src] = src, 0
		parent[bad], level[bad] = src, 1
		err := BFS(g, src, parent, level)
		if !errors.Is(err, store.ErrCorrupt) || !strings.Contains(err.Error(), fmt.Sprintf("vertex %d", bad)) {
			t.Errorf("%s: BFS = %v, want vertex %d's list refused", kind, err, bad)
		}
	}
}
