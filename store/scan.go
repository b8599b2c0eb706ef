package store

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// ScanList is the bottom-up BFS step's decoder (FORMAT.md, "ADJ: one list"): it checks the
// neighbours of v's list (degree d) in order against the bitmap bits (at least nv bits)
// and stops at the first whose bit is set, returning it, how many neighbours it checked,
// and Found, NotFound or Malformed. It decodes each block once, in one pass: a varint
// block value by value, a packed block gap by gap with its exceptions merged in as their
// indexes come up, so neither the rest of a block nor the blocks after the one it stops
// in are decoded, and no block is parsed twice.
//
// On a list whose blocks DecodeBlock decodes, ScanList finds what DecodeBlock and a scan
// in order would; it reports Malformed only when DecodeBlock refuses a block it reaches,
// though in such a block it may find a neighbour before the fault, and, as ListIter
// does, where a block after the first does not start where the block index says or a
// list it reads to its end (NotFound, or Found at a list of one) has bytes after its
// last block. Like DecodeBlock it reads only bytes of list, loading 8 at a time where
// the capacity allows.
func ScanList(list []byte, v, d, nv uint32, bits []uint64) (x, checked uint32, status int) {
	return scanBlocks(list, FirstBlock(d), v, d, 0, 0, nv, bits)
}

// scanBlocks is ScanList from block k of the list on, which starts at list[pos], with
// checked neighbours checked before it.
func scanBlocks(list []byte, pos int, v, d, k, checked, nv uint32, bits []uint64) (x, _ uint32, status int) {
	for ; checked < d; k++ {
		if k > 0 && !BlockIndexed(list, k, pos) {
			return 0, checked, Malformed
		}
		c := BlockLen(d, k)
		var n uint32
		x, n, pos, status = scanListBlock(list, pos, v, c, nv, bits)
		checked += n
		if status != NotFound {
			return x, checked, status
		}
	}
	if pos != len(list) { // read to its end, it ends there
		return 0, checked, Malformed
	}
	return 0, checked, NotFound
}

// scanListBlock is ScanList on the block of c neighbours at list[pos]; next is the
// position after the block when the status is NotFound.
func scanListBlock(list []byte, pos int, v, c, nv uint32, bits []uint64) (x, checked uint32, next, status int) {
	u, p := FastUvarint(list, pos)
	if p < 0 || c == 0 {
		return 0, 0, 0, Malformed
	}
	f, packed, ok := blockFirst(u, v, c, uint64(nv))
	if !ok {
		return 0, 0, 0, Malformed
	}
	cur := uint64(f)
	if bits[cur>>6]&(1<<(cur&63)) != 0 {
		if c == 1 && p != len(list) { // a block of one is its list's last, read whole
			return 0, 1, 0, Malformed
		}
		return uint32(cur), 1, 0, Found
	}
	if packed {
		// a compact block with exceptions (most long lists of web and social graphs)
		// goes straight to its scan, without scanPacked's call
		if p < len(list) {
			h := list[p]
			if h != hdrMirror && h&(hdrCompact|hdrExceptions) == hdrCompact|hdrExceptions && h&hdrWidth <= 32 {
				return scanCompact(list, p, cur, c, nv, bits)
			}
		}
		return scanPacked(list, p, v, cur, c, nv, bits)
	}
	return scanVarintBlock(list, p, cur, c, 1, nv, bits)
}

// scanVarintBlock is scanListBlock past the first done neighbours (at least 1) of a block
// of c varints, the last of them cur, from list[p] on.
func scanVarintBlock(list []byte, p int, cur uint64, c, done uint32, nv uint32, bits []uint64) (x, checked uint32, next, status int) {
	nv64 := uint64(nv)
	// the assembly reads bits unchecked: only where it holds nv bits, as the contract says
	bmi := haveBMI && uint64(len(bits))*64 >= nv64
	for done, n := int(done)-1, int(c)-1; ; { // done: the gaps checked
		var k, st int
		if bmi {
			cur, k, p, st = scanVarintsBMI(unsafe.SliceData(list), p, len(list), cap(list), cur, n-done, nv64, unsafe.SliceData(bits))
		} else {
			cur, k, p, st = scanVarints(list, p, cur, n-done, nv64, bits)
		}
		switch done += k; st {
		case Found:
			return uint32(cur), uint32(done) + 1, 0, Found
		case Malformed:
			return 0, uint32(done), 0, Malformed
		case NotFound:
			return 0, c, p, NotFound
		}
		// a varint that scanVarints leaves to FastUvarint
		u, q := FastUvarint(list, p)
		if q < 0 {
			return 0, uint32(done) + 1, 0, Malformed
		}
		cur, done, p = cur+u, done+1, q
		if u >= nv64 || cur >= nv64 {
			return 0, uint32(done), 0, Malformed
		}
		if bits[cur>>6]&(1<<(cur&63)) != 0 {
			return uint32(cur), uint32(done) + 1, 0, Found
		}
	}
}

