package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"path/filepath"
	"sort"
	"sync"
	"unsafe"

	mmap "github.com/edsrzf/mmap-go"

	"github.com/oocgraph/ooc/internal/plural"
)

// Version is the format version this package writes and the only one its engines read
// (FORMAT.md, "Format versions"). Graphs of versions MinVersion to Version-1 are read
// only by the upgrade path (legacy.go, Upgrade).
const Version uint32 = 6

// FloatVersion is the format version of a graph whose weights are float32 (the manifest
// says "weight_type":"float32"): version 6 with WEIGHTS holding IEEE-754 bit patterns.
// The writer gives it to such graphs only, so every other graph stays version 6, and a
// reader that knows only version 6 refuses a float graph instead of misreading its
// weights as integers.
const FloatVersion uint32 = 7

// MaxVersion is the newest format version this package reads.
const MaxVersion = FloatVersion

// DirVersion is the first format version with a DIRECTORY section. Its list codec is a
// subset of the current one (version 6 added block codings, FORMAT.md), so Upgrade reads
// versions DirVersion to Version-1 with the normal reader.
const DirVersion uint32 = 5

// MinVersion is the oldest format version Upgrade reads.
const MinVersion uint32 = 2

const (
	shardMagic   = "OOCSHARD"
	headerSize   = 4096
	footerSize   = 16
	sectionAlign = 4096
	maxSections  = 100
	graphIDAt    = headerSize - 12 // version 3: the graph's identity, 8 bytes before the CRC
)

// Section ids (FORMAT.md, "Section table entry").
const (
	SecDegrees   uint32 = 1 // versions 2 to 4: n x uint32
	SecOffsets   uint32 = 2 // versions 2 to 4: (n+1) x uint32
	SecAdj       uint32 = 3
	SecWeights   uint32 = 4 // from version 4: one uint32 per stored neighbour, aligned with the lists
	SecDirectory uint32 = 5 // from version 5: degrees and list starts, bit-packed (directory.go)
)

// Direction says which adjacency a shard holds.
type Direction uint32

const (
	Out Direction = 0 // out-neighbours (all neighbours of an undirected graph)
	In  Direction = 1 // in-neighbours (the transpose), directed graphs only
)

