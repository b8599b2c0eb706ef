package store

import (
	"math/rand/v2"
	"testing"
)

// checkMirror4 compares DecodeMirror4 with DecodeBlock on v's list of degree 4: where the
// first decodes, the second must give the same neighbours. It reports whether the first
// decoded.
func checkMirror4(t *testing.T, list []byte, v, nv uint32) bool {
	t.Helper()
	var got [4]uint32
	if !DecodeMirror4(&got, v, list, nv) {
		return false
	}
	want := make([]uint32, 4)
	if _, ok := DecodeBlock(want, v, list, 0, 4, nv); !ok || [4]uint32(want) != got {
		t.Fatalf("v=%d nv=%d list %x: DecodeMirror4 %v, DecodeBlock %v (ok %v)", v, nv, list, got, want, ok)
	}
	return true
}

func TestDecodeMirror4(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 41))
	decoded := 0
	for trial := 0; trial < 20000; trial++ {
		nv := uint32(2 + r.IntN(1<<(4+r.IntN(20))))
		v := r.Uint32N(nv)
		var nbrs []uint32
		if k := 1 + r.Uint32N(min(v, nv-1-v)+1); trial%2 == 0 && k <= v && v+k < nv { // a mesh's stencil
			k2 := r.Uint32N(k)
			nbrs = []uint32{v - k, v - k2, v + k2, v + k}
		} else {
			nbrs = randomNbrs(r, v, 4, nv)
		}
		enc := AppendList(nil, v, nbrs)
		for _, pad := range []int{0, 3, 8} {
			if checkMirror4(t, withTail(r, enc, pad), v, nv) {
				decoded++
			}
		}
		for range 4 {
			checkMirror4(t, withTail(r, corrupted(r, enc), 8), v, nv)
		}
	}
	if decoded < 1000 {
		t.Fatalf("DecodeMirror4 decoded only %d lists: the test does not exercise it", decoded)
	}
}

// FuzzDecodeMirror4 feeds DecodeMirror4 arbitrary bytes: no panic, and DecodeBlock's
// answer wherever it decodes.
func FuzzDecodeMirror4(f *testing.F) {
	f.Add(uint32(5000), uint32(1<<20), []byte{0xC1, 0x7F, 0xFF, 0xFF, 0x0F}, uint16(8))
	f.Add(uint32(10), uint32(100), []byte{0x1F, 0xFF, 0x07}, uint16(8))
	f.Fuzz(func(t *testing.T, v, nv uint32, list []byte, pad uint16) {
		nv = 1 + nv%(1<<24)
		checkMirror4(t, withTail(rand.New(rand.NewPCG(uint64(pad), 7)), list, int(pad%16)), v%nv, nv)
	})
}
