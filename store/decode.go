package store

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// The decoders of the list codec (FORMAT.md, "ADJ: one list"). DecodeBlock is the one
// hot path: the engines' kernels, Compressed and ListIter all decode through it.

// FirstBlock is the byte offset of block 0 in a list of degree d: the block index's size.
func FirstBlock(d uint32) int {
	if nb := NumBlocks(d); nb > 1 {
		return 4 * int(nb-1)
	}
	return 0
}

// BlockLen is the number of neighbours of block k of a list of degree d.
func BlockLen(d, k uint32) uint32 { return min(BlockSize, d-k*BlockSize) }

// BlockOffset returns the byte offset (from the list's start) of block k of a list of
// degree d, for decoders that split one long list across threads.
func BlockOffset(list []byte, d, k uint32) (int, error) {
	nb := NumBlocks(d)
	if k >= nb || 4*int(nb-1) > len(list) {
		return 0, errList
	}
	off := 4 * int(nb-1)
	if k > 0 {
		off = int(binary.LittleEndian.Uint32(list[4*(k-1):]))
	}
	if off >= len(list) { // every block holds at least one byte
		return 0, errList
	}
	return off, nil
}

// BlockEnds reports whether pos, the position after block k of a list of degree d
// (list: exactly the list's bytes), is where the list says the next block starts: entry
// k of its block index, or, after its last block, the list's end. ListIter checks both;
// a decoder that reads a list to its end checks each block it finishes with BlockEnds,
// so that it refuses what ListIter refuses (DecodeBlock alone reads one block and knows
// neither).
func BlockEnds(list []byte, d, k uint32, pos int) bool {
	if uint64(k)*BlockSize+BlockSize >= uint64(d) { // the last block
		return pos == len(list)
	}
	return BlockIndexed(list, k+1, pos)
}

// BlockIndexed reports whether pos is where the block index of list (a list of more than
// k blocks) puts block k >= 1.
func BlockIndexed(list []byte, k uint32, pos int) bool {
	i := 4 * (int(k) - 1)
	return i >= 0 && i+4 <= len(list) && int(binary.LittleEndian.Uint32(list[i:i+4])) == pos
}

// DecodeBlock decodes the first len(dst) neighbours (1 to c) of the block of c neighbours
// of v's list that starts at list[pos]. It reports false for malformed bytes or a
// neighbour outside [0, nv); it reads only bytes of list (its capacity may run past it,
// as shard lists do, which lets it load 8 bytes at a time). When len(dst) == c, next is
// the position after the block; a shorter dst stops early, and next is then only a
// position inside the block. Whether the block ends where its list says the next one
// starts is the caller's check (BlockEnds).
func DecodeBlock(dst []uint32, v uint32, list []byte, pos int, c uint32, nv uint32) (next int, ok bool) {
	x, p := FastUvarint(list, pos)
	if p < 0 || len(dst) == 0 || uint32(len(dst)) > c {
		return 0, false
	}
	f, packed, ok := blockFirst(x, v, c, uint64(nv))
	if !ok {
		return 0, false
	}
	dst[0] = uint32(f)
	if packed {
		if p < len(list) && list[p]&hdrCompact != 0 && list[p] != hdrMirror {
			// a compact block (most packed ones)
			s, h, n := p+1, list[p], int(c)-1
			if len(dst) == int(c) && h&hdrWidth <= vecMaxWidth && n >= vecMinGaps && n < BlockSize && haveVec && haveShiftX {
				// decoded whole by one call: as unpackCompact below decodes it
				end, last, ok := compactBlockAVX2(&dst[1], &compactView(list, s)[0], uintptr(h), n, uint64(f), len(list)-s, uint64(nv))
				if !ok || uint64(last) >= uint64(nv) {
					return 0, false
				}
				return s + end, true
			}
			used, ok := unpackCompact(dst, uint64(f), list[p], compactView(list, s), len(list)-s, int(c)-1, uint64(nv))
			return s + used, ok
		}
		return decodePacked(dst, v, uint64(f), list, p, int(c)-1, uint64(nv))
	}
	cur, nv64 := uint64(f), uint64(nv)
	for i := 1; i < len(dst); i++ {
		// one-byte gaps (graphs with locality: web crawls, road networks, meshes)
		// skip the call
		if uint(p) < uint(len(list)) && list[p] < 0x80 {
			x, p = uint64(list[p]), p+1
		} else if x, p = FastUvarint(list, p); p < 0 {
			return 0, false
		}
		cur += x
		if x >= nv64 || cur >= nv64 {
			return 0, false
		}
		dst[i] = uint32(cur)
	}
	return p, true
}

