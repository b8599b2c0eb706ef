package ooc_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/oocgraph/ooc"
	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
)

// damagedCheck holds Check on a testgraph.Damaged of kind to what it finds without
// decoding: the checksums hold, so "short", "range", "head", "trailing" and "early"
// pass; "index" and "long" fail on the list's length and block index (store's
// checkListBytes), so ooc.Open refuses them. It reports whether Check passed.
func damagedCheck(t *testing.T, kind string, g *store.Graph) bool {
	t.Helper()
	err := g.Check()
	switch kind {
	case "short", "range", "head", "trailing", "early":
		if err != nil {
			t.Fatalf("%s: Check: %v, want nil (the checksums are valid)", kind, err)
		}
	default:
		if !errors.Is(err, store.ErrCorrupt) || !strings.Contains(err.Error(), fmt.Sprintf("vertex %d", testgraph.DamagedVertex)) {
			t.Fatalf("%s: Check: %v, want the list of vertex %d refused", kind, err, testgraph.DamagedVertex)
		}
	}
	return err == nil
}

// eachAlgorithm runs every algorithm of e that decodes testgraph.DamagedVertex's whole
// list: BFS from it (top-down on an engine opened with Alpha 1: bottom-up, its
// neighbours would find it first in their own lists and its list would never be read)
// and unit-weight SSSP, CC (its component is not the largest, so Afforest's last pass
// links all its neighbours), PageRank and k-core, and calls f with each one's name,
// error and whether it returned a result.
func eachAlgorithm(e ooc.Engine, f func(algo string, answered bool, err error)) {
	r1, err := e.BFS(testgraph.DamagedVertex)
	f("bfs", r1 != nil, err)
	r2, err := e.CC()
	f("cc", r2 != nil, err)
	r3, err := e.PageRank(ooc.PageRankOptions{})
	f("pagerank", r3 != nil, err)
	r4, err := e.KCore()
	f("kcore", r4 != nil, err)
	r5, err := e.SSSP(testgraph.DamagedVertex, ooc.SSSPOptions{UnitWeights: true})
	f("sssp", r5 != nil, err)
}

// wantDamaged fails t unless err reports the damaged list: an error matching
// store.ErrCorrupt that names the vertex, and no result beside it.
func wantDamaged(t *testing.T, name string, answered bool, err error) {
	t.Helper()
	switch {
	case err == nil:
		t.Errorf("%s: answered from a damaged list", name)
	case answered:
		t.Errorf("%s: a result beside the error %v", name, err)
	case !errors.Is(err, store.ErrCorrupt):
		t.Errorf("%s: %v does not match store.ErrCorrupt", name, err)
	case !strings.Contains(err.Error(), fmt.Sprintf("vertex %d", testgraph.DamagedVertex)):
		t.Errorf("%s: %v does not name vertex %d", name, err, testgraph.DamagedVertex)
	default:
		t.Logf("%s: %v", name, err)
	}
}

// TestCPUDamagedLists: on each damaged graph every CPU algorithm returns the list's
// error (or ooc.Open refuses the graph, where Check finds the damage), and store.Verify
// (`ooc verify`, which decodes every list) refuses the graph.
func TestCPUDamagedLists(t *testing.T) {
	for _, kind := range testgraph.DamagedKinds {
		g := testgraph.Damaged(t, kind)
		if _, err := store.Verify(g.Dir); err == nil || !errors.Is(err, store.ErrCorrupt) {
			t.Errorf("%s: Verify: %v, want a corrupt list", kind, err)
		}
		e, err := ooc.Open(g, "cpu", ooc.Options{Alpha: 1})
		if !damagedCheck(t, kind, g) {
			wantDamaged(t, kind+"/cpu/open", e != nil, err)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		eachAlgorithm(e, func(algo string, answered bool, err error) {
			wantDamaged(t, kind+"/cpu/"+algo, answered, err)
		})
		e.Close()
	}
}
