package store

import (
	"encoding/binary"
	"unsafe"
)

// ListEntry is where a vertex's list lies, as the directory says, and its first bytes.
type ListEntry struct {
	Deg        uint32 // the degree
	Start, End uint32 // the list's bounds in ADJ (as ListAt's slice)
	// Head is the 8 bytes at Start in the mapping (the list's first bytes, and what
	// follows it), little-endian; bytes past the mapping's end read as zero.
	Head uint64
}

// Entries fills dst[k] for vs[k], the vertices of vs (graph ids) from the first on while
// they lie in the shard, and returns how many it filled (at most len(dst)). A search
// that expands a frontier of short lists (roads, meshes) waits mostly on each vertex's
// directory pair and then on its list's first bytes; reading a batch's entries in one
// loop, without a call per vertex, lets those loads of different vertices overlap, and
// the list's first word comes back with them. On amd64 with BMI2 the loop runs in
// assembly (entriesNarrow), which leaves the rare entries it does not take to entries,
// one at a time.
func (s *Shard) Entries(dst []ListEntry, vs []uint32) int {
	vs = vs[:min(len(vs), len(dst))]
	if !haveEntriesNarrow {
		return s.entries(dst, vs)
	}
	adj := s.Adj[:cap(s.Adj)]
	for k := 0; k < len(vs); k++ {
		k += entriesNarrow(unsafe.SliceData(s.dirH), unsafe.SliceData(s.dirB), uintptr(len(s.dirB)),
			unsafe.SliceData(adj), uintptr(len(adj)), s.Lo, s.N, &dst[k], &vs[k], len(vs)-k)
		if k == len(vs) || s.entries(dst[k:k+1], vs[k:k+1]) == 0 {
			return k
		}
	}
	return len(vs)
}

// entries is Entries in Go: the loop entriesNarrow runs, and the entries it leaves.
func (s *Shard) entries(dst []ListEntry, vs []uint32) int {
	vs = vs[:min(len(vs), len(dst))]
	for k, v := range vs {
		i := v - s.Lo
		if i >= s.N {
			return k
		}
		// the group's header and the next one's without a check: i < N, and
		// openDirectory checked that dirH holds the shard's groups' headers and the
		// sentinel; the other slices of constant length (no pointer masking as for one
		// that may be empty), shifts the compiler knows are below 64, and the shard's
		// fields read through s where used (copied into locals, they outnumbered the
		// registers and were spilled and reloaded each vertex)
		h := (*[8]uint32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s.dirH)), uintptr(i>>dirGroupShift)*dirHeader))
		c := h[3]
		wo, wd := c>>16&0xff, c>>24
		j := i & (DirGroup - 1)
		p := uint64(h[1])*64 + uint64(j*(wo+wd))
		e := &dst[k]
		// one load holds 57 bits past the pair's first byte's skipped ones: the pair
		// and the next one's start when they fit (then wo+wd <= 57, wo <= 28)
		if 2*wo+wd > 57 {
			e.Deg, e.Start, e.End = s.dirEntryWide(i, h[:], p, wo, wd)
		} else {
			x := binary.LittleEndian.Uint64(s.dirB[p>>3:p>>3+8]) >> (p & 7)
			span, mo := h[4]-h[0], lowMask[wo&63]
			e.Start, e.Deg = dirPair(x, h[0]+dirLine(j, span), wo, mo, c>>8&0xff, lowMask[wd&63])
			end := h[4]
			if j+1 < DirGroup && i+1 < s.N {
				end, _ = dirPair(x>>((wo+wd)&63), h[0]+dirLine(j+1, span), 0, mo, 0, 0)
			}
			e.End = end
		}
		if a := uint64(e.Start); a+8 <= uint64(cap(s.Adj)) {
			e.Head = binary.LittleEndian.Uint64(s.Adj[a : a+8 : a+8])
		} else {
			e.Head = tailWord(s.Adj[:cap(s.Adj)], a)
		}
	}
	return len(vs)
}

// lowMask[w] is 2^w-1, a load instead of a shift by a variable count (which ties up
// CX on amd64 without BMI2).
var lowMask = func() (m [64]uint32) {
	for w := range m {
		m[w] = uint32(uint64(1)<<w - 1)
	}
	return m
}()

// tailWord is the little-endian word of the bytes of b from a on, fewer than 8, the
// missing ones zero.
func tailWord(b []byte, a uint64) uint64 {
	var w uint64
	for i := a; i < uint64(len(b)); i++ {
		w |= uint64(b[i]) << (8 * (i - a))
	}
	return w
}

