package store

// moreArgs is scanMoreAVX2's input and output (its offsets are fixed in
// store/scancompact_amd64.s: keep them).
type moreArgs struct {
	adj    *byte   // the ADJ mapping's first byte (nil when it has none)
	acap   uint64  // cap(adj)
	front  *uint64 // the frontier, nv bits
	nv     uint64
	todo   uint64            // the lists to scan on past their first neighbour
	lanes  *vecLanes         // what scanFirstAVX2 read of them
	parent *[DirGroup]uint32 // in: their first neighbours; out: the found ones' parents
	found  uint64            // out: a neighbour in the frontier
	miss   uint64            // out: a list of one block, no neighbour in the frontier
	cont   uint64            // out: a first block of none: its end in lanes.pk
	degs   uint64            // out: the found lists' degrees, summed
	extra  uint64            // out: neighbours checked past the first (found and miss)
}

// scanMoreVec runs scanMoreAVX2 on the lists of more (ScanGroup's, with scanFirstVec's
// lanes in r; front holds nv bits): it scans on those whose first block is compact, 8
// neighbours a step, and those of one block of varints, and returns them in found,
// miss and cont as moreArgs says.
func scanMoreVec(adj []byte, front []uint64, nv uint32, more uint64, r *GroupScan) (m moreArgs) {
	m = moreArgs{acap: uint64(cap(adj)), front: &front[0], nv: uint64(nv), todo: more, lanes: &r.lanes, parent: &r.Parent}
	if cap(adj) > 0 {
		m.adj = &adj[:1][0]
	}
	scanMoreAVX2(&m)
	return m
}
