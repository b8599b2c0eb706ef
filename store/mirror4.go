package store

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// DecodeMirror4 decodes v's list into dst when the list is one mirrored block of 4
// neighbours (FORMAT.md, "ADJ: one list") whose bytes, the first value, FF and the lower
// half's one gap, of at most 3 bytes each, are the whole list and load as one 64-bit
// word: every list of a mesh but its border. ok is false for any other list (and for one
// that does not decode), which DecodeBlock then decodes or refuses; where ok is true,
// DecodeBlock gives the same neighbours. A top-down level on a mesh decodes one such
// list per frontier vertex, and DecodeBlock's calls (the block, the packed header, the
// mirror, a varint each) were a fifth of a vertex's cost.
func DecodeMirror4(dst *[4]uint32, v uint32, list []byte, nv uint32) (ok bool) {
	if cap(list) < 8 || len(list) > 7 {
		return false
	}
	dst[0], dst[1], dst[2], dst[3], ok = DecodeMirror4Word(v, binary.LittleEndian.Uint64(list[:8:8]), len(list), nv)
	return ok
}

// DecodeMirror4Word is DecodeMirror4 on the list of n bytes whose first 8 bytes, those
// after the list whatever they are, load as the little-endian word w (ListEntry.Head).
// It returns the neighbours in registers: a caller that stored them and loaded them
// back wider (a range over an array copies it) would wait for the stores to retire,
// behind the parent loads of the lists before.
func DecodeMirror4Word(v uint32, w uint64, n int, nv uint32) (x0, x1, x2, x3 uint32, ok bool) {
	// each shift by a count the compiler knows is below 64 (k and k2 at most 3 where
	// they shift): no test and mask of the count, a third of this function's instructions
	k := uint(bits.TrailingZeros64(^w&0x8080808080808080)>>3) + 1
	if k > 3 {
		return 0, 0, 0, 0, false
	}
	r := w >> (8 * k & 63)
	k2 := uint(bits.TrailingZeros64(^(r>>8)&0x80808080808080)>>3) + 1
	if byte(r) != hdrMirror || k2 > 3 || k+1+k2 != uint(n) {
		return 0, 0, 0, 0, false
	}
	u := (w&0x7f | w>>1&(0x7f<<7) | w>>2&(0x7f<<14)) & (1<<(7*k&63) - 1)
	r >>= 8
	g := (r&0x7f | r>>1&(0x7f<<7) | r>>2&(0x7f<<14)) & (1<<(7*k2&63) - 1)
	a := int64(v) + Unzigzag(u>>1)
	b := a + int64(g)
	if u&1 == 0 || a < 0 || b > int64(v) || 2*int64(v)-a >= int64(nv) {
		return 0, 0, 0, 0, false
	}
	return uint32(a), uint32(b), uint32(2*int64(v) - b), uint32(2*int64(v) - a), true
}

