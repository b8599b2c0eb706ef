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
