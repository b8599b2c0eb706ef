//go:build cuda

package afforest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/oocgraph/ooc/gpu"
	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

// onDevice places g on device 0 with Afforest's own workspace, within the smallest budget
// that holds it (everything pinned) or everything resident, and loads afforest.cu.
func onDevice(t *testing.T, g *store.Graph, allPinned bool) (*GPU, func()) {
	t.Helper()
	dg, free := gpu.LoadForTest(t, g, DeviceState(g.NumVertices(), Options{}), allPinned)
	a, err := NewGPU(dg)
	if err != nil {
		free()
		t.Fatal(err)
	}
	return a, func() { a.Close(); free() }
}

// TestGPUMatchesCPU runs Afforest on the device, in a workspace sized for Afforest alone,
// on the edge cases, resident and all pinned, with and without sampling: the labels must
// equal the CPU's (each component's smallest vertex) and pass the validator.
func TestGPUMatchesCPU(t *testing.T) {
	for _, c := range testgraph.Cases() {
		g := testgraph.Build(t, c.N, c.Edges, c.Directed, 64)
		for _, pinned := range []bool{false, true} {
			a, done := onDevice(t, g, pinned)
			for _, rounds := range []int{NoSampling, 2} {
				name := fmt.Sprintf("%s/pinned=%v/rounds=%d", c, pinned, rounds)
				opt := Options{Rounds: rounds, Samples: 16, Seed: 3}
				want, err := Run(store.NewCompressed(g), opt)
				if err != nil {
					t.Fatal(err)
				}
				got, err := a.Run(opt)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if !slices.Equal(got.Labels, want.Labels) || got.Components != want.Components || got.Largest != want.Largest {
					t.Errorf("%s: GPU %d components (largest %d), CPU %d (largest %d)", name, got.Components, got.Largest, want.Components, want.Largest)
				}
				if _, err := validate.CC(g, got.Labels); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
			done()
		}
	}
}
