//go:build linux && amd64

package store

import (
	"testing"
	"unsafe"
)

// TestDecodeUnvisitedHighIndex holds DecodeUnvisited's gathered parent tests to the
// parent array of a graph of more than 2^31 vertices, whose indexes at or past 2^31 a
// gather of 32-bit indexes reads as negative unless it offsets them. The array is one
// mapping of 16 GiB reserved, not committed: the 8 GiB before it are mapped too, so that
// a load at the negative index reads zeros (a parent) instead of faulting.
func TestDecodeUnvisitedHighIndex(t *testing.T) {
	if !haveVec || !haveShiftX {
		t.Skip("no AVX2 and BMI2: no gathered parent tests")
	}
	const before, n = 1 << 33, 1<<31 + 256
	m := reserve(t, before+4*n)
	parent := unsafe.Slice((*uint32)(unsafe.Pointer(&m[before])), n)
	var nbrs [BlockSize]uint32
	want := uint64(0)
	for k := range nbrs {
		switch { // gaps of 1 to 3, and one of about 2^31: a compact block
		case k == 0:
			nbrs[k] = 7
		case k == BlockSize/2:
			nbrs[k] = 1<<31 + 7 // high from here on
		default:
			nbrs[k] = nbrs[k-1] + 1 + uint32(k%3)
		}
		if k%3 != 1 { // the others reached (the mapping's zeros)
			parent[nbrs[k]] = ^uint32(0)
			want |= 1 << k
		}
	}
	list := AppendList(nil, 5, nbrs[:])
	list = append(list, make([]byte, compactArea)...)[:len(list)]
	var got [BlockSize]uint32
	_, mask, tested, ok := DecodeUnvisited(got[:], 5, list, 0, BlockSize, n, parent)
	if !ok || !tested || got != nbrs {
		t.Fatalf("DecodeUnvisited: ok %v, tested %v, %v", ok, tested, got)
	}
	if mask != want {
		t.Fatalf("mask %#x, want %#x", mask, want)
	}
}
