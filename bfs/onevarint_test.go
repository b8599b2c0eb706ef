package bfs

import (
	"math/rand"
	"slices"
	"testing"

	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

// TestOneVarint holds oneVarint to store.DecodeShortWord's rule for a list of one
// neighbour (and to ^0 for every other degree), on words of random bytes whose high
// bits are mostly set (varints of 1 to 9 bytes, overlong ones among them), list lengths 0 to 9 and graph sizes
// from 1 vertex to 2^32-1.
func TestOneVarint(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 1<<20; i++ {
		w := r.Uint64()
		// high bits set on the first h bytes, clear on the one after: a varint of h+1
		h := r.Intn(9)
		for b := 0; b < 8; b++ {
			if b < h {
				w |= 0x80 << (8 * b)
			} else if b == h {
				w &^= 0x80 << (8 * b)
			}
		}
		if r.Intn(4) == 0 {
			// the value's high groups zero: overlong varints, and long ones of small values
			w &= 0x8080808080808080 | uint64(r.Intn(1<<12))
		}
		if r.Intn(8) == 0 {
			w ^= 1 << r.Intn(64) // a bit flipped anywhere
		}
		n := []uint32{1, 2, 100, 1 << 20, 1<<28 + 3, 1<<32 - 1}[r.Intn(6)]
		u := r.Uint32() % n
		if r.Intn(4) == 0 {
			u = []uint32{0, n - 1, n / 2}[r.Intn(3)]
		}
		l := uint32(r.Intn(10))
		if r.Intn(2) == 0 {
			l = uint32(h + 1)
		}
		d := uint32(1)
		if r.Intn(8) == 0 {
			d = uint32(r.Intn(5))
		}
		e := store.ListEntry{Deg: d, Start: 100, End: 100 + l, Head: w}
		want := ^uint32(0)
		if d == 1 {
			if x, _, _, ok := store.DecodeShortWord(u, 1, w, int(l), n); ok {
				want = x
			}
		}
		if got := oneVarint(u, &e, n); got != want {
			t.Fatalf("u=%d n=%d d=%d l=%d head=%#x: oneVarint %#x, want %#x", u, n, d, l, w, got, want)
		}
	}
}

// TestOneVarintClaims searches, top-down only and on one goroutine, a directed graph in
// one shard whose levels 1 to 3 are frontiers of a thousand lists of one neighbour
// each, most a varint of several bytes, the neighbour new to the search or claimed
// already (by a list before it, or at an earlier level): the batch after one of
// serialBatch/4 such lists decodes them first (oneVarints) and claims from what it
// decoded. The levels must be the oracle's, with and without claimRoads's branch-free
// claims (claimAllMax), and the parents a valid tree.
func TestOneVarintClaims(t *testing.T) {
	defer func(p, c uint32) { prefetchParentsMin, claimAllMax = p, c }(prefetchParentsMin, claimAllMax)
	prefetchParentsMin = 0
	r := rand.New(rand.NewSource(3))
	const k, n = 1000, 6000
	var edges []testgraph.Edge
	for i := uint32(1); i <= k; i++ {
		edges = append(edges, testgraph.Edge{U: 0, V: i}) // level 1: 1..k
	}
	// levels 2 and 3: each vertex of the level before points at one of the next range,
	// a quarter of them at the same one as the vertex before, an eighth back at a
	// vertex of level 1
	for lo := uint32(1); lo < 1+2*k; lo += k {
		next := lo + k + uint32(r.Intn(k))
		for u := lo; u < lo+k; u++ {
			v := next
			switch r.Intn(8) {
			case 0:
				v = 1 + uint32(r.Intn(k))
			case 1, 2:
			default:
				next = lo + k + uint32(r.Intn(int(n-lo-k)))
				v = next
			}
			edges = append(edges, testgraph.Edge{U: u, V: v})
		}
	}
	g := testgraph.Build(t, n, edges, true, 0)
	out, _ := testgraph.Lists(n, edges, true)
	want := refLevels(out, 0)
	for _, c := range []uint32{0, ^uint32(0)} {
		claimAllMax = c
		res, err := Run(store.NewCompressed(g), 0, Options{Alpha: 1, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Level, want) {
			t.Fatalf("claimAllMax %d: levels\n got %v\nwant %v", c, res.Level, want)
		}
		if err := validate.BFS(g, 0, res.Parent, res.Level); err != nil {
			t.Fatalf("claimAllMax %d: %v", c, err)
		}
	}
}
