package store

import (
	"encoding/binary"
	"math/bits"
	"runtime"
	"unsafe"
)

// HeadGroup is Head for the vertices 64g+j0 to 64g+j1-1 of the shard (directory group
// g; j0 < j1 <= 64, and 64g+j1 <= N): x0[j] and x1[j] are the first two neighbours of
// vertex 64g+j, where a list of one neighbour repeats the vertex itself as x1[j] and an
// empty one gives the vertex twice (a link with itself changes nothing). bad is the j of
// the first vertex whose list Head refuses, or -1; the entries from it on are
// undefined. Bit j of empty is set where vertex 64g+j has no neighbours (up to bad).
// A group whose directory pairs run past the section (never, once the directory is
// checked) is refused at j0: its pairs are read without a check each.
//
// Afforest's sampling reads these two neighbours of every vertex and nothing else, so
// on low-degree graphs (roads, meshes, social graphs' long tail) this sweep is most of
// a run. It decodes the directory pairs in one pass and, where a list's first bytes
// load as one 64-bit word, the two values from that word without a call: a short or
// varint block's two varints, a mirrored block's first gap, a compact block's first gap
// without exceptions; other blocks' first gap from the header on as Head reads it.
// Lists whose first bytes do not load as a word go through Head.
//
// With first set, a list of PackedMin or more neighbours gives its first neighbour
// alone, from the first word of its first block and without the block's header: x1[j] is then
// the vertex and bit j of once is set (HeadSecond reads the second). The mode bit's
// blocks are where the second neighbour costs most (a compact block's exceptions, a
// packed block's base), and a caller that links the first neighbour may find the
// second not needed. Where the processor has BMI1 and BMI2, the loops run in assembly
// (headGroupBMI) on every group whose directory fields fit a word, in both modes.
//
// x is x0 and x1, one array so that the assembly stores both through one register.
func (s *Shard) HeadGroup(g, j0, j1, nv uint32, first bool, x *[2][DirGroup]uint32) (once, empty uint64, bad int) {
	var r HeadReader
	r.Reset(s, nv, x)
	return r.Group(g, j0, j1, first)
}

// HeadReader is HeadGroup for many groups of one shard, the arguments that stay the
// same from group to group (the shard, nv, x0 and x1, and what headFirstBMI reads of
// them) set once by Reset: a caller that reads a shard a group at a time (Afforest's
// sampling) keeps one, and each group's call stores only that group's fields. Its zero
// value reads nothing: Reset it first.
type HeadReader struct {
	s      *Shard
	nv     uint32
	x0, x1 *[DirGroup]uint32
	a      headArgs // the shard's fields set by Reset, a group's by headGroupBMI
}

// Reset makes r read shard s's groups into x0 and x1 (x[0] and x[1]) with neighbours
// below nv.
func (r *HeadReader) Reset(s *Shard, nv uint32, x *[2][DirGroup]uint32) {
	x0, x1 := &x[0], &x[1]
	r.s, r.nv, r.x0, r.x1 = s, nv, x0, x1
	adj := s.Adj
	acap8 := int64(cap(adj)) - 8
	r.a = headArgs{nv: uint64(nv), alim: uint64(min(int64(len(adj)), acap8)), acap8: uint64(acap8), x0: x0, x1: x1}
	if cap(adj) > 0 {
		r.a.adj = &adj[:1][0]
	}
}

// Group is HeadGroup(g, j0, j1, nv, first, x0, x1) of the shard, nv, x0 and x1 that r
// was Reset with.
func (r *HeadReader) Group(g, j0, j1 uint32, first bool) (once, empty uint64, bad int) {
	s := r.s
	if h := s.dirH[g*4+3]; haveBMI && h>>24 >= bmiWidth && h>>16&0xff+h>>24 <= 57 && r.nv > 0 {
		return r.headGroupBMI(g, j0, j1, first)
	}
	return s.headGroupGo(g, j0, j1, r.nv, first, r.x0, r.x1)
}

