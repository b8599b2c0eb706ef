package store

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"unsafe"
)

// The DIRECTORY section (FORMAT.md, "DIRECTORY") says where each vertex's list starts in
// ADJ and how many neighbours it has, in a few bits a vertex instead of the 64 of a
// degree and an offset array. Vertices go in groups of DirGroup; a group has a 16-byte
// header and, bit-packed at the header's widths, one (start, degree) pair per vertex,
// each coded against what the header predicts:
//
//	section = header[0] ... header[ng-1] header[ng] (the sentinel) | packed words | 0 word
//	header  = uint32 adj   ADJ offset of the group's first list
//	          uint32 word  first 64-bit word of the group's pairs in the packed area
//	          uint32 edge  index of the group's first neighbour, low 32 bits
//	          uint32 w     bits 0-7 the edge index's bits 32-39, 8-15 dmin, 16-23 wo, 24-31 wd
//	pair j  = at bit word*64 + j*(wo+wd): zigzag(start - adj - j*span/64) in wo bits
//	          (32-bit wrapping arithmetic, span = the next group's adj - adj), then
//	          degree - dmin in wd bits
//
// Lists of a group have similar lengths (a road map's, a mesh's, a web crawl's
// neighbourhood), so the starts sit near the straight line from adj to the next
// group's adj and the degrees near the smallest one: a few bits each. The sentinel holds
// the ADJ length, the packed words' count and the shard's neighbour count, so a list
// ends where the next one starts, or at the next group's adj. A zero word ends the
// section, so that a reader may load 8 bytes at any pair's first byte.

// DirGroup is the number of vertices per directory group.
const DirGroup = 64

const (
	dirGroupShift = 6
	dirHeader     = 16 // bytes per group header
	maxDirWidth   = 32 // a coded start or degree fits 32 bits
	maxShardEdges = 1<<40 - 1
	maxDirDmin    = 255 // dmin is the group's smallest degree, at most this
)

// dirGroups is the number of groups of a shard of n vertices.
func dirGroups(n uint32) uint64 { return (uint64(n) + DirGroup - 1) / DirGroup }

// dirStart decodes the coded start z of pair j of a group of span bytes: its offset
// from the group's adj.
func dirStart(z, j, span uint32) uint32 { return dirLine(j, span) + (z>>1 ^ -(z & 1)) }

// dirPair decodes a directory pair from x, the packed bits from its first bit on: its
// list's start, base (the group's adj plus pair j's part j*span/64 of the group's span)
// plus the zigzag offset in x's low wo bits (mo = 2^wo-1), and its degree, dmin plus the
// wd bits above (md = 2^wd-1). Every reader that loads a pair as one word (Entries,
// dirEntry, DirCursor, ScanGroup, PrefetchHeads, HeadGroup) decodes it through this.
func dirPair(x uint64, base, wo, mo, dmin, md uint32) (start, deg uint32) {
	z := uint32(x) & mo
	return base + (z>>1 ^ -(z & 1)), dmin + uint32(x>>(wo&63))&md
}

// dirLine is pair j's part of a group's span bytes, j*span/64: where the straight line
// from the group's adj to the next group's puts its list, less adj.
func dirLine(j, span uint32) uint32 { return uint32(uint64(j) * uint64(span) >> dirGroupShift) }

// dirCode is dirStart's inverse: the coded start of pair j at offset rel.
func dirCode(rel, j, span uint32) uint32 {
	r := int32(rel - dirLine(j, span))
	return uint32(r<<1) ^ uint32(r>>31)
}

// dirEdge is the first neighbour index of the group whose header is h.
func dirEdge(h []uint32) uint64 { return uint64(h[2]) | uint64(h[3]&0xff)<<32 }

// dirBits reads the w-bit field (w <= 32) at bit p of the packed area b.
func dirBits(b []byte, p uint64, w uint32) uint32 {
	x := binary.LittleEndian.Uint64(b[p>>3:])
	return uint32(x>>(p&7)) & uint32(1<<w-1)
}

