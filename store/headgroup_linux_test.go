//go:build linux

package store

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
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
	m, end := faultAfter(t, 32)
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

// TestHeadGroupFirstBlockPastEnd compares HeadGroup in both modes with Head on groups of
// lists of 1 to 8 neighbours that end 8 to 15 bytes before a mapping does, a page that
// faults after it, whose last list's degree is a lie (a directory Check refuses): 65 or
// more, so that its first block would start past the list's end, inside that page. The first mode's
// vector pass (vfloop) must refuse the list before its gather loads there.
func TestHeadGroupFirstBlockPastEnd(t *testing.T) {
	m, end := faultAfter(t, 4)
	r := rand.New(rand.NewPCG(testSeed(t), 64))
	const lo, nv = 8192, 1 << 20
	for range 400 {
		var deg [DirGroup]uint32
		var start [DirGroup + 1]uint32
		var adj []byte
		for i := range uint32(DirGroup) {
			nbrs := make([]uint32, 1+r.IntN(8))
			for k := range nbrs {
				nbrs[k] = r.Uint32N(nv)
			}
			slices.Sort(nbrs)
			nbrs = slices.Compact(nbrs)
			deg[i], start[i] = uint32(len(nbrs)), uint32(len(adj))
			adj = append(adj, AppendList(nil, lo+i, nbrs)...)
		}
		start[DirGroup] = uint32(len(adj))
		adj = append(adj, make([]byte, 8+r.IntN(8))...) // the lists' 8-byte loads inside
		at := m[end-len(adj) : end : end]
		copy(at, adj)
		// FirstBlock of the last list's lie, 4k, is 1 to about 4000 bytes past the
		// mapping's end
		j := uint32(DirGroup - 1)
		k := (uint32(len(adj))-start[j]+r.Uint32N(4000))/4 + 1
		deg[j] = 64*k + 1 + r.Uint32N(64)
		checkHeadGroup(t, r, groupShard(lo, &deg, &start, at), nv)
	}
}

// appendShortList appends to adj vertex v's list of 1 to 3 neighbours a little above or
// below it, whose gaps take 1 to maxBytes bytes (a road's list), and returns its degree.
func appendShortList(r *rand.Rand, adj []byte, v uint32, maxBytes int) ([]byte, uint32) {
	nbrs := make([]uint32, 1+r.IntN(3))
	for k := range nbrs {
		nbrs[k] = v + r.Uint32N(1<<(7*(1+r.IntN(maxBytes))-1)) - 1<<(7*r.IntN(2)) + 1
	}
	slices.Sort(nbrs)
	nbrs = slices.Compact(nbrs)
	return append(adj, AppendList(nil, v, nbrs)...), uint32(len(nbrs))
}

// TestHeadGroupShortMappingEnd compares HeadGroup in both modes with Head on groups of
// short lists (1 to 3 neighbours, values of 1 to 3 bytes: roads' lists, the ones
// headFirstBMI's vector pass reads 8 at a time) that end where a mapping does, a page
// that faults after it: the last lists' first bytes do not load as a word, and a gather
// of their 4 bytes would fault. In every other group one list's start lies past the
// mapping, above its end (a directory Check refuses): HeadGroup refuses the list before
// it, whose end is that start, and loads nothing from it (the assembly's loops: Go's
// slice each list).
func TestHeadGroupShortMappingEnd(t *testing.T) {
	m, end := faultAfter(t, 4)
	page := syscall.Getpagesize()
	r := rand.New(rand.NewPCG(testSeed(t), 62))
	const lo = 8192
	defer func(w uint32, v bool, b uint64) { bmiWidth, headVec, headVecBytes = w, v, b }(bmiWidth, headVec, headVecBytes)
	vec := headVec
	headVecBytes = math.MaxUint32 // every group through the vector passes where headVec is set
	for trial := range 400 {
		var deg [DirGroup]uint32
		var start [DirGroup + 1]uint32
		var adj []byte
		nv := uint32(1) << (14 + 8*r.IntN(2))
		for i := range uint32(DirGroup) {
			start[i] = uint32(len(adj))
			adj, deg[i] = appendShortList(r, adj, lo+i, 3)
		}
		start[DirGroup] = uint32(len(adj))
		at := m[end-len(adj) : end : end]
		copy(at, adj)
		if trial%2 == 0 {
			checkHeadGroup(t, r, groupShard(lo, &deg, &start, at), nv)
			continue
		}
		if !haveBMI {
			continue // Go's loops slice each list: never given such a directory
		}
		jbad := 1 + r.Uint32N(DirGroup-1)
		start[jbad] = uint32(len(adj)) + 1 + r.Uint32N(uint32(page)-8) // inside the page after
		s := groupShard(lo, &deg, &start, at)
		var x [2][DirGroup]uint32
		bmiWidth = 0
		for _, first := range []bool{false, true} {
			for _, headVec = range []bool{vec, false} {
				if _, _, bad := s.HeadGroup(0, 0, DirGroup, nv, first, &x); bad < 0 || uint32(bad) > jbad-1 {
					t.Fatalf("list %d starting at %d past the mapping's %d (first %v, vector %v): refused %d, expected %d or before", jbad, start[jbad], len(adj), first, headVec, bad, jbad-1)
				}
			}
		}
	}
}

