package store

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// BenchmarkAppendList encodes sorted lists of kron-like degrees through both entry
// points: keys is the one ingest's phase 2 encodes every list through (src<<32 | dst
// keys, encoded in place), nbrs the one that takes plain neighbour ids.
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
	keys := make([][]uint64, len(lists))
	for i, l := range lists {
		keys[i] = make([]uint64, len(l))
		for j, x := range l {
			keys[i][j] = uint64(i)<<32 | uint64(x)
		}
	}
	buf := make([]byte, 0, 8*total)
	run := func(b *testing.B, encode func(buf []byte, i int) []byte) {
		b.SetBytes(int64(4 * total))
		for b.Loop() {
			buf = buf[:0]
			for i := range lists {
				buf = encode(buf, i)
			}
		}
		b.ReportMetric(float64(b.N)*float64(total)/b.Elapsed().Seconds(), "nbrs/s")
	}
	b.Run("nbrs", func(b *testing.B) {
		run(b, func(buf []byte, i int) []byte { return AppendList(buf, uint32(i), lists[i]) })
	})
	b.Run("keys", func(b *testing.B) {
		run(b, func(buf []byte, i int) []byte { return AppendListKeys(buf, uint32(i), keys[i]) })
	})
}