// dirEntry is vertex i's degree and list bounds in ADJ. One 8-byte load holds 57 bits
// from a pair's first one: its start and degree, and the next pair's start, when the
// widths allow (2*wo+wd <= 57, as in every group but of pathological graphs).
func (s *Shard) dirEntry(i uint32) (deg, start, end uint32) {
	h := s.dirH[(i>>dirGroupShift)*4:][:8]
	wo, wd := h[3]>>16&0xff, h[3]>>24
	j := i & (DirGroup - 1)
	p := uint64(h[1])*64 + uint64(j*(wo+wd))
	if 2*wo+wd > 57 {
		return s.dirEntryWide(i, h, p, wo, wd)
	}
	x := binary.LittleEndian.Uint64(s.dirB[p>>3:][:8]) >> (p & 7)
	span, mo := h[4]-h[0], uint32(1)<<wo-1
	start, deg = dirPair(x, h[0]+dirLine(j, span), wo, mo, h[3]>>8&0xff, 1<<wd-1)
	end = h[4]
	if j+1 < DirGroup && i+1 < s.N {
		end, _ = dirPair(x>>(wo+wd), h[0]+dirLine(j+1, span), 0, mo, 0, 0)
	}
	return deg, start, end
}

// dirEntryWide is dirEntry for a group whose fields need a load each.
func (s *Shard) dirEntryWide(i uint32, h []uint32, p uint64, wo, wd uint32) (deg, start, end uint32) {
	j, span := i&(DirGroup-1), h[4]-h[0]
	start = h[0] + dirStart(dirBits(s.dirB, p, wo), j, span)
	deg = h[3]>>8&0xff + dirBits(s.dirB, p+uint64(wo), wd)
	end = h[4]
	if j+1 < DirGroup && i+1 < s.N {
		end = h[0] + dirStart(dirBits(s.dirB, p+uint64(wo+wd), wo), j+1, span)
	}
	return deg, start, end
}

// DegreeAt is the degree of the shard's i-th vertex (i < N).
func (s *Shard) DegreeAt(i uint32) uint32 {
	h := s.dirH[i>>dirGroupShift*4:]
	w := h[3]
	wo, wd := w>>16&0xff, w>>24
	p := uint64(h[1])<<6 + uint64(i&(DirGroup-1)*(wo+wd)+wo)
	x := binary.LittleEndian.Uint64(s.dirB[p>>3:])
	return w>>8&0xff + uint32(x>>(p&7))&(1<<wd-1)
}

// DegreesAt writes the degrees of the shard's vertices i, i+1, ... into dst
// (i+len(dst) <= N), a group at a time: the cheap way to read many degrees.
func (s *Shard) DegreesAt(dst []uint32, i uint32) {
	for len(dst) > 0 {
		h := s.dirH[i>>dirGroupShift*4:][:4]
		wo, wd := h[3]>>16&0xff, h[3]>>24
		j := i & (DirGroup - 1)
		k := min(uint32(len(dst)), DirGroup-j)
		p := uint64(h[1])*64 + uint64(j*(wo+wd)+wo)
		md, dmin, b := uint32(1)<<wd-1, h[3]>>8&0xff, s.dirB
		for x := range dst[:k] {
			dst[x] = dmin + uint32(binary.LittleEndian.Uint64(b[p>>3:][:8])>>(p&7))&md
			p += uint64(wo + wd)
		}
		dst, i = dst[k:], i+k
	}
}

// ListAt is the degree and the encoded list of the shard's i-th vertex (i < N). The
// list's capacity runs on into the mapping, as FastUvarint's 8-byte loads want.
func (s *Shard) ListAt(i uint32) (uint32, []byte) {
	d, a, b := s.dirEntry(i)
	return d, s.Adj[a:b]
}

// ListOffset is where the list of the shard's i-th vertex starts in ADJ (i <= N).
func (s *Shard) ListOffset(i uint32) uint32 {
	if i == s.N {
		return uint32(len(s.Adj))
	}
	_, a, _ := s.dirEntry(i)
	return a
}

