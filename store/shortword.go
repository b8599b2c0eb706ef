package store

import "math/bits"

// DecodeShortWord decodes v's list of d < PackedMin neighbours, a block of d varints
// (the first a zigzag delta from v, the others gaps: FORMAT.md, "ADJ: one list"), when
// its n bytes are the low bytes of w (ListEntry.Head: a list's first 8 bytes, whatever
// follows it after them) and hold exactly d varints of at most 5 bytes each. ok is false
// for any other list (and for one that does not decode), which DecodeBlock then decodes
// or refuses; where ok is true, DecodeBlock gives the same neighbours. The neighbours
// come back in registers, the unused ones 0. Most of a road's lists have one-byte values,
// which a caller decodes inline; the others (a fifth of luxembourg_osm's) went through
// DecodeBlock's loop and FastUvarint, a call per value past the first byte.
func DecodeShortWord(v, d uint32, w uint64, n int, nv uint32) (x0, x1, x2 uint32, ok bool) {
	if d == 0 || d >= PackedMin || n < int(d) || n > 8 {
		return 0, 0, 0, false
	}
	m := ^uint64(0) >> ((64 - 8*n) & 63)
	ends := ^w & m & 0x8080808080808080 // the bytes that end a varint
	// the first three ends, as byte counts: e0 < e1 < e2 (9 past the last)
	e0 := uint(bits.TrailingZeros64(ends)>>3) + 1
	ends &= ends - 1
	e1 := uint(bits.TrailingZeros64(ends)>>3) + 1
	ends &= ends - 1
	e2 := uint(bits.TrailingZeros64(ends)>>3) + 1
	// exactly d varints in the n bytes: the d-th ends with them (the ends lie in them)
	last := e0
	if d == 2 {
		last = e1
	} else if d == 3 {
		last = e2
	}
	if last != uint(n) {
		return 0, 0, 0, false
	}
	// the bytes' 7-bit groups packed, byte k's at bit 7k: then a value is the bits from
	// its first byte's group to its last's, without a gather per value
	c := w & 0x7f7f7f7f7f7f7f7f
	c = c&0x007f007f007f007f | c>>1&0x3f803f803f803f80
	c = c&0x00003fff00003fff | c>>2&0x0fffc0000fffc000
	c = c&0x000000000fffffff | c>>4&0x00fffffff0000000
	// no value of more than 5 bytes (a uvarint32's most): past them the groups above
	// run out of the 35 bits a value is read as
	if e0 > 5 || d > 1 && e1-e0 > 5 || d > 2 && e2-e1 > 5 {
		return 0, 0, 0, false
	}
	cur := int64(v) + Unzigzag(c&(1<<(7*e0&63)-1))
	if cur < 0 || cur >= int64(nv) {
		return 0, 0, 0, false
	}
	x0 = uint32(cur)
	if d == 1 {
		return x0, 0, 0, true
	}
	g := c >> (7 * e0 & 63) & (1<<(7*(e1-e0)&63) - 1)
	if cur += int64(g); g >= uint64(nv) || cur >= int64(nv) {
		return 0, 0, 0, false
	}
	x1 = uint32(cur)
	if d == 2 {
		return x0, x1, 0, true
	}
	g = c >> (7 * e1 & 63) & (1<<(7*(e2-e1)&63) - 1)
	if cur += int64(g); g >= uint64(nv) || cur >= int64(nv) {
		return 0, 0, 0, false
	}
	return x0, x1, uint32(cur), true
}

// OneVarint is DecodeShortWord's rule for a list of one neighbour (e its entry, v its
// vertex) in fewer instructions: the neighbour where e's list is one varint of at most
// 5 bytes (the high bits of its bytes but the last set) whose vertex lies below nv,
// else ^0. A top-down level after a bottom-up run on a skewed graph expands mostly such
// lists.
func OneVarint(v uint32, e *ListEntry, nv uint32) uint32 {
	l := e.End - e.Start
	if e.Deg != 1 || l-1 >= 5 || e.Head&varintHigh[l&7] != varintHigh[(l-1)&7] {
		return ^uint32(0)
	}
	// the 7-bit groups of its bytes packed
	w := e.Head
	c := w&0x7f | w>>1&0x3f80 | w>>2&0x1fc000 | w>>3&0xfe00000 | w>>4&0x7f0000000
	if x := int64(v) + Unzigzag(c&(1<<(7*l)-1)); uint64(x) < uint64(nv) {
		return uint32(x)
	}
	return ^uint32(0)
}

// varintHigh[l] is the high bits of a word's low l bytes (l <= 5): those of a varint of
// l bytes but its last's.
var varintHigh = [8]uint64{0, 0x80, 0x8080, 0x808080, 0x80808080, 0x8080808080}
