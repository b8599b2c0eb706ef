package store

import (
	"encoding/binary"
	"errors"
	"math/bits"
	"slices"
)

// BlockSize is the number of neighbours per compressed block (FORMAT.md, "ADJ: one list").
const BlockSize = 64

// PackedMin is the fewest neighbours a block holds for its first value to carry the mode
// bit: shorter blocks (most lists of road networks and meshes) are always varints, so
// they cost no more than in the varint-only codec of versions 2 to 4.
const PackedMin = 4

// Block header byte of a packed block (FORMAT.md): the width in its low 6 bits, and
// hdrExceptions when exceptions follow the packed gaps. hdrCompact (from version 6) marks
// a compact block (smallest gap 1, exceptions at bit granularity), and hdrMirror, all
// bits set, a mirrored block (a list symmetric about its vertex, its lower half stored).
const (
	hdrWidth      = 0x3f
	hdrExceptions = 0x40
	hdrCompact    = 0x80
	hdrMirror     = 0xff
)

// MirrorMax is the most neighbours a mirrored block holds: its lower half, at most 4
// values, is what a streaming decoder (the device's) keeps in registers.
const MirrorMax = 8

// The exception header of a compact block: the count, then the widths of the index steps
// and of the high parts (the latter stored minus one), at these bit widths.
const (
	excCountBits = 6
	excStepBits  = 3
	excHighBits  = 5
	excHeader    = excCountBits + excStepBits + excHighBits
)

// errList is returned by the list decoders; callers wrap it into a CorruptError
// with the shard's path and the list's offset.
var errList = errors.New("malformed adjacency list")

func zigzag(x int64) uint64 { return uint64(x<<1) ^ uint64(x>>63) }

// NumBlocks is the number of compressed blocks of a list of degree d.
// It is computed in 64 bits: d+BlockSize-1 overflows uint32 for degrees near 2^32.
func NumBlocks(d uint32) uint32 { return uint32((uint64(d) + BlockSize - 1) / BlockSize) }

// AppendList appends the encoding of v's sorted neighbour list to dst.
//
// It writes into room it reserves up front (a block never takes more than 5 bytes a
// neighbour: the varint coding is the fallback), each varint with one 8-byte store
// (putUvarint33), instead of appending byte by byte: ingest encodes every list
// through here.
func AppendList(dst []byte, v uint32, nbrs []uint32) []byte { return appendList(dst, v, nbrs) }

// AppendListKeys is AppendList for a list held as keys whose low 32 bits are the
// neighbours (ingest's src<<32 | dst): the list is encoded without being copied out.
func AppendListKeys(dst []byte, v uint32, keys []uint64) []byte { return appendList(dst, v, keys) }

func appendList[T uint32 | uint64](dst []byte, v uint32, nbrs []T) []byte {
	nb := int(NumBlocks(uint32(len(nbrs))))
	if nb == 0 {
		return dst
	}
	start := len(dst)
	// The block index, then at most 5 bytes a neighbour, and 8 for the last store.
	buf := slices.Grow(dst, 4*(nb-1)+5*len(nbrs)+8)
	buf = buf[:cap(buf)]
	pos := start + 4*(nb-1)
	var gaps [BlockSize - 1]uint32
	for k := range nb {
		if k > 0 {
			binary.LittleEndian.PutUint32(buf[start+4*(k-1):], uint32(pos-start))
		}
		blk := nbrs[k*BlockSize : min(len(nbrs), (k+1)*BlockSize)]
		prev := uint32(blk[0])
		for i, x := range blk[1:] {
			gaps[i] = uint32(x) - prev
			prev = uint32(x)
		}
		pos = putBlock(buf, pos, v, uint32(blk[0]), gaps[:len(blk)-1])
	}
	return buf[:pos]
}