// EdgeIndex is the number of neighbours the lists of the shard's vertices before i
// hold: the position of i's first weight in WEIGHTS (i <= N). It reads i's group
// header and the degrees before i in its group.
func (s *Shard) EdgeIndex(i uint32) uint64 {
	g := i >> dirGroupShift
	h := s.dirH[g*4:][:4]
	e := dirEdge(h)
	wo, wd, dmin := h[3]>>16&0xff, h[3]>>24, uint64(h[3]>>8&0xff)
	p := uint64(h[1])*64 + uint64(wo)
	for j := g << dirGroupShift; j < i; j++ {
		e += dmin + uint64(dirBits(s.dirB, p, wd))
		p += uint64(wo + wd)
	}
	return e
}

// DirCursor walks a shard's directory in vertex order, one group decoded at a time
// (when At first asks for one of its vertices): the cheap way for sweeps.
type DirCursor struct {
	s     *Shard
	adj   []byte
	base  uint32 // the first vertex (shard index) of the decoded group; 1 (no group's) for none
	deg   [DirGroup]uint32
	start [DirGroup + 1]uint32
}

// Reset points c at shard s; no group is decoded yet.
func (c *DirCursor) Reset(s *Shard) { c.s, c.adj, c.base = s, s.Adj, 1 }

// At is the degree and list of the shard's i-th vertex (i < N).
func (c *DirCursor) At(i uint32) (uint32, []byte) {
	if i&^(DirGroup-1) != c.base {
		c.load(i)
	}
	j := i & (DirGroup - 1)
	return c.deg[j], c.adj[c.start[j]:c.start[j+1]]
}

// load decodes the group of the shard's i-th vertex, a pair per 8-byte load when
// wo+wd <= 57.
func (c *DirCursor) load(i uint32) {
	s := c.s
	g := i >> dirGroupShift
	h := s.dirH[g*4:][:8]
	wo, wd := h[3]>>16&0xff, h[3]>>24
	cnt := min(DirGroup, s.N-g<<dirGroupShift)
	p, span, dmin := uint64(h[1])*64, h[4]-h[0], h[3]>>8&0xff
	start, deg := &c.start, &c.deg
	if wp := uint64(wo + wd); wp <= 57 && (p+uint64(cnt)*wp)/8+8 <= uint64(len(s.dirB)) {
		// every pair's word inside dirB, as checked here for the one after the last:
		// loaded without a check each, the start's linear part (64 times h[0] plus
		// j*span) kept as a running sum
		mo, md := uint32(1)<<wo-1, uint32(1)<<wd-1
		db := unsafe.Pointer(unsafe.SliceData(s.dirB))
		lin := uint64(h[0]) << dirGroupShift
		for j := range cnt {
			x := loadWord(unsafe.Add(db, p>>3)) >> (p & 7)
			start[j], deg[j] = dirPair(x, uint32(lin>>dirGroupShift), wo, mo, dmin, md) // lin>>6 is h[0] + dirLine(j, span)
			p, lin = p+wp, lin+uint64(span)
		}
	} else if wo+wd <= 57 { // pairs past the section: never in a checked directory
		mo, md := uint32(1)<<wo-1, uint32(1)<<wd-1
		b := s.dirB
		for j := range cnt {
			x := binary.LittleEndian.Uint64(b[p>>3:][:8]) >> (p & 7)
			start[j], c.deg[j] = dirPair(x, h[0]+dirLine(j, span), wo, mo, dmin, md)
			p += uint64(wo + wd)
		}
	} else {
		for j := range cnt {
			start[j] = h[0] + dirStart(dirBits(s.dirB, p, wo), j, span)
			c.deg[j] = dmin + dirBits(s.dirB, p+uint64(wo), wd)
			p += uint64(wo + wd)
		}
	}
	start[cnt] = h[4]
	c.base = g << dirGroupShift
}