// SumDegrees returns the sum of the degrees of vs (graph ids) from the first on while
// they lie in the shard, and how many that is. A search weighing a frontier's edges
// sums the degrees of vertices in no order, each in its own directory group; one call
// for the lot instead of DegreeAt's per vertex keeps the shard's fields in registers
// (on facebook_combined the degree sums took 87 instructions a vertex), and on amd64
// with AVX2 eight vertices a step go through sumDegreesAVX2 (about 6 instructions a
// vertex where sumDegrees takes 44), the rest through sumDegrees.
func (s *Shard) SumDegrees(vs []uint32) (sum uint64, k int) {
	if steps := len(vs) / 8; steps > 0 && s.sumVec() {
		sum, k = sumDegreesAVX2(unsafe.SliceData(s.dirH), unsafe.SliceData(s.dirB), uintptr(len(s.dirB)), s.Lo, s.N, unsafe.SliceData(vs), 1, steps)
	}
	rest, m := s.sumDegrees(vs[k:])
	return sum + rest, k + m
}

// sumVec says whether sumDegreesAVX2 may read the shard: AVX2, a vertex, and a
// directory of at least a word and below 2^30 bytes (its byte offsets are the
// gathers' 32-bit indices).
func (s *Shard) sumVec() bool {
	return haveSumDegreesVec && s.N > 0 && len(s.dirB) >= 8 && len(s.dirB) < 1<<30
}

// sumDegrees is SumDegrees in Go, a vertex at a time.
func (s *Shard) sumDegrees(vs []uint32) (sum uint64, k int) {
	b, lo, n := s.dirB, s.Lo, s.N
	hp := unsafe.Pointer(unsafe.SliceData(s.dirH))
	for k, v := range vs {
		i := v - lo
		if i >= n {
			return sum, k
		}
		// the group's header without a check (i < n: inside dirH, as Entries), a
		// slice of constant length (no pointer masking for an empty one) and a shift
		// the compiler knows is below 64: a dozen instructions fewer than DegreeAt's
		h := (*[4]uint32)(unsafe.Add(hp, uintptr(i>>dirGroupShift)*dirHeader))
		w := h[3]
		wo, wd := w>>16&0xff, w>>24
		p := uint64(h[1])<<6 + uint64(i&(DirGroup-1)*(wo+wd)+wo)
		x := binary.LittleEndian.Uint64(b[p>>3 : p>>3+8])
		sum += uint64(w>>8&0xff) + x>>(p&7)&(1<<(wd&63)-1)
	}
	return sum, len(vs)
}

// SumDegreesEvery is SumDegrees over vs[0], vs[stride], vs[2*stride], ... (stride > 0):
// the sum of their degrees while they lie in the shard, and how many that is: the degrees
// of a search's evenly spaced sample of a large frontier, without a call a vertex
// (eight a step by sumDegreesAVX2 where it runs, as SumDegrees).
func (s *Shard) SumDegreesEvery(vs []uint32, stride int) (sum uint64, k int) {
	if steps := (len(vs) + stride - 1) / stride / 8; steps > 0 && s.sumVec() {
		sum, k = sumDegreesAVX2(unsafe.SliceData(s.dirH), unsafe.SliceData(s.dirB), uintptr(len(s.dirB)), s.Lo, s.N, unsafe.SliceData(vs), stride, steps)
	}
	rest, m := s.sumDegreesEvery(vs[min(k*stride, len(vs)):], stride)
	return sum + rest, k + m
}

// sumDegreesEvery is SumDegreesEvery in Go, a vertex at a time.
func (s *Shard) sumDegreesEvery(vs []uint32, stride int) (sum uint64, k int) {
	j := 0
	for ; j < len(vs); j += stride {
		i := vs[j] - s.Lo
		if i >= s.N {
			break
		}
		// as sumDegrees, but the shard's fields read through s, not copied to locals
		// (beside stride the compiler keeps those on the stack, reloaded each vertex),
		// and the degree's mask from lowMask
		h := (*[4]uint32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s.dirH)), uintptr(i>>dirGroupShift)*dirHeader))
		w := h[3]
		wo, wd := w>>16&0xff, w>>24
		p := uint64(h[1])<<6 + uint64(i&(DirGroup-1)*(wo+wd)+wo)
		x := binary.LittleEndian.Uint64(s.dirB[p>>3 : p>>3+8])
		sum += uint64(w>>8&0xff) + x>>(p&7)&uint64(lowMask[wd&63])
	}
	return sum, j / stride // j is a multiple of stride
}
