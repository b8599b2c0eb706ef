package store

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// GroupScan is what ScanGroup found in one directory group; bit j of a mask is the
// group's vertex j.
type GroupScan struct {
	Found   uint64 // vertices with a neighbour in the bitmap; the first one is Parent[j]
	Empty   uint64 // vertices without neighbours
	Checked uint64 // neighbours checked, summed over the vertices scanned
	Degrees uint64 // the Found vertices' degrees, summed
	Parent  [DirGroup]uint32
	pairs   [dirArea]byte // a copy of a group's pairs near the end of the directory
	lanes   vecLanes      // what the vector step read of the lists it did not finish
}

// ScanGroup is ScanList for the vertices of directory group g that todo names (bit j:
// the shard's vertex 64g+j; bits at or past N are ignored) against the bitmap front of
// at least nv bits. It fills r for them; bad is the j of the first vertex whose list
// ScanList calls Malformed, or whose directory pair puts it outside ADJ, and -1 when
// there is none. r's masks, parents and degree sum then describe the vertices before bad
// only, and its Checked is not kept (a caller stops at a refused list).
//
// A bottom-up BFS level asks this of every group with unvisited vertices, and most
// lists meet the frontier at their first neighbour: the cost per list is the cost of
// the level. ScanGroup reads the group's header once, a vertex's directory pair with
// one 64-bit load, and the first value of its list with another, and tests that
// neighbour without a call. A list whose first neighbour is not in the bitmap (or
// whose first bytes do not load as a word) goes on through ScanList.
//
// Where the processor has AVX2 and the group has at least vecScanMin vertices to look
// at, the first neighbours are read and tested 4 vertices a step without a branch
// (scanFirstVec), and the loop takes only the vertices that step leaves: those that
// missed with more neighbours to scan, and those whose list it could not read; lists of
// two or three neighbours whose later values end inside the word of the first are
// read on in that step (a social graph's unvisited tail holds many). Of those that
// missed, the lists whose first block is compact go on on the vector unit too
// (scanMoreVec: 8 neighbours made and tested a step, where a list that misses its first
// neighbour in a random graph reads 4 more on average and one in a social graph's
// unvisited tail 20 or more), and in the same call the lists of one block of varints,
// a gap a step without a branch on its length.
func (s *Shard) ScanGroup(g uint32, todo uint64, nv uint32, front []uint64, r *GroupScan) (bad int) {
	bad = s.scanGroup(g, todo, nv, front, r, haveVec)
	if bad >= 0 && haveVec {
		// the vector step read the vertices past the refused one too: again without it,
		// so that r describes the vertices before bad only
		bad = s.scanGroup(g, todo, nv, front, r, false)
	}
	return bad
}