// dirWriter accumulates a shard's directory: the group being filled in memory, the
// headers and the packed pairs of finished groups in two side files. A group is written
// once the start of the list after its last one is known (its span).
type dirWriter struct {
	hdr, packed *sideFile
	n           uint32 // vertices so far
	k           uint32 // vertices in the current group
	start       [DirGroup]uint32
	deg         [DirGroup]uint32
	word        uint64 // packed words so far
	edges       uint64 // neighbours before the current group
	buf         [8 * (2*DirGroup + 1)]byte
}

// add appends a vertex whose list starts at ADJ offset start and has deg neighbours.
func (d *dirWriter) add(start, deg uint32) {
	if d.k == DirGroup {
		d.flush(start)
	}
	d.start[d.k], d.deg[d.k] = start, deg
	d.k++
	d.n++
}

// addEmpty appends count vertices without neighbours whose lists start at ADJ offset
// start, whole groups at a time.
func (d *dirWriter) addEmpty(start uint32, count uint32) {
	for count > 0 && d.k%DirGroup != 0 {
		d.add(start, 0)
		count--
	}
	if count >= DirGroup {
		d.flush(start)
	}
	for ; count >= DirGroup; count -= DirGroup {
		d.header(start, 0, 0, 0)
		d.n += DirGroup
	}
	for ; count > 0; count-- {
		d.add(start, 0)
	}
}

// flush writes the current group, if it has any vertex; its last list ends at end.
func (d *dirWriter) flush(end uint32) {
	if d.k == 0 {
		return
	}
	base := d.start[0]
	span := end - base
	var sum, zor uint64
	dmin := uint32(maxDirDmin)
	for j := range d.k {
		sum += uint64(d.deg[j])
		dmin = min(dmin, d.deg[j])
		zor |= uint64(dirCode(d.start[j]-base, j, span))
	}
	var dor uint32
	for j := range d.k {
		dor |= d.deg[j] - dmin
	}
	wo, wd := uint32(bits.Len64(zor)), uint32(bits.Len32(dor))
	d.header(base, dmin, wo, wd)
	if wo+wd > 0 {
		var acc uint64 // bits not yet written, low first
		var have uint32
		n := 0
		put := func(x, w uint32) {
			acc |= uint64(x) << have
			if have+w >= 64 {
				binary.LittleEndian.PutUint64(d.buf[n:], acc)
				n += 8
				acc = uint64(x) >> (64 - have) // have > 0 here: w <= 32 < 64
				have = have + w - 64
				return
			}
			have += w
		}
		for j := range d.k {
			put(dirCode(d.start[j]-base, j, span), wo)
			put(d.deg[j]-dmin, wd)
		}
		if have > 0 {
			binary.LittleEndian.PutUint64(d.buf[n:], acc)
			n += 8
		}
		d.packed.write(d.buf[:n])
		d.word += uint64(n / 8)
	}
	d.edges += sum
	d.k = 0
}

// header writes the header of a group starting at ADJ offset adj with smallest degree
// dmin and widths wo, wd.
func (d *dirWriter) header(adj, dmin, wo, wd uint32) {
	var b [dirHeader]byte
	le := binary.LittleEndian
	le.PutUint32(b[0:], adj)
	le.PutUint32(b[4:], uint32(d.word))
	le.PutUint32(b[8:], uint32(d.edges))
	le.PutUint32(b[12:], uint32(d.edges>>32)&0xff|dmin<<8|wo<<16|wd<<24)
	d.hdr.write(b[:])
}