// TestHeadGroupShortPast2GiB compares HeadGroup with Head on groups of short lists (as
// TestHeadGroupShortMappingEnd's) that lie 2^31 bytes or more into ADJ, a sparse
// mapping of 2 GiB and a few pages (a --shard-size above 2 GiB makes such shards), some
// of a graph of 2^32-1 vertices whose lists of one point below vertex 0: headFirstBMI's
// vector passes hold offsets and neighbours in dword lanes, whose gathers read offsets
// as signed and whose sums wrap at 2^32, so such groups must go through its loop.
func TestHeadGroupShortPast2GiB(t *testing.T) {
	if strconv.IntSize < 64 {
		t.Skip("a mapping of 2 GiB")
	}
	two31 := uint64(1) << 31 // a variable: 386 compiles the test too
	page, past := syscall.Getpagesize(), int(two31)
	m := reserve(t, past+16*page)
	r := rand.New(rand.NewPCG(testSeed(t), 73))
	defer func(b uint64) { headVecBytes = b }(headVecBytes)
	headVecBytes = math.MaxUint32 // every group of short lists through the vector passes where they may run
	for range 400 {
		var deg [DirGroup]uint32
		var start [DirGroup + 1]uint32
		var adj []byte
		lo := DirGroup * r.Uint32N(100)
		nv := []uint32{1 << 14, 1 << 22, 1<<32 - 1, 1<<32 - 1}[r.IntN(4)]
		for i := range uint32(DirGroup) {
			if v := lo + i; nv == 1<<32-1 && r.IntN(4) == 0 {
				// one neighbour, v+k+1 below v: below 0, 2^32-k-1 in a dword
				deg[i], start[i] = 1, uint32(len(adj))
				adj = binary.AppendUvarint(adj, uint64(2*(v+r.Uint32N(4))+1))
				continue
			}
			start[i] = uint32(len(adj))
			adj, deg[i] = appendShortList(r, adj, lo+i, 2)
		}
		start[DirGroup] = uint32(len(adj))
		base := 0
		if r.IntN(2) == 0 {
			base = past + r.IntN(8*page)
		}
		copy(m[base:], adj)
		s := groupShard(lo, &deg, &start, m[:base+len(adj)])
		s.dirH[0] += uint32(base) // the group's lists from base on
		s.dirH[4] += uint32(base)
		checkHeadGroup(t, r, s, nv)
	}
}

// faultAfter maps pages pages of memory and a page after them that faults on any
// access, unmapped when t ends: the mapping and the faulting page's offset.
func faultAfter(t *testing.T, pages int) (m []byte, end int) {
	t.Helper()
	page := syscall.Getpagesize()
	m, err := syscall.Mmap(-1, 0, (pages+1)*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(m) })
	end = pages * page
	if err := syscall.Mprotect(m[end:], syscall.PROT_NONE); err != nil {
		t.Skipf("mprotect: %v", err)
	}
	return m, end
}

