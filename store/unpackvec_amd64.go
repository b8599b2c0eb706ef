//go:build amd64 && !purego

package store

import (
	"unsafe"

	_ "github.com/oocgraph/ooc/internal/lanes" // LANEIDX, PREDIDX
	"golang.org/x/sys/cpu"
)

// haveVec says whether unpackAddAVX2 may run: the processor has AVX2. Tests turn it off
// to hold the pure-Go decoders to the same references.
var haveVec = cpu.X86.HasAVX2

// haveShiftX says whether compactAVX2 may run where haveVec allows: the processor has BMI2
// (SHRX, SHLX).
var haveShiftX = cpu.X86.HasBMI2

// unpackAddAVX2 decodes n gaps of a compact block (w <= vecMaxWidth), 8 a step: dst[i]
// is dst[i-1] plus field i of src (w bits each, group g of 8 from src's byte g*w on)
// plus add[i], dst[-1] being first, in 32-bit arithmetic; tab is vecTables[w]. It
// stores dst[0:n] alone, but reads src and add as for a whole last group (src's bytes
// to g*w + 4w/8 + 16 and add[0:8*ceil(n/8)] for the last group g). It returns the last
// neighbour, and false when some neighbour is not above the one before it in 32 bits (a
// sum wrapped: the true neighbour is at least 2^32).
//
//go:noescape
func unpackAddAVX2(dst *uint32, src *byte, add *uint32, tab *vecTable, w uintptr, n int, first uint64) (last uint32, ok bool)

// compactBlockAVX2 decodes a compact block of n gaps (n below BlockSize, its width w =
// h&hdrWidth at most vecMaxWidth) whole from its header byte h and its stream b (a
// compactView; blen bytes of it are the list's), as unpackCompact does: the exception
// header and exceptions where h says so (false where the count is 0 or above n, the
// stream passes blen, an exception's high part shifted by w is not below nv or the last
// one lies past the n gaps), then the gaps as unpackAddAVX2 with the exceptions' add
// entries: dst[i] is dst[i-1] plus field i of b plus 1 plus the high part of an
// exception at i, dst[-1] being first, in 32-bit arithmetic. It stores dst[0:n] alone,
// and returns the stream's length in bytes, the last neighbour and false where a check
// fails or a sum wrapped.
//
//go:noescape
func compactBlockAVX2(dst *uint32, b *byte, h uintptr, n int, first uint64, blen int, nv uint64) (end int, last uint32, ok bool)

// compactClaimAVX2 is compactBlockAVX2 that also tests the parent entries of the
// neighbours it makes, by gathers: bit i+1 of mask is set where dst[i] < plen (at most
// 2^32-1) and parent[dst[i]] is all ones.
//
//go:noescape
func compactClaimAVX2(dst *uint32, b *byte, h uintptr, n int, first uint64, blen int, nv uint64, parent *uint32, plen uint64) (end int, last uint32, ok bool, mask uint64)

// UnvisitedBlock is DecodeUnvisited's vector path in one call, for kernels that test
// a block's parents as it decodes: the block of c neighbours of v's list that starts at
// list[pos], decoded whole into dst (len(dst) == c) where it is a compact block that the
// vector decoder takes (its first value of at most 5 bytes and its header read from
// one word inside the list's capacity), with DecodeUnvisited's checks. st is 1 with
// next the position after the block and bit i of mask set where dst[i] < len(parent)
// and parent[dst[i]] is ^0; 2 for malformed bytes; 0 where the vector decoder does not
// take the block (or the processor has no AVX2 and BMI2), nothing written: the caller
// decodes it by DecodeUnvisited.
//
//go:noescape
func UnvisitedBlock(dst []uint32, list []byte, pos int, v, c, nv uint32, parent []uint32) (next int, mask uint64, st int)

// compactBlockAVX2 finds vecTables[w] at 104*w bytes from its start.
var _ = [1]struct{}{}[unsafe.Sizeof(vecTable{})-104]
