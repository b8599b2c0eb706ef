package store

import "math/bits"

// headArgs is headFirstBMI's input and output: a directory group's fields and the
// results (its offsets are fixed in store/headfirst_amd64.s: keep them).
type headArgs struct {
	ww, mixed, md, dmin uint64 // pair width, in and out: the branch-free loop (mixedNext), degree mask, smallest degree
	span, h0, h4        uint64 // the group's bytes, its first list's and the next's start
	cnt, v0, nv         uint64 // vertices in the group, its first vertex, the graph's
	alim, acap8         uint64 // min(len(adj), cap(adj) - 8) and cap(adj) - 8 (both signed)
	j0, j1              uint64 // the vertices to read: [j0, j1), j1 <= cnt
	pairs               *[dirArea]byte
	adj                 *byte  // the ADJ mapping's first byte (nil when it has none)
	wo                  uint64 // the shift to a pair's degree
	done, empty         uint64 // out: lists finished, degree 0
	once                uint64 // in: a first mode's list's fewest neighbours (2^32 outside it); out: its lists
	// x0 and x1: one [2][DirGroup]uint32's halves (headFirstBMI stores x1 through x0)
	x0, x1 *[DirGroup]uint32
}

// mixedNext is the rule by which headFirstBMI reads the next group in first mode
// through its branch-free loop (headArgs.mixed: nonzero in, this group through it;
// out, the next group's):
// where this group gave between an eighth and three quarters of its lists' first
// neighbours alone (once), a mix of lists of PackedMin or more and shorter ones (a
// social graph's, a Kronecker graph's in input order; groups of one graph look
// alike). Its loop of branches mispredicts such a mix at a third to half of the
// lists where the cases come in no order (soc-Slashdot0902: 41% PackedMin or more,
// 33% one neighbour, 25% two or three; about 0.6 mispredictions a list). The
// branch-free loop reads every list's first value and the gap after it by one
// path: more instructions a list than the branches' common cases, which roads'
// groups (nearly all two one-byte values), meshes' (every list 4 neighbours) and
// dense graphs' (nearly all PackedMin or more) keep. Its assembly computes it;
// this is the rule in Go, for the tests.
func mixedNext(once uint64, n uint32) bool {
	l := uint32(bits.OnesCount64(once))
	return 8*l >= n && 4*l <= 3*n
}

// headGroupBMI is HeadGroup's loops in assembly (headFirstBMI) for a group whose
// directory fields fit a word (wo+wd <= 57), nv > 0. headFirstBMI decodes the group's
// directory pairs and reads each list's first value as HeadGroup's loop does, and
// finishes the lists without neighbours, those of one neighbour, in first mode the
// first mode's lists, the short lists whose two values lie in their first 8 bytes, and
// outside first mode the longer lists whose first block is of varints or compact and
// holds its two values where headWord reads them (within the word, or the compact
// block's first exception): the cases HeadGroup's loop reads without a call, and
// headWord's commonest. Go's register allocator keeps that
// loop's values on the stack (each list's slow paths are calls); the assembly keeps
// them in registers. The loop here takes the lists it leaves as HeadGroup's loop does
// (headWord, then Head), in vertex order, so that bad is the same; the entries of x0
// and x1 from bad on are undefined. It decodes their directory pairs again (dirEntry):
// few lists are left (under one in 200 on the graphs measured), and the pairs the
// assembly decoded stay in its frame, which Go does not clear as it would a lanes
// array of its own at every call.
func (r *HeadReader) headGroupBMI(g, j0, j1 uint32, first bool) (once, empty uint64, bad int) {
	s := r.s
	h := s.dirH[g*4:][:8]
	wo, wd := h[3]>>16&0xff, h[3]>>24
	base := g << dirGroupShift
	p := uint64(h[1])*64 + uint64(j0*(wo+wd))
	last := min(j1+1, DirGroup, s.N-base) // the pairs to decode: j1's for its start
	if (p+uint64(last-j0)*uint64(wo+wd))/8+8 > uint64(len(s.dirB)) {
		return 0, 0, int(j0) // pairs past the section: never in a checked directory
	}
	a := &r.a // the shard's fields set by Reset; the group's here, field by field
	if b := s.dirB[uint64(h[1])*8:]; len(b) >= dirArea {
		a.pairs = (*[dirArea]byte)(b[:dirArea])
	} else { // the last groups of the section: a zero-padded copy
		a.pairs = new([dirArea]byte)
		copy(a.pairs[:], b)
	}
	a.ww, a.md, a.dmin, a.wo = uint64(wo+wd), uint64(1)<<wd-1, uint64(h[3]>>8&0xff), uint64(wo)
	a.span, a.h0, a.h4 = uint64(h[4]-h[0]), uint64(h[0]), uint64(h[4])
	a.cnt, a.v0 = uint64(min(DirGroup, s.N-base)), uint64(s.Lo+base)
	a.j0, a.j1 = uint64(j0), uint64(j1)
	a.once = 1 << 32
	if first {
		a.once = PackedMin
		if mixedAll {
			a.mixed = 1
		}
	} else {
		a.mixed = 0
	}
	headFirstBMI(a)
	adj, nv, x0, x1 := s.Adj, r.nv, r.x0, r.x1 // read after the call: not kept across it
	once, empty = a.once, a.empty
	todo := (^uint64(0) >> ((64 - (j1 - j0)) & 63)) << (j0 & 63) // j0 < j1 <= 64: no count of 64
	vb, nv64 := s.Lo+base, uint64(nv)
	for t := todo &^ a.done; t != 0; t &= t - 1 {
		j := uint32(bits.TrailingZeros64(t))
		d, start, end := s.dirEntry(base + j)
		v := vb + j
		if start > end || uint64(end) > uint64(len(adj)) { // never in a checked directory
			return once & (1<<j - 1), empty & (1<<j - 1), int(j)
		}
		list := adj[start:end]
		if first && d >= PackedMin {
			once |= 1 << j // its first value did not read inline: Head's
		} else if a, b, ok := headWord(list, v, d, nv64); ok {
			x0[j], x1[j] = a, b
			continue
		}
		a, b, n, ok := Head(list, v, d, nv)
		if !ok {
			return once & (1<<j - 1), empty & (1<<j - 1), int(j)
		} else if n == 1 || once>>j&1 != 0 {
			b = v
		}
		x0[j], x1[j] = a, b
	}
	return once, empty, -1
}

// headVecBytes is four times the bytes a list a group's lists may average for
// headFirstBMI to read the group's short lists 8 at a time (vloop; headVec): roads'
// groups average 2 to 3 (nearly every list two one-byte values, the vector pass's
// case), social graphs' and random graphs' tails more (their first neighbours far
// away, values of 3 bytes or more, or a hub among them), where the pass would leave
// most lists to the loop after it. Tests raise it to send every group of short lists
// through the pass.
var headVecBytes uint64 = 14

// mixedAll makes headFirstBMI read every first mode's group through its branch-free
// loop (tests).
var mixedAll bool

// bmiWidth is the narrowest degree field of a group that HeadGroup reads through
// headGroupBMI: 0, every group (roads' and meshes' too, whose short lists' two
// values it reads without a branch on their lengths, and longer lists' 1- or 2-byte
// first values by branches, as Go's loop does). Tests set it to 0 and 64 to exercise
// both.
var bmiWidth uint32

// headVecFirst says whether headFirstBMI reads a first mode's group 8 lists at a time
// (vfloop) where headVec is set and vloop does not take the group. Tests turn it off
// and on.
var headVecFirst = true
