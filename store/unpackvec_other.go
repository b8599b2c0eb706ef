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

// compactAVX2 is never called without haveVec.
func compactAVX2(dst *uint32, b *byte, tab *vecTable, w uintptr, n int, first uint64, ebit uintptr, ne int, step, wi uintptr, mi, mh, nv uint64) (last uint32, ok bool) {
	panic("store: compactAVX2 without AVX2")
}
