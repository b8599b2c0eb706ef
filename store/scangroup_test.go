package store

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// checkScanGroup compares ScanGroup, and its path for wide directory fields, on every
// group of s with random vertex masks against ScanList on each vertex in order: the same
// vertices found with the same parents, the same empty vertices, checks and degree sum,
// and the same first refused vertex (before which the results must agree).
func checkScanGroup(t *testing.T, r *rand.Rand, s *Shard, nv uint32, front []uint64) {
	t.Helper()
	for g := uint32(0); g*DirGroup < s.N; g++ {
		todo := r.Uint64()
		switch r.IntN(4) {
		case 0:
			todo = ^uint64(0)
		case 1:
			todo &= r.Uint64() & r.Uint64()
		}
		cnt := min(DirGroup, s.N-g*DirGroup)
		var got, wide GroupScan
		bad := s.ScanGroup(g, todo, nv, front, &got)
		if cnt < DirGroup { // scanGroupWide takes ScanGroup's mask
			todo &= 1<<cnt - 1
		}
		wbad := s.scanGroupWide(g*DirGroup, todo, nv, front, &wide)
		var want GroupScan
		wantBad := -1
		for j := uint32(0); j < cnt; j++ {
			if todo&(1<<j) == 0 {
				continue
			}
			d, a, b := s.dirEntry(g*DirGroup + j)
			if d == 0 {
				want.Empty |= 1 << j
				continue
			}
			if b > uint32(len(s.Adj)) { // a list past ADJ's end is refused
				wantBad = int(j)
				break
			}
			list := s.Adj[a:b]
			x, c, st := ScanList(list, s.Lo+g*DirGroup+j, d, nv, front)
			want.Checked += uint64(c)
			if st == Malformed {
				wantBad = int(j)
				break
			}
			if st == Found {
				want.Found |= 1 << j
				want.Parent[j] = x
				want.Degrees += uint64(d)
			}
		}
		for _, c := range []struct {
			name string
			bad  int
			r    *GroupScan
		}{{"ScanGroup", bad, &got}, {"wide", wbad, &wide}} {
			if c.bad != wantBad {
				t.Fatalf("shard at %d, group %d, todo %#x: %s refuses %d, ScanList %d", s.Lo, g, todo, c.name, c.bad, wantBad)
			}
			if wantBad >= 0 { // only the vertices before it are described
				m := uint64(1)<<wantBad - 1
				if c.r.Found&m != want.Found&m || c.r.Empty&m != want.Empty&m {
					t.Fatalf("shard at %d, group %d, todo %#x: %s found %#x empty %#x before %d, ScanList %#x %#x", s.Lo, g, todo, c.name, c.r.Found, c.r.Empty, wantBad, want.Found, want.Empty)
				}
				continue
			}
			if c.r.Found != want.Found || c.r.Empty != want.Empty || c.r.Checked != want.Checked || c.r.Degrees != want.Degrees {
				t.Fatalf("shard at %d, group %d, todo %#x: %s found %#x empty %#x checked %d degrees %d; ScanList %#x %#x %d %d", s.Lo, g, todo, c.name, c.r.Found, c.r.Empty, c.r.Checked, c.r.Degrees, want.Found, want.Empty, want.Checked, want.Degrees)
			}
			for m := want.Found; m != 0; m &= m - 1 {
				j := bits.TrailingZeros64(m)
				if c.r.Parent[j] != want.Parent[j] {
					t.Fatalf("shard at %d, vertex %d: %s parent %d, ScanList %d", s.Lo, s.Lo+g*DirGroup+uint32(j), c.name, c.r.Parent[j], want.Parent[j])
				}
			}
		}
	}
}

func TestScanGroupRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 31))
	for trial := 0; trial < 12; trial++ {
		n := uint32(1 + r.IntN(3000))
		g := shapesGraph(t, r, n)
		for _, s := range g.Out().Shards {
			for range 3 {
				checkScanGroup(t, r, s, n, randomBits(r, n))
			}
			// the same directory over damaged lists: bytes changed in place, so that
			// every list keeps its bounds; a copy with no room for 8-byte loads past it
			for range 4 {
				adj := slices.Clip(slices.Clone(s.Adj))
				for range 1 + len(adj)/40 {
					if len(adj) > 0 {
						i := r.IntN(len(adj))
						adj[i] ^= byte(1 + r.IntN(255))
					}
				}
				checkScanGroup(t, r, &Shard{Lo: s.Lo, N: s.N, Adj: adj, dirH: s.dirH, dirB: s.dirB}, n, randomBits(r, n))
			}
			// a directory whose last lists run past ADJ's end
			cut := s.Adj[:r.IntN(len(s.Adj)+1)]
			checkScanGroup(t, r, &Shard{Lo: s.Lo, N: s.N, Adj: cut, dirH: s.dirH, dirB: s.dirB}, n, randomBits(r, n))
		}
	}
}
