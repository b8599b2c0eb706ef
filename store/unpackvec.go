package store

// The vector decoder of compact blocks' gaps (unpackAddAVX2, amd64 with AVX2): 8 gaps a
// step, each in a 32-bit lane. A group of 8 fields of w bits is w bytes long, so group g
// starts at byte g*w, and within a group the fields sit where they sit in every other:
// one table a width says which bytes each lane takes and how far it shifts them.

// vecMaxWidth is the widest field the vector decoder reads: a field of w bits at bit
// offset s (below 8) of its first byte lies in 4 bytes when s + w <= 32, and each half
// of 4 fields in 16 bytes.
const vecMaxWidth = 25

// vecTable is unpackAddAVX2's description of a width (the field offsets its assembly
// reads are fixed: keep them).
type vecTable struct {
	shuf  [32]byte  // per 128-bit half, the bytes of its 4 fields, 4 each (VPSHUFB)
	shift [8]uint32 // each field's bit offset in its first byte
	mask  [8]uint32 // 2^w - 1
	hi    uint64    // the byte of the group at which the high half's 16 bytes start
}

// vecTables holds a vecTable for each width up to vecMaxWidth.
var vecTables = func() (t [vecMaxWidth + 1]vecTable) {
	for w := range t {
		e := &t[w]
		e.hi = uint64(4 * w / 8)
		for j := range 8 {
			first := j * w / 8 // the field's first byte in the group
			if j >= 4 {
				first -= int(e.hi)
			}
			for b := range 4 {
				e.shuf[16*(j/4)+4*(j%4)+b] = byte(first + b)
			}
			e.shift[j] = uint32(j * w % 8)
			e.mask[j] = uint32(1)<<w - 1
		}
	}
	return t
}()

// unpackVec decodes the gaps of dst[1:] with unpackAddAVX2 where it can (dst[i] is
// dst[i-1] plus field i-1 of src plus add[i], dst[0] being first) and returns the index
// of the first neighbour left to the caller (len(dst) when it decoded them all, 1 when
// none) and the last one made (first when none). The vector decoder reads a whole group
// of 8 past the last gap: src's bytes to 7*w + 4w/8 + 16 <= 203 < packedArea, add to
// index 64 < BlockSize+3. Each add entry it reads for a gap is 1 plus a multiple of 2^w
// below 2^32 (unpackCompact's), so a gap is 1 to 2^32 and a sum that passes 32 bits
// leaves a lane not above the one before it; then it returns a last neighbour of
// 2^64-1, which the callers' check against the vertex count refuses.
func unpackVec(dst []uint32, src *[packedArea]byte, w uint, first uint64, add *[BlockSize + 3]uint32) (int, uint64) {
	n := len(dst) - 1
	if !haveVec || w > vecMaxWidth || n < vecMinGaps || n >= BlockSize || first >= 1<<32 {
		return 1, first
	}
	last, ok := unpackAddAVX2(&dst[1], &src[0], &add[1], &vecTables[w], uintptr(w), n, first)
	if !ok {
		return len(dst), ^uint64(0)
	}
	return len(dst), uint64(last)
}

// vecMinGaps is the fewest gaps unpackVec gives the vector decoder: below it the scalar
// loops cost less than the call.
const vecMinGaps = 4
