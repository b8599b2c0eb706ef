package bfs

import (
	"math/rand"
	"testing"

	"github.com/oocgraph/ooc/store"
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