// scanSlow is scanVarints's status for a varint it leaves to its caller.
const scanSlow = Malformed + 1

// scanVarints is scanGaps for a block of varints: n gaps from list[p] on. It returns,
// besides scanGaps's results, the position after the last gap it read, and stops with
// scanSlow (k gaps done) at a varint it cannot load as one 64-bit word (near the end
// of the mapping) or of more than five bytes, for FastUvarint. It makes no call, so
// that its values stay in registers (see scanGaps).
//
//go:noinline
func scanVarints(list []byte, p int, cur uint64, n int, nv uint64, front []uint64) (x uint64, k, next, status int) {
	for k = 0; k < n; k++ {
		if uint(p) >= uint(len(list)) {
			return cur, k, p, scanSlow
		}
		u := uint64(list[p])
		if u < 0x80 {
			p++
		} else {
			if p+8 > cap(list) {
				return cur, k, p, scanSlow
			}
			w := binary.LittleEndian.Uint64(list[p : p+8 : p+8])
			b := bits.TrailingZeros64(^w&0x8080808080808080)>>3 + 1
			if b > 5 || p+b > len(list) {
				return cur, k, p, scanSlow
			}
			u = w&0x7f | w>>1&(0x7f<<7) | w>>2&(0x7f<<14) | w>>3&(0x7f<<21) | w>>4&(0x7f<<28)
			u &= 1<<(7*b) - 1
			p += b
		}
		cur += u
		if u >= nv || cur >= nv {
			return cur, k + 1, p, Malformed
		}
		if front[cur>>6]&(1<<(cur&63)) != 0 {
			return cur, k + 1, p, Found
		}
	}
	return cur, n, p, NotFound
}

// scanPacked is scanListBlock past the first neighbour, first, of a packed, compact or
// mirrored block of v's list whose header byte is at list[p], with decodePacked's checks.
// The gaps are non-negative, so the neighbours ascend and each is checked against nv
// before its bit is read; when no gap can carry a neighbour past nv, there is no check
// per gap.
func scanPacked(list []byte, p int, v uint32, first uint64, c, nv uint32, bits []uint64) (x, checked uint32, next, status int) {
	n := int(c) - 1
	if p >= len(list) {
		return 0, 1, 0, Malformed
	}
	h := list[p]
	w := uint(h & hdrWidth)
	if h == hdrMirror {
		return scanMirror(list, p+1, v, first, c, nv, bits)
	}
	if w > 32 {
		return 0, 1, 0, Malformed
	}
	if h&hdrCompact != 0 && h&hdrExceptions != 0 {
		return scanCompact(list, p, first, c, nv, bits)
	}
	base, q := uint64(1), p+1 // a compact block: smallest gap 1, not stored
	if h&hdrCompact == 0 {
		base, q = FastUvarint(list, p+1)
	}
	p = q
	if p < 0 || base >= uint64(nv) {
		return 0, 1, 0, Malformed
	}
	ne, p, end, ok := packedSpan(list, p, h, n, w)
	if !ok {
		return 0, 1, 0, Malformed
	}
	src := packedBytes(list, p, end-p)
	if ne > 0 {
		return scanExceptions(list, src, end, ne, first, base, w, c, nv, bits)
	}
	// a compact block without exceptions, 8 gaps a step, as scanCompact scans one with
	if h&hdrCompact != 0 && haveVec && haveShiftX && w <= vecMaxWidth && first < uint64(nv) && uint64(len(bits))*64 >= uint64(nv) {
		x, k, st := scanCompactAVX2(&src[0], &vecTables[w], uint64(w), uint64(n), first, uint64(nv), &bits[0], 0, 0, 0, 0, 0)
		if st == Found {
			return uint32(x), uint32(k) + 1, 0, Found
		}
		if st == NotFound {
			return 0, c, end, NotFound
		}
	}
	x64, k, st := scanGaps(src, 0, w, base, first, n, uint64(nv), bits)
	switch st {
	case Found:
		return uint32(x64), uint32(k) + 1, 0, Found
	case Malformed:
		return 0, uint32(k), 0, Malformed
	}
	return 0, c, end, NotFound
}

