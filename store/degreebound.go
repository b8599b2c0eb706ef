package store

// MaxDegreeBound is an upper bound on the degree of the shard's vertices, read from its
// directory's group headers alone (FORMAT.md, "DIRECTORY": a group's degrees are its
// dmin plus wd-bit values): N/DirGroup loads, for kernels that need to know when a sum of
// degrees cannot pass a threshold without reading the degrees. A width beyond 32 bits
// (corrupt, refused by Check) gives 2^32.
func (s *Shard) MaxDegreeBound() uint64 {
	var m uint64
	for g := range dirGroups(s.N) {
		w := s.dirH[4*g+3]
		wd := uint64(w >> 24)
		if wd > maxDirWidth {
			return 1 << 32
		}
		m = max(m, uint64(w>>8&0xff)+1<<wd-1)
	}
	return m
}

// DegreeAboveBound is an upper bound on how many of the shard's vertices have a degree
// above d, read from its directory's group headers alone as MaxDegreeBound: every vertex
// of a group whose degrees may exceed d counts.
func (s *Shard) DegreeAboveBound(d uint64) uint64 {
	var c uint64
	for g := range dirGroups(s.N) {
		w := s.dirH[4*g+3]
		wd := uint64(w >> 24)
		if wd > maxDirWidth || uint64(w>>8&0xff)+1<<wd-1 > d {
			c += min(DirGroup, uint64(s.N)-g*DirGroup)
		}
	}
	return c
}

// GroupEmpty reports whether no vertex of directory group g of the shard has a
// neighbour, from the group's header alone (smallest degree 0, degree width 0): sweeps
// over graphs whose isolated vertices are numbered together (degree order puts them
// last) skip such a group whole.
func (s *Shard) GroupEmpty(g uint32) bool {
	w := s.dirH[4*g+3]
	return w>>8&0xff == 0 && w>>24 == 0
}