// openDirectory maps the DIRECTORY section and checks what a reader of any vertex relies
// on and can check in O(1): the section's length against the sentinel's word count, and
// the sentinel against the ADJ length and the header's edge count. checkDirectory checks
// the groups.
func (s *Shard) openDirectory(sec Section) error {
	ng := dirGroups(s.N)
	hb := dirHeader * int64(ng+1)
	if sec.Length < hb+8 || sec.Length%8 != 0 {
		return corrupt(s.Path, sec.Offset, "DIRECTORY is %d bytes, expected %d group headers of %d bytes and 8-byte words after them", sec.Length, ng+1, dirHeader)
	}
	b := s.data[sec.Offset : sec.Offset+sec.Length]
	s.dirH, s.dirB = u32s(b[:hb]), b[hb:]
	sent := s.dirH[4*ng:]
	at := sec.Offset + dirHeader*int64(ng)
	if words := int64(len(s.dirB)/8) - 1; int64(sent[1]) != words {
		return corrupt(s.Path, at+4, "DIRECTORY's sentinel counts %d packed words, the section holds %d", sent[1], words)
	}
	if int64(sent[0]) != int64(len(s.Adj)) || sent[3]>>8 != 0 {
		return corrupt(s.Path, at, "DIRECTORY's sentinel puts the end of the lists at %d (dmin and widths %#x), expected the ADJ length %d (and 0)", sent[0], sent[3]>>8, len(s.Adj))
	}
	if e := dirEdge(sent); e != s.Edges {
		return corrupt(s.Path, at+8, "DIRECTORY's sentinel counts %d neighbours, the header says %d", e, s.Edges)
	}
	if s.dirH[0] != 0 || s.dirH[1] != 0 || dirEdge(s.dirH) != 0 {
		return corrupt(s.Path, sec.Offset, "DIRECTORY's first group starts at ADJ offset %d, word %d, neighbour %d; expected 0, 0, 0", s.dirH[0], s.dirH[1], dirEdge(s.dirH))
	}
	return nil
}

// checkDirectory checks every group: widths of at most 32 bits, each group's pairs
// right after the previous group's, starts that begin at the group's offset and never
// decrease up to the next group's, degrees below 2^32 that sum to the difference of the
// groups' neighbour indexes, and zero bits after each group's pairs; with openDirectory's checks, the lists tile ADJ and the
// degrees sum to the shard's edges. Then each list's length and block index
// (checkListBytes; an error there is reported only when the directory holds). It reads
// the whole section and each block index (Check calls it).
func (s *Shard) checkDirectory() error {
	sec, _ := s.section(SecDirectory)
	ng := uint32(dirGroups(s.N))
	var listErr error // the first list's checkListBytes error, reported after the directory's own
	for g := uint32(0); g < ng; g++ {
		h := s.dirH[4*g : 4*g+8]
		at := sec.Offset + dirHeader*int64(g)
		wo, wd := h[3]>>16&0xff, h[3]>>24
		cnt := min(DirGroup, s.N-g<<dirGroupShift)
		if wo > maxDirWidth || wd > maxDirWidth {
			return corrupt(s.Path, at+12, "DIRECTORY group %d has widths %d and %d, at most %d allowed", g, wo, wd, maxDirWidth)
		}
		words := (uint64(cnt)*uint64(wo+wd) + 63) / 64
		if uint64(h[5]) != uint64(h[1])+words {
			return corrupt(s.Path, at+dirHeader+4, "DIRECTORY group %d starts at word %d, expected %d (group %d's %d pairs of %d bits end there)", g+1, h[5], uint64(h[1])+words, g, cnt, wo+wd)
		}
		if h[4] < h[0] {
			return corrupt(s.Path, at+dirHeader, "DIRECTORY group %d starts at ADJ offset %d, below group %d's %d", g+1, h[4], g, h[0])
		}
		p, prev, sum, span, dmin := uint64(h[1])*64, uint32(0), uint64(0), h[4]-h[0], uint64(h[3]>>8&0xff)
		var pd uint64 // the previous vertex's degree
		for j := range cnt {
			rel := dirStart(dirBits(s.dirB, p, wo), j, span)
			if (j == 0 && rel != 0) || rel < prev || rel > span {
				return corrupt(s.Path, sec.Offset+int64(len(s.dirH))*4+int64(p>>3), "DIRECTORY: list of vertex %d starts at %d from its group's offset %d, expected %s", s.Lo+g<<dirGroupShift+j, rel, h[0], dirExpect(j, prev, span))
			}
			if j > 0 && !listFits(pd, rel-prev) && listErr == nil {
				listErr = s.checkListBytes(s.Lo+g<<dirGroupShift+j-1, pd, h[0]+prev, h[0]+rel)
			}
			prev = rel
			d := dmin + uint64(dirBits(s.dirB, p+uint64(wo), wd))
			if d > 1<<32-1 {
				return corrupt(s.Path, sec.Offset+int64(len(s.dirH))*4+int64(p>>3), "DIRECTORY: vertex %d has degree %d, more than 2^32-1", s.Lo+g<<dirGroupShift+j, d)
			}
			sum += d
			pd = d
			p += uint64(wo + wd)
		}
		if cnt > 0 && !listFits(pd, span-prev) && listErr == nil {
			listErr = s.checkListBytes(s.Lo+g<<dirGroupShift+cnt-1, pd, h[0]+prev, h[4])
		}
		if r := p & 63; r != 0 && binary.LittleEndian.Uint64(s.dirB[p>>6*8:])>>r != 0 {
			return corrupt(s.Path, sec.Offset+int64(len(s.dirH))*4+int64(p>>6*8), "DIRECTORY group %d: bits after its last pair are not zero", g)
		}
		e0, e1 := dirEdge(h), dirEdge(h[4:])
		if e1 < e0 || e1-e0 != sum {
			return corrupt(s.Path, at+dirHeader+8, "DIRECTORY group %d starts at neighbour %d, expected %d (group %d's degrees sum to %d)", g+1, e1, e0+sum, g, sum)
		}
	}
	if at := len(s.dirB) - 8; binary.LittleEndian.Uint64(s.dirB[at:]) != 0 {
		return corrupt(s.Path, sec.Offset+sec.Length-8, "DIRECTORY's last word is not zero")
	}
	return listErr
}