// putBlock writes one block of v's list, its first neighbour and its gaps, at b[pos:]
// and returns the position after it, in the coding of fewest bytes (FORMAT.md).
func putBlock(b []byte, pos int, v, first uint32, gaps []uint32) int {
	z := zigzag(int64(first) - int64(v))
	if len(gaps)+1 < PackedMin {
		pos = putUvarint33(b, pos, z)
		return putVarints(b, pos, gaps)
	}
	p := planBlock(gaps)
	mirror := mirrorBytes(v, first, gaps)
	if mirror > 0 && mirror <= p.bytes {
		pos = putUvarint33(b, pos, z<<1|1)
		b[pos] = hdrMirror
		return putVarints(b, pos+1, gaps[:len(gaps)/2])
	}
	switch p.mode {
	case modeVarint:
		pos = putUvarint33(b, pos, z<<1)
		return putVarints(b, pos, gaps)
	case modeCompact:
		pos = putUvarint33(b, pos, z<<1|1)
		return putCompact(b, pos, gaps, p)
	}
	pos = putUvarint33(b, pos, z<<1|1)
	h := byte(p.w)
	if p.ne > 0 {
		h |= hdrExceptions
	}
	b[pos] = h
	pos = putUvarint33(b, pos+1, uint64(p.base))
	if p.ne > 0 {
		b[pos] = byte(p.ne)
		pos++
	}
	pos = putPacked(b, pos, gaps, p.base, p.w)
	if p.ne > 0 {
		for i, g := range gaps {
			if hi := uint64(g-p.base) >> p.w; hi != 0 {
				b[pos] = byte(i)
				pos = putUvarint33(b, pos+1, hi)
			}
		}
	}
	return pos
}

func putVarints(b []byte, pos int, gaps []uint32) int {
	for _, g := range gaps {
		pos = putUvarint33(b, pos, uint64(g))
	}
	return pos
}

// putPacked writes g-base of every gap g at w bits, least significant bit first, with one
// 8-byte store per 32 bits written, and returns the position after the last byte that
// holds a bit (the room after it may be overwritten with zeros).
func putPacked(b []byte, pos int, gaps []uint32, base uint32, w uint) int {
	if w == 0 {
		return pos
	}
	mask := uint64(1)<<w - 1
	var acc uint64
	var n uint
	for _, g := range gaps {
		acc |= (uint64(g-base) & mask) << n
		n += w
		if n >= 32 {
			binary.LittleEndian.PutUint64(b[pos:], acc)
			pos += 4
			acc >>= 32
			n -= 32
		}
	}
	binary.LittleEndian.PutUint64(b[pos:], acc)
	return pos + int(n+7)/8
}

// The codings of a block of at least PackedMin neighbours but the mirrored one.
const (
	modeVarint = iota
	modePacked
	modeCompact
)

// blockPlan is how a block of at least PackedMin neighbours is coded.
type blockPlan struct {
	mode   int
	base   uint32 // packed: the smallest gap
	w      uint   // packed, compact: bits per packed gap
	ne     int    // packed, compact: exceptions
	wi, wh uint   // compact: bits per exception's index step and high part
	bytes  int    // the block's bytes after its first value
}

// planBlock chooses the coding of gaps of fewest bytes: compact, packed or varints, on a
// tie the first of these (the packed codings decode without branches); each packed
// coding at the width of fewest bytes, on a tie the widest (fewest exceptions). The GPU
// ingest (ingest/build.cu, planBlock) makes the same choice. A mirrored block is chosen
// before all three when it is no longer (putBlock).
func planBlock(gaps []uint32) blockPlan {
	var at [33]uint64 // at[k]: the gaps whose g-1 has k significant bits, as a bitmask
	base, maxL, zero := gaps[0], 0, false
	for i, g := range gaps {
		base = min(base, g)
		if g == 0 {
			zero = true
			continue
		}
		l := bits.Len32(g - 1)
		at[l] |= 1 << i
		maxL = max(maxL, l)
	}
	p := planPacked(gaps, base)
	if !zero {
		if c := planCompact(&at, maxL, len(gaps)); c.bytes <= p.bytes {
			return c
		}
	}
	return p
}

