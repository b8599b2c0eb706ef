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
	m := ^uint64(0) >> (64 - 8*n)
	ends := ^w & m & 0x8080808080808080 // the bytes that end a varint
	if bits.OnesCount64(ends) != int(d) || ends>>(8*n-1) == 0 {
		return 0, 0, 0, false
	}
	var out [PackedMin - 1]uint32
	cur := int64(v)
	for i := range d {
		k := bits.TrailingZeros64(ends)>>3 + 1
		if k > 5 {
			return 0, 0, 0, false
		}
		x := (w&0x7f | w>>1&(0x7f<<7) | w>>2&(0x7f<<14) | w>>3&(0x7f<<21) | w>>4&(0x7f<<28)) & (1<<(7*k) - 1)
		w, ends = w>>(8*k), ends>>(8*k)
		if i == 0 {
			cur += Unzigzag(x)
		} else if x >= uint64(nv) {
			return 0, 0, 0, false
		} else {
			cur += int64(x)
		}
		if cur < 0 || cur >= int64(nv) {
			return 0, 0, 0, false
		}
		out[i] = uint32(cur)
	}
	return out[0], out[1], out[2], true
}
