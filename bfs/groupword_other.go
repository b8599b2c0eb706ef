//go:build !amd64 || purego

package bfs

// haveGroupWord is false: no vector unit on this architecture or build.
var haveGroupWord = false

// unreachedAVX2 is never called without haveGroupWord.
func unreachedAVX2(p *uint32) uint64 { panic("bfs: unreachedAVX2 without AVX2") }

// applyFoundAVX2 is never called without haveGroupWord.
func applyFoundAVX2(parent, par, level *uint32, found uint64, lv uint32) {
	panic("bfs: applyFoundAVX2 without AVX2")
}