// DecodeUnvisited is DecodeBlock for a block decoded whole (len(dst) == c) that also
// tests the entries of parent of the neighbours it decodes, where the vector decoder
// decodes the block (a compact one): then tested is true and bit i of mask is set where
// dst[i] < len(parent) and parent[dst[i]] is ^0 (a breadth-first search's unreached);
// else tested is false and the caller tests dst itself.
func DecodeUnvisited(dst []uint32, v uint32, list []byte, pos int, c, nv uint32, parent []uint32) (next int, mask uint64, tested, ok bool) {
	// most blocks: read, decoded and tested in one call
	switch next, mask, st := UnvisitedBlock(dst, list, pos, v, c, nv, parent); st {
	case 1:
		return next, mask, true, true
	case 2:
		return 0, 0, false, false
	}
	return decodeUnvisited(dst, v, list, pos, c, nv, parent)
}

// decodeUnvisited is DecodeUnvisited's path in Go for the blocks unvisitedBlockAVX2
// leaves: the same reads and checks, a stream near the end of the mapping through
// compactView's copy.
func decodeUnvisited(dst []uint32, v uint32, list []byte, pos int, c, nv uint32, parent []uint32) (next int, mask uint64, tested, ok bool) {
	if len(dst) != int(c) || c <= vecMinGaps || c > BlockSize || !haveVec || !haveShiftX {
		next, ok = DecodeBlock(dst, v, list, pos, c, nv)
		return next, 0, false, ok
	}
	// the first value (as FastUvarint reads it, inline, one and two bytes by their own
	// branches) and the header byte after it, from one word; other blocks (a value of
	// more than 5 bytes, one near the mapping's end, a header past the list) go to
	// DecodeBlock
	var x uint64
	var h byte
	p := -1
	if pos >= 0 && pos+8 <= cap(list) {
		w := binary.LittleEndian.Uint64(list[pos : pos+8 : pos+8])
		if w&0x80 == 0 { // one byte: blocks of lists near their vertex
			x, h, p = w&0x7f, byte(w>>8), pos+1
		} else if w&0x8000 == 0 {
			x, h, p = w&0x7f|w>>1&0x3f80, byte(w>>16), pos+2
		} else if k := bits.TrailingZeros64(^w&0x8080808080808080)>>3 + 1; k <= 5 {
			x = w&0x7f | w>>1&(0x7f<<7) | w>>2&(0x7f<<14) | w>>3&(0x7f<<21) | w>>4&(0x7f<<28)
			x &= 1<<(7*k) - 1
			h, p = byte(w>>(8*k)), pos+k
		}
	}
	f, packed, ok := blockFirst(x, v, c, uint64(nv))
	if p < 0 || p >= len(list) || !ok || !packed || h&hdrCompact == 0 || h == hdrMirror || h&hdrWidth > vecMaxWidth {
		next, ok = DecodeBlock(dst, v, list, pos, c, nv) // not a compact block for the vector decoder
		return next, 0, false, ok
	}
	s := p + 1
	end, last, ok, m := compactClaimAVX2(&dst[1], &compactView(list, s)[0], uintptr(h), int(c)-1, uint64(f), len(list)-s, uint64(nv), unsafe.SliceData(parent), min(uint64(len(parent)), 1<<32-1))
	if !ok || uint64(last) >= uint64(nv) {
		return 0, 0, false, false
	}
	dst[0] = uint32(f)
	if uint64(f) < uint64(len(parent)) && parent[f] == ^uint32(0) {
		m |= 1
	}
	return s + end, m, true, true
}