// headGroupGo is HeadGroup's loops in Go.
func (s *Shard) headGroupGo(g, j0, j1, nv uint32, first bool, x0, x1 *[DirGroup]uint32) (once, empty uint64, bad int) {
	h := s.dirH[g*4:][:8]
	wo, wd := h[3]>>16&0xff, h[3]>>24
	base := g << dirGroupShift
	if wo+wd > 57 {
		empty, bad := s.headGroupWide(base, j0, j1, nv, x0, x1)
		return 0, empty, bad
	}
	span, dmin := h[4]-h[0], h[3]>>8&0xff
	mo, md := uint32(1)<<wo-1, uint32(1)<<wd-1
	var start [DirGroup + 1]uint32
	var deg [DirGroup]uint32
	p := uint64(h[1])*64 + uint64(j0*(wo+wd))
	last := min(j1+1, DirGroup, s.N-base) // the pairs to decode: j1's for its start
	if (p+uint64(last-j0)*uint64(wo+wd))/8+8 > uint64(len(s.dirB)) {
		return 0, 0, int(j0) // pairs past the section: never in a checked directory
	}
	db := unsafe.Pointer(unsafe.SliceData(s.dirB))
	lin := uint64(h[0])<<dirGroupShift + uint64(j0)*uint64(span) // 64 times h[0] + j*span/64
	j := j0
	if wp := uint64(wo + wd); wp <= 57/2 {
		// two pairs from each word (most groups of low-degree graphs): one load, and
		// one pass of the loop's bookkeeping, for the two
		for ; j+1 < last; j += 2 {
			// inside dirB, checked above for the group's last pair; i is j (j < last <=
			// DirGroup) without the check that j's index needs
			x := loadWord(unsafe.Add(db, p>>3)) >> (p & 7)
			i := j % DirGroup
			start[i], deg[i] = dirPair(x, uint32(lin>>dirGroupShift), wo, mo, dmin, md) // lin>>6 is h[0] + dirLine(j, span)
			x, lin = x>>wp, lin+uint64(span)
			start[j+1], deg[j+1] = dirPair(x, uint32(lin>>dirGroupShift), wo, mo, dmin, md)
			p, lin = p+2*wp, lin+uint64(span)
		}
	}
	for ; j < last; j++ {
		// inside dirB, checked above for the group's last pair
		x := loadWord(unsafe.Add(db, p>>3)) >> (p & 7)
		start[j], deg[j] = dirPair(x, uint32(lin>>dirGroupShift), wo, mo, dmin, md) // lin>>6 is h[0] + dirLine(j, span)
		p, lin = p+uint64(wo+wd), lin+uint64(span)
	}
	if last == j1 {
		start[j1] = h[4]
	}
	adj, nv64 := s.Adj, uint64(nv)
	ap := unsafe.Pointer(unsafe.SliceData(adj))
	if span >= touchSpan {
		touchHeads(adj, start[j0:j1])
	}
	vb := s.Lo + base
	// j1 <= DirGroup made known to the compiler, x0 and x1 checked for nil here: no
	// check of either at each use below
	j1, _, _ = min(j1, DirGroup), x0[0], x1[0]
	for j := j0; j < j1; j++ {
		v, d := vb+j, deg[j]
		if d == 0 {
			x0[j], x1[j] = v, v
			empty |= 1 << j
			continue
		}
		if a := start[j]; d < PackedMin && uint64(a)+8 <= uint64(len(adj)) {
			// a block of varints shorter than the mode bit's (most lists of roads and
			// meshes, half of social graphs'): both values from one word (inside ADJ,
			// as just checked: loaded without a check of its own), their lengths from
			// its clear high bits, without a branch on them
			w := loadWord(unsafe.Add(ap, a))
			// two one-byte values (most of roads'), in a list of d bytes, or more for
			// d = 3: a list of one or two, read whole, ends at its last value
			if w&0x8080 == 0 && (start[j+1]-a == d || d == 3 && start[j+1]-a > d) {
				f, sum := int64(v)+Unzigzag(w&0xff), uint64(v) // a list of one: v again
				if d > 1 {
					sum = uint64(f) + w>>8&0xff
				}
				if uint64(f) < nv64 && sum < nv64 { // and so f >= 0
					x0[j], x1[j] = uint32(f), uint32(sum)
					continue
				}
			}
			if w&0x80 == 0 && d == 1 && start[j+1] == a+1 { // one one-byte value: a web graph's fifth
				if f := int64(v) + Unzigzag(w&0x7f); uint64(f) < nv64 {
					x0[j], x1[j] = uint32(f), v
					continue
				}
			}
			m := ^w & 0x8080808080808080
			k1, k12 := uint32(bits.TrailingZeros64(m)>>3+1), uint32(bits.TrailingZeros64(m&(m-1))>>3+1)
			// e: the bytes the two values may take, the list's within the word (k12 is
			// 9 where the word holds no second value's end)
			// (a list of one or two ends at its last value: k1 == e is k1 == the list's
			// length, as k1 <= 5)
			if e := min(start[j+1]-a, 8); k1 <= 5 && k1 <= e {
				f := int64(v) + Unzigzag(gather5(w)&(1<<(7*k1)-1))
				sum, ok := uint64(v), uint64(f) < nv64 // a list of one: v again
				if d > 1 {
					k2 := k12 - k1
					g := gather5(w>>(8*k1)) & (1<<(7*k2) - 1)
					sum, ok = uint64(f)+g, ok && k2 <= 5 && k12 <= e && g < nv64 && (d > 2 || k12 == start[j+1]-a)
				} else {
					ok = ok && k1 == e
				}
				if ok && sum < nv64 {
					x0[j], x1[j] = uint32(f), uint32(sum)
					continue
				}
			}
		}
		if first && d >= PackedMin {
			// the first value alone (the mode bit's varint), from the word at the
			// first block where it lies inside the mapping, as Head reads it (Head
			// decides where it does not, on the same bytes)
			once |= 1 << j
			// FirstBlock(d), for d >= 1 without its branch
			if a := uint64(start[j]) + uint64(4*((d-1)/BlockSize)); a+8 <= uint64(cap(adj)) {
				u, k := wordUvarint(loadWord(unsafe.Add(ap, a)))
				f := int64(v) + Unzigzag(u>>1)
				if k <= 5 && a+uint64(k) <= uint64(start[j+1]) && uint64(f) < nv64 {
					x0[j], x1[j] = uint32(f), v
					continue
				}
			}
		} else if a, b, ok := headWord(adj[start[j]:start[j+1]], v, d, nv64); ok {
			x0[j], x1[j] = a, b
			continue
		}
		a, b, n, ok := Head(adj[start[j]:start[j+1]], v, d, nv)
		if !ok {
			return once &^ (1 << j), empty, int(j)
		} else if n == 1 || once>>j&1 != 0 {
			b = v
		}
		x0[j], x1[j] = a, b
	}
	return once, empty, -1
}

