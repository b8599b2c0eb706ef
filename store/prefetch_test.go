package store

import (
	"math/rand/v2"
	"testing"
)

// TestPrefetchGroup asks for every group of random shards and for groups past their
// ends, over their ADJ, a cut one (the directory's last lists past its end) and an empty
// one: a hint, which must not panic whatever the directory says.
func TestPrefetchGroup(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 61))
	for range 4 {
		g := shapesGraph(t, r, uint32(1+r.IntN(3000)))
		for _, s := range g.Out().Shards {
			for _, adj := range [][]byte{s.Adj, s.Adj[:r.IntN(len(s.Adj)+1)], nil} {
				c := &Shard{Lo: s.Lo, N: s.N, Adj: adj, dirH: s.dirH, dirB: s.dirB}
				for grp := uint32(0); grp*DirGroup < s.N+4*DirGroup; grp++ {
					c.PrefetchGroup(grp)
				}
			}
		}
	}
}

// TestPrefetchIndexed asks for the lines of every index of arrays of 0 to 3 lines, in
// order, reversed and at random, and for none: a hint, which must not panic.
func TestPrefetchIndexed(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 62))
	for n := range 48 {
		a := make([]uint32, n)
		idx := make([]uint32, 0, 2*n)
		for i := range n {
			idx = append(idx, uint32(i), uint32(n-1-i))
		}
		PrefetchIndexed(a, idx)
		PrefetchIndexed(a, nil)
		if n > 0 {
			PrefetchIndexed(a, []uint32{uint32(r.IntN(n))})
		}
	}
}
