//go:build !amd64 || purego

package store

func sumDegreesAVX2(h *uint32, b *byte, nb uintptr, lo, n uint32, vs *uint32, stride, blocks int) (sum uint64, k int) {
	panic("store: sumDegreesAVX2 without its assembly")
}

// haveSumDegreesVec says whether sumDegreesAVX2 may run: never here.
var haveSumDegreesVec = false
