//go:build amd64 && !purego

package store

import "golang.org/x/sys/cpu"

// haveVec says whether unpackAddAVX2 may run: the processor has AVX2. Tests turn it off
// to hold the pure-Go decoders to the same references.
var haveVec = cpu.X86.HasAVX2

// unpackAddAVX2 decodes groups groups of 8 gaps of a compact block (w <= vecMaxWidth):
// dst[i] is dst[i-1] plus field i of src (w bits each, group g from src's byte g*w on)
// plus add[i], dst[-1] being first, in 32-bit arithmetic; tab is vecTables[w]. It
// returns the last neighbour, and false when some neighbour is not above the one before
// it in 32 bits (a sum wrapped: the true neighbour is at least 2^32).
//
//go:noescape
func unpackAddAVX2(dst *uint32, src *byte, add *uint32, tab *vecTable, w uintptr, groups int, first uint64) (last uint32, ok bool)