// packedSpan reads what follows a packed block's base (at list[p], h its header byte,
// w its width, n its gaps): the exception count where h says it has one, then the
// packed gaps' start and end. ok is false where the count is not 1 to n or the gaps
// pass the list's end.
func packedSpan(list []byte, p int, h byte, n int, w uint) (ne, start, end int, ok bool) {
	if h&hdrExceptions != 0 {
		if p >= len(list) {
			return 0, 0, 0, false
		}
		ne, p = int(list[p]), p+1
		if ne == 0 || ne > n {
			return 0, 0, 0, false
		}
	}
	end = p + (n*int(w)+7)/8
	return ne, p, end, end <= len(list)
}

// decodePacked decodes the packed gaps (n of them) of a block of v's list whose first
// neighbour, first, is in dst[0]; p is the position of the block's header byte: a packed
// or mirrored block (DecodeBlock gives compact ones to unpackCompact; any other header
// with the compact bit is refused). The gaps are non-negative, so checking the last
// neighbour against nv checks them all.
func decodePacked(dst []uint32, v uint32, first uint64, list []byte, p, n int, nv uint64) (int, bool) {
	if p >= len(list) {
		return 0, false
	}
	h := list[p]
	if h == hdrMirror {
		return decodeMirror(dst, v, first, list, p+1, n+1, nv)
	}
	w := uint(h & hdrWidth)
	if h&^(hdrWidth|hdrExceptions) != 0 || w > 32 {
		return 0, false
	}
	base, p := FastUvarint(list, p+1)
	if p < 0 || base >= nv {
		return 0, false
	}
	ne, p, end, ok := packedSpan(list, p, h, n, w)
	if !ok {
		return 0, false
	}
	packed := list[p:end:cap(list)]
	var tail [(BlockSize*32+7)/8 + 8]byte
	if end+8 > cap(list) { // near the end of the mapping: unpack from a padded copy
		packed = tail[:copy(tail[:], packed)]
	}
	k := len(dst)
	mask := uint64(1)<<w - 1
	cur := first
	if ne == 0 {
		for i := 1; i < k; i++ {
			bit := uint(i-1) * w
			cur += base + binary.LittleEndian.Uint64(packed[bit>>3:cap(packed)])>>(bit&7)&mask
			dst[i] = uint32(cur)
		}
		if cur >= nv {
			return 0, false
		}
		return end, true
	}
	for i := 1; i < k; i++ {
		bit := uint(i-1) * w
		dst[i] = uint32(binary.LittleEndian.Uint64(packed[bit>>3:cap(packed)]) >> (bit & 7) & mask)
	}
	// The exceptions: (gap index, high bits) pairs, gap indexes ascending.
	p, last := end, -1
	for range ne {
		if p >= len(list) {
			return 0, false
		}
		i := int(list[p])
		hi, q := FastUvarint(list, p+1)
		if q < 0 || i <= last || i >= n || hi >= nv || hi == 0 {
			return 0, false
		}
		p, last = q, i
		if i+1 < k {
			g := uint64(dst[i+1]) | hi<<w
			if g >= nv {
				return 0, false
			}
			dst[i+1] = uint32(g)
		}
	}
	for i := 1; i < k; i++ {
		cur += base + uint64(dst[i])
		dst[i] = uint32(cur)
	}
	if cur >= nv {
		return 0, false
	}
	return p, true
}

