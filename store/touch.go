package store

import (
	"encoding/binary"
	"math/bits"
)

// headOffsets puts in offs the ADJ offset of the first value of the list of each
// vertex of directory group g that todo names (vertices without neighbours and offsets
// past ADJ skipped) and returns how many it put: PrefetchHeads asks for those bytes. r
// is a GroupScan whose copy of the pairs of a group at the directory's end it fills.
// Groups whose directory ScanGroup reads field by field (scanGroupWide) give none.
func (s *Shard) headOffsets(g uint32, todo uint64, r *GroupScan, offs *[DirGroup]uint32) (n int) {
	_, todo, h, wo, wd, packed := s.groupHeader(g, todo)
	if !packed {
		return 0
	}
	pairs := s.groupPairs(h[1], r)
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
			offs[n&(DirGroup-1)] = uint32(q)
			n++
		}
	}
	return n
}
