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
// the list's first word comes back with them.
func (s *Shard) Entries(dst []ListEntry, vs []uint32) int {
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
// (on facebook_combined the degree sums took 87 instructions a vertex).
func (s *Shard) SumDegrees(vs []uint32) (sum uint64, k int) {
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

// ClaimShort is a serial top-down BFS step over the frontier vertices vs (graph ids),
// from the first on while they lie in the shard and each one's list is a block of one
// to three varints that decodes from the list's first word (a road's list; a vertex
// without neighbours is passed over): for each neighbour x, parent[x] becomes the
// vertex where it was 2^32-1 (unreached), and x is written to queue[tail], tail
// advancing where it was claimed. Every neighbour's parent is written back and every
// neighbour written to the queue, claimed or not, without a branch on the parent
// (whether a road vertex's neighbour is claimed is a coin toss): the caller decides that
// parent is small enough to stay in the caches. parent holds at least nv entries and
// queue more than nv; a tail past nv-3 or a neighbour at or past nv stops the step at
// its vertex. It returns how many vertices of vs it expanded, the new tail and the
// neighbours examined; the vertex it stopped at is the caller's (Entries and its other
// decoders, which refuse a list that does not decode).
//
// On a road map this is most of a top-down level, a vertex's directory pair, list word
// and claims in one loop: reading them through Entries stored each entry and loaded it
// back in the claims' loop, about a third more instructions a vertex.
func (s *Shard) ClaimShort(vs []uint32, parent, queue []uint32, tail int, nv uint32) (int, int, uint64) {
	if nv == 0 || uint64(len(parent)) < uint64(nv) || uint64(len(queue)) <= uint64(nv) || tail < 0 {
		return 0, tail, 0
	}
	// parent and queue accessed without a check each: every neighbour is checked below
	// nv <= len(parent), and a vertex's at most 3 neighbours go to the queue from a tail
	// checked below nv-2 (< len(queue)), whatever the caller's parents say
	pp := unsafe.Pointer(unsafe.SliceData(parent))
	qp := unsafe.Pointer(unsafe.SliceData(queue))
	var examined uint64
	for k, v := range vs {
		i := v - s.Lo
		if i >= s.N || tail > int(nv)-3 {
			return k, tail, examined
		}
		// the group's header and the next one's without a check, as Entries
		h := (*[8]uint32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s.dirH)), uintptr(i>>dirGroupShift)*dirHeader))
		c := h[3]
		wo, wd := c>>16&0xff, c>>24
		if 2*wo+wd > 57 {
			return k, tail, examined
		}
		j := i & (DirGroup - 1)
		p := uint64(h[1])*64 + uint64(j*(wo+wd))
		x := binary.LittleEndian.Uint64(s.dirB[p>>3:p>>3+8]) >> (p & 7)
		span, mo := h[4]-h[0], lowMask[wo&63]
		start, d := dirPair(x, h[0]+dirLine(j, span), wo, mo, c>>8&0xff, lowMask[wd&63])
		if d == 0 {
			continue
		}
		end := h[4]
		if j+1 < DirGroup && i+1 < s.N {
			end, _ = dirPair(x>>((wo+wd)&63), h[0]+dirLine(j+1, span), 0, mo, 0, 0)
		}
		a := uint64(start)
		if d >= PackedMin || a+8 > uint64(cap(s.Adj)) {
			return k, tail, examined
		}
		w := binary.LittleEndian.Uint64(s.Adj[a : a+8 : a+8])
		if end-start == d {
			// d one-byte values (most lists of roads): the first a zigzag delta from v,
			// then one neighbour per gap byte up to the last nonzero one (a zero gap past
			// it, a byte masked off or a duplicate's, names the vertex just claimed)
			w &= shortMask[d&3]
			f := int64(v) + Unzigzag(w&0xff)
			if w&0x808080 != 0 || f < 0 || f+int64(w>>8&0xff)+int64(w>>16) >= int64(nv) {
				return k, tail, examined
			}
			examined += uint64(d)
			for x := uint32(f); ; {
				pv := (*uint32)(unsafe.Add(pp, 4*uintptr(x)))
				p := *pv
				np, inc := p, 0
				if p == 1<<32-1 {
					np, inc = v, 1
				}
				*pv = np
				*(*uint32)(unsafe.Add(qp, 4*uintptr(tail))) = x
				tail += inc
				if w >>= 8; w == 0 {
					break
				}
				x += uint32(w & 0xff)
			}
			continue
		}
		// values of several bytes (a fifth of a road's lists)
		x0, x1, x2, ok := DecodeShortWord(v, d, w, int(end-start), nv)
		if !ok {
			return k, tail, examined
		}
		examined += uint64(d)
		for _, x := range [3]uint32{x0, x1, x2} {
			pv := (*uint32)(unsafe.Add(pp, 4*uintptr(x)))
			p := *pv
			np, inc := p, 0
			if p == 1<<32-1 {
				np, inc = v, 1
			}
			*pv = np
			*(*uint32)(unsafe.Add(qp, 4*uintptr(tail))) = x
			tail += inc
			if d--; d == 0 {
				break
			}
		}
	}
	return len(vs), tail, examined
}

// shortMask[d] keeps the low d bytes of a word: a list of d one-byte values.
var shortMask = [4]uint64{0, 0xff, 0xffff, 0xffffff}