// FastUvarint decodes the LEB128 value at b[pos]; next < 0 means malformed bytes.
//
// When eight bytes can be loaded (list slices alias the shard mapping, whose capacity
// runs past the list), the value's length comes from the first clear high bit of one
// 64-bit word and its 7-bit groups are gathered without branches. Values of more than
// five bytes (never a valid neighbour) and values near the end of the mapping take the
// careful decoder.
func FastUvarint(b []byte, pos int) (x uint64, next int) {
	if pos >= 0 && pos+8 <= cap(b) {
		w := binary.LittleEndian.Uint64(b[pos : pos+8 : pos+8])
		k := bits.TrailingZeros64(^w&0x8080808080808080)>>3 + 1 // bytes in the value
		if k <= 5 && pos+k <= len(b) {
			x = w&0x7f | w>>1&(0x7f<<7) | w>>2&(0x7f<<14) | w>>3&(0x7f<<21) | w>>4&(0x7f<<28)
			return x & (1<<(7*k) - 1), pos + k
		}
	}
	return Uvarint(b, pos)
}

// blockFirst makes a block's first value u (the block of c neighbours of v's list) into
// its first neighbour f: the mode bit comes off where the block may be packed (c >=
// PackedMin), and ok says f is a vertex below nv.
func blockFirst(u uint64, v, c uint32, nv uint64) (f int64, packed, ok bool) {
	if c >= PackedMin {
		packed, u = u&1 != 0, u>>1
	}
	f = int64(v) + Unzigzag(u)
	return f, packed, uint64(f) < nv
}

// Unzigzag inverts the zigzag coding of a block's first neighbour (FORMAT.md).
func Unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// decodePrefix decodes the first len(dst) neighbours of v's list (degree d) into dst. It
// reports false for malformed bytes or neighbours outside [0, nv). It walks the blocks in
// order and so never needs the block index.
func decodePrefix(dst []uint32, v uint32, list []byte, d, nv uint32) bool {
	return decodeFrom(dst, v, list, FirstBlock(d), d, 0, nv)
}

// decodeFrom decodes len(dst) neighbours of v's list (degree d) from block k, which
// starts at byte pos. Each block it decodes whole must end where the list says
// (BlockEnds): decoded to its end, a list is refused where ListIter refuses it.
//
// It is DecodeBlock's loop over the blocks, with the short blocks of low-degree lists
// (roads, meshes), where the call per block was a tenth of the time, decoded here.
func decodeFrom(dst []uint32, v uint32, list []byte, pos int, d, k, nv uint32) bool {
	for j := 0; j < len(dst); k++ {
		c := BlockLen(d, k)
		n := min(len(dst)-j, int(c))
		if c >= PackedMin {
			var ok bool
			if pos, ok = DecodeBlock(dst[j:j+n], v, list, pos, c, nv); !ok || n == int(c) && !BlockEnds(list, d, k, pos) {
				return false
			}
			j += n
			continue
		}
		x, p := FastUvarint(list, pos)
		f := int64(v) + Unzigzag(x)
		if p < 0 || f < 0 || f >= int64(nv) {
			return false
		}
		cur := uint64(f)
		dst[j] = uint32(cur)
		for i := j + 1; i < j+n; i++ {
			if x, p = FastUvarint(list, p); p < 0 {
				return false
			}
			cur += x
			if x >= uint64(nv) || cur >= uint64(nv) {
				return false
			}
			dst[i] = uint32(cur)
		}
		if n == int(c) && !BlockEnds(list, d, k, p) {
			return false
		}
		pos, j = p, j+n
	}
	return true
}

// DecodeList appends to dst the d neighbours of v encoded in list (exactly the bytes
// of v's list). Every neighbour is checked against nv, the vertex count.
func DecodeList(dst []uint32, v, d uint32, list []byte, nv uint32) ([]uint32, error) {
	var it ListIter
	it.Reset(v, d, list, nv)
	for it.Next() {
		dst = append(dst, it.Value())
	}
	return dst, it.Err()
}

