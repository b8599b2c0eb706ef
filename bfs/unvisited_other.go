//go:build !amd64 || purego

package bfs

import "github.com/oocgraph/ooc/store"

// haveGather is false: no gather on this architecture or build.
var haveGather = false

// unvisitedAVX2 is never called without haveGather.
func unvisitedAVX2(parent *uint32, plen uint64, nbrs *uint32, n uint64) uint64 {
	panic("bfs: unvisitedAVX2 without AVX2")
}

// unvisited is never called without haveGather.
func unvisited(parent []uint32, buf *[store.BlockSize]uint32, n int) uint64 {
	panic("bfs: unvisited without AVX2")
}
