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
// hdrExceptions when an exception list follows the packed gaps.
const (
	hdrWidth      = 0x3f
	hdrExceptions = 0x40
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
		pos = putBlock(buf, pos, zigzag(int64(uint32(blk[0]))-int64(v)), gaps[:len(blk)-1])
	}
	return buf[:pos]
}

// putBlock writes one block, its first value z (the zigzag of first - v) and its gaps,
// at b[pos:] and returns the position after it: varints, or packed when that is no
// longer (FORMAT.md).
func putBlock(b []byte, pos int, z uint64, gaps []uint32) int {
	if len(gaps)+1 < PackedMin {
		pos = putUvarint33(b, pos, z)
		return putVarints(b, pos, gaps)
	}
	p := planBlock(gaps)
	if !p.packed {
		pos = putUvarint33(b, pos, z<<1)
		return putVarints(b, pos, gaps)
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

// blockPlan is how a block of at least PackedMin neighbours is coded.
type blockPlan struct {
	packed bool
	base   uint32 // the smallest gap
	w      uint   // bits per packed gap
	ne     int    // gaps whose g-base needs more than w bits (exceptions)
}

// planBlock chooses the coding of gaps: packed at the width (with its exceptions) that
// takes the fewest bytes, or varints when those take fewer still. Ties go to the packed
// coding (it decodes without branches) and among widths to the widest (fewest
// exceptions). The GPU ingest (ingest/build.cu, planBlock) makes the same choice.
func planBlock(gaps []uint32) blockPlan {
	base := gaps[0]
	for _, g := range gaps[1:] {
		base = min(base, g)
	}
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
	best := blockPlan{packed: true, base: base, w: uint(maxL)}
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
	if 1+int(varintBytes[bits.Len32(base)])+bestBytes > varints {
		return blockPlan{}
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
