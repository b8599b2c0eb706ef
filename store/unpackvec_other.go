//go:build !amd64 || purego

package store

// haveVec is false: no vector decoder on this architecture or build.
var haveVec = false

// unpackAddAVX2 is never called without haveVec.
func unpackAddAVX2(dst *uint32, src *byte, add *uint32, tab *vecTable, w uintptr, groups int, first uint64) (last uint32, ok bool) {
	panic("store: unpackAddAVX2 without AVX2")
}