// scanGroup is ScanGroup, with the vector step when vec allows it.
func (s *Shard) scanGroup(g uint32, todo uint64, nv uint32, front []uint64, r *GroupScan, vec bool) (bad int) {
	base := g << dirGroupShift
	cnt, todo, h, wo, wd, packed := s.groupHeader(g, todo)
	if !packed {
		return s.scanGroupWide(base, todo, nv, front, r)
	}
	pairs := s.groupPairs(h[1], r)
	ww := (wo + wd) & 63
	span, dmin, h0 := h[4]-h[0], h[3]>>8&0xff, h[0]
	mo, md := uint32(1)<<wo-1, uint32(1)<<wd-1
	adj, nv64 := s.Adj, uint64(nv)
	var found, empty, extra, degs uint64
	loop := todo
	bad = -1
	// the step reads front's word of any first neighbour below nv: only where front
	// holds nv bits, as the contract says it does (a shorter one panics in the loop)
	if vec && bits.OnesCount64(todo) >= vecScanMin && nv > 0 && uint64(len(front))*64 >= uint64(nv) {
		var miss, more, two, three uint64
		found, empty, miss, more, two, three, degs = s.scanFirstVec(pairs, todo, wo, wd, mo, md, dmin, span, h0, h[4], cnt, s.Lo+base, nv, front, r)
		loop = todo &^ (found | empty | miss | more)
		extra = uint64(bits.OnesCount64(two) + bits.OnesCount64(three))
		l := &r.lanes
		var cont uint64
		if more != 0 && haveShiftX {
			// the lists whose first block is compact, on the vector unit (its exceptions
			// read by BMI2's shifts)
			m := scanMoreVec(adj, front, nv, more, r)
			found |= m.found
			degs += m.degs
			extra += m.extra
			more &^= m.found | m.miss
			cont = m.cont
		}
		// the lists the vector unit left, scanned on from what the steps read: those of
		// more blocks whose compact first holds no neighbour in front from its end (cont),
		// the others past their first neighbour
		for t := more; t != 0; t &= t - 1 {
			j := uint32(bits.TrailingZeros64(t))
			start, end, d, pk := l.start[j], l.end[j], l.deg[j], l.pk[j]
			var x, c uint32
			var st int
			if cont&(1<<j) != 0 {
				x, c, st = scanBlocks(adj[start:end], int(pk-start), s.Lo+base+j, d, 1, BlockSize, nv, front)
			} else {
				q := start + uint32(FirstBlock(d))
				x, c, st = scanRest(adj[start:end], int(pk-start), s.Lo+base+j, d, uint64(r.Parent[j]), l.w[j], int(pk-q), nv, front)
			}
			extra += uint64(c) - 1
			if st == Found {
				found |= 1 << j
				r.Parent[j] = x
				degs += uint64(d)
			} else if st == Malformed {
				bad = int(j)
				break
			}
		}
	}
	for t := loop; t != 0 && bad < 0; t &= t - 1 {
		j := uint32(bits.TrailingZeros64(t))
		p := j * ww // the pair's first bit from the group's first byte: below 64*57
		x := binary.LittleEndian.Uint64(pairs[p>>3&dirAreaMask:]) >> (p & 7)
		start, d := dirPair(x, h0+dirLine(j, span), wo, mo, dmin, md)
		if d == 0 {
			empty |= 1 << j
			continue
		}
		end := h[4]
		if j+1 < cnt {
			end, _ = dirPair(x>>ww, h0+dirLine(j+1, span), 0, mo, 0, 0)
		}
		v := s.Lo + base + j
		var nb, c uint32
		st := -1 // not scanned yet
		// the list's first value from one load: LEB128 gathered without a branch
		if q := uint64(start) + uint64(FirstBlock(d)); q+8 <= uint64(cap(adj)) && start <= end && uint64(end) <= uint64(len(adj)) {
			w := binary.LittleEndian.Uint64(adj[q : q+8 : q+8])
			k := uint64(bits.TrailingZeros64(^w&0x8080808080808080)>>3 + 1)
			u := w&0x7f | w>>1&(0x7f<<7) | w>>2&(0x7f<<14) | w>>3&(0x7f<<21) | w>>4&(0x7f<<28)
			u &= 1<<(7*k&63) - 1
			if d >= PackedMin {
				u >>= 1
			}
			// (a list of one, read whole, ends at its value; else ScanList refuses it)
			if f := int64(v) + Unzigzag(u); k <= 5 && q+k <= uint64(end) && uint64(f) < nv64 && (d > 1 || q+k == uint64(end)) {
				if front[f>>6]&(1<<(f&63)) != 0 {
					found |= 1 << j
					r.Parent[j] = uint32(f)
					degs += uint64(d)
					continue
				}
				if d == 1 {
					continue
				}
				nb, c, st = scanRest(adj[start:end], int(q+k-uint64(start)), v, d, uint64(f), w, int(k), nv, front)
			}
		}
		if st < 0 {
			if start > end || uint64(end) > uint64(len(adj)) {
				bad = int(j)
				break
			}
			nb, c, st = ScanList(adj[start:end], v, d, nv, front)
		}
		extra += uint64(c) - 1
		if st == Found {
			found |= 1 << j
			r.Parent[j] = nb
			degs += uint64(d)
		} else if st == Malformed {
			bad = int(j)
			break
		}
	}
	// every list scanned checked its first neighbour, and extra counts the others
	scanned := todo
	if bad >= 0 {
		scanned &= 1<<uint(bad) - 1
	}
	r.Found, r.Empty, r.Degrees = found, empty, degs
	r.Checked = uint64(bits.OnesCount64(scanned&^empty)) + extra
	return bad
}

// groupHeader reads directory group g's header h (with the next group's first words:
// h[4] is where its pairs' lines end): its vertex count cnt, todo without the bits at
// or past cnt, and the widths wo and wd of its pairs' offset and degree fields (below
// 64: the masks only tell the compiler so). packed says a pair loads in one 64-bit
// word; groups where it does not are read field by field (scanGroupWide).
func (s *Shard) groupHeader(g uint32, todo uint64) (cnt uint32, _ uint64, h []uint32, wo, wd uint32, packed bool) {
	cnt = min(DirGroup, s.N-g<<dirGroupShift)
	if cnt < DirGroup {
		todo &= 1<<cnt - 1
	}
	h = s.dirH[g*4:][:8]
	wo, wd = h[3]>>16&0xff, h[3]>>24
	return cnt, todo, h, wo & 63, wd & 63, 2*wo+wd <= 57
}

// dirArea is the bytes ScanGroup reads a group's pairs from: 64 pairs of at most 57
// bits end within 456 bytes of the group's first, and a load at the last pair's first
// byte reads 8; an index masked with dirAreaMask stays 8 bytes inside it.
const (
	dirArea     = 520
	dirAreaMask = 511
)