func (d Direction) String() string {
	if d == In {
		return "in"
	}
	return "out"
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// CRC32C is the checksum every part of the format uses.
func CRC32C(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// Section is one entry of a shard's section table.
type Section struct {
	ID     uint32
	Offset int64
	Length int64
	CRC    uint32
}

// shardHeader is the decoded header page of a shard file.
type shardHeader struct {
	Version  uint32
	GraphID  uint64 // version 3; 0 in version 2
	Dir      Direction
	Lo, N    uint32
	Edges    uint64
	Block    uint32
	Sections []Section
	CRC      uint32
}

func (h *shardHeader) encode() []byte {
	b := make([]byte, headerSize)
	copy(b, shardMagic)
	le := binary.LittleEndian
	le.PutUint32(b[8:], h.Version)
	le.PutUint64(b[graphIDAt:], h.GraphID)
	le.PutUint32(b[12:], uint32(h.Dir))
	le.PutUint32(b[16:], h.Lo)
	le.PutUint32(b[20:], h.N)
	le.PutUint64(b[24:], h.Edges)
	le.PutUint32(b[32:], h.Block)
	le.PutUint32(b[36:], uint32(len(h.Sections)))
	for i, s := range h.Sections {
		e := b[40+32*i:]
		le.PutUint32(e[0:], s.ID)
		le.PutUint64(e[8:], uint64(s.Offset))
		le.PutUint64(e[16:], uint64(s.Length))
		le.PutUint32(e[24:], s.CRC)
	}
	h.CRC = CRC32C(b[:headerSize-4])
	le.PutUint32(b[headerSize-4:], h.CRC)
	return b
}

func encodeFooter(version, crc uint32) []byte {
	b := make([]byte, footerSize)
	binary.LittleEndian.PutUint32(b[0:], version)
	binary.LittleEndian.PutUint32(b[4:], crc)
	copy(b[8:], shardMagic)
	return b
}

// parseShard checks the header, footer and section table of a shard file of the given
// size; it touches nothing but those bytes.
func parseShard(path string, b []byte) (*shardHeader, error) {
	size := int64(len(b))
	if size < headerSize+footerSize {
		return nil, corrupt(path, -1, "file is %s, shorter than a header and footer (%d)", plural.Of(size, "byte"), headerSize+footerSize)
	}
	if string(b[:8]) != shardMagic {
		return nil, corrupt(path, 0, "bad magic %q, expected %q", b[:8], shardMagic)
	}
	le := binary.LittleEndian
	v := le.Uint32(b[8:])
	if v < MinVersion || v > MaxVersion {
		return nil, corrupt(path, 8, "format version %d, this ooc reads versions %d to %d", v, MinVersion, MaxVersion)
	}
	crc := le.Uint32(b[headerSize-4:])
	if got := CRC32C(b[:headerSize-4]); got != crc {
		return nil, corrupt(path, headerSize-4, "header checksum %08x, computed %08x", crc, got)
	}
	f := b[size-footerSize:]
	if string(f[8:]) != shardMagic || le.Uint32(f[0:]) != v || le.Uint32(f[4:]) != crc {
		return nil, corrupt(path, size-footerSize, "footer does not match the header (truncated or overwritten file)")
	}
	h := &shardHeader{Version: v,
		Dir: Direction(le.Uint32(b[12:])), Lo: le.Uint32(b[16:]), N: le.Uint32(b[20:]),
		Edges: le.Uint64(b[24:]), Block: le.Uint32(b[32:]), CRC: crc,
	}
	if v >= 3 {
		h.GraphID = le.Uint64(b[graphIDAt:])
	}
	if uint64(h.Lo)+uint64(h.N) > 1<<32-1 {
		return nil, corrupt(path, 16, "vertex range [%d, +%d) runs past the largest vertex id", h.Lo, h.N)
	}
	if h.Dir != Out && h.Dir != In {
		return nil, corrupt(path, 12, "direction %d, expected 0 (out) or 1 (in)", h.Dir)
	}
	if h.Block != BlockSize {
		return nil, corrupt(path, 32, "block size %d, expected %d", h.Block, BlockSize)
	}
	ns := le.Uint32(b[36:])
	if ns > maxSections {
		return nil, corrupt(path, 36, "%d sections, at most %d allowed", ns, maxSections)
	}
	end := size - footerSize
	for i := uint32(0); i < ns; i++ {
		e := b[40+32*i:]
		s := Section{ID: le.Uint32(e[0:]), Offset: int64(le.Uint64(e[8:])), Length: int64(le.Uint64(e[16:])), CRC: le.Uint32(e[24:])}
		at := int64(40 + 32*i)
		if s.Offset < headerSize || s.Offset%sectionAlign != 0 || s.Length < 0 || s.Offset > end || s.Length > end-s.Offset {
			return nil, corrupt(path, at, "section %d spans [%d, +%d), outside the file's body [%d, %d) or misaligned", s.ID, s.Offset, s.Length, headerSize, end)
		}
		for _, o := range h.Sections {
			if s.Offset < o.Offset+o.Length && o.Offset < s.Offset+s.Length {
				return nil, corrupt(path, at, "section %d overlaps section %d", s.ID, o.ID)
			}
			if s.ID == o.ID {
				return nil, corrupt(path, at, "section %d appears twice", s.ID)
			}
		}
		h.Sections = append(h.Sections, s)
	}
	return h, nil
}

func (h *shardHeader) section(id uint32) (Section, bool) {
	for _, s := range h.Sections {
		if s.ID == id {
			return s, true
		}
	}
	return Section{}, false
}

// Shard is one mmapped shard file: the adjacency of vertices [Lo, Lo+N) in one direction.
// Adj, Weights and the slices its methods return alias the read-only mapping: they are
// valid until the Graph is closed, and writing to them faults. A vertex's degree and list
// come from the DIRECTORY section (directory.go): Degree, List, ListAt, DegreeAt.
type Shard struct {
	Path  string
	Dir   Direction
	Lo, N uint32
	Edges uint64

	Adj []byte
	// Weights (version 4) holds one weight per stored neighbour, the lists' in vertex
	// order: WeightsOf slices it. nil in a graph without weights.
	Weights []uint32

	Sections  []Section
	HeaderCRC uint32
	Version   uint32 // the format version of the file
	GraphID   uint64 // the identity of the graph it was written for (version 3; 0 before)

	data     mmap.MMap
	nv       uint32   // vertex count of the graph, for neighbour checks
	dirH     []uint32 // DIRECTORY's group headers, 4 words each, the sentinel included
	dirB     []byte   // DIRECTORY's packed pairs and the zero word after them
	wOnce    sync.Once
	wStart   []uint32 // N+1 entries: the degrees' prefix sum, where each list's weights start
	checkOne sync.Once
	checkErr error
	dirOne   sync.Once
	dirErr   error // CheckDirectory's result, for Neighbors (Check's when it got that far)
}

// Hi is one past the shard's last vertex.
func (s *Shard) Hi() uint32 { return s.Lo + s.N }

// Bytes is the whole mapped file, for pinning it as one region.
func (s *Shard) Bytes() []byte { return s.data }

// SectionBytes returns the mapped bytes of a section.
func (s *Shard) SectionBytes(id uint32) ([]byte, bool) {
	for _, sec := range s.Sections {
		if sec.ID == id {
			return s.data[sec.Offset : sec.Offset+sec.Length], true
		}
	}
	return nil, false
}

// Degree is the degree of vertex v, which must lie in the shard. Like DegreeAt and
// ListAt it reads the directory as it is: on a damaged one, before Check or
// CheckDirectory, it may panic (doc.go, Caveats).
func (s *Shard) Degree(v uint32) uint32 { return s.DegreeAt(v - s.Lo) }

// List is the encoded list of vertex v, which must lie in the shard.
func (s *Shard) List(v uint32) []byte {
	_, l := s.ListAt(v - s.Lo)
	return l
}

// DirectoryBytes is the DIRECTORY section, for placing it on a device.
func (s *Shard) DirectoryBytes() []byte {
	b, _ := s.SectionBytes(SecDirectory)
	return b
}

// DirectoryHeaders is the number of bytes of DIRECTORY's group headers (the sentinel's
// included); the packed pairs follow them.
func (s *Shard) DirectoryHeaders() int64 { return dirHeader * int64(dirGroups(s.N)+1) }

// WeightsOf returns the weights of v's list (v in the shard), as many as its degree: entry
// k weighs the edge to the k-th stored neighbour. The first call builds the prefix sum
// of the degrees (4 bytes a vertex). It is nil when the graph has no weights, or when the
// degrees do not sum to the weights' count (corruption, which Check reports).
func (s *Shard) WeightsOf(v uint32) []uint32 {
	if s.Weights == nil {
		return nil
	}
	s.wOnce.Do(func() {
		st := make([]uint32, s.N+1)
		s.DegreesAt(st[1:], 0)
		var sum uint64
		for i, d := range st[1:] {
			sum += uint64(d)
			st[i+1] = uint32(sum)
		}
		if sum == uint64(len(s.Weights)) {
			s.wStart = st
		}
	})
	if s.wStart == nil {
		return nil
	}
	i := v - s.Lo
	a, b := s.wStart[i], s.wStart[i+1]
	return s.Weights[a:b:b]
}

// Neighbors appends the neighbours of v (in the shard) to dst. Unlike Degree and List,
// it is safe on a graph opened without Check: its first call on a shard checks the
// directory (CheckDirectory), whose error every call then returns; a v outside the
// shard is an error matching ErrNoVertex.
func (s *Shard) Neighbors(dst []uint32, v uint32) ([]uint32, error) {
	if v < s.Lo || v-s.Lo >= s.N {
		return dst, fmt.Errorf("store: vertex %d is not in %s (its vertices are [%d, %d)): %w", v, s.Path, s.Lo, s.Hi(), ErrNoVertex)
	}
	s.dirOne.Do(func() { s.dirErr = s.CheckDirectory() })
	if s.dirErr != nil {
		return dst, s.dirErr
	}
	out, err := DecodeList(dst, v, s.Degree(v), s.List(v), s.nv)
	if err != nil {
		return out, s.listError(v)
	}
	return out, nil
}

// Iter positions it on v's list.
func (s *Shard) Iter(it *ListIter, v uint32) { it.Reset(v, s.Degree(v), s.List(v), s.nv) }

// ListError is the error to report when a ListIter over v's list fails.
func (s *Shard) listError(v uint32) error {
	sec, _ := s.section(SecAdj)
	return corrupt(s.Path, sec.Offset+int64(s.ListOffset(v-s.Lo)), "adjacency list of vertex %d does not decode to its %d neighbours", v, s.Degree(v))
}

// ListError wraps a failed ListIter over v's list into a positioned CorruptError.
func (s *Shard) ListError(v uint32) error { return s.listError(v) }

func (s *Shard) section(id uint32) (Section, bool) {
	for _, sec := range s.Sections {
		if sec.ID == id {
			return sec, true
		}
	}
	return Section{}, false
}

// Check recomputes the CRC32C of every section and checks the directory (checkDirectory),
// once; later calls return the first result. Engines call it before using a shard's bytes, so an answer never comes from
// corrupt data.
func (s *Shard) Check() error {
	s.checkOne.Do(func() {
		for _, sec := range s.Sections {
			b := s.data[sec.Offset : sec.Offset+sec.Length]
			if got := CRC32C(b); got != sec.CRC {
				s.checkErr = corrupt(s.Path, sec.Offset, "section %d checksum %08x, computed %08x", sec.ID, sec.CRC, got)
				return
			}
		}
		if s.checkErr = s.checkGaps(); s.checkErr == nil {
			// the directory's checksum passed above: its structure is CheckDirectory's
			// result, which Neighbors then reuses (or has already found)
			s.dirOne.Do(func() { s.dirErr = s.checkDirectory() })
			s.checkErr = s.dirErr
		}
	})
	return s.checkErr
}

// CheckDirectory checks the DIRECTORY section alone: its checksum and its structure
// (checkDirectory), which includes that the degrees sum to the header's edge count. It
// reads a few bits a vertex, so commands that print degrees without reading the lists
// (ooc info) can afford it where Check would read everything.
func (s *Shard) CheckDirectory() error {
	sec, _ := s.section(SecDirectory)
	if got := CRC32C(s.data[sec.Offset : sec.Offset+sec.Length]); got != sec.CRC {
		return corrupt(s.Path, sec.Offset, "section %d checksum %08x, computed %08x", sec.ID, sec.CRC, got)
	}
	return s.checkDirectory()
}

// openShardIn maps the shard file name in d and checks its structure (not its section
// checksums: see Check), including that offsets are monotone and end at the ADJ length.
func openShardIn(d graphDir, name string, nv uint32) (*Shard, error) {
	path := filepath.Join(d.path, name)
	f, err := d.open(name)
	if errors.Is(err, fs.ErrNotExist) {
		// The manifest lists it, so the graph is damaged, not merely absent.
		return nil, corrupt(path, -1, "shard file listed in the manifest is missing")
	}
	if err != nil {
		return nil, openFailed(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if st.Size() < headerSize+footerSize {
		return nil, corrupt(path, -1, "file is %s, shorter than a header and footer (%d)", plural.Of(st.Size(), "byte"), headerSize+footerSize)
	}
	data, err := mmap.Map(f, mmap.RDONLY, 0)
	if err != nil {
		return nil, fmt.Errorf("store: mmap %s: %w", path, err)
	}
	registerMapping(data, path)
	s, err := newShard(path, data, nv)
	if err != nil {
		data.Unmap()
		return nil, err
	}
	return s, nil
}

func newShard(path string, data mmap.MMap, nv uint32) (*Shard, error) {
	h, err := parseShard(path, data)
	if err != nil {
		return nil, err
	}
	s := &Shard{Path: path, Dir: h.Dir, Lo: h.Lo, N: h.N, Edges: h.Edges, Sections: h.Sections, HeaderCRC: h.CRC, Version: h.Version, GraphID: h.GraphID, data: data, nv: nv}
	if h.Version < DirVersion {
		return nil, corrupt(path, 8, "format version %d, expected %d to %d (older graphs are read only by ooc upgrade)", h.Version, DirVersion, MaxVersion)
	}
	dir, ok1 := h.section(SecDirectory)
	adj, ok2 := h.section(SecAdj)
	if !ok1 || !ok2 {
		return nil, corrupt(path, 36, "missing a DIRECTORY or ADJ section")
	}
	if adj.Length > 1<<32-1 {
		return nil, corrupt(path, adj.Offset, "ADJ is %d bytes, more than 4 GiB", adj.Length)
	}
	if h.Edges > maxShardEdges {
		return nil, corrupt(path, 24, "%d edges, more than the %d a shard can hold", h.Edges, uint64(maxShardEdges))
	}
	s.Adj = data[adj.Offset : adj.Offset+adj.Length]
	if err := s.openDirectory(dir); err != nil {
		return nil, err
	}
	return s, s.openWeights(h)
}

// openWeights maps the WEIGHTS section, which a shard holds exactly when its graph has
// weights (openCSR checks that against the manifest).
func (s *Shard) openWeights(h *shardHeader) error {
	w, ok := h.section(SecWeights)
	if !ok {
		return nil
	}
	if h.Edges > 1<<32-1 || w.Length != 4*int64(h.Edges) {
		return corrupt(s.Path, w.Offset, "WEIGHTS is %d bytes, expected %d for %d edges", w.Length, 4*int64(h.Edges), h.Edges)
	}
	s.Weights = u32s(s.data[w.Offset : w.Offset+w.Length])
	return nil
}

// checkGaps checks that the bytes between sections are zero, so that every byte of a
// shard is covered by a checksum or known to be padding.
func (s *Shard) checkGaps() error {
	secs := append([]Section{}, s.Sections...)
	sort.Slice(secs, func(i, j int) bool { return secs[i].Offset < secs[j].Offset })
	pos := int64(headerSize)
	end := int64(len(s.data)) - footerSize
	for i := 0; i <= len(secs); i++ {
		next := end
		if i < len(secs) {
			next = secs[i].Offset
		}
		for j := pos; j < next; j++ {
			if s.data[j] != 0 {
				return corrupt(s.Path, j, "padding byte is %#02x, expected 0", s.data[j])
			}
		}
		if i < len(secs) {
			pos = secs[i].Offset + secs[i].Length
		}
	}
	return nil
}

func (s *Shard) close() error {
	if s.data == nil {
		return nil
	}
	err := s.data.Unmap()
	s.data = nil
	return err
}

// u32s views little-endian bytes as []uint32 without copying (all supported hosts are
// little-endian; sections are 4096-aligned in a page-aligned mapping).
func u32s(b []byte) []uint32 {
	if len(b) == 0 {
		return []uint32{}
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(&b[0])), len(b)/4)
}

func unsafeU64s(b []byte) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), len(b)/8)
}
