package store

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// checkScan compares ScanList on v's list (degree d) with DecodeBlock on each block in
// turn and a scan in order: the same first neighbour in bits, after as many checks, on
// lists whose blocks decode up to it; NotFound after d checks on lists that decode whole;
// and where a block DecodeBlock refuses comes first, Malformed or a neighbour of bits
// found in that block, never NotFound. Where a block after the first is not where the
// block index says, or a list read to its end (no neighbour in bits, or one found in a
// last block of one) does not end there, Malformed, as ListIter refuses it.
func checkScan(t *testing.T, list []byte, v, d, nv uint32, bits []uint64) {
	t.Helper()
	in := func(x uint32) bool { return bits[x>>6]&(1<<(x&63)) != 0 }
	x, checked, st := ScanList(list, v, d, nv, bits)
	pos, before := FirstBlock(d), uint32(0)
	for k := uint32(0); k < NumBlocks(d); k++ {
		if k > 0 && !BlockIndexed(list, k, pos) {
			if st != Malformed {
				t.Fatalf("v=%d d=%d: block %d not where the index says: ScanList = %d after %d (status %d), want Malformed", v, d, k, x, checked, st)
			}
			return
		}
		c := BlockLen(d, k)
		dst := make([]uint32, c)
		next, ok := DecodeBlock(dst, v, list, pos, c, nv)
		if !ok {
			switch {
			case st == Found && (x >= nv || !in(x) || checked <= before || checked > before+c):
				t.Fatalf("v=%d d=%d: found %d after %d in block %d (from %d), which DecodeBlock refuses", v, d, x, checked, k, before)
			case st != Found && st != Malformed:
				t.Fatalf("v=%d d=%d: status %d after %d; block %d is malformed", v, d, st, checked, k)
			}
			return
		}
		if i := slices.IndexFunc(dst, in); i >= 0 {
			if c == 1 && next != len(list) {
				if st != Malformed {
					t.Fatalf("v=%d d=%d: a last block of one and bytes after it: ScanList = %d (status %d), want Malformed", v, d, x, st)
				}
				return
			}
			if st != Found || x != dst[i] || checked != before+uint32(i)+1 {
				t.Fatalf("v=%d d=%d block %d %v: ScanList = %d after %d (status %d), want %d after %d", v, d, k, dst, x, checked, st, dst[i], before+uint32(i)+1)
			}
			return
		}
		pos, before = next, before+c
	}
	if pos != len(list) {
		if st != Malformed {
			t.Fatalf("v=%d d=%d: %d bytes after the last block: ScanList = %d after %d (status %d), want Malformed", v, d, len(list)-pos, x, checked, st)
		}
		return
	}
	if st != NotFound || checked != d {
		t.Fatalf("v=%d d=%d: ScanList = %d after %d (status %d), want NotFound after %d", v, d, x, checked, st, d)
	}
}

func TestScanListRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 7))
	for trial := 0; trial < 4000; trial++ {
		v, d, nv, nbrs := trialList(r, trial)
		if trial%7 == 0 && d >= 20 { // a run with jumps: width 0 with exceptions
			x := r.Uint32N(nv/2 + 1)
			for i := range nbrs {
				nbrs[i] = min(x+uint32(i), nv-1)
				if i%16 >= 10 {
					nbrs[i] = min(nbrs[i]+nv/2, nv-1)
				}
			}
			slices.Sort(nbrs)
		}
		enc := AppendList(nil, v, nbrs)
		bits := randomBits(r, nv)
		for _, pad := range []int{0, 3, 8, 300} {
			checkScan(t, withTail(r, enc, pad), v, uint32(d), nv, bits)
		}
		for range 6 {
			checkScan(t, withTail(r, corrupted(r, enc), r.IntN(300)), v, uint32(d), nv, bits)
		}
	}
}

// FuzzScanList feeds ScanList arbitrary bytes as a list of degree d: no panic, and
// agreement with DecodeBlock (checkScan).
func FuzzScanList(f *testing.F) {
	f.Add(uint32(10), uint16(3), []byte{0x09, 0x02, 0xA5, 0x02}, uint16(0), uint64(1))
	f.Add(uint32(1000), uint16(64), []byte{0x01, 0x00, 0x01}, uint16(8), uint64(2))
	f.Add(uint32(1000), uint16(64), []byte{0x01, 0x40, 0x01, 0x01, 0x13, 0x80, 0x80, 0x04}, uint16(300), uint64(3))
	f.Add(uint32(10), uint16(6), []byte{0x13, 0xC1, 0x20, 0xD8, 0x61, 0x24}, uint16(0), uint64(4)) // compact
	f.Add(uint32(10), uint16(4), []byte{0x1F, 0xFF, 0x07}, uint16(8), uint64(5))                   // mirrored
	f.Add(uint32(10), uint16(2), []byte{0x06, 0, 0, 0, 0x09, 0x02, 0xC4, 0x04}, uint16(8), uint64(6))
	r := rand.New(rand.NewPCG(9, 9))
	for _, d := range []int{5, 70, 150, 399} {
		nbrs := randomNbrs(r, 7, d, 1<<20)
		f.Add(uint32(7), uint16(d-1), AppendList(nil, 7, nbrs), uint16(9), uint64(d))
	}
	const nv = 1 << 20
	f.Fuzz(func(t *testing.T, v uint32, d uint16, list []byte, pad uint16, seed uint64) {
		v, d = v%nv, 1+d%400
		r := rand.New(rand.NewPCG(seed, 5))
		checkScan(t, withTail(r, list, int(pad%300)), v, uint32(d), nv, randomBits(r, nv))
	})
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
// have; pad 0 leaves a decoder no room to load 8 bytes at the end.
func withTail(r *rand.Rand, list []byte, pad int) []byte {
	b := make([]byte, len(list)+pad)
	copy(b, list)
	for i := len(list); i < len(b); i++ {
		b[i] = byte(r.Uint32())
	}
	return b[:len(list)]
}

// corrupted returns a copy of list with one fault at a random place: a changed byte, a
// continuation bit set, or the list cut there.
func corrupted(r *rand.Rand, list []byte) []byte {
	bad := slices.Clone(list)
	i := r.IntN(len(bad))
	switch r.IntN(3) {
	case 0:
		bad[i] = byte(r.Uint32())
	case 1:
		bad[i] |= 0x80
	case 2:
		bad = bad[:i]
	}
	return bad
}
