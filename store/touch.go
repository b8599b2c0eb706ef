package store

import (
	"encoding/binary"
	"math/bits"
)

// TouchGroup loads the byte where the list of each vertex of directory group g that
// todo names has its first value (vertices without neighbours skipped), and returns
// their sum so that the loads are kept. It is a prefetch for ScanGroup on a group whose
// lists lie far apart: ScanGroup's loop waits on each list's first word in turn (the
// branch on whether that neighbour is in the frontier follows the load and is a coin
// toss), while this loop has no branch on what it loads, so the processor has all of
// the group's misses in flight at once. r is ScanGroup's, whose copy of the pairs of a
// group at the directory's end it fills. Groups whose directory ScanGroup reads field
// by field (scanGroupWide) are left alone.
func (s *Shard) TouchGroup(g uint32, todo uint64, r *GroupScan) (sum byte) {
	base := g << dirGroupShift
	cnt := min(DirGroup, s.N-base)
	if cnt < DirGroup {
		todo &= 1<<cnt - 1
	}
	h := s.dirH[g*4:][:8]
	wo, wd := h[3]>>16&0xff, h[3]>>24
	if 2*wo+wd > 57 {
		return 0
	}
	pairs := s.groupPairs(h[1], r)
	wo, wd = wo&63, wd&63
	ww := (wo + wd) & 63
	span, dmin, h0 := h[4]-h[0], h[3]>>8&0xff, h[0]
	mo, md := uint32(1)<<wo-1, uint32(1)<<wd-1
	adj := s.Adj
	for t := todo; t != 0; t &= t - 1 {
		j := uint32(bits.TrailingZeros64(t))
		p := j * ww
		x := binary.LittleEndian.Uint64(pairs[p>>3&dirAreaMask:]) >> (p & 7)
		a, d := dirPair(x, h0+dirLine(j, span), wo, mo, dmin, md)
		q := uint64(a) + uint64(FirstBlock(d))
		if d != 0 && q < uint64(len(adj)) {
			sum += adj[q]
		}
	}
	return sum
}
