package store

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// touchWant is the sum of the bytes at headOffsets's offsets from dirEntry: the byte at
// each named vertex's first value, for groups whose pairs ScanGroup reads with one load.
func touchWant(s *Shard, g uint32, todo uint64) (sum byte, loads int) {
	h := s.dirH[g*4:]
	wo, wd := h[3]>>16&0xff, h[3]>>24
	if 2*wo+wd > 57 {
		return 0, 0
	}
	for t := todo; t != 0; t &= t - 1 {
		j := uint32(bits.TrailingZeros64(t))
		if g*DirGroup+j >= s.N {
			break
		}
		d, a, _ := s.dirEntry(g*DirGroup + j)
		if q := uint64(a) + uint64(FirstBlock(d)); d != 0 && q < uint64(len(s.Adj)) {
			sum += s.Adj[q]
			loads++
		}
	}
	return sum, loads
}

// TestHeadOffsets holds headOffsets's offsets to the directory (dirEntry) on random
// shards, for random sets of vertices (their bytes summed), and to none on a group of
// wide pairs; PrefetchHeads asks for them.
func TestHeadOffsets(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 43))
	loads := 0
	var r0 GroupScan
	var offs [DirGroup]uint32
	for range 8 {
		n := uint32(1 + r.IntN(3000))
		g := shapesGraph(t, r, n)
		for _, s := range g.Out().Shards {
			for grp := uint32(0); grp*DirGroup < s.N; grp++ {
				for _, todo := range []uint64{^uint64(0), r.Uint64(), r.Uint64() & r.Uint64() & r.Uint64()} {
					want, k := touchWant(s, grp, todo)
					n, got := s.headOffsets(grp, todo, &r0, &offs), byte(0)
					for _, q := range offs[:n] {
						got += s.Adj[q]
					}
					if got != want || n != k {
						t.Fatalf("shard at %d, group %d, vertices %#x: %d offsets, sum %d; want %d, %d", s.Lo, grp, todo, n, got, k, want)
					}
					s.PrefetchHeads(grp, todo, &r0)
					loads += k
				}
			}
		}
	}
	if loads < 1000 {
		t.Fatalf("only %d lists loaded", loads)
	}
	adj := make([]byte, wideSpan+4)
	for i := range adj {
		adj[i] = 1
	}
	s, _, _ := widePairs(t, r, adj)
	if n := s.headOffsets(0, ^uint64(0), &r0, &offs); n != 0 {
		t.Fatalf("group of wide pairs: %d offsets, want none", n)
	}
}