// groupPairs returns the packed pairs of the group whose first word is word as a
// fixed-size array, so that the loads of its pairs need no bounds check: in place where
// the packed area runs on far enough, else (the last groups of a shard) a zero-padded
// copy in r.
func (s *Shard) groupPairs(word uint32, r *GroupScan) *[dirArea]byte {
	b := s.dirB[uint64(word)*8:]
	if len(b) >= dirArea {
		return (*[dirArea]byte)(b[:dirArea])
	}
	r.pairs = [dirArea]byte{}
	copy(r.pairs[:], b)
	return &r.pairs
}

// scanGroupWide is ScanGroup for a group whose directory fields need a load each.
func (s *Shard) scanGroupWide(base uint32, todo uint64, nv uint32, front []uint64, r *GroupScan) int {
	var found, empty, checked, degs uint64
	for t := todo; t != 0; t &= t - 1 {
		j := uint32(bits.TrailingZeros64(t))
		d, a, b := s.dirEntry(base + j)
		if d == 0 {
			empty |= 1 << j
			continue
		}
		st := Malformed
		if a <= b && b <= uint32(len(s.Adj)) {
			var u, c uint32
			u, c, st = ScanList(s.Adj[a:b], s.Lo+base+j, d, nv, front)
			checked += uint64(c)
			if st == Found {
				found |= 1 << j
				r.Parent[j] = u
				degs += uint64(d)
			}
		}
		if st == Malformed {
			r.Found, r.Empty, r.Checked, r.Degrees = found, empty, checked, degs
			return int(j)
		}
	}
	r.Found, r.Empty, r.Checked, r.Degrees = found, empty, checked, degs
	return -1
}

// secondLen is the length of the LEB128 value that starts at byte k of w, where it ends
// inside w in at most 5 bytes (what scanVarints decodes inline); 0 where not (k >= 8
// too: w is then all shifted out).
func secondLen(w uint64, k int) int {
	n := bits.TrailingZeros64(^w>>(8*k)&0x8080808080808080)>>3 + 1 // 9 where no end byte follows
	if n > 5 {
		return 0
	}
	return n
}

// scanRest is ScanList on v's list (degree d > 1) past its first neighbour f, which
// ScanGroup read from the word w at the first block's start (k bytes) and found not in
// front; p is the position after it. A block of varints whose second value is in w
// (up to 5 bytes) checks it inline; a packed block goes straight to its coding's scan.
func scanRest(list []byte, p int, v, d uint32, f, w uint64, k int, nv uint32, front []uint64) (x, checked uint32, status int) {
	c := min(d, BlockSize)
	var next int
	if c >= PackedMin && w&1 != 0 { // the mode bit: packed
		if p >= len(list) {
			return 0, 1, Malformed
		}
		if h := list[p]; h != hdrMirror && h&(hdrCompact|hdrExceptions) == hdrCompact|hdrExceptions && h&hdrWidth <= 32 {
			x, checked, next, status = scanCompact(list, p, f, c, nv, front)
		} else {
			x, checked, next, status = scanPacked(list, p, v, f, c, nv, front)
		}
	} else if haveBMI && uint64(len(front))*64 >= uint64(nv) {
		// a block of varints read on by one call, its values' lengths without a branch
		// (the assembly reads front unchecked: only where it holds nv bits)
		cur, k, q, st := scanVarintsBMI(unsafe.SliceData(list), p, len(list), cap(list), f, int(c)-1, uint64(nv), unsafe.SliceData(front))
		switch st {
		case Found:
			return uint32(cur), uint32(k) + 1, Found
		case Malformed:
			return 0, uint32(k), Malformed
		case NotFound:
			checked, next, status = c, q, NotFound
		default: // a varint left to FastUvarint
			x, checked, next, status = scanVarintBlock(list, q, cur, c, uint32(k)+1, nv, front)
		}
	} else if k2 := secondLen(w, k); k2 > 0 && k2 <= len(list)-p { // a second value of up to 5 bytes in w
		u := w >> (8 * k)
		u = u&0x7f | u>>1&(0x7f<<7) | u>>2&(0x7f<<14) | u>>3&(0x7f<<21) | u>>4&(0x7f<<28)
		cur := f + u&(1<<(7*k2)-1)
		if cur >= uint64(nv) {
			return 0, 1, Malformed
		}
		if front[cur>>6]&(1<<(cur&63)) != 0 {
			return uint32(cur), 2, Found
		}
		x, checked, next, status = 0, 2, p+k2, NotFound
		if c > 2 {
			x, checked, next, status = scanVarintBlock(list, p+k2, cur, c, 2, nv, front)
		}
	} else {
		x, checked, next, status = scanVarintBlock(list, p, f, c, 1, nv, front)
	}
	if status == NotFound && d > c {
		return scanBlocks(list, next, v, d, 1, checked, nv, front)
	}
	if status == NotFound && next != len(list) { // read to its end, it ends there
		return 0, checked, Malformed
	}
	return x, checked, status
}
