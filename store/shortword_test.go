package store

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// checkShortWord compares DecodeShortWord with DecodeBlock on v's list of degree d, read
// as ListEntry.Head holds it (the first 8 bytes of the mapping from the list's start):
// where the first decodes, the second must give the same neighbours. It reports whether
// the first decoded.
func checkShortWord(t *testing.T, list []byte, v, d, nv uint32) bool {
	t.Helper()
	var head [8]byte
	copy(head[:], list[:min(cap(list), 8)])
	x0, x1, x2, ok := DecodeShortWord(v, d, binary.LittleEndian.Uint64(head[:]), len(list), nv)
	if !ok {
		return false
	}
	want := make([]uint32, d)
	got := []uint32{x0, x1, x2}[:d]
	if _, wok := DecodeBlock(want, v, list, 0, d, nv); !wok || string(u32Bytes(got)) != string(u32Bytes(want)) {
		t.Fatalf("v=%d d=%d nv=%d list %x: DecodeShortWord %v, DecodeBlock %v (ok %v)", v, d, nv, list, got, want, wok)
	}
	return true
}

// u32Bytes is a's values as little-endian bytes, for comparing slices.
func u32Bytes(a []uint32) []byte {
	var b []byte
	for _, x := range a {
		b = binary.LittleEndian.AppendUint32(b, x)
	}
	return b
}

func TestDecodeShortWord(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 43))
	decoded, multi := 0, 0
	for trial := 0; trial < 20000; trial++ {
		nv := uint32(2 + r.IntN(1<<(4+r.IntN(24))))
		v := r.Uint32N(nv)
		d := 1 + r.IntN(PackedMin-1)
		nbrs := randomNbrs(r, v, d, nv)
		enc := AppendList(nil, v, nbrs)
		for _, pad := range []int{0, 3, 8} {
			if checkShortWord(t, withTail(r, enc, pad), v, uint32(len(nbrs)), nv) {
				decoded++
				if len(enc) > len(nbrs) {
					multi++
				}
			}
		}
		for range 4 {
			checkShortWord(t, withTail(r, corrupted(r, enc), 8), v, uint32(len(nbrs)), nv)
		}
		// a list with bytes after its values, and one read with the wrong degree
		checkShortWord(t, withTail(r, append(enc[:len(enc):len(enc)], 5), 8), v, uint32(len(nbrs)), nv)
		checkShortWord(t, withTail(r, enc, 8), v, uint32(1+r.IntN(PackedMin-1)), nv)
	}
	if decoded < 10000 || multi < 3000 {
		t.Fatalf("DecodeShortWord decoded only %d lists, %d with values of several bytes: the test does not exercise it", decoded, multi)
	}
}

// FuzzDecodeShortWord feeds DecodeShortWord arbitrary bytes: no panic, and DecodeBlock's
// answer wherever it decodes.
func FuzzDecodeShortWord(f *testing.F) {
	f.Add(uint32(5000), uint32(1<<20), uint8(2), []byte{0x83, 0x01, 0x7F}, uint16(8))
	f.Add(uint32(10), uint32(100), uint8(3), []byte{0x05, 0x01, 0x02}, uint16(8))
	f.Fuzz(func(t *testing.T, v, nv uint32, d uint8, list []byte, pad uint16) {
		nv = 1 + nv%(1<<24)
		checkShortWord(t, withTail(rand.New(rand.NewPCG(uint64(pad), 7)), list, int(pad%16)), v%nv, uint32(d%PackedMin), nv)
	})
}

// TestDecodeShortWordLongValue: a value of more than 5 bytes (past what the word's
// gather reads) is refused, though its varint ends inside the word: read as 5 bytes,
// these values of 2^35 would decode as 0.
func TestDecodeShortWordLongValue(t *testing.T) {
	for _, c := range []struct {
		d    uint32
		list []byte
	}{
		{1, []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},       // a first value of 6 bytes
		{2, []byte{0x02, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}}, // a gap of 6 bytes
	} {
		var w [8]byte
		copy(w[:], c.list)
		if x0, x1, _, ok := DecodeShortWord(10, c.d, binary.LittleEndian.Uint64(w[:]), len(c.list), 1<<20); ok {
			t.Fatalf("list %x of degree %d: decoded %d %d", c.list, c.d, x0, x1)
		}
		got := make([]uint32, c.d)
		if _, ok := DecodeBlock(got, 10, c.list, 0, c.d, 1<<20); ok {
			t.Fatalf("list %x of degree %d: DecodeBlock decodes %v", c.list, c.d, got)
		}
	}
}

// TestOneVarint holds OneVarint to DecodeShortWord's rule for a list of one
// neighbour (and to ^0 for every other degree), on words of random bytes whose high
// bits are mostly set (varints of 1 to 9 bytes, overlong ones among them), list lengths 0 to 9 and graph sizes
// from 1 vertex to 2^32-1.
func TestOneVarint(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 0))
	for i := 0; i < 1<<20; i++ {
		w := r.Uint64()
		// high bits set on the first h bytes, clear on the one after: a varint of h+1
		h := r.IntN(9)
		for b := 0; b < 8; b++ {
			if b < h {
				w |= 0x80 << (8 * b)
			} else if b == h {
				w &^= 0x80 << (8 * b)
			}
		}
		if r.IntN(4) == 0 {
			// the value's high groups zero: overlong varints, and long ones of small values
			w &= 0x8080808080808080 | uint64(r.IntN(1<<12))
		}
		if r.IntN(8) == 0 {
			w ^= 1 << r.IntN(64) // a bit flipped anywhere
		}
		n := []uint32{1, 2, 100, 1 << 20, 1<<28 + 3, 1<<32 - 1}[r.IntN(6)]
		u := r.Uint32() % n
		if r.IntN(4) == 0 {
			u = []uint32{0, n - 1, n / 2}[r.IntN(3)]
		}
		l := uint32(r.IntN(10))
		if r.IntN(2) == 0 {
			l = uint32(h + 1)
		}
		d := uint32(1)
		if r.IntN(8) == 0 {
			d = uint32(r.IntN(5))
		}
		e := ListEntry{Deg: d, Start: 100, End: 100 + l, Head: w}
		want := ^uint32(0)
		if d == 1 {
			if x, _, _, ok := DecodeShortWord(u, 1, w, int(l), n); ok {
				want = x
			}
		}
		if got := OneVarint(u, &e, n); got != want {
			t.Fatalf("u=%d n=%d d=%d l=%d head=%#x: OneVarint %#x, want %#x", u, n, d, l, w, got, want)
		}
	}
}
