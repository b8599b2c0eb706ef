//go:build cuda

package ooc_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/oocgraph/ooc"
	"github.com/oocgraph/ooc/gpu"
	"github.com/oocgraph/ooc/internal/testgraph"
)

// TestGPUDamagedLists: on each damaged graph (testgraph.Damaged), at every budget of
// budgets (resident, all pinned, and between), every GPU algorithm returns the device
// decoders' error, a *gpu.ListError naming the vertex and its shard, and no answer; or
// Open refuses the graph: Check for "index" and "long", the first-neighbour array's fill
// for "head" where the plan keeps one. Run under compute-sanitizer, no access of any
// kernel leaves its buffers.
func TestGPUDamagedLists(t *testing.T) {
	for _, kind := range append(testgraph.DamagedKinds, testgraph.ShortDamagedKinds...) {
		g, bad := testgraph.Damaged(t, kind), testgraph.DamagedAt(kind)
		if !damagedCheck(t, kind, g) {
			e, err := ooc.Open(g, "gpu", ooc.Options{})
			wantDamaged(t, kind+"/gpu/open", bad, e != nil, err)
			continue
		}
		for _, b := range budgets(t, g) {
			name := fmt.Sprintf("%s/gpu@%d", kind, b)
			e, err := ooc.Open(g, "gpu", ooc.Options{VRAM: b, Alpha: 1})
			if err != nil {
				wantDevice(t, name+"/open", bad, false, err)
				continue
			}
			eachAlgorithm(e, bad, func(algo string, answered bool, err error) {
				wantDevice(t, name+"/"+algo, bad, answered, err)
			})
			if err := e.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// wantDevice is wantDamaged for an error the device's decoders found: a *gpu.ListError
// for vertex bad whose CPU check named the list's shard.
func wantDevice(t *testing.T, name string, bad uint32, answered bool, err error) {
	t.Helper()
	wantDamaged(t, name, bad, answered, err)
	var le *gpu.ListError
	if !errors.As(err, &le) || le.Vertex != bad || le.Err == nil {
		t.Errorf("%s: %v is not the device's error for vertex %d's list", name, err, bad)
	}
}
