//go:build cuda

package bfs

import (
	"fmt"
	"slices"
	"testing"

	"github.com/oocgraph/ooc/gpu"
	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

// onDevice places g on device 0 with BFS's own workspace, within the smallest budget that
// holds it (everything pinned) or everything resident, and loads bfs.cu.
func onDevice(t *testing.T, g *store.Graph, allPinned bool) (*GPU, func()) {
	t.Helper()
	dg, free := gpu.LoadForTest(t, g, DeviceState(g.NumVertices(), gpu.Sizes(g)), allPinned)
	b, err := NewGPU(dg)
	if err != nil {
		free()
		t.Fatal(err)
	}
	return b, func() { b.Close(); free() }
}

// TestGPUMatchesCPU runs the GPU search on the edge cases, resident and all pinned, and
// compares it with the CPU's: levels equal, parents a valid BFS tree.
func TestGPUMatchesCPU(t *testing.T) {
	for _, c := range testgraph.Cases() {
		g := testgraph.Build(t, c.N, c.Edges, c.Directed, 64)
		for _, pinned := range []bool{false, true} {
			name := fmt.Sprintf("%s/pinned=%v", c, pinned)
			b, done := onDevice(t, g, pinned)
			n := g.NumVertices()
			for _, src := range []uint32{0, n / 2, n - 1} {
				if n == 0 {
					break
				}
				want, err := Run(store.NewCompressed(g), src, Options{})
				if err != nil {
					t.Fatal(err)
				}
				got, err := b.Run(src, Options{})
				if err != nil {
					t.Fatalf("%s src %d: %v", name, src, err)
				}
				if !slices.Equal(got.Level, want.Level) || got.Reached != want.Reached || got.EdgesTraversed != want.EdgesTraversed {
					t.Errorf("%s src %d: GPU reached %d (%d edges), CPU %d (%d edges); levels equal %v", name, src,
						got.Reached, got.EdgesTraversed, want.Reached, want.EdgesTraversed, slices.Equal(got.Level, want.Level))
				}
				if err := validate.BFS(g, src, got.Parent, got.Level); err != nil {
					t.Errorf("%s src %d: %v", name, src, err)
				}
			}
			done()
		}
	}
}