// ListIter walks one encoded list in order, a block at a time; it allows early
// termination without decoding the blocks after the one it stops in, and checks what
// DecodeBlock leaves to its callers: every block starts where the index says, and the
// list ends right after its last block (BlockEnds; the engines' decoders that read a
// list to its end check both). The zero value is an empty list.
//
//	it.Reset(v, d, list, nv)
//	for it.Next() { use(it.Value()) }
//	if err := it.Err(); err != nil { ... }
type ListIter struct {
	list  []byte
	v, nv uint32
	d     uint32
	block uint32 // index of the next block to decode
	nb    uint32
	pos   int
	i, n  int // position in buf, neighbours in buf
	err   error
	buf   [BlockSize]uint32
}

// Reset starts iterating the d neighbours of v in list.
func (it *ListIter) Reset(v, d uint32, list []byte, nv uint32) {
	it.list, it.v, it.nv, it.d, it.nb = list, v, nv, d, NumBlocks(d)
	it.block, it.pos, it.i, it.n, it.err = 0, FirstBlock(d), 0, 0, nil
	if it.pos > len(list) {
		it.fail()
	}
}

func (it *ListIter) fail() {
	it.err = errList
	it.block, it.nb, it.i, it.n = 0, 0, 0, 0
}

// Next advances to the next neighbour and reports whether there is one.
func (it *ListIter) Next() bool {
	it.i++
	if it.i < it.n {
		return true
	}
	if it.block == it.nb {
		if it.err == nil && it.pos != len(it.list) {
			it.fail() // trailing bytes: the list and its degree disagree
		}
		it.i, it.n = 0, 0
		return false
	}
	if it.block > 0 && int(binary.LittleEndian.Uint32(it.list[4*(it.block-1):])) != it.pos {
		it.fail()
		return false
	}
	c := BlockLen(it.d, it.block)
	next, ok := DecodeBlock(it.buf[:c], it.v, it.list, it.pos, c, it.nv)
	if !ok {
		it.fail()
		return false
	}
	it.pos, it.i, it.n = next, 0, int(c)
	it.block++
	return true
}

// Value is the neighbour Next moved to.
func (it *ListIter) Value() uint32 { return it.buf[it.i] }

// Err reports a malformed list. It is meaningful once Next has returned false; a caller
// that stops early has checked only the bytes it read.
func (it *ListIter) Err() error { return it.err }

// FirstNeighbour decodes only the first neighbour of the block of c neighbours at
// list[pos] of v's list, for scans that usually stop there (bottom-up BFS); false means
// malformed bytes or a neighbour outside [0, nv).
func FirstNeighbour(v uint32, list []byte, pos int, c, nv uint32) (uint32, bool) {
	x, p := FastUvarint(list, pos)
	f := int64(v) + Unzigzag(x>>min(c/PackedMin, 1)) // the mode bit from PackedMin on
	return uint32(f), p >= 0 && uint64(f) < uint64(nv)
}

// The results of ScanList.
const (
	NotFound  = iota // no neighbour of the block is in the set; next is the block's end
	Found            // x is the first neighbour of the block in the set
	Malformed        // malformed bytes or a neighbour outside [0, nv)
)

