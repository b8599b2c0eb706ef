package store

import "math/bits"

// firstArgs is scanFirstAVX2's input and output: a directory group's fields, which
// the assembly broadcasts to its lanes, and the results (its offsets are fixed in
// store/scanfirst_amd64.s: keep them).
type firstArgs struct {
	ww, mo, md, dmin uint64 // pair width, start mask, degree mask, smallest degree
	span, h0, h4     uint64 // the group's bytes, its first list's and the next's start
	cnt, v0, nvm1    uint64 // vertices in the group, its first vertex, (nv-1) ^ 2^63
	alen, acap8      uint64 // len(adj), cap(adj) - 8 (signed)
	todo             uint64
	pairs            *[dirArea]byte
	adj              *byte // the ADJ mapping's first byte (nil when it has none)
	front            *uint64
	wo, wws          uint64            // the shifts to a pair's degree and to the next pair
	found            uint64            // out: first neighbour in the frontier (its parent in parent)
	empty            uint64            // out: degree 0
	miss             uint64            // out: read whole (degree 1 to 3), no neighbour in the frontier
	degs             uint64            // out: the found vertices' degrees, summed
	parent           *[DirGroup]uint32 // out
	more             uint64            // out: the first neighbour not in the frontier, more to scan
	lanes            *vecLanes         // out: what the lanes of more read
	ptab             *[2]pairTab       // the pairs' shuffles for ww, nil where they gather
	steps            uint64            // bit 4i: take step i (lanes 4i to 4i+3)
	two              uint64            // out: the found and missed ones read past their first value
	three            uint64            // out: those of two read to their third
}

// pairTab places the pairs of a step's 4 vertices, from a 16-byte load at the byte of
// the first one's first bit, in 64-bit lanes: the VPSHUFB control that gives lane i the
// 8 bytes from its pair's first byte, and the shift from there to its first bit. A
// group whose pair width ww is at most pairTabMax has two: the first pair of a step of 4
// starts at bit 0 or 4 of its byte.
type pairTab struct {
	ctl [32]byte
	sh  [4]uint64
}

// pairTabMax is the widest pair whose 4 of a step lie in 16 bytes with 8 to read from
// each: (3*ww+4)/8 + 8 <= 16.
const pairTabMax = 22

var pairTabs = func() (t [pairTabMax + 1][2]pairTab) {
	for ww := range t {
		for ph := range 2 {
			e := &t[ww][ph]
			for i := range 4 {
				bit := i*ww + 4*ph
				for k := range 8 {
					e.ctl[8*i+k] = byte(bit>>3 + k)
				}
				e.sh[i] = uint64(bit & 7)
			}
		}
	}
	return t
}()

// vecLanes is what scanFirstAVX2 read of each vertex's list, for scanRest.
type vecLanes struct {
	start, end, deg [DirGroup]uint32 // the list's bounds in ADJ and its degree
	pk              [DirGroup]uint32 // the end of its first value in ADJ
	w               [DirGroup]uint64 // the 8 bytes at its first block's start
}

// sparseSteps is the most vertices to look at in a group for which scanFirstAVX2 takes
// only the steps of 4 with one among them.
const sparseSteps = 24

// vecScanMin is the fewest vertices to look at in a group for ScanGroup to take their
// first neighbours in vectors: below it the skipped steps of 4 would cost more.
const vecScanMin = 8

// scanFirstVec runs scanFirstAVX2 on group g's vertices of todo (ScanGroup's values for
// the group; 2*wo+wd <= 57, nv > 0) and returns the vertices found, empty, missed for
// good (lists read whole: degree 1, or 2 or 3 whose later values end inside the word
// read at the first) and missed with more to scan (r.lanes says what was read of them);
// the others of todo are left to ScanGroup's loop. two names those of found and miss
// that checked two neighbours or more, and three those of two that checked three (the
// others of found and miss checked one). r.Parent holds the found vertices' parents
// and the first neighbours of those of more.
func (s *Shard) scanFirstVec(pairs *[dirArea]byte, todo uint64, wo, wd, mo, md, dmin, span, h0, h4, cnt, v0, nv uint32, front []uint64, r *GroupScan) (found, empty, miss, more, two, three, degs uint64) {
	a := firstArgs{
		ww: uint64(wo + wd), mo: uint64(mo), md: uint64(md), dmin: uint64(dmin),
		span: uint64(span), h0: uint64(h0), h4: uint64(h4), cnt: uint64(cnt), v0: uint64(v0),
		nvm1: uint64(nv-1) ^ 1<<63, alen: uint64(len(s.Adj)), acap8: uint64(int64(cap(s.Adj)) - 8),
		todo: todo, pairs: pairs, front: &front[0],
		wo: uint64(wo), wws: uint64(wo + wd), parent: &r.Parent, lanes: &r.lanes,
	}
	if cap(s.Adj) > 0 {
		a.adj = &s.Adj[:1][0]
	}
	if wo+wd <= pairTabMax {
		a.ptab = &pairTabs[wo+wd]
	}
	a.steps = 0x1111111111111111
	if bits.OnesCount64(todo) < sparseSteps {
		x := todo | todo>>1
		a.steps &= x | x>>2
	}
	scanFirstAVX2(&a)
	return a.found, a.empty, a.miss, a.more, a.two, a.three, a.degs
}
