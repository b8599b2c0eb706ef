package store

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// touchWant is TouchGroup's sum from dirEntry: the byte at each named vertex's first
// value, for groups whose pairs ScanGroup reads with one load.
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

// TestTouchGroup holds TouchGroup's loads to the directory (dirEntry) on random shards,
// for random sets of vertices, and to nothing on a group of wide pairs.
func TestTouchGroup(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 43))
	loads := 0
	var r0 GroupScan
	for range 8 {
		n := uint32(1 + r.IntN(3000))
		g := shapesGraph(t, r, n)
		for _, s := range g.Out().Shards {
			for grp := uint32(0); grp*DirGroup < s.N; grp++ {
				for _, todo := range []uint64{^uint64(0), r.Uint64(), r.Uint64() & r.Uint64() & r.Uint64()} {
					want, k := touchWant(s, grp, todo)
					if got := s.TouchGroup(grp, todo, &r0); got != want {
						t.Fatalf("shard at %d, group %d, vertices %#x: sum %d, want %d", s.Lo, grp, todo, got, want)
					}
					loads += k
				}
			}
		}
	}
	if loads < 1000 {
		t.Fatalf("only %d lists loaded", loads)
	}
	const span = 1 << 22
	var start, deg [DirGroup]uint32
	for j := 1; j < DirGroup; j++ {
		start[j] = span - uint32(DirGroup-j)*16
		deg[j] = uint32(r.IntN(4096))
	}
	deg[0] = 4000
	adj := make([]byte, span+4)
	for i := range adj {
		adj[i] = 1
	}
	s, wo, wd := wideGroup(100, adj[:span], &start, &deg)
	if 2*wo+wd <= 57 {
		t.Fatalf("widths %d and %d fit one load", wo, wd)
	}
	if got := s.TouchGroup(0, ^uint64(0), &r0); got != 0 {
		t.Fatalf("group of wide pairs: sum %d, want 0 (no loads)", got)
	}
}
