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
// copy of the area's n bytes into tail, zero-padded. n is at most packedArea-8.
func packedBytes(list []byte, p, n int, tail *[packedArea]byte) *[packedArea]byte {
	if p+packedArea <= cap(list) {
		return (*[packedArea]byte)(list[p : p+packedArea])
	}
	*tail = [packedArea]byte{}
	copy(tail[:n], list[p:])
	return tail
}

// loadBits is the 64 bits of src from bit on, less the bits of bit's byte below it (at
// least 57 valid bits, enough for one field of up to 32 bits); bit < 8*(packedMask+1).
func loadBits(src *[packedArea]byte, bit uint) uint64 {
	return binary.LittleEndian.Uint64(src[(bit>>3)&packedMask:]) >> (bit & 7)
}
