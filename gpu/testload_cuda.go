//go:build cuda

package gpu

import (
	"testing"

	"github.com/oocgraph/ooc/internal/cuda"
	"github.com/oocgraph/ooc/store"
)

// LoadForTest places g on device 0 for an algorithm's tests, with the algorithm's
// workspace work: all pinned, within the smallest budget that holds the per-vertex
// state (allPinned), or all resident. The test skips where no GPU is usable; done
// releases the graph and the device.
func LoadForTest(t testing.TB, g *store.Graph, work []Item, allPinned bool) (dg *Graph, done func()) {
	t.Helper()
	if err := cuda.Available(); err != nil {
		t.Skipf("no GPU: %v", err)
	}
	vram := int64(0)
	if allPinned {
		p, err := Make(g.NumVertices(), Sizes(g), 1<<40, work)
		if err != nil {
			t.Fatal(err)
		}
		vram = Sum(p.State)
	}
	dev, err := cuda.Open(0, vram, 512<<20)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Make(g.NumVertices(), Sizes(g), dev.Budget(), work)
	if err != nil {
		dev.Close()
		t.Fatal(err)
	}
	if dg, err = Load(dev, g, p, nil); err != nil {
		dev.Close()
		t.Fatal(err)
	}
	return dg, func() { dg.Close(); dev.Close() }
}
