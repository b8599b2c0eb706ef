//go:build !amd64 || purego

package store

// scanFirstAVX2 is never called without haveVec.
func scanFirstAVX2(a *firstArgs) { panic("store: scanFirstAVX2 without AVX2") }
