package store

import (
	"math/rand/v2"
	"testing"
)

// checkHead compares Head on v's list (degree d) with DecodeBlock on the first
// min(d, 2) neighbours of block 0 (held to the list's end, BlockEnds, where that is
// the whole list): the same neighbours wherever DecodeBlock decodes them, and on other
// bytes either a refusal or neighbours below nv.
func checkHead(t *testing.T, list []byte, v, d, nv uint32) {
	t.Helper()
	x0, x1, n, ok := Head(list, v, d, nv)
	k := min(d, 2)
	dst := make([]uint32, k)
	next, dok := DecodeBlock(dst, v, list, FirstBlock(d), BlockLen(d, 0), nv)
	if d <= 2 {
		dok = dok && BlockEnds(list, d, 0, next)
	}
	if dok != ok && d <= 2 {
		t.Fatalf("v=%d d=%d list %x: Head's ok %v, DecodeBlock's held to the end %v", v, d, list, ok, dok)
	}
	switch {
	case dok && (!ok || n != int(k) || x0 != dst[0] || (k == 2 && x1 != dst[1])):
		t.Fatalf("v=%d d=%d: Head = %d %d (%d, %v), DecodeBlock %v", v, d, x0, x1, n, ok, dst)
	case ok && (x0 >= nv || x1 >= nv || n != int(k)):
		t.Fatalf("v=%d d=%d: Head = %d %d (%d), nv %d", v, d, x0, x1, n, nv)
	}
}

func TestHeadRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 8))
	for trial := 0; trial < 4000; trial++ {
		v, d, nv, nbrs := trialList(r, trial)
		if trial%3 == 0 && d >= 4 { // a first gap far wider than the rest: an exception at 0
			nbrs[0] = r.Uint32N(nbrs[1]/2 + 1)
		}
		enc := AppendList(nil, v, nbrs)
		for _, pad := range []int{0, 3, 300} {
			checkHead(t, withTail(r, enc, pad), v, uint32(d), nv)
		}
		for range 6 {
			checkHead(t, withTail(r, corrupted(r, enc), r.IntN(300)), v, uint32(d), nv)
		}
	}
}

// FuzzHead feeds Head arbitrary bytes as a list of degree d: no panic, and agreement
// with DecodeBlock (checkHead).
func FuzzHead(f *testing.F) {
	f.Add(uint32(10), uint16(3), []byte{0x09, 0x02, 0xA5, 0x02}, uint16(0))
	f.Add(uint32(1000), uint16(64), []byte{0x01, 0x40, 0x01, 0x01, 0x13, 0x80, 0x80, 0x04}, uint16(300))
	f.Add(uint32(10), uint16(6), []byte{0x13, 0xC1, 0x20, 0xD8, 0x61, 0x24}, uint16(0)) // compact
	f.Add(uint32(10), uint16(4), []byte{0x1F, 0xFF, 0x07}, uint16(8))                   // mirrored
	r := rand.New(rand.NewPCG(9, 9))
	for _, d := range []int{5, 70} {
		nbrs := randomNbrs(r, 7, d, 1<<20)
		nbrs[0] = 0
		f.Add(uint32(7), uint16(d), AppendList(nil, 7, nbrs), uint16(9))
	}
	const nv = 1 << 20
	f.Fuzz(func(t *testing.T, v uint32, d uint16, list []byte, pad uint16) {
		v, d = v%nv, 1+d%200
		r := rand.New(rand.NewPCG(uint64(pad), 5))
		checkHead(t, withTail(r, list, int(pad%300)), v, uint32(d), nv)
	})
}
