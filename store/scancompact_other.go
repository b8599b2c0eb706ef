//go:build !amd64 || purego

package store

// scanCompactAVX2 is never called without haveVec and haveShiftX.
func scanCompactAVX2(b *byte, tab *vecTable, w, n, first, nv uint64, front *uint64, ebit, ne, wi, mh, wiwh uint64) (x, k, status uint64) {
	panic("store: scanCompactAVX2 without AVX2")
}

// scanMoreAVX2 is never called without haveVec and haveShiftX.
func scanMoreAVX2(a *moreArgs) { panic("store: scanMoreAVX2 without AVX2") }
