package store

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// checkFind compares FindInBlock on the block of c neighbours of v's list at list[pos]
// with DecodeBlock and a scan in order: the same first neighbour in bits and the same end
// on well-formed blocks, Malformed only where DecodeBlock refuses the block, and a found
// neighbour always the block's first (as FirstNeighbour decodes it, before the rest of
// the block is read) or one DecodeBlock gives for the prefix FindInBlock checked.
func checkFind(t *testing.T, list []byte, pos int, v, c, nv uint32, bits []uint64) {
	t.Helper()
	in := func(x uint32) bool { return bits[x>>6]&(1<<(x&63)) != 0 }
	x, checked, next, st := FindInBlock(list, pos, v, c, nv, bits, new([BlockSize]uint32))
	dst := make([]uint32, c)
	end, ok := DecodeBlock(dst, v, list, pos, c, nv)
	switch {
	case st == Found:
		if checked == 0 || checked > c || x >= nv || !in(x) {
			t.Fatalf("v=%d c=%d: found %d after %d, not in the set", v, c, x, checked)
		}
		if checked == 1 { // the first neighbour alone, as FirstNeighbour decodes it
			if f, fok := FirstNeighbour(v, list, pos, c, nv); !fok || f != x {
				t.Fatalf("v=%d c=%d: found %d first; FirstNeighbour = %d, %v", v, c, x, f, fok)
			}
			break
		}
		pre := make([]uint32, checked)
		if _, pok := DecodeBlock(pre, v, list, pos, c, nv); !pok || pre[checked-1] != x ||
			slices.IndexFunc(pre[:checked-1], in) >= 0 {
			t.Fatalf("v=%d c=%d: found %d after %d; DecodeBlock's prefix %v (%v)", v, c, x, checked, pre, pok)
		}
	case st == Malformed && ok:
		t.Fatalf("v=%d c=%d: Malformed, but DecodeBlock decodes %v", v, c, dst)
	case st == NotFound && !ok:
		t.Fatalf("v=%d c=%d: NotFound on a block DecodeBlock refuses", v, c)
	case st != Found && st != NotFound && st != Malformed:
		t.Fatalf("status %d", st)
	}
	if !ok {
		return
	}
	if i := slices.IndexFunc(dst, in); i >= 0 {
		if st != Found || x != dst[i] || checked != uint32(i+1) {
			t.Fatalf("v=%d c=%d %v: FindInBlock = %d after %d (status %d), want %d after %d", v, c, dst, x, checked, st, dst[i], i+1)
		}
	} else if st != NotFound || checked != c || next != end {
		t.Fatalf("v=%d c=%d %v: FindInBlock = status %d after %d, next %d; want NotFound after %d, next %d", v, c, dst, st, checked, next, c, end)
	}
}

// randomBits draws a set of vertices below nv: empty, full, one vertex, or of a random
// density.
func randomBits(r *rand.Rand, nv uint32) []uint64 {
	bits := make([]uint64, (nv+63)/64)
	switch r.IntN(5) {
	case 0:
	case 1:
		for i := range bits {
			bits[i] = ^uint64(0)
		}
	case 2:
		x := r.Uint32N(nv)
		bits[x>>6] |= 1 << (x & 63)
	default: // each bit set with probability 2^-k
		k := 1 + r.IntN(6)
		for i := range bits {
			bits[i] = ^uint64(0)
			for range k {
				bits[i] &= r.Uint64()
			}
		}
		if nv%64 != 0 {
			bits[len(bits)-1] &= 1<<(nv%64) - 1
		}
	}
	return bits
}

// withTail gives list a capacity of pad bytes past its end (random bytes), as shard lists
// have; pad 0 leaves FindInBlock no room to load 8 bytes at the end.
func withTail(r *rand.Rand, list []byte, pad int) []byte {
	b := make([]byte, len(list)+pad)
	copy(b, list)
	for i := len(list); i < len(b); i++ {
		b[i] = byte(r.Uint32())
	}
	return b[:len(list)]
}

func TestFindInBlockRandom(t *testing.T) {
	seed := testSeed(t)
	r := rand.New(rand.NewPCG(seed, 4))
	degrees := []int{1, 2, 3, 4, 5, 63, 64, 65, 128, 300}
	for trial := 0; trial < 4000; trial++ {
		nv := uint32(1 + r.IntN(5000))
		if trial%5 == 0 {
			nv = uint32(1<<20 + r.IntN(1<<20)) // wide gaps: exceptions, wide packing
		}
		d := degrees[trial%len(degrees)]
		v := r.Uint32N(nv)
		nbrs := randomNbrs(r, v, d, nv)
		if trial%7 == 0 && d >= 20 { // a run with jumps: width 0 with exceptions
			x := r.Uint32N(nv/2 + 1)
			for i := range nbrs {
				nbrs[i] = min(x+uint32(i), nv-1)
				if i >= 10 {
					nbrs[i] = min(nbrs[i]+nv/2, nv-1)
				}
			}
		}
		enc := AppendList(nil, v, nbrs)
		bits := randomBits(r, nv)
		for k := uint32(0); k < NumBlocks(uint32(d)); k++ {
			pos, err := BlockOffset(enc, uint32(d), k)
			if err != nil {
				t.Fatal(err)
			}
			c := BlockLen(uint32(d), k)
			for _, pad := range []int{0, 3, 8} {
				checkFind(t, withTail(r, enc, pad), pos, v, c, nv, bits)
			}
			// corrupt bytes: a changed byte, a continuation bit, a cut
			for range 6 {
				bad := slices.Clone(enc)
				i := pos + r.IntN(len(bad)-pos)
				switch r.IntN(3) {
				case 0:
					bad[i] = byte(r.Uint32())
				case 1:
					bad[i] |= 0x80
				case 2:
					bad = bad[:i]
				}
				checkFind(t, withTail(r, bad, r.IntN(9)), pos, v, c, nv, bits)
			}
		}
	}
}

// FuzzFindInBlock feeds FindInBlock arbitrary bytes: no panic, and agreement with
// DecodeBlock (checkFind).
func FuzzFindInBlock(f *testing.F) {
	f.Add(uint32(10), uint8(3), []byte{0x09, 0x02, 0xA5, 0x02}, byte(0x80), uint64(1))
	f.Add(uint32(1000), uint8(64), []byte{0x01, 0x00, 0x01}, byte(0), uint64(2))
	f.Add(uint32(1000), uint8(64), []byte{0x01, 0x40, 0x01, 0x01, 0x13, 0x80, 0x80, 0x04}, byte(0xff), uint64(3))
	f.Add(uint32(10), uint8(6), []byte{0x13, 0xC1, 0x20, 0xD8, 0x61, 0x24}, byte(0), uint64(4))
	f.Add(uint32(10), uint8(4), []byte{0x1F, 0xFF, 0x07}, byte(0x80), uint64(5))
	f.Add(uint32(1000), uint8(64), []byte{0x01, 0x80}, byte(0), uint64(6))
	const nv = 2000
	f.Fuzz(func(t *testing.T, v uint32, c uint8, list []byte, pad byte, seed uint64) {
		v, c = v%nv, 1+c%BlockSize
		r := rand.New(rand.NewPCG(seed, 5))
		b := withTail(r, list, int(pad%9))
		checkFind(t, b, 0, v, uint32(c), nv, randomBits(r, nv))
	})
}
