package store

import (
	"encoding/binary"
	"errors"
	"math/bits"
	"slices"
)

// BlockSize is the number of neighbours per compressed block (FORMAT.md, "ADJ: one list").
const BlockSize = 64

// errList is returned by the list decoders; callers wrap it into a CorruptError
// with the shard's path and the list's offset.
var errList = errors.New("malformed adjacency list")

func zigzag(x int64) uint64 { return uint64(x<<1) ^ uint64(x>>63) }

// NumBlocks is the number of compressed blocks of a list of degree d.
// It is computed in 64 bits: d+BlockSize-1 overflows uint32 for degrees near 2^32.
func NumBlocks(d uint32) uint32 { return uint32((uint64(d) + BlockSize - 1) / BlockSize) }

// AppendList appends the encoding of v's sorted neighbour list to dst.
//
// It writes into room it reserves up front, each varint with one 8-byte store
// (putUvarint33), instead of appending byte by byte: ingest encodes every list
// through here, and the byte-wise appends were a tenth of its phase 2.
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
	// The block index, then at most 5 bytes a value, and 8 for the last store.
	buf := slices.Grow(dst, 4*(nb-1)+5*len(nbrs)+8)
	buf = buf[:cap(buf)]
	pos := start + 4*(nb-1)
	for k := range nb {
		if k > 0 {
			binary.LittleEndian.PutUint32(buf[start+4*(k-1):], uint32(pos-start))
		}
		blk := nbrs[k*BlockSize : min(len(nbrs), (k+1)*BlockSize)]
		pos = putUvarint33(buf, pos, zigzag(int64(uint32(blk[0]))-int64(v)))
		prev := uint32(blk[0])
		for _, x := range blk[1:] {
			pos = putUvarint33(buf, pos, uint64(uint32(x)-prev))
			prev = uint32(x)
		}
	}
	return buf[:pos]
}

// putUvarint33 writes x (below 2^35: a zigzagged difference of two 32-bit ids) as a
// LEB128 varint at b[pos:] with one 8-byte store, which b must have room for, and
// returns the position after it. Spreading the 7-bit groups into bytes and setting
// the continuation bits without a loop leaves no branch on the length to mispredict.
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

// DecodeList appends to dst the d neighbours of v encoded in list (exactly the bytes
// OFFSETS[v]..OFFSETS[v+1]). Every neighbour is checked against nv, the vertex count.
func DecodeList(dst []uint32, v, d uint32, list []byte, nv uint32) ([]uint32, error) {
	var it ListIter
	it.Reset(v, d, list, nv)
	for it.Next() {
		dst = append(dst, it.Value())
	}
	return dst, it.Err()
}

// ListIter walks one encoded list in order; it allows early termination (bottom-up
// BFS) without decoding the rest. The zero value is an empty list.
//
//	it.Reset(v, d, list, nv)
//	for it.Next() { use(it.Value()) }
//	if err := it.Err(); err != nil { ... }
type ListIter struct {
	list    []byte
	v, nv   uint32
	left    uint32 // neighbours not yet returned
	inBlock uint32 // neighbours left in the current block
	block   uint32 // index of the current block
	nb      uint32
	pos     int
	cur     uint32
	err     error
}

// Reset starts iterating the d neighbours of v in list.
func (it *ListIter) Reset(v, d uint32, list []byte, nv uint32) {
	*it = ListIter{list: list, v: v, nv: nv, left: d, nb: NumBlocks(d)}
	if it.nb > 1 {
		it.pos = 4 * int(it.nb-1)
		if it.pos > len(list) {
			it.fail()
		}
	}
}

func (it *ListIter) fail() {
	it.err = errList
	it.left = 0
}

// Next advances to the next neighbour and reports whether there is one.
func (it *ListIter) Next() bool {
	if it.left == 0 {
		if it.err == nil && it.pos != len(it.list) {
			it.fail() // trailing bytes: the list and its degree disagree
		}
		return false
	}
	if it.inBlock == 0 {
		if it.block > 0 {
			off := int(binary.LittleEndian.Uint32(it.list[4*(it.block-1):]))
			if off != it.pos {
				it.fail()
				return false
			}
		}
		x, next := Uvarint(it.list, it.pos)
		if next < 0 {
			it.fail()
			return false
		}
		u := int64(it.v) + Unzigzag(x)
		if u < 0 || u >= int64(it.nv) {
			it.fail()
			return false
		}
		it.cur, it.pos = uint32(u), next
		it.inBlock = min(it.left, BlockSize)
		it.block++
	} else {
		x, next := Uvarint(it.list, it.pos)
		if next < 0 || x >= uint64(it.nv) || uint64(it.cur)+x >= uint64(it.nv) {
			it.fail()
			return false
		}
		it.cur, it.pos = it.cur+uint32(x), next
	}
	it.inBlock--
	it.left--
	return true
}

// Value is the neighbour Next moved to.
func (it *ListIter) Value() uint32 { return it.cur }

// Err reports a malformed list. It is meaningful once Next has returned false; a caller
// that stops early has checked only the bytes it read.
func (it *ListIter) Err() error { return it.err }

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
