package ingest

import (
	"math"
	"testing"
)

// TestIDSketch: the estimate is within 4% (five standard errors) of the distinct count,
// for dense, strided and random ids, repeated or not.
func TestIDSketch(t *testing.T) {
	rng, seed := seededRand(t, 31)
	for _, n := range []int{1, 1000, 50_000, 2_000_000} {
		for _, kind := range []string{"dense", "stride", "random"} {
			var s idSketch
			ids := make([]uint64, 0, 1<<16)
			for i := range n {
				var id uint64
				switch kind {
				case "dense":
					id = uint64(i)
				case "stride":
					id = uint64(i) << 20
				default:
					id = rng.Uint64()
				}
				ids = append(ids, id, id) // each twice
				if len(ids) == cap(ids) {
					s.add(ids)
					ids = ids[:0]
				}
			}
			s.add(ids)
			if e := s.estimate(); math.Abs(e-float64(n)) > 0.04*float64(n)+1 {
				t.Errorf("%d %s ids: estimated %.0f (seed %d)", n, kind, e, seed)
			}
		}
	}
}
