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
	case "short", "range", "head", "trailing", "early", "trailing1", "trailing2":
		if err != nil {
			t.Fatalf("%s: Check: %v, want nil (the checksums are valid)", kind, err)
		}
	default:
		if !errors.Is(err, store.ErrCorrupt) || !strings.Contains(err.Error(), fmt.Sprintf("vertex %d", testgraph.DamagedAt(kind))) {
			t.Fatalf("%s: Check: %v, want the list of vertex %d refused", kind, err, testgraph.DamagedAt(kind))
		}
	}
	return err == nil
}

// eachAlgorithm runs every algorithm of e that decodes vertex bad's whole list (a
// testgraph.Damaged's, testgraph.DamagedAt): BFS from it (top-down on an engine opened
// with Alpha 1: bottom-up, its neighbours would find it first in their own lists and
// its list would never be read) and unit-weight SSSP, CC (DamagedVertex's component is
// not the largest, so Afforest's last pass links all its neighbours; a list of one or
// two the sampling reads whole), PageRank and k-core, and calls f with each one's
// name, error and whether it returned a result.
func eachAlgorithm(e ooc.Engine, bad uint32, f func(algo string, answered bool, err error)) {
	r1, err := e.BFS(bad)
	f("bfs", r1 != nil, err)
	r2, err := e.CC()
	f("cc", r2 != nil, err)
	r3, err := e.PageRank(ooc.PageRankOptions{})
	f("pagerank", r3 != nil, err)
	r4, err := e.KCore()
	f("kcore", r4 != nil, err)
	r5, err := e.SSSP(bad, ooc.SSSPOptions{UnitWeights: true})
	f("sssp", r5 != nil, err)
}

// wantDamaged fails t unless err reports the damaged list, vertex bad's: an error
// matching store.ErrCorrupt that names the vertex, and no result beside it.
func wantDamaged(t *testing.T, name string, bad uint32, answered bool, err error) {
	t.Helper()
	switch {
	case err == nil:
		t.Errorf("%s: answered from a damaged list", name)
	case answered:
		t.Errorf("%s: a result beside the error %v", name, err)
	case !errors.Is(err, store.ErrCorrupt):
		t.Errorf("%s: %v does not match store.ErrCorrupt", name, err)
	case !strings.Contains(err.Error(), fmt.Sprintf("vertex %d", bad)):
		t.Errorf("%s: %v does not name vertex %d", name, err, bad)
	default:
		t.Logf("%s: %v", name, err)
	}
}

// TestCPUDamagedLists: on each damaged graph every CPU algorithm returns the list's
// error (or ooc.Open refuses the graph, where Check finds the damage), and store.Verify
// (`ooc verify`, which decodes every list) refuses the graph.
func TestCPUDamagedLists(t *testing.T) {
	for _, kind := range append(testgraph.DamagedKinds, testgraph.ShortDamagedKinds...) {
		g, bad := testgraph.Damaged(t, kind), testgraph.DamagedAt(kind)
		if _, err := store.Verify(g.Dir); err == nil || !errors.Is(err, store.ErrCorrupt) {
			t.Errorf("%s: Verify: %v, want a corrupt list", kind, err)
		}
		e, err := ooc.Open(g, "cpu", ooc.Options{Alpha: 1})
		if !damagedCheck(t, kind, g) {
			wantDamaged(t, kind+"/cpu/open", bad, e != nil, err)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		eachAlgorithm(e, bad, func(algo string, answered bool, err error) {
			wantDamaged(t, kind+"/cpu/"+algo, bad, answered, err)
		})
		e.Close()
	}
}