// loadWord is the little-endian word at p, whose 8 bytes the caller has checked to
// lie inside a mapping: one load, without the check that unsafe.Slice makes of its
// address range.
func loadWord(p unsafe.Pointer) uint64 { return binary.LittleEndian.Uint64((*[8]byte)(p)[:]) }

// HeadSecond is the second neighbour of the shard's i-th vertex, of degree 2 or more,
// as Head reads it; ok is false where Head refuses the list. It decodes the vertex's
// directory pair alone: for the few lists whose first neighbour HeadGroup gave alone
// (once) and whose second a caller still needs.
func (s *Shard) HeadSecond(i, nv uint32) (x1 uint32, ok bool) {
	d, list := s.ListAt(i)
	v := s.Lo + i
	if _, b, ok := headWord(list, v, d, uint64(nv)); ok {
		return b, true
	}
	_, b, n, ok := Head(list, v, d, nv)
	return b, ok && n == 2
}

// touchHeads loads the first byte of the lists at the offsets in start together, before
// HeadGroup's decode needs them, where a group's lists average a cache line or more
// (random and Kronecker graphs): each list's head is then a new line and often a new
// page, and the decode of one list is too long for the processor to run ahead into the
// next lists' loads by itself. Shorter lists share lines that the loads in order find.
// A function of its own, so that HeadGroup's loop keeps its registers.
//
//go:noinline
func touchHeads(adj []byte, start []uint32) {
	var t byte
	if n := uint32(len(adj)); n > 0 {
		for _, a := range start {
			t += adj[min(a, n-1)]
		}
	}
	runtime.KeepAlive(t) // the loads are the point: keep them
}

// touchSpan is the bytes of a group's lists from which HeadGroup loads their heads
// ahead (touchHeads): a cache line a list. Tests set it to 0 to exercise the loads.
var touchSpan uint32 = DirGroup * 64

