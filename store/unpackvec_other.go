//go:build !amd64 || purego

package store

// haveVec is false: no vector decoder on this architecture or build.
var haveVec = false

// haveShiftX is false: no compactAVX2 here.
var haveShiftX = false

// unpackAddAVX2 is never called without haveVec.
func unpackAddAVX2(dst *uint32, src *byte, add *uint32, tab *vecTable, w uintptr, n int, first uint64) (last uint32, ok bool) {
	panic("store: unpackAddAVX2 without AVX2")
}

// compactBlockAVX2 is never called without haveVec and haveShiftX.
func compactBlockAVX2(dst *uint32, b *byte, h uintptr, n int, first uint64, blen int, nv uint64) (end int, last uint32, ok bool) {
	panic("store: compactBlockAVX2 without AVX2")
}

// compactClaimAVX2 is never called without haveVec and haveShiftX.
func compactClaimAVX2(dst *uint32, b *byte, h uintptr, n int, first uint64, blen int, nv uint64, parent *uint32, plen uint64) (end int, last uint32, ok bool, mask uint64) {
	panic("store: compactClaimAVX2 without AVX2")
}

// UnvisitedBlock takes no block here: st 0 (DecodeUnvisited decodes it).
func UnvisitedBlock(dst []uint32, list []byte, pos int, v, c, nv uint32, parent []uint32) (next int, mask uint64, st int) {
	return 0, 0, 0
}
