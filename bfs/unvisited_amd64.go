//go:build amd64 && !purego

package bfs

import (
	"unsafe"

	_ "github.com/oocgraph/ooc/internal/lanes" // LANEIDX
	"github.com/oocgraph/ooc/store"
	"golang.org/x/sys/cpu"
)

// haveGather says whether unvisitedAVX2 may run: the processor has AVX2. Tests turn it
// off to hold the pure-Go claims to the same answers.
var haveGather = cpu.X86.HasAVX2

//go:noescape
func unvisitedAVX2(parent *uint32, plen uint64, nbrs *uint32, n uint64) uint64

// unvisited is bit k set where k < n and parent[buf[k]] is unreached (n <= len(buf)).
func unvisited(parent []uint32, buf *[store.BlockSize]uint32, n int) uint64 {
	return unvisitedAVX2(unsafe.SliceData(parent), uint64(min(len(parent), 1<<32-1)), &buf[0], uint64(n))
}
