package store

import "encoding/binary"

// Head decodes the first neighbour of v's list (degree d >= 1) and, when d >= 2, the
// second: Afforest's sampling links each vertex with these two and nothing else, so it
// reads only their bytes (FORMAT.md, "ADJ: one list"). n is how many it decoded (1 or
// 2); ok is false for malformed bytes or a neighbour outside [0, nv).
//
// Where DecodeBlock decodes the first min(d, 2) neighbours, Head returns the same ones.
// It checks only the bytes it reads: of a packed block the header, base, first gap and
// first exception, not the exceptions after it. A list of one or two neighbours it
// reads whole, and refuses, as ListIter does, bytes after its last value.
func Head(list []byte, v, d, nv uint32) (x0, x1 uint32, n int, ok bool) {
	c := BlockLen(d, 0)
	u, p := FastUvarint(list, FirstBlock(d))
	if p < 0 || d == 0 {
		return 0, 0, 0, false
	}
	f, packed, ok := blockFirst(u, v, c, uint64(nv))
	if !ok {
		return 0, 0, 0, false
	}
	if c == 1 {
		return uint32(f), 0, 1, p == len(list)
	}
	var g uint64
	switch {
	case packed:
		if g, ok = packedGap0(list, p, c, nv); !ok {
			return 0, 0, 0, false
		}
	case uint(p) < uint(len(list)) && list[p] < 0x80: // a one-byte gap
		g = uint64(list[p])
		p++
	default:
		if g, p = FastUvarint(list, p); p < 0 {
			return 0, 0, 0, false
		}
	}
	s := uint64(f) + g
	if g >= uint64(nv) || s >= uint64(nv) || d == 2 && p != len(list) { // d == 2: not packed
		return 0, 0, 0, false
	}
	return uint32(f), uint32(s), 2, true
}

// packedGap0 is the first gap (base added) of the packed, compact or mirrored block of c
// neighbours whose header byte is at list[p], with decodePacked's checks on the header, the base, the
// exception count and the first exception when it patches gap 0.
func packedGap0(list []byte, p int, c, nv uint32) (uint64, bool) {
	n := int(c) - 1
	if p >= len(list) {
		return 0, false
	}
	h := list[p]
	w := uint(h & hdrWidth)
	if h == hdrMirror { // the lower half's first gap, a varint
		g, q := FastUvarint(list, p+1)
		return g, q >= 0 && g < uint64(nv)
	}
	if w > 32 {
		return 0, false
	}
	if h&hdrCompact != 0 {
		return compactGap0(list, p, n, w, nv)
	}
	base, p := FastUvarint(list, p+1)
	if p < 0 || base >= uint64(nv) {
		return 0, false
	}
	ne, p, end, ok := packedSpan(list, p, h, n, w)
	if !ok {
		return 0, false
	}
	g := loadBits(packedBytes(list, p, end-p), 0) & (uint64(1)<<w - 1)
	if ne > 0 {
		if end >= len(list) {
			return 0, false
		}
		if list[end] == 0 { // the first exception patches gap 0
			hi, q := FastUvarint(list, end+1)
			if q < 0 || hi >= uint64(nv) || hi == 0 {
				return 0, false
			}
			if g |= hi << w; g >= uint64(nv) {
				return 0, false
			}
		}
	}
	return base + g, true
}

// compactGap0 is packedGap0 for a compact block of n gaps at width w: 1 plus gap 0's low
// bits, and its high part when the first exception names gap 0, with unpackCompact's
// checks on the bits it reads.
func compactGap0(list []byte, p, n int, w uint, nv uint32) (uint64, bool) {
	s := p + 1
	h := list[p]
	if s+(n*int(w)+7)/8 > len(list) {
		return 0, false
	}
	b := compactStream(list, s, n)
	load := func(bit uint) uint64 { return binary.LittleEndian.Uint64(b[bit>>3:cap(b)]) >> (bit & 7) }
	g := load(0) & (uint64(1)<<w - 1)
	if h&hdrExceptions != 0 {
		ebit := uint(n) * w
		if s+(int(ebit)+excHeader+7)/8 > len(list) {
			return 0, false
		}
		hd := load(ebit)
		ne := int(hd & (1<<excCountBits - 1))
		wi := uint(hd>>excCountBits) & (1<<excStepBits - 1)
		wh := uint(hd>>(excCountBits+excStepBits))&(1<<excHighBits-1) + 1
		ebit += excHeader
		if ne == 0 || ne > n || s+(int(ebit+wi+wh)+7)/8 > len(list) {
			return 0, false
		}
		if load(ebit)&(uint64(1)<<wi-1) == 0 { // the first exception patches gap 0
			hi := load(ebit+wi) & (uint64(1)<<wh - 1)
			if hi >= uint64(nv) {
				return 0, false
			}
			if g |= hi << w; g >= uint64(nv) {
				return 0, false
			}
		}
	}
	return 1 + g, true
}
