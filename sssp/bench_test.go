package sssp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
)

// BenchmarkRunWeights runs the CPU search on one random graph (2^17 vertices, 2^20
// input edges) with the same weights as uint32 and as float32 (whole numbers 1 to 255,
// so the distances agree) and the same bin width: the cost of the float sum and bins
// against the integer loop, side by side.
func BenchmarkRunWeights(b *testing.B) {
	const n = 1 << 17
	g := testgraph.Build(b, n, testgraph.Random(rand.New(rand.NewPCG(1, 2)), n, 1<<20), false, 0)
	a := store.NewCompressed(g)
	iw, err := NewMemWeights(a, hashWeight(255))
	if err != nil {
		b.Fatal(err)
	}
	fw, err := NewMemFloatWeights(a, func(u, v uint32, k int) uint32 { return math.Float32bits(float32(hashWeight(255)(u, v, k))) })
	if err != nil {
		b.Fatal(err)
	}
	delta := DefaultDelta(a, iw)
	for _, c := range []struct {
		name string
		w    Weights
	}{{"uint32", iw}, {"float32", fw}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Run(a, c.w, 0, Options{Delta: delta}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
