package store

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// BenchmarkAppendList encodes sorted lists of kron-like degrees: ingest's phase 2
// encodes every list through here.
func BenchmarkAppendList(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	var lists [][]uint32
	total := 0
	for total < 1<<20 {
		l := make([]uint32, 1+rng.IntN(64))
		for i := range l {
			l[i] = rng.Uint32N(1 << 23)
		}
		slices.Sort(l)
		lists = append(lists, l)
		total += len(l)
	}
	buf := make([]byte, 0, 8*total)
	b.SetBytes(int64(4 * total))
	for b.Loop() {
		buf = buf[:0]
		for i, l := range lists {
			buf = AppendList(buf, uint32(i), l)
		}
	}
	b.ReportMetric(float64(b.N)*float64(total)/b.Elapsed().Seconds(), "nbrs/s")
}
