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
