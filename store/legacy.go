package store

import "encoding/binary"

// The list codec of format versions 2 to 4 (FORMAT.md, "Older versions"): each block of
// BlockSize neighbours holds its first neighbour as a zigzag varint of its difference
// from the list's vertex and the rest as varints of gaps, after an index of the blocks'
// byte offsets. Only the upgrade path reads it; the engines read the current codec.

// legacyDecodeList appends to dst the d neighbours of v encoded in list (exactly the
// bytes of v's list) in the codec of versions 2 to 4. Every neighbour is checked against
// nv, the vertex count, every block offset against the list, and the list must end
// exactly after its last neighbour.
func legacyDecodeList(dst []uint32, v, d uint32, list []byte, nv uint32) ([]uint32, error) {
	nb := int(NumBlocks(d))
	pos := 0
	if nb > 1 {
		pos = 4 * (nb - 1)
		if pos > len(list) {
			return dst, errList
		}
	}
	left := d
	for k := 0; k < nb; k++ {
		if k > 0 && int(binary.LittleEndian.Uint32(list[4*(k-1):])) != pos {
			return dst, errList
		}
		x, next := Uvarint(list, pos)
		if next < 0 {
			return dst, errList
		}
		u := int64(v) + Unzigzag(x)
		if u < 0 || u >= int64(nv) {
			return dst, errList
		}
		cur := uint64(u)
		dst = append(dst, uint32(cur))
		pos = next
		for j := uint32(1); j < min(left, BlockSize); j++ {
			x, pos = Uvarint(list, pos)
			if pos < 0 || x >= uint64(nv) || cur+x >= uint64(nv) {
				return dst, errList
			}
			cur += x
			dst = append(dst, uint32(cur))
		}
		left -= min(left, BlockSize)
	}
	if pos != len(list) {
		return dst, errList // trailing bytes: the list and its degree disagree
	}
	return dst, nil
}
