//go:build cuda

package gpu

import (
	"errors"
	"testing"
	"unsafe"

	"github.com/oocgraph/ooc/internal/cuda"
	"github.com/oocgraph/ooc/internal/testgraph"
)

// TestCheckListsAfterFailedRun: a fault word a decoder set is read and reported by a run
// that failed too (the ListError first, carrying the run's error), and cleared, so the
// next run reports only its own outcome.
func TestCheckListsAfterFailedRun(t *testing.T) {
	g := testgraph.Damaged(t, "range")
	dg, done := LoadForTest(t, g, nil, false)
	defer done()
	w := uint64(1)<<faultSetBit | faultNeighbour<<32 | testgraph.DamagedVertex
	err := dg.Dev.Do(func(c *cuda.Ctx) error {
		f, _, err := c.Global(dg.mod, "ooc_fault")
		if err != nil {
			return err
		}
		return c.HtoD(f, unsafe.Pointer(&w), 8)
	})
	if err != nil {
		t.Fatal(err)
	}
	errRun := errors.New("a launch failed")
	err = dg.CheckLists(dg.mod, errRun)
	var le *ListError
	if !errors.As(err, &le) || le.Vertex != testgraph.DamagedVertex || le.Err == nil || !errors.Is(err, errRun) {
		t.Fatalf("%v: want the ListError of vertex %d carrying the run's error", err, testgraph.DamagedVertex)
	}
	if err := dg.CheckLists(dg.mod, errRun); err != errRun {
		t.Errorf("second run: %v, want its own error alone (the word cleared)", err)
	}
	if err := dg.CheckLists(dg.mod, nil); err != nil {
		t.Errorf("third run: %v", err)
	}
}

// TestLoadFirstFillFault: Load of a graph whose list heads are damaged ("head": every
// neighbour of a list past the vertex count), with a plan that keeps the first-neighbour
// array, refuses the graph with the ListError of first_fill's fault, the word read after
// first_fill has run. The plan is the all-resident one with the array added by hand:
// Make keeps one only where the adjacency does not fit, and this graph's adjacency is
// smaller than the array.
func TestLoadFirstFillFault(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skipf("no GPU: %v", err)
	}
	g := testgraph.Damaged(t, "head")
	n := g.NumVertices()
	p, err := Make(n, Sizes(g), 1<<40, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.FirstK, p.First = FirstK, FirstBytes(n, FirstK)
	dev, err := cuda.Open(0, 0, 512<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	dg, err := Load(dev, g, p, nil)
	if err == nil {
		dg.Close()
		t.Fatal("Load filled the first-neighbour array from a damaged list without an error")
	}
	var le *ListError
	if !errors.As(err, &le) || le.Vertex != testgraph.DamagedVertex || le.Err == nil {
		t.Fatalf("%v: want the ListError of vertex %d", err, testgraph.DamagedVertex)
	}
}