// unpackCompact decodes the n gaps of a compact block (FORMAT.md) whose first neighbour,
// first, is in dst[0], from its header byte h and the bit stream b after it; blen is how
// many of b's bytes belong to the list. Every gap is 1 plus its w packed bits plus, for
// an exception, its high part shifted by w: at least 1, so checking the last neighbour
// against nv checks them all. The stream is read through one fixed-size array
// (compactView: in place, or near the end of the mapping a zero-padded copy of the
// list's bytes), so that its loads need no bounds check. It returns the stream's length
// in bytes.
func unpackCompact(dst []uint32, first uint64, h byte, b *[compactArea]byte, blen, n int, nv uint64) (int, bool) {
	w := uint(h & hdrWidth)
	nbits := n * int(w)
	if h&hdrExceptions != 0 {
		nbits += excHeader
	}
	if w > 32 || n >= BlockSize || (nbits+7)/8 > blen {
		return 0, false
	}
	src := (*[packedArea]byte)(b[:packedArea]) // the low bits: n*w < 8*(packedMask+1)
	k := len(dst)
	if h&hdrExceptions == 0 {
		if cur := unpackGaps(dst, src, w, first); cur >= nv {
			return 0, false
		}
		return (nbits + 7) / 8, true
	}
	ebit := uint(n) * w
	x := loadCompact(b, ebit)
	ne := int(x & (1<<excCountBits - 1))
	wi := uint(x>>excCountBits) & (1<<excStepBits - 1)
	wh := uint(x>>(excCountBits+excStepBits))&(1<<excHighBits-1) + 1
	ebit += excHeader
	end := (int(ebit) + ne*int(wi+wh) + 7) / 8
	if ne == 0 || ne > n || end > blen {
		return 0, false
	}
	// The exceptions: each one's high part, shifted by w, is added to its gap in the one
	// pass that unpacks the low bits and sums (unpackGapsAdd); add holds every gap's 1
	// and the high parts by the index of the neighbour they go to.
	add := gapOnes
	if !compactExceptions(&add, b, ebit, wi, wh, w, ne, n, k, nv) {
		return 0, false
	}
	if cur := unpackGapsAdd(dst, src, w, first, &add); cur >= nv {
		return 0, false
	}
	return end, true
}

// compactExceptions reads the ne exceptions of a compact block from b at bit ebit (a
// step of wi bits, a high part of wh) into add: each one's high part, shifted by w, goes
// to the index of the neighbour it is added to, after that neighbour's gap's 1. It is
// false when an exception lies past the n gaps, or the part it adds to a gap that dst's
// k neighbours decode (its high part, for the others) is not below nv.
func compactExceptions(add *[BlockSize + 3]uint32, b *[compactArea]byte, ebit, wi, wh, w uint, ne, n, k int, nv uint64) bool {
	wi, w = wi&63, w&63
	mi, mhw := uint64(1)<<wi-1, (uint64(1)<<(wh&63)-1)<<w
	// the high part, at bits [wi, wi+wh) of an exception's load, moved to [w, w+wh)
	// (within 64: wh and w are at most 32) by one rotation; the bits rotated past
	// either end land outside [w, w+wh) (at most 7 below wi, the rest above wi+wh)
	rot := int(w) - int(wi)
	if k > n { // every gap decoded
		j, ok := exceptionsWhole(add, b, ebit, wi+wh, ne, mi, mhw, rot, nv)
		// j only grows: the last exception is past the gaps if any is
		return ok && j <= n
	}
	j := 0
	for ; ne > 0; ne-- {
		e := loadCompact(b, ebit)
		ebit += wi + wh
		j += 1 + int(e&mi)
		hw := bits.RotateLeft64(e, rot) & mhw
		// an exception past dst's gaps checks its high part alone
		t := hw >> w
		if j < k {
			t = hw
		}
		if j > n || t >= nv {
			return false
		}
		add[j&(BlockSize-1)] = 1 + uint32(hw)
	}
	return true
}

// exceptionsWhole is compactExceptions' loop for a block decoded whole: each exception's
// part goes to add at j, the index of its gap plus 1, and must be below nv (below 2^32,
// so that it fits add's 32 bits with the gap's 1; a larger one fails as the last
// neighbour's check would, before the sum can wrap). It returns the last j, and false
// at a part not below nv. A function of its own, without a call inside, so that its
// values stay in registers: inside unpackCompact an exception took about 40
// instructions, most of them spills.
func exceptionsWhole(add *[BlockSize + 3]uint32, b *[compactArea]byte, ebit, step uint, ne int, mi, mhw uint64, rot int, nv uint64) (int, bool) {
	j := 0
	for ; ne > 0; ne-- {
		// a step and a high part, at most 7 + 32 bits: one load
		e := loadCompact(b, ebit)
		ebit += step
		j += 1 + int(e&mi)
		hw := bits.RotateLeft64(e, rot) & mhw
		if hw >= nv {
			return 0, false
		}
		add[j&(BlockSize-1)] = 1 + uint32(hw)
	}
	return j, true
}

