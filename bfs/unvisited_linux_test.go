//go:build linux && amd64

package bfs

import (
	"syscall"
	"testing"
	"unsafe"

	"github.com/oocgraph/ooc/store"
)

// TestUnvisitedHighIndex holds the gathered test of a block's parents to the parent
// array of a graph of more than 2^31 vertices, whose indexes at or past 2^31 a gather of
// 32-bit indexes reads as negative unless it offsets them. The array is one page of a
// mapping of 16 GiB reserved, not committed: the 8 GiB before it are mapped too, so that
// a load at the negative index reads zeros (a parent) instead of faulting.
func TestUnvisitedHighIndex(t *testing.T) {
	if !haveGather {
		t.Skip("no AVX2: claimList tests its parents one by one")
	}
	const before, n = 1 << 33, 1<<31 + 64
	m, err := syscall.Mmap(-1, 0, before+4*n, syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		t.Skipf("no 16 GiB of address space to reserve: %v", err)
	}
	defer syscall.Munmap(m)
	parent := unsafe.Slice((*uint32)(unsafe.Pointer(&m[before])), n)
	var buf [store.BlockSize]uint32
	want := uint64(0)
	for k := range buf {
		switch k % 4 {
		case 0: // high, unreached
			buf[k] = 1<<31 + uint32(k)
			parent[buf[k]] = unreached
			want |= 1 << k
		case 1: // high, reached (the mapping's zeros)
			buf[k] = 1<<31 + 32 + uint32(k)
		case 2: // low, unreached
			buf[k] = uint32(k)
			parent[buf[k]] = unreached
			want |= 1 << k
		case 3: // past the array: never loaded
			buf[k] = n + uint32(k)
		}
	}
	if got := unvisited(parent, &buf, len(buf)); got != want {
		t.Fatalf("unvisited %#x, want %#x", got, want)
	}
}
