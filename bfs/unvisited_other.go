//go:build !amd64 || purego

package bfs

import "github.com/oocgraph/ooc/store"

// haveGather is false: no gather on this architecture or build.
var haveGather = false

// unvisited is never called without haveGather.
func unvisited(parent []uint32, buf *[store.BlockSize]uint32, n int) uint64 {
	panic("bfs: unvisited without AVX2")
}