// unpackGaps decodes a compact block without exceptions from its packed area src
// (len(dst) <= BlockSize, so every field lies inside it): dst[i] is dst[i-1] plus 1 plus
// field i-1 (w bits, at most 32), dst[0] being first; it returns the last neighbour.
// Where the processor has AVX2, whole groups of 8 gaps of up to vecMaxWidth bits go
// through the vector decoder first (unpackVec). Else one load holds at least 57 bits
// past its first byte's skipped ones: four fields of up to 14 bits or two of up to 28,
// each then a shift and a mask.
func unpackGaps(dst []uint32, src *[packedArea]byte, w uint, first uint64) uint64 {
	w &= 63
	mask := uint64(1)<<w - 1
	i, cur := unpackVec(dst, src, w, first, &gapOnes)
	k := len(dst)
	if w <= 14 {
		for ; i+3 < k; i += 4 {
			// each field shifted down in turn and each neighbour stored when made, so
			// that the step's values fit the registers
			x := loadBits(src, uint(i-1)*w)
			d := dst[i : i+4 : i+4]
			cur += 1 + x&mask
			d[0] = uint32(cur)
			x >>= w
			cur += 1 + x&mask
			d[1] = uint32(cur)
			x >>= w
			cur += 1 + x&mask
			d[2] = uint32(cur)
			x >>= w
			cur += 1 + x&mask
			d[3] = uint32(cur)
		}
	} else if w <= 28 {
		for ; i+1 < k; i += 2 {
			x := loadBits(src, uint(i-1)*w)
			d := dst[i : i+2 : i+2]
			cur += 1 + x&mask
			d[0] = uint32(cur)
			cur += 1 + x>>w&mask
			d[1] = uint32(cur)
		}
	}
	for ; i < k; i++ {
		cur += 1 + loadBits(src, uint(i-1)*w)&mask
		dst[i] = uint32(cur)
	}
	return cur
}

// gapOnes is unpackGapsAdd's add for a block without exceptions: every gap's 1. The
// vector decoders' COMPACTHEAD reads it too (entries 1 to 64), in place of a frame of
// ones.
var gapOnes = func() (a [BlockSize + 3]uint32) {
	for i := range a {
		a[i] = 1
	}
	return a
}()

// unpackGapsAdd is unpackGaps with add[i] in place of the gap's 1: dst[i] is dst[i-1]
// plus field i-1 plus add[i], dst[0] being first; it returns the last neighbour (at
// least 2^32 when a sum passes 32 bits, if the vector decoder made it).
// add's 3 entries past BlockSize let a step read 4 of them at any index below BlockSize.
func unpackGapsAdd(dst []uint32, src *[packedArea]byte, w uint, first uint64, add *[BlockSize + 3]uint32) uint64 {
	w &= 63
	mask := uint64(1)<<w - 1
	i, cur := unpackVec(dst, src, w, first, add)
	k := len(dst)
	if w <= 14 {
		for ; i+3 < k; i += 4 {
			// each field shifted down in turn and each neighbour stored when made, so
			// that the step's values fit the registers
			x := loadBits(src, uint(i-1)*w)
			d := dst[i : i+4 : i+4]
			a := (*[4]uint32)(add[i&(BlockSize-1):])
			cur += x&mask + uint64(a[0])
			d[0] = uint32(cur)
			x >>= w
			cur += x&mask + uint64(a[1])
			d[1] = uint32(cur)
			x >>= w
			cur += x&mask + uint64(a[2])
			d[2] = uint32(cur)
			x >>= w
			cur += x&mask + uint64(a[3])
			d[3] = uint32(cur)
		}
	} else if w <= 28 {
		for ; i+1 < k; i += 2 {
			x := loadBits(src, uint(i-1)*w)
			d := dst[i : i+2 : i+2]
			a := (*[2]uint32)(add[i&(BlockSize-1):])
			cur += x&mask + uint64(a[0])
			d[0] = uint32(cur)
			cur += x>>w&mask + uint64(a[1])
			d[1] = uint32(cur)
		}
	}
	for ; i < k; i++ {
		cur += loadBits(src, uint(i-1)*w)&mask + uint64(add[i&(BlockSize-1)])
		dst[i] = uint32(cur)
	}
	return cur
}