// listFits says whether a list of d neighbours, one block at most, may take n bytes
// (checkListBytes' rule, for the lists that need no more; the others it checks).
func listFits(d uint64, n uint32) bool {
	return d <= BlockSize && uint64(n) <= 5*d && (n > 0) == (d > 0)
}

// checkListBytes checks what can be known of vertex v's list without decoding it, from
// its degree d and its bytes ADJ[start:end]: its length, between one byte a block and 5
// bytes a neighbour (every coding is at most varints' 5: FORMAT.md, "ADJ: one list"),
// plus the block index, and the index's entries, which must rise from past block 0's
// first byte to below the end. So no list of one or two blocks reaches 65,536 bytes (the
// GPU's gathered levels rely on it) and no block index points outside its list; whether
// the bytes decode to d neighbours below the vertex count is Verify's (and each
// decoder's) to find.
func (s *Shard) checkListBytes(v uint32, d uint64, start, end uint32) error {
	nb := (d + BlockSize - 1) / BlockSize
	head, n := 4*max(nb, 1)-4, uint64(end)-uint64(start)
	if end < start || uint64(end) > uint64(len(s.Adj)) { // the directory's own checks report it
		return corrupt(s.Path, -1, "list of vertex %d at [%d, %d) is outside ADJ", v, start, end)
	}
	if n < head+nb || n > head+5*d {
		sec, _ := s.section(SecAdj)
		return corrupt(s.Path, sec.Offset+int64(start), "list of vertex %d is %d bytes, a list of %d neighbours takes %d to %d", v, n, d, head+nb, head+5*d)
	}
	last := head
	for k := uint64(1); k < nb; k++ {
		at := uint64(binary.LittleEndian.Uint32(s.Adj[uint64(start)+4*(k-1):]))
		if at <= last || at >= n {
			sec, _ := s.section(SecAdj)
			return corrupt(s.Path, sec.Offset+int64(start)+int64(4*(k-1)), "block index of vertex %d's list puts block %d at byte %d, expected between %d and %d", v, k, at, last+1, n-1)
		}
		last = at
	}
	return nil
}

// dirExpect says where checkDirectory expects the start of a group's pair j.
func dirExpect(j, prev, limit uint32) string {
	if j == 0 {
		return "0"
	}
	return fmt.Sprintf("between %d and %d", prev, limit)
}