// headWord is Head's common cases, decoded from one 64-bit load at the list's first
// block; ok is false when the case is another or the word does not hold the values
// (Head then decides, on the same bytes).
func headWord(list []byte, v, d uint32, nv uint64) (x0, x1 uint32, ok bool) {
	q := FirstBlock(d)
	if q+8 > cap(list) {
		return 0, 0, false
	}
	w := loadWord(unsafe.Add(unsafe.Pointer(unsafe.SliceData(list)), q)) // inside cap, as just checked
	u, k := wordUvarint(w)
	c := min(d, BlockSize)
	if k > 5 || q+k > len(list) {
		return 0, 0, false
	}
	f, packed, ok := blockFirst(u, v, c, nv)
	if !ok {
		return 0, 0, false
	}
	if c == 1 {
		return uint32(f), v, k == len(list) // a list of one ends at its value (q is 0)
	}
	r := w >> (8 * uint(k) & 63) // the bytes after the first value (k <= 5)
	var g uint64
	switch hdr := byte(r); {
	case !packed: // the gap, a varint
		var k2 int
		g, k2 = wordUvarint(r)
		if k2 > 5 || k+k2 >= 8 || q+k+k2 > len(list) || d == 2 && k+k2 != len(list) {
			return 0, 0, false // a list of two ends at its second value
		}
	case hdr == hdrMirror: // the lower half's first gap, a varint
		var k2 int
		g, k2 = wordUvarint(r >> 8)
		if k2 > 5 || k+1+k2 >= 8 || q+k+1+k2 > len(list) {
			return 0, 0, false
		}
	case hdr&(hdrCompact|hdrExceptions) == hdrCompact: // 1 plus the first W bits
		wb := int(hdr & hdrWidth)
		if wb > 32 || k+1+(wb+7)/8 > 8 || q+k+1+(int(c-1)*wb+7)/8 > len(list) {
			return 0, 0, false
		}
		g = 1 + r>>8&(1<<wb-1)
	case hdr&(hdrCompact|hdrExceptions) == hdrCompact|hdrExceptions && q+k+1+compactMaxBytes+8 <= cap(list):
		// a compact block with exceptions whose stream leaves room for 8-byte loads
		// anywhere in it: gap 0's low bits, and its high part when the first
		// exception names gap 0 (compactGap0's reading and checks, without its calls)
		wb, n, s := uint(hdr&hdrWidth), uint(c-1), q+k+1
		ebit := n * wb
		if wb > 32 || s+int(ebit+excHeader+7)/8 > len(list) {
			return 0, 0, false
		}
		// the stream's loads lie inside the compactMaxBytes+8 bytes after s that the
		// case checked: unchecked each
		b := unsafe.Add(unsafe.Pointer(unsafe.SliceData(list)), s)
		hd := loadWord(unsafe.Add(b, ebit>>3)) >> (ebit & 7)
		ne := uint(hd & (1<<excCountBits - 1))
		wi := uint(hd>>excCountBits) & (1<<excStepBits - 1)
		wh := uint(hd>>(excCountBits+excStepBits))&(1<<excHighBits-1) + 1
		ebit += excHeader
		if ne == 0 || ne > n || s+int(ebit+wi+wh+7)/8 > len(list) {
			return 0, 0, false
		}
		g = loadWord(b) & (1<<wb - 1)
		if e := loadWord(unsafe.Add(b, ebit>>3)) >> (ebit & 7); e&(1<<wi-1) == 0 {
			hi := e >> wi & (1<<wh - 1)
			if hi >= nv {
				return 0, 0, false
			}
			if g |= hi << wb; g >= nv {
				return 0, 0, false
			}
		}
		g++
	default: // a packed block, or one near the mapping's end: Head's way from here
		var ok bool
		if g, ok = packedGap0(list, q+k, c, uint32(nv)); !ok {
			return 0, 0, false
		}
	}
	if sum := uint64(f) + g; g < nv && sum < nv {
		return uint32(f), uint32(sum), true
	}
	return 0, 0, false
}

// wordUvarint decodes the LEB128 value at the low bytes of w (FastUvarint's gather) and
// its length in bytes k; a value longer than w's eight bytes gives k = 9. x is the value
// only for k <= 5, the longest FastUvarint reads: callers refuse the others.
func wordUvarint(w uint64) (x uint64, k int) {
	if w&0x80 == 0 { // one byte: most values of graphs with locality
		return w & 0x7f, 1
	}
	if w&0x8000 == 0 { // two: a mesh's first neighbour, a row away
		return w&0x7f | w>>1&(0x7f<<7), 2
	}
	k = bits.TrailingZeros64(^w&0x8080808080808080)>>3 + 1
	x = w&0x7f | w>>1&(0x7f<<7) | w>>2&(0x7f<<14) | w>>3&(0x7f<<21) | w>>4&(0x7f<<28)
	return x & (1<<(7*k) - 1), k
}

// gather5 packs the 7-bit groups of w's low five bytes (a varint's value bits, before
// masking to its length).
func gather5(w uint64) uint64 {
	return w&0x7f | w>>1&(0x7f<<7) | w>>2&(0x7f<<14) | w>>3&(0x7f<<21) | w>>4&(0x7f<<28)
}

// headGroupWide is HeadGroup for a group whose directory fields need a load each,
// without its first mode.
func (s *Shard) headGroupWide(base, j0, j1, nv uint32, x0, x1 *[DirGroup]uint32) (empty uint64, bad int) {
	for j := j0; j < j1; j++ {
		v := s.Lo + base + j
		x0[j], x1[j] = v, v
		d, list := s.ListAt(base + j)
		if d == 0 {
			empty |= 1 << j
			continue
		}
		a, b, n, ok := Head(list, v, d, nv)
		if !ok {
			return empty, int(j)
		}
		if n == 2 {
			x1[j] = b
		}
		x0[j] = a
	}
	return empty, -1
}
