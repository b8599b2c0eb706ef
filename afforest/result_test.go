package afforest

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/oocgraph/ooc/gpu"
)

func TestCountComponents(t *testing.T) {
	c := &Result{Labels: []uint32{0, 0, 0, 3, 4, 4}}
	CountComponents(c)
	if c.Components != 3 || c.Largest != 3 {
		t.Fatalf("got %d components, largest %d", c.Components, c.Largest)
	}
}

func TestCountComponentsRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for trial := 0; trial < 50; trial++ {
		n := 1 + r.IntN(300000)
		// a giant component (label 0 when chosen), and many small ones, canonical labels
		labels := make([]uint32, n)
		for v := range labels {
			labels[v] = uint32(v)
			if v > 0 && r.IntN(4) != 0 {
				labels[v] = labels[r.IntN(v)] // join an earlier vertex's component
			}
		}
		size := map[uint32]uint64{}
		var largest uint64
		for _, l := range labels {
			size[l]++
			largest = max(largest, size[l])
		}
		c := &Result{Labels: labels}
		CountComponents(c)
		if c.Components != uint64(len(size)) || c.Largest != largest {
			t.Fatalf("trial %d (n=%d): %d components, largest %d; want %d, %d", trial, n, c.Components, c.Largest, len(size), largest)
		}
	}
}

// TestSamplesBounded: a sample count past MaxSamples is cut to it for both engines, so
// that the GPU's device state holds at most MaxSamples indices and labels.
func TestSamplesBounded(t *testing.T) {
	o := Options{Samples: math.MaxInt}.WithDefaults()
	if o.Samples != MaxSamples {
		t.Errorf("math.MaxInt samples resolved to %d, want %d", o.Samples, MaxSamples)
	}
	if b := gpu.Sum(DeviceState(6, Options{Samples: math.MaxInt})); b > 8*MaxSamples+1<<20 {
		t.Errorf("the device state of math.MaxInt samples takes %d bytes", b)
	}
	if o := (Options{}).WithDefaults(); o.Samples != DefaultSamples || o.Rounds != DefaultRounds {
		t.Errorf("the zero Options resolved to %+v", o)
	}
}