// ClaimMirror4s is a serial top-down BFS step over the lists of es[k] (vs[k]'s entries,
// from ListEntry) from the first on while each is one that DecodeMirror4Word decodes (a
// mesh's list): each neighbour x whose parent[x] is 2^32-1 (unreached) gets the vertex
// as its parent and is written to queue[tail], tail advancing. parent holds at least nv
// entries and queue more than nv; a tail past nv-4 stops the step. It returns how many
// lists it expanded and the new tail. A list's decoding and claims in one loop without
// a call: through DecodeMirror4Word, a call a list, its caller spilled and reloaded
// its own values around each. On amd64 the loop runs in assembly (claimMirror4s), the
// same steps with every value in registers.
func ClaimMirror4s(es []ListEntry, vs []uint32, parent, queue []uint32, tail int, nv uint32) (int, int) {
	if nv == 0 || uint64(len(parent)) < uint64(nv) || uint64(len(queue)) <= uint64(nv) || tail < 0 {
		return 0, tail
	}
	// parent and queue accessed without a check each: every neighbour is checked below
	// nv <= len(parent), and a list's 4 neighbours go to the queue from a tail checked
	// below nv-3 (< len(queue))
	es = es[:min(len(es), len(vs))]
	if haveClaimMirror4s {
		// the call only where the first list may be a mirrored block (its header
		// after a first varint of 1 to 3 bytes): lists of degree 4 of other graphs
		// are not
		if len(es) == 0 {
			return 0, tail
		}
		if w := es[0].Head; byte(w>>8) != hdrMirror && byte(w>>16) != hdrMirror && byte(w>>24) != hdrMirror {
			return 0, tail
		}
		return claimMirror4s(&es[0], &vs[0], len(es), &parent[0], &queue[0], tail, int(nv)-4, int(nv))
	}
	pp := unsafe.Pointer(unsafe.SliceData(parent))
	qp := unsafe.Pointer(unsafe.SliceData(queue))
	for k := range es {
		e := &es[k]
		if e.Deg != 4 || tail > int(nv)-4 {
			return k, tail
		}
		v, w := vs[k], e.Head
		// DecodeMirror4Word's steps
		// the first varint's length, 4 where none of the first 3 bytes ends it (a
		// high bit past them: a nonzero count, no test for zero)
		k1 := uint(bits.TrailingZeros32(^uint32(w)&0x808080|1<<31)>>3) + 1
		if k1 > 3 {
			return k, tail
		}
		r := w >> (8 * k1 & 63)
		k2 := uint(bits.TrailingZeros32(^uint32(r>>8)&0x808080|1<<31)>>3) + 1
		if byte(r) != hdrMirror || k2 > 3 || uint32(k1+1+k2) != e.End-e.Start {
			return k, tail
		}
		u := (w&0x7f | w>>1&(0x7f<<7) | w>>2&(0x7f<<14)) & varintMask[k1&3]
		r >>= 8
		g := (r&0x7f | r>>1&(0x7f<<7) | r>>2&(0x7f<<14)) & varintMask[k2&3]
		x0 := int64(v) + Unzigzag(u>>1)
		x1 := x0 + int64(g)
		if u&1 == 0 || x0 < 0 || x1 > int64(v) || 2*int64(v)-x0 >= int64(nv) {
			return k, tail
		}
		// the four claims written out (a range over them builds an array; a helper
		// inlined a claim leaves an inline mark's NOP each, as no instruction of the
		// call's own line takes its place, and returning 0 or 1 for the caller's add
		// turns the branch into a SETcc and a zero extension)
		if pv := (*uint32)(unsafe.Add(pp, 4*uintptr(x0))); *pv == 1<<32-1 {
			*pv = v
			*(*uint32)(unsafe.Add(qp, 4*uintptr(tail))) = uint32(x0)
			tail++
		}
		if pv := (*uint32)(unsafe.Add(pp, 4*uintptr(x1))); *pv == 1<<32-1 {
			*pv = v
			*(*uint32)(unsafe.Add(qp, 4*uintptr(tail))) = uint32(x1)
			tail++
		}
		if pv := (*uint32)(unsafe.Add(pp, 4*uintptr(2*int64(v)-x1))); *pv == 1<<32-1 {
			*pv = v
			*(*uint32)(unsafe.Add(qp, 4*uintptr(tail))) = uint32(2*int64(v) - x1)
			tail++
		}
		if pv := (*uint32)(unsafe.Add(pp, 4*uintptr(2*int64(v)-x0))); *pv == 1<<32-1 {
			*pv = v
			*(*uint32)(unsafe.Add(qp, 4*uintptr(tail))) = uint32(2*int64(v) - x0)
			tail++
		}
	}
	return len(es), tail
}

// varintMask[k] keeps the 7k value bits of a varint of k <= 3 bytes gathered into the
// low bits: a load instead of 1<<(7*k)-1, whose shift by a variable count ties up CX.
var varintMask = [4]uint64{0, 1<<7 - 1, 1<<14 - 1, 1<<21 - 1}
