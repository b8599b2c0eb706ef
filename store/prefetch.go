package store

// PrefetchGroup asks the processor to bring the ADJ bytes of directory group g's lists
// into its caches, a hint that loads nothing into registers and never faults: a sweep
// over the groups in order (the first level of a run of bottom-up levels) asks for a
// group a few ahead of the one it scans, so that those lists' first words and blocks
// are on their way before the scan's gathers wait on them.
func (s *Shard) PrefetchGroup(g uint32) {
	if !havePrefetch || uint64(g)*4+4 >= uint64(len(s.dirH)) {
		return
	}
	a, b := s.dirH[4*g], s.dirH[4*g+4]
	if a < b && uint64(b) <= uint64(len(s.Adj)) {
		prefetchLines(&s.Adj[a], uintptr(b-a))
	}
}

// PrefetchHeads asks the processor for the byte where the list of each vertex of
// directory group g that todo names has its first value, without waiting for any: a
// later bottom-up level (few unvisited vertices, their lists far apart, so that
// ScanGroup's gathers would wait on each group's heads) asks for the next group's while
// it scans one. r's copy of the pairs of a group at the directory's end is overwritten:
// it must not be the GroupScan of a scan in progress.
func (s *Shard) PrefetchHeads(g uint32, todo uint64, r *GroupScan) {
	if !havePrefetch || len(s.Adj) == 0 || g >= (s.N+DirGroup-1)>>dirGroupShift {
		return
	}
	var offs [DirGroup]uint32
	if n := s.headOffsets(g, todo, r, &offs); n > 0 {
		prefetchAt(&s.Adj[0], &offs[0], n)
	}
}

// PrefetchIndexed asks the processor for the cache line of a[i] for each i of idx,
// without waiting for any: a search that will test the parents of a batch's neighbours
// one list after another asks for all of them first, so that their misses overlap. The
// caller passes indexes below len(a) (a hint outside a never faults, but asks for a
// line of no use).
func PrefetchIndexed(a []uint32, idx []uint32) {
	if !havePrefetch || len(a) == 0 || len(idx) == 0 {
		return
	}
	prefetchIdx4(&a[0], &idx[0], len(idx))
}
