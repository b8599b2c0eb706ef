package store

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDirCursorShortSection reads every vertex through DirCursor on shards whose packed
// pairs are cut to end 8 bytes past the last group's last pair (its load still inside):
// the word after that pair lies outside, so the cursor decodes that group with its
// checked loop, and must give what it gives on the whole section.
func TestDirCursorShortSection(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 43))
	cuts := 0
	for range 12 {
		n := uint32(1 + r.IntN(3000))
		for _, s := range shapesGraph(t, r, n).Out().Shards {
			g := (s.N - 1) >> dirGroupShift
			h := s.dirH[g*4:][:8]
			wp := uint64(h[3]>>16&0xff + h[3]>>24)
			cnt := uint64(s.N - g<<dirGroupShift)
			p := uint64(h[1])*64 + (cnt-1)*wp // the last pair's first bit
			cut := p/8 + 8
			if wp > 57 || (p+wp)/8+8 <= cut || cut > uint64(len(s.dirB)) {
				continue // no cut that leaves the last pair's load inside and the next one out
			}
			cuts++
			short := &Shard{Lo: s.Lo, N: s.N, Adj: s.Adj, dirH: s.dirH, dirB: s.dirB[:cut:cut]}
			var whole, part DirCursor
			whole.Reset(s)
			part.Reset(short)
			for i := range s.N {
				d, l := whole.At(i)
				cd, cl := part.At(i)
				if cd != d || !slices.Equal(cl, l) {
					t.Fatalf("shard at %d, vertex %d: cut section %d %x, whole %d %x", s.Lo, s.Lo+i, cd, cl, d, l)
				}
			}
		}
	}
	if cuts == 0 {
		t.Fatal("no shard's last group could be cut so")
	}
}
