package gen

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// WeightSpec gives generated edges integer weights, uniform in [Lo, Hi].
type WeightSpec struct{ Lo, Hi uint32 }

// ParseWeightSpec reads "uniform:LO:HI", LO <= HI < 2^32.
func ParseWeightSpec(s string) (WeightSpec, error) {
	f := strings.Split(s, ":")
	if len(f) == 3 && f[0] == "uniform" {
		lo, err1 := strconv.ParseUint(f[1], 10, 32)
		hi, err2 := strconv.ParseUint(f[2], 10, 32)
		if err1 == nil && err2 == nil && lo <= hi {
			return WeightSpec{uint32(lo), uint32(hi)}, nil
		}
	}
	return WeightSpec{}, fmt.Errorf("gen: %w: weights %q, want uniform:LO:HI with integers 0 <= LO <= HI <= %d", ErrSpec, s, uint32(math.MaxUint32))
}

func (w WeightSpec) String() string { return fmt.Sprintf("uniform:%d:%d", w.Lo, w.Hi) }

// Weight is the weight of the generated edge u -> v of a graph with the given seed: Lo
// plus a hash of (seed, the smaller end, the larger) modulo the range's size. It depends
// on nothing else, so it is the same with any number of workers, the repeated copies of
// an edge weigh the same either way round, and a graph's lists can be weighed after an
// unweighted build (ingest.WeighEdges).
func (w WeightSpec) Weight(seed, u, v uint64) uint32 {
	a, b := min(u, v), max(u, v)
	x := mix64(mix64((seed^0x6a09e667f3bcc909)+a*golden) + b*golden)
	return w.Lo + uint32(x%(uint64(w.Hi-w.Lo)+1))
}

// AppendWeightedText appends "u v w" lines, the weights from ws and seed.
func AppendWeightedText(dst []byte, edges []Edge, ws WeightSpec, seed uint64) []byte {
	for _, e := range edges {
		dst = strconv.AppendUint(dst, e.U, 10)
		dst = append(dst, ' ')
		dst = strconv.AppendUint(dst, e.V, 10)
		dst = append(dst, ' ')
		dst = strconv.AppendUint(dst, uint64(ws.Weight(seed, e.U, e.V)), 10)
		dst = append(dst, '\n')
	}
	return dst
}

// WriteWeighted is Write for a weighted text edge list ("u v w" lines).
func WriteWeighted(w io.Writer, s Spec, ws WeightSpec, workers int) (int64, error) {
	return s.write(w, workers, func(dst []byte, edges []Edge) []byte { return AppendWeightedText(dst, edges, ws, s.Seed) })
}