// scanExceptions is scanPacked for a block with ne exceptions, which follow the packed
// area at list[q]: (gap index, high bits) pairs, gap indexes ascending, with
// decodePacked's checks. It reads an exception, scans the gaps before it (scanGaps),
// then its gap.
func scanExceptions(list []byte, src *[packedArea]byte, q, ne int, first, base uint64, w uint, c, nv uint32, bits []uint64) (x, checked uint32, next, status int) {
	n, nv64 := int(c)-1, uint64(nv)
	cur, i, ei := first, 0, -1 // the neighbour, the next gap, the last exception's gap
	for ; ne >= 0; ne-- {
		ehi := uint64(0) // the next exception's gap ei (n past the last) and high part
		if ne == 0 {
			ei = n
		} else {
			if q >= len(list) {
				return 0, uint32(i) + 1, 0, Malformed
			}
			e := int(list[q])
			hi, r := FastUvarint(list, q+1)
			if r < 0 || e <= ei || e >= n || hi >= nv64 || hi == 0 {
				return 0, uint32(i) + 1, 0, Malformed
			}
			ei, ehi, q = e, hi, r
		}
		if ei > i {
			var k, st int
			cur, k, st = scanGaps(src, uint(i)*w, w, base, cur, ei-i, nv64, bits)
			switch st {
			case Found:
				return uint32(cur), uint32(i+k) + 1, 0, Found
			case Malformed:
				return 0, uint32(i + k), 0, Malformed
			}
			i = ei
		}
		if i == n {
			break
		}
		g := loadBits(src, uint(i)*w)&(uint64(1)<<w-1) | ehi<<w
		if g >= nv64 {
			return 0, uint32(i) + 1, 0, Malformed
		}
		if cur += base + g; cur >= nv64 {
			return 0, uint32(i) + 1, 0, Malformed
		}
		if bits[cur>>6]&(1<<(cur&63)) != 0 {
			return uint32(cur), uint32(i) + 2, 0, Found
		}
		i++
	}
	return 0, c, q, NotFound
}

// scanMirror is scanPacked for a mirrored block, whose lower half's gaps start at list[p]:
// it decodes the block (at most MirrorMax neighbours) and scans it.
func scanMirror(list []byte, p int, v uint32, first uint64, c, nv uint32, bits []uint64) (x, checked uint32, next, status int) {
	var buf [MirrorMax]uint32
	if c > MirrorMax {
		return 0, 1, 0, Malformed
	}
	dst := buf[:c]
	dst[0] = uint32(first)
	next, ok := decodeMirror(dst, v, first, list, p, int(c), uint64(nv))
	if !ok {
		return 0, 1, 0, Malformed
	}
	for i, x := range dst[1:] {
		if bits[x>>6]&(1<<(x&63)) != 0 {
			return x, uint32(i) + 2, 0, Found
		}
	}
	return 0, c, next, NotFound
}

