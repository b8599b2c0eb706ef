//go:build linux

package store

import (
	"math/rand/v2"
	"syscall"
	"testing"
)

// TestHeadGroupCompactMappingEnd compares HeadGroup in both modes with Head on groups of
// compact lists (with exceptions and without, 4 to 20 neighbours, gaps of up to 24
// bits, first values of up to 5 bytes) that end where a mapping does, a page that
// faults after it: outside first mode a compact block's first gap is read from the
// block's stream, which must end inside the word at the block (without exceptions) or
// whose loads must stay inside the mapping (a block within compactMaxBytes+8 bytes of
// its end goes through Head's copy).
func TestHeadGroupCompactMappingEnd(t *testing.T) {
	page := syscall.Getpagesize()
	const pages = 32
	m, err := syscall.Mmap(-1, 0, (pages+1)*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer syscall.Munmap(m)
	end := pages * page
	if err := syscall.Mprotect(m[end:], syscall.PROT_NONE); err != nil {
		t.Skipf("mprotect: %v", err)
	}
	r := rand.New(rand.NewPCG(testSeed(t), 61))
	const lo = 8192
	for range 400 {
		var deg [DirGroup]uint32
		var start [DirGroup + 1]uint32
		var adj []byte
		nv := uint32(1) << (20 + 10*r.IntN(2))
		for i := range uint32(DirGroup) {
			nbrs := compactNbrs(r, []int{4, 5, 9, 20}[r.IntN(4)], uint(r.IntN(25)), []float64{0, 0.3}[r.IntN(2)], nv)
			deg[i], start[i] = uint32(len(nbrs)), uint32(len(adj))
			adj = append(adj, AppendList(nil, lo+i, nbrs)...)
		}
		start[DirGroup] = uint32(len(adj))
		at := m[end-len(adj) : end : end]
		copy(at, adj)
		checkHeadGroup(t, r, groupShard(lo, &deg, &start, at), nv)
	}
}