// reserve maps n bytes of anonymous memory reserved, not committed (only the pages a
// test touches take memory), unmapped when the test ends; it skips the test where the
// address space is not there.
func reserve(t *testing.T, n int) []byte {
	t.Helper()
	m, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		t.Skipf("no %d bytes of address space to reserve: %v", n, err)
	}
	t.Cleanup(func() { syscall.Munmap(m) })
	return m
}

// TestHeadGroupFarLines compares HeadGroup in both modes with Head on a group whose
// lists start a line apart (narrow pairs: headFirstBMI's vector pair decode's case)
// over a span of 72 MiB, in an anonymous mapping of which only the lists' pages are
// touched: j span passes 2^32 from list 57 on, which the pair decode's dword lanes
// must not take. Each list is of three neighbours, its bytes after them zero.
func TestHeadGroupFarLines(t *testing.T) {
	const span, lo = 72 << 20, 8192
	m := reserve(t, span+4096)
	r := rand.New(rand.NewPCG(testSeed(t), 63))
	var deg [DirGroup]uint32
	var start [DirGroup + 1]uint32
	for j := range uint32(DirGroup) {
		start[j] = dirLine(j, span) + r.Uint32N(16)
		nbrs := []uint32{lo + j + 1, lo + j + 2 + r.Uint32N(50), lo + j + 60 + r.Uint32N(50)}
		deg[j] = 3
		copy(m[start[j]:], AppendList(nil, lo+j, nbrs))
	}
	start[DirGroup] = span
	s := groupShard(lo, &deg, &start, m[:span])
	if h := s.dirH[3]; h>>16&0xff+h>>24 > 25 {
		t.Fatalf("pair width %d: not the vector decode's", h>>16&0xff+h>>24)
	}
	for range 8 {
		checkHeadGroup(t, r, s, lo+DirGroup+200)
	}
}

// TestHeadGroupFiveByteValues compares HeadGroup with Head on first mode's groups of
// lists of 3 to 8 neighbours whose last list reaches 2^29 bytes past its first value (a
// hub's list in a shard above the default size; here a directory that lies) and takes
// 5 bytes for its first value (a first neighbour 2^27 below the vertex) or for the gap
// after it (2^28 or more): the first mode's vector pass (vfloop) reads 4 bytes of each,
// and the length it gets for a value with no end in them, about 2^29 bytes, fits inside
// such a list, so its check of each value's end alone leaves the list to the loop.
func TestHeadGroupFiveByteValues(t *testing.T) {
	if strconv.IntSize < 64 {
		t.Skip("a mapping of 512 MiB")
	}
	const lo, nv, far = 1 << 30, 1 << 31, 1<<29 + 64
	m := reserve(t, far+1<<20)
	r := rand.New(rand.NewPCG(testSeed(t), 65))
	near := func(v uint32, d int) []uint32 {
		nbrs := make([]uint32, d)
		for k := range nbrs {
			nbrs[k] = v + 1 + uint32(k)*(1+r.Uint32N(100))
		}
		return nbrs
	}
	for trial := range 200 {
		var deg [DirGroup]uint32
		var start [DirGroup + 1]uint32
		var adj []byte
		for i := range uint32(DirGroup) {
			v := lo + i
			nbrs := near(v, 4+r.IntN(5))
			if i == DirGroup-1 && trial%2 == 0 {
				nbrs[0] = v - 1<<27 - r.Uint32N(1<<20) // a first value of 5 bytes
			} else if i == DirGroup-1 {
				nbrs = near(v, 3)
				nbrs[1] += 1<<28 + r.Uint32N(1<<20) // a gap of 5 bytes
				nbrs[2] = nbrs[1] + 1 + r.Uint32N(100)
			}
			deg[i], start[i] = uint32(len(nbrs)), uint32(len(adj))
			adj = append(adj, AppendList(nil, v, nbrs)...)
		}
		start[DirGroup] = start[DirGroup-1] + far
		copy(m, adj)
		checkHeadGroup(t, r, groupShard(lo, &deg, &start, m[:start[DirGroup]]), nv)
	}
}
