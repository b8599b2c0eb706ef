package ingest

import (
	"math"
	"math/bits"
)

// idSketch estimates how many distinct ids it was given, in 16 KiB (HyperLogLog:
// Flajolet, Fusy, Gandouet and Meunier, 2007, with its small-range correction; 2^14
// registers, a standard error of 0.8%). --relabel feeds it the ids that arrive once
// its id set has outgrown its share of --mem, so that the refusal can name the budget
// the whole input needs instead of a guess.
type idSketch struct{ reg [1 << sketchBits]uint8 }

const sketchBits = 14

func (s *idSketch) add(ids []uint64) {
	for _, id := range ids {
		h := sampleHash(id) // murmur3's finalizer: strided ids spread over every bit
		j := h >> (64 - sketchBits)
		rank := uint8(bits.LeadingZeros64(h<<sketchBits|1<<(sketchBits-1))) + 1
		s.reg[j] = max(s.reg[j], rank)
	}
}

// estimate is the number of distinct ids added.
func (s *idSketch) estimate() float64 {
	const m = float64(1 << sketchBits)
	var sum float64
	zeros := 0
	for _, r := range s.reg {
		sum += math.Ldexp(1, -int(r))
		if r == 0 {
			zeros++
		}
	}
	e := 0.7213 / (1 + 1.079/m) * m * m / sum
	if e <= 2.5*m && zeros > 0 {
		e = m * math.Log(m/float64(zeros))
	}
	return e
}
