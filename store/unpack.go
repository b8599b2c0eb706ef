package store

import "encoding/binary"

// The reading of a packed block's gaps (FORMAT.md, "ADJ: one list"): gap i sits at bits
// [i*w, (i+1)*w) of the packed area. Scans read it for every neighbour of a packed block,
// so they read it through a fixed-size array whose indexes the compiler can bound: one
// 8-byte load, a shift and a mask a gap, no bounds check.

// packedArea is the bytes a block's packed gaps can occupy (BlockSize-1 gaps of at most
// 32 bits) plus the 8 that a load at the last gap's first byte reads, rounded so that
// an index masked with packedMask stays 8 bytes inside it.
const (
	packedArea = 264
	packedMask = 255
)

// packedBytes returns the packed area that starts at list[p] as a fixed-size array: in
// place when the slice's capacity (the shard mapping) runs far enough past p, else a
// zero-padded copy of the area's n bytes (n is at most packedArea-8). The copy is made
// on the heap: it is needed only near the end of a mapping, and an array for it in the
// callers' frames would be cleared on every call.
func packedBytes(list []byte, p, n int) *[packedArea]byte {
	if p+packedArea <= cap(list) {
		return (*[packedArea]byte)(list[p : p+packedArea])
	}
	return packedCopy(list[p : p+n])
}

// packedCopy is packedBytes's copy of b.
//
//go:noinline
func packedCopy(b []byte) *[packedArea]byte {
	tail := new([packedArea]byte)
	copy(tail[:], b)
	return tail
}

// loadBits is the 64 bits of src from bit on, less the bits of bit's byte below it (at
// least 57 valid bits, enough for one field of up to 32 bits); bit < 8*(packedMask+1).
func loadBits(src *[packedArea]byte, bit uint) uint64 {
	return binary.LittleEndian.Uint64(src[(bit>>3)&packedMask:]) >> (bit & 7)
}

// scanGaps adds n gaps to cur, gap k being add plus the w bits of src from bit+k*w on,
// and checks each neighbour so made against nv and then bits, in order. It returns the
// last neighbour made, how many gaps that took, and Found (the neighbour's bit is
// set), Malformed (it is not below nv) or NotFound (n gaps, none found). It is a
// function of its own so that the loop's few values stay in registers: in the frames
// of the scans that call it, which hold a block's header and exceptions too, they were
// kept on the stack, and each gap waited for the store of the one before. Inlined, it
// would be theirs again.
//
//go:noinline
func scanGaps(src *[packedArea]byte, bit, w uint, add, cur uint64, n int, nv uint64, bits []uint64) (uint64, int, int) {
	mask := uint64(1)<<w - 1
	for k := 1; k <= n; k++ {
		cur += add + loadBits(src, bit)&mask
		bit += w
		if cur >= nv {
			return cur, k, Malformed
		}
		if bits[cur>>6]&(1<<(cur&63)) != 0 {
			return cur, k, Found
		}
	}
	return cur, n, NotFound
}
