//go:build linux && amd64

package store

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"unsafe"
)

// TestScanCompactVec holds ScanList, whose compact blocks go through the vector scan
// where the processor has one, to ScanList with the vector steps off, on lists of every
// width from 0 to 32 and length from 4 to 200, with and without exceptions, whole and
// damaged (a bit flipped, a byte changed, the list cut), with tails of no room, a few
// bytes and more than the vector scan's view: the same neighbour, checks and status.
// -short (CI's race run, where one goroutine has no race to find) draws a sixth of the
// lists.
func TestScanCompactVec(t *testing.T) {
	if !haveVec {
		t.Skip("no vector decoder")
	}
	// a frontier of 2^32 bits: reserved, not committed, the pages set in a trial
	// given back after it
	m := reserve(t, 1<<29)
	huge := unsafe.Slice((*uint64)(unsafe.Pointer(&m[0])), 1<<26)
	r := rand.New(rand.NewPCG(testSeed(t), 43))
	var modes [5]int
	trials := 3000
	if testing.Short() {
		trials = 500
	}
	for trial := 0; trial < trials; trial++ {
		if trial%50 == 0 {
			if err := syscall.Madvise(m, syscall.MADV_DONTNEED); err != nil {
				t.Fatal(err)
			}
		}
		w := uint(trial % 33)
		d := 4 + r.IntN(197)
		nv := uint32(1<<32 - 1)
		if r.IntN(3) == 0 {
			nv = uint32(1<<min(w+8, 20)) + r.Uint32N(1<<min(w+8, 20))
		}
		pe := []float64{0, 0.05, 0.2}[r.IntN(3)]
		nbrs := compactNbrs(r, d, w, pe, nv)
		v := r.Uint32N(nv)
		enc := AppendList(nil, v, nbrs)
		countModes(&modes, enc, uint32(len(nbrs)))
		bits := randomBits(r, min(nv, 1<<21))
		if nv > 1<<21 { // the mapping's bits, a quarter of the list's set
			bits = huge
			for _, x := range nbrs {
				if r.IntN(4) == 0 {
					bits[x>>6] |= 1 << (x & 63)
				}
			}
		}
		lists := [][]byte{enc, flipBit(r, enc), flipBit(r, enc), corrupted(r, enc), corrupted(r, enc)}
		for _, l := range lists {
			for _, pad := range []int{0, 5, 1100} {
				list := withTail(r, l, pad)
				x, c, st := ScanList(list, v, uint32(len(nbrs)), nv, bits)
				wx, wc, wst := scanScalar(list, v, uint32(len(nbrs)), nv, bits)
				if st != wst || c != wc || (st == Found && x != wx) {
					t.Fatalf("w=%d d=%d nv=%d v=%d list %x: vector %d after %d (status %d), scalar %d after %d (status %d)", w, len(nbrs), nv, v, l, x, c, st, wx, wc, wst)
				}
			}
		}
	}
	t.Logf("codings (varint, packed, packed with exceptions, compact, mirrored): %v", modes)
	if modes[3] < trials*2/3 {
		t.Fatalf("only %d compact blocks", modes[3])
	}
}

// TestScanMoreMappingEnd puts a group's lists (compact blocks, none found at its first
// neighbour) at the very end of a mapping followed by a page that faults: the vector
// scan must leave a block to the Go loop (and its copy of the stream) rather than load
// the 16 bytes at a group of gaps past the mapping.
func TestScanMoreMappingEnd(t *testing.T) {
	m, page := faultAfter(t, 1) // one page, then one that faults
	r := rand.New(rand.NewPCG(testSeed(t), 59))
	const nv, lo = 1 << 20, 8192
	for trial := 0; trial < 50; trial++ {
		var deg [DirGroup]uint32
		var start [DirGroup + 1]uint32
		var adj []byte
		front := make([]uint64, nv/64)
		for i := range uint32(DirGroup) {
			nbrs := compactNbrs(r, []int{5, 9, 20}[r.IntN(3)], uint(r.IntN(12)), []float64{0, 0.2}[r.IntN(2)], nv)
			x := nbrs[len(nbrs)-1]
			front[x>>6] |= 1 << (x & 63)
			deg[i], start[i] = uint32(len(nbrs)), uint32(len(adj))
			adj = append(adj, AppendList(nil, lo+i, nbrs)...)
		}
		start[DirGroup] = uint32(len(adj))
		at := m[page-len(adj) : page : page]
		copy(at, adj)
		checkScanGroup(t, r, groupShard(lo, &deg, &start, at), nv, front)
	}
}