// planCompact plans n gaps, all at least 1, as a compact block (stored as g-1) at the
// width of fewest bytes (FORMAT.md); at[k] has bit i set when gap i's g-1 has k
// significant bits, the largest of which is maxL.
//
// Going down from the widest width, the gaps of w+1 bits join the exceptions. A width's
// bytes without the index steps (WI = 0) bound its bytes from below, and only a width whose
// bound beats the best so far needs its largest step, found from the bitmask of the
// exceptions' indexes: ingest plans every block, and a pass over the gaps per width made
// it several times slower.
func planCompact(at *[33]uint64, maxL, n int) blockPlan {
	best := blockPlan{mode: modeCompact, w: uint(maxL), bytes: 1 + (n*maxL+7)/8}
	limit := 8 * (best.bytes - 2) // a width of more bits than this takes no fewer bytes
	var exc uint64
	ne, wi := 0, -1 // wi: the exceptions' step width, -1 when not computed since they changed
	for w := maxL - 1; w >= 0; w-- {
		if m := at[w+1]; m != 0 {
			exc |= m
			ne += bits.OnesCount64(m)
			wi = -1
		}
		wh := maxL - w
		if n*w+excHeader+ne*wh > limit {
			continue
		}
		if wi < 0 {
			wi = bits.Len(uint(maxStep(exc)))
		}
		if b := n*w + excHeader + ne*(wi+wh); b <= limit {
			best = blockPlan{mode: modeCompact, w: uint(w), ne: ne, wi: uint(wi), wh: uint(wh), bytes: 1 + (b+7)/8}
			limit = 8 * (best.bytes - 2)
		}
	}
	return best
}

// maxStep is the largest index step of the exceptions whose indexes are the bits of m:
// the zeros before the lowest set bit, or between two consecutive ones.
func maxStep(m uint64) int {
	step, last := 0, -1
	for ; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		step = max(step, i-last-1)
		last = i
	}
	return step
}

// putCompact writes the compact block of plan p (its header byte on) at b[pos:]: the
// gaps' low bits, then the exceptions, as one little-endian bit stream.
func putCompact(b []byte, pos int, gaps []uint32, p blockPlan) int {
	h := byte(hdrCompact | p.w)
	if p.ne > 0 {
		h |= hdrExceptions
	}
	b[pos] = h
	var bw bitWriter
	bw.init(b, pos+1)
	mask := uint64(1)<<p.w - 1
	for _, g := range gaps {
		bw.put(uint64(g-1)&mask, p.w)
	}
	if p.ne > 0 {
		bw.put(uint64(p.ne), excCountBits)
		bw.put(uint64(p.wi), excStepBits)
		bw.put(uint64(p.wh-1), excHighBits)
		last := -1
		for i, g := range gaps {
			if hi := uint64(g-1) >> p.w; hi != 0 {
				bw.put(uint64(i-last-1), p.wi)
				bw.put(hi, p.wh)
				last = i
			}
		}
	}
	return bw.flush()
}

// bitWriter appends fields of up to 32 bits to a little-endian bit stream at b[pos:],
// with an 8-byte store per 32 bits written (b has room for them).
type bitWriter struct {
	b   []byte
	pos int
	acc uint64
	n   uint
}

func (w *bitWriter) init(b []byte, pos int) { *w = bitWriter{b: b, pos: pos} }

func (w *bitWriter) put(x uint64, width uint) {
	w.acc |= x << w.n
	w.n += width
	if w.n >= 32 {
		binary.LittleEndian.PutUint64(w.b[w.pos:], w.acc)
		w.pos += 4
		w.acc >>= 32
		w.n -= 32
	}
}

// flush writes the stream's last bits and returns the position after its last byte.
func (w *bitWriter) flush() int {
	binary.LittleEndian.PutUint64(w.b[w.pos:], w.acc)
	return w.pos + int(w.n+7)/8
}