// compactLen is the length in bytes of the bit stream of the compact block of n gaps
// whose header byte is at list[s-1], or -1 when the list ends before its exception header.
// It reads the exception header byte by byte, so that callers can tell whether the stream
// leaves room for 8-byte loads before they make any.
func compactLen(list []byte, s, n int) int {
	h := list[s-1]
	nb := n * int(h&hdrWidth)
	if h&hdrExceptions == 0 {
		return (nb + 7) / 8
	}
	if s+(nb+excHeader+7)/8 > len(list) {
		return -1
	}
	var x uint32
	for i, at := 0, s+nb/8; i < 3 && at+i < len(list); i++ {
		x |= uint32(list[at+i]) << (8 * i)
	}
	x >>= nb % 8
	ne := int(x & (1<<excCountBits - 1))
	wi := int(x>>excCountBits) & (1<<excStepBits - 1)
	wh := int(x>>(excCountBits+excStepBits))&(1<<excHighBits-1) + 1
	return (nb + excHeader + ne*(wi+wh) + 7) / 8
}

// compactStream returns the bit stream of a compact block of n gaps, which starts at
// list[s], with room for 8-byte loads at any of its bytes: in place, or near the end of
// the mapping a zero-padded copy (on the heap: rare, and a copy's room in the callers'
// frames would be cleared on every call).
func compactStream(list []byte, s, n int) []byte {
	if s+compactMaxBytes+8 <= cap(list) {
		return list[s:len(list):cap(list)]
	}
	if l := compactLen(list, s, n); l >= 0 && s+l+8 <= cap(list) {
		return list[s:len(list):cap(list)]
	}
	return compactCopy(list[s:])
}

// compactCopy is b, of a compact block's stream, copied into a zero-padded buffer of
// compactMaxBytes+8 bytes.
//
//go:noinline
func compactCopy(b []byte) []byte {
	tail := make([]byte, compactMaxBytes+8)
	return tail[:copy(tail[:compactMaxBytes], b)]
}

// compactMaxBytes bounds a compact block's bit stream: 63 gaps of 32 bits, the
// exception header, 63 exceptions of 7 + 32 bits.
const compactMaxBytes = (63*32 + excHeader + 63*(7+32) + 7) / 8

// decodeMirror decodes a mirrored block of c neighbours of v's list (FORMAT.md) whose
// first neighbour, first, is in dst[0]; p is the position after its header byte, where
// the c/2-1 gaps of its lower half start. Neighbour c-1-i is 2v minus neighbour i.
func decodeMirror(dst []uint32, v uint32, first uint64, list []byte, p, c int, nv uint64) (int, bool) {
	if c%2 != 0 || c > MirrorMax {
		return 0, false
	}
	var lower [MirrorMax / 2]uint64
	lower[0] = first
	cur := first
	for i := 1; i < c/2; i++ {
		x, q := FastUvarint(list, p)
		if q < 0 || x >= nv {
			return 0, false
		}
		cur += x
		lower[i], p = cur, q
	}
	// ascending: the middle pair x and 2v-x needs x <= v; the largest, 2v-first, < nv
	if cur > uint64(v) || 2*uint64(v)-first >= nv {
		return 0, false
	}
	for i := 1; i < len(dst); i++ {
		if i < c/2 {
			dst[i] = uint32(lower[i])
		} else {
			dst[i] = uint32(2*uint64(v) - lower[c-1-i])
		}
	}
	return p, true
}