// scanCompact is scanPacked for a compact block with exceptions (its header byte at
// list[p]): the gaps' low bits and then the exceptions in one bit stream, each exception
// read when the scan reaches the gap it names, with unpackCompact's checks. The gaps
// between two exceptions are scanned in a loop of their own, with no test for an
// exception per gap. The stream is read through one fixed-size array (compactView), so
// that neither its exceptions' loads nor its gaps' need a bounds check. Where the
// processor has AVX2 and BMI2 and the width is at most vecMaxWidth, scanCompactAVX2
// makes and tests the neighbours 8 a step instead; a block it bails on (one that
// ScanList refuses somewhere) is scanned again by the loop, which says where.
func scanCompact(list []byte, p int, first uint64, c, nv uint32, bits []uint64) (x, checked uint32, next, status int) {
	w := uint(list[p] & hdrWidth)
	n, nv64, s := int(c)-1, uint64(nv), p+1
	if s+(n*int(w)+excHeader+7)/8 > len(list) {
		return 0, 1, 0, Malformed
	}
	b := compactView(list, s)
	ebit := uint(n) * w
	hd := loadCompact(b, ebit)
	ne := int(hd & (1<<excCountBits - 1))
	wi := uint(hd>>excCountBits) & (1<<excStepBits - 1)
	wh := uint(hd>>(excCountBits+excStepBits))&(1<<excHighBits-1) + 1
	ebit += excHeader
	end := s + (int(ebit)+ne*int(wi+wh)+7)/8
	if ne == 0 || ne > n || end > len(list) {
		return 0, 1, 0, Malformed
	}
	mi, mh := uint64(1)<<wi-1, uint64(1)<<wh-1
	if haveVec && haveShiftX && w <= vecMaxWidth && first < nv64 && uint64(len(bits))*64 >= nv64 {
		x, k, st := scanCompactAVX2(&b[0], &vecTables[w], uint64(w), uint64(n), first, nv64, &bits[0], uint64(ebit), uint64(ne), uint64(wi), mh, uint64(wi+wh))
		if st == Found {
			return uint32(x), uint32(k) + 1, 0, Found
		}
		if st == NotFound {
			return 0, c, end, NotFound
		}
	}
	src := (*[packedArea]byte)(b[:packedArea]) // the low bits alone
	cur, i, ei := first, 0, -1                 // the neighbour, the next gap, the last exception's gap
	for ; ne >= 0; ne-- {
		ehi := uint64(0) // the next exception's gap ei (n past the last) and high part
		if ne == 0 {
			ei = n
		} else {
			e := loadCompact(b, ebit)
			ei += 1 + int(e&mi)
			ehi = e >> wi & mh
			ebit += wi + wh
			if ei >= n || ehi >= nv64 {
				return 0, uint32(i) + 1, 0, Malformed
			}
		}
		if ei > i {
			var k, st int
			cur, k, st = scanGaps(src, uint(i)*w, w, 1, cur, ei-i, nv64, bits)
			switch st {
			case Found:
				return uint32(cur), uint32(i+k) + 1, 0, Found
			case Malformed:
				return 0, uint32(i + k), 0, Malformed
			}
			i = ei
		}
		if i == n {
			break
		}
		g := loadBits(src, uint(i)*w)&(uint64(1)<<w-1) | ehi<<w
		if g >= nv64 {
			return 0, uint32(i) + 1, 0, Malformed
		}
		if cur += 1 + g; cur >= nv64 {
			return 0, uint32(i) + 1, 0, Malformed
		}
		if bits[cur>>6]&(1<<(cur&63)) != 0 {
			return uint32(cur), uint32(i) + 2, 0, Found
		}
		i++
	}
	return 0, c, end, NotFound
}

// compactArea is the bytes scanCompact reads a compact block's stream through: the
// stream (at most compactMaxBytes) and the 8 that a load at its last byte reads, rounded
// so that an index masked with compactMask stays 8 bytes inside it.
const (
	compactArea = 1032
	compactMask = 1023
)

// compactView returns the compact stream that starts at list[s] as a fixed-size array:
// in place when the slice's capacity (the shard mapping) runs far enough past s, else a
// zero-padded copy of the stream's bytes in list (on the heap: only near the end of a
// mapping).
func compactView(list []byte, s int) *[compactArea]byte {
	if s+compactArea <= cap(list) {
		return (*[compactArea]byte)(list[s : s+compactArea])
	}
	return compactViewCopy(list[s:])
}

// compactViewCopy is compactView's copy of b.
//
//go:noinline
func compactViewCopy(b []byte) *[compactArea]byte {
	tail := new([compactArea]byte)
	copy(tail[:compactMaxBytes], b)
	return tail
}

// loadCompact is the 64 bits of the stream b from bit on, less the bits of bit's byte
// below it; bit lies within the stream (below 8*compactMaxBytes).
func loadCompact(b *[compactArea]byte, bit uint) uint64 {
	return binary.LittleEndian.Uint64(b[(bit>>3)&compactMask:]) >> (bit & 7)
}
