package store

import "encoding/binary"

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
// though in such a block it may find a neighbour before the fault. Like DecodeBlock it
// reads only bytes of list, loading 8 at a time where the capacity allows.
func ScanList(list []byte, v, d, nv uint32, bits []uint64) (x, checked uint32, status int) {
	pos := FirstBlock(d)
	for k := uint32(0); checked < d; k++ {
		c := BlockLen(d, k)
		var n uint32
		x, n, pos, status = scanListBlock(list, pos, v, c, nv, bits)
		checked += n
		if status != NotFound {
			return x, checked, status
		}
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
	packed := false
	if c >= PackedMin {
		packed, u = u&1 != 0, u>>1
	}
	f := int64(v) + Unzigzag(u)
	if f < 0 || f >= int64(nv) {
		return 0, 0, 0, Malformed
	}
	cur, nv64 := uint64(f), uint64(nv)
	if bits[cur>>6]&(1<<(cur&63)) != 0 {
		return uint32(cur), 1, 0, Found
	}
	if packed {
		return scanPacked(list, p, v, cur, c, nv, bits)
	}
	for i := uint32(1); i < c; i++ {
		if uint(p) < uint(len(list)) && list[p] < 0x80 { // one-byte gaps skip the call
			u, p = uint64(list[p]), p+1
		} else if u, p = FastUvarint(list, p); p < 0 {
			return 0, i, 0, Malformed
		}
		cur += u
		if u >= nv64 || cur >= nv64 {
			return 0, i, 0, Malformed
		}
		if bits[cur>>6]&(1<<(cur&63)) != 0 {
			return uint32(cur), i + 1, 0, Found
		}
	}
	return 0, c, p, NotFound
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
	ne := 0
	if h&hdrExceptions != 0 {
		if p >= len(list) {
			return 0, 1, 0, Malformed
		}
		ne, p = int(list[p]), p+1
		if ne == 0 || ne > n {
			return 0, 1, 0, Malformed
		}
	}
	end := p + (n*int(w)+7)/8
	if end > len(list) {
		return 0, 1, 0, Malformed
	}
	var tail [packedArea]byte
	src := packedBytes(list, p, end-p, &tail)
	if ne > 0 {
		return scanExceptions(list, src, end, ne, first, base, w, c, nv, bits)
	}
	mask, cur, bit := uint64(1)<<w-1, first, uint(0)
	if first+uint64(n)*(base+mask) < uint64(nv) { // no gap can pass nv
		for i := uint32(1); i < c; i++ {
			cur += base + loadBits(src, bit)&mask
			bit += w
			if bits[cur>>6]&(1<<(cur&63)) != 0 {
				return uint32(cur), i + 1, 0, Found
			}
		}
		return 0, c, end, NotFound
	}
	for i := uint32(1); i < c; i++ {
		cur += base + loadBits(src, bit)&mask
		bit += w
		if cur >= uint64(nv) {
			return 0, i, 0, Malformed
		}
		if bits[cur>>6]&(1<<(cur&63)) != 0 {
			return uint32(cur), i + 1, 0, Found
		}
	}
	return 0, c, end, NotFound
}

// scanExceptions is scanPacked for a block with ne exceptions, which follow the packed
// area at list[q]: (gap index, high bits) pairs, gap indexes ascending, each read when
// the scan reaches the gap before it, with decodePacked's checks.
func scanExceptions(list []byte, src *[packedArea]byte, q, ne int, first, base uint64, w uint, c, nv uint32, bits []uint64) (x, checked uint32, next, status int) {
	n, nv64 := int(c)-1, uint64(nv)
	mask, cur, bit := uint64(1)<<w-1, first, uint(0)
	ei, ehi := -1, uint64(0) // the next exception
	readNext := func(last int) bool {
		if ne == 0 {
			ei = n // past every gap
			return true
		}
		if q >= len(list) {
			return false
		}
		i := int(list[q])
		hi, r := FastUvarint(list, q+1)
		if r < 0 || i <= last || i >= n || hi >= nv64 || hi == 0 {
			return false
		}
		ei, ehi, q, ne = i, hi, r, ne-1
		return true
	}
	if !readNext(-1) {
		return 0, 1, 0, Malformed
	}
	for i := 0; i < n; i++ {
		g := loadBits(src, bit) & mask
		bit += w
		if i == ei {
			if g |= ehi << w; g >= nv64 {
				return 0, uint32(i) + 1, 0, Malformed
			}
			if !readNext(i) {
				return 0, uint32(i) + 1, 0, Malformed
			}
		}
		cur += base + g
		if cur >= nv64 {
			return 0, uint32(i) + 1, 0, Malformed
		}
		if bits[cur>>6]&(1<<(cur&63)) != 0 {
			return uint32(cur), uint32(i) + 2, 0, Found
		}
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
// read when the scan reaches the gap it names, with decodeCompact's checks. The gaps
// between two exceptions are scanned in a loop of their own, with no test for an
// exception per gap.
func scanCompact(list []byte, p int, first uint64, c, nv uint32, bits []uint64) (x, checked uint32, next, status int) {
	w := uint(list[p] & hdrWidth)
	n, nv64, s := int(c)-1, uint64(nv), p+1
	if s+(n*int(w)+excHeader+7)/8 > len(list) {
		return 0, 1, 0, Malformed
	}
	b := compactStream(list, s, n)
	ebit := uint(n) * w
	hd := binary.LittleEndian.Uint64(b[ebit>>3:cap(b)]) >> (ebit & 7)
	ne := int(hd & (1<<excCountBits - 1))
	wi := uint(hd>>excCountBits) & (1<<excStepBits - 1)
	wh := uint(hd>>(excCountBits+excStepBits))&(1<<excHighBits-1) + 1
	ebit += excHeader
	end := s + (int(ebit)+ne*int(wi+wh)+7)/8
	if ne == 0 || ne > n || end > len(list) {
		return 0, 1, 0, Malformed
	}
	mi, mh := uint64(1)<<wi-1, uint64(1)<<wh-1
	mask, cur, bit := uint64(1)<<w-1, first, uint(0)
	i, ei := 0, -1 // the next gap, the last exception's
	for ; ne >= 0; ne-- {
		// the next exception's gap index ei (n past the last) and high part
		ehi := uint64(0)
		if ne == 0 {
			ei = n
		} else {
			e := binary.LittleEndian.Uint64(b[ebit>>3:cap(b)]) >> (ebit & 7)
			ei += 1 + int(e&mi)
			ehi = e >> wi & mh
			ebit += wi + wh
			if ei >= n || ehi >= nv64 {
				return 0, uint32(i) + 1, 0, Malformed
			}
		}
		for ; i < ei; i++ {
			cur += 1 + binary.LittleEndian.Uint64(b[bit>>3:cap(b)])>>(bit&7)&mask
			bit += w
			if cur >= nv64 {
				return 0, uint32(i) + 1, 0, Malformed
			}
			if bits[cur>>6]&(1<<(cur&63)) != 0 {
				return uint32(cur), uint32(i) + 2, 0, Found
			}
		}
		if i == n {
			break
		}
		g := binary.LittleEndian.Uint64(b[bit>>3:cap(b)])>>(bit&7)&mask | ehi<<w
		bit += w
		if g >= nv64 {
			return 0, uint32(i) + 1, 0, Malformed
		}
		cur += 1 + g
		if cur >= nv64 {
			return 0, uint32(i) + 1, 0, Malformed
		}
		if bits[cur>>6]&(1<<(cur&63)) != 0 {
			return uint32(cur), uint32(i) + 2, 0, Found
		}
		i++
	}
	return 0, c, end, NotFound
}