// mirrorBytes is the length after the first value of the block of first and gaps of v's
// list as a mirrored block (FORMAT.md), or 0 when the block is not one: an even count
// of PackedMin to MirrorMax neighbours, x and 2v-x both among them.
func mirrorBytes(v, first uint32, gaps []uint32) int {
	c := len(gaps) + 1
	if c%2 != 0 || c > MirrorMax {
		return 0
	}
	lo, hi := uint64(first), uint64(first)
	for _, g := range gaps {
		hi += uint64(g)
	}
	n := 1
	for i := 0; i < c/2; i++ {
		if lo+hi != 2*uint64(v) {
			return 0
		}
		if i+1 < c/2 {
			n += int(varintBytes[bits.Len32(gaps[i])])
		}
		lo += uint64(gaps[i])
		hi -= uint64(gaps[c-2-i])
	}
	return n
}

// planPacked plans gaps, whose smallest is base, as a packed block or varints, whichever
// is shorter (packed on a tie).
func planPacked(gaps []uint32, base uint32) blockPlan {
	var cnt [33]int // cnt[k]: gaps whose g-base has k significant bits
	varints := 0
	for _, g := range gaps {
		cnt[bits.Len32(g-base)]++
		varints += int(varintBytes[bits.Len32(g)])
	}
	maxL := 32
	for maxL > 0 && cnt[maxL] == 0 {
		maxL--
	}
	n := len(gaps)
	best := blockPlan{mode: modePacked, base: base, w: uint(maxL)}
	bestBytes := (n*maxL + 7) / 8
	// Going down from maxL, the gaps of w+1 bits become exceptions (a position byte
	// and a one-byte high part), and those whose high part reaches 8, 15, 22 or 29
	// bits grow by a byte each.
	ne, excBytes := 0, 0
	for w := maxL - 1; w >= 0; w-- {
		ne += cnt[w+1]
		excBytes += 2 * cnt[w+1]
		for l := w + 8; l <= maxL; l += 7 {
			excBytes += cnt[l]
		}
		if bytes := (n*w+7)/8 + 1 + excBytes; bytes < bestBytes {
			best.w, best.ne, bestBytes = uint(w), ne, bytes
		}
	}
	best.bytes = 1 + int(varintBytes[bits.Len32(base)]) + bestBytes
	if best.bytes > varints {
		return blockPlan{mode: modeVarint, bytes: varints}
	}
	return best
}

// putUvarint33 writes x (below 2^35: a zigzagged difference of two 32-bit ids, with the
// mode bit) as a LEB128 varint at b[pos:] with one 8-byte store, which b must have room
// for, and returns the position after it. Spreading the 7-bit groups into bytes and
// setting the continuation bits without a loop leaves no branch on the length to
// mispredict.
func putUvarint33(b []byte, pos int, x uint64) int {
	spread := x&0x7f | x&(0x7f<<7)<<1 | x&(0x7f<<14)<<2 | x&(0x7f<<21)<<3 | x&(0x7f<<28)<<4
	n := varintBytes[bits.Len64(x)]
	binary.LittleEndian.PutUint64(b[pos:], spread|varintCont[n&7])
	return pos + int(n)
}

// varintBytes[k] is the length of the varint of a value of k bits, and varintCont[n]
// the continuation bits of an n-byte varint: tables, where computing them took a
// division by 7 and a variable shift on each of the ingest's 10^8 and more varints.
var (
	varintBytes [65]uint8
	varintCont  [8]uint64
)

func init() {
	for k := range varintBytes {
		varintBytes[k] = uint8(max(1, (k+6)/7))
	}
	for n := 1; n < len(varintCont); n++ {
		varintCont[n] = 0x80808080808080 & (1<<(8*(n-1)) - 1)
	}
}

// Uvarint decodes one LEB128 value from b at pos. It returns the value and the position
// after it, or next < 0 when b ends inside the value or the value overflows 64 bits.
func Uvarint(b []byte, pos int) (x uint64, next int) {
	var s uint
	for i := pos; i < len(b); i++ {
		c := b[i]
		if c < 0x80 {
			if s == 63 && c > 1 {
				return 0, -1
			}
			return x | uint64(c)<<s, i + 1
		}
		x |= uint64(c&0x7f) << s
		s += 7
		if s > 63 {
			return 0, -1
		}
	}
	return 0, -1
}
