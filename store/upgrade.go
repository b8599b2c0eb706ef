package store

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	mmap "github.com/edsrzf/mmap-go"

	"github.com/oocgraph/ooc/internal/plural"
)

// ErrUpToDate is matched by Upgrade's error for a graph already in the current version.
var ErrUpToDate = errors.New("graph is already in the current format version")

// UpgradeOptions shape Upgrade.
type UpgradeOptions struct {
	Log io.Writer // where Create reports leftovers of killed builds it removes; nil = nowhere
}

// Upgrade rewrites the graph at dir, of a format version from MinVersion to Version-1,
// in the current version: it reads every shard with the reader of its version (every
// section checksum and the structure checked), writes the same lists, weights and ids
// through the normal writer into a temporary directory, verifies the result (Verify)
// and publishes it in place of the old graph in one step (FORMAT.md, "Publishing").
// The manifest's counts, input, options, vertex order and creation time are kept; the
// graph gets the identity of its new bytes. It returns the new manifest.
func Upgrade(dir string, opt UpgradeOptions) (*Manifest, error) {
	dir = filepath.Clean(dir)
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	if m.FormatVersion >= Version {
		// Nothing to rewrite, but a damaged graph is not "up to date": its structure is
		// checked as every command's open checks it (the section checksums are Verify's).
		g, err := Open(dir)
		if err != nil {
			return nil, err
		}
		g.Close()
		return nil, fmt.Errorf("store: %s: format version %d: %w", dir, m.FormatVersion, ErrUpToDate)
	}
	var old oldGraph
	if m.FormatVersion >= DirVersion {
		old, err = openDirVersion(dir)
	} else {
		old, err = openLegacy(dir)
	}
	if err != nil {
		return nil, err
	}
	defer old.close()
	om := old.manifest()
	// A link to a graph upgrades the graph it names, in place, and stays a link (Create
	// refuses to replace a link).
	target := dir
	if st, err := os.Lstat(dir); err == nil && st.Mode()&os.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(dir); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
	}
	b, err := Create(target, CreateOptions{Force: true, Log: opt.Log, ShardBytes: om.Options.ShardBytes, Weighted: om.Weighted})
	if err != nil {
		return nil, err
	}
	b.beforePublish = func(tmp string) error {
		if _, err := Verify(tmp); err != nil {
			return fmt.Errorf("store: the upgraded graph does not verify, %s is left as it was: %w", dir, err)
		}
		return nil
	}
	if err := old.copyTo(b); err != nil {
		b.Abort()
		return nil, upgradeNoSpace(dir, err)
	}
	nm := *om
	nm.Out, nm.In, nm.IDs, nm.Bytes, nm.GraphID, nm.manifestBytes = nil, nil, nil, 0, "", 0
	if err := b.Commit(&nm); err != nil {
		return nil, upgradeNoSpace(dir, err)
	}
	return &nm, nil
}

// upgradeNoSpace is err, or, where err is a full disk, an exhausted quota or the limit
// of open files reached (NoSpace), one that names the graph dir rather than the file
// of the temporary directory that failed.
func upgradeNoSpace(dir string, err error) error {
	if errno := NoSpace(err); errno != 0 {
		return fmt.Errorf("store: upgrading %s: %w (the graph is left as it was)", dir, errno)
	}
	return err
}

// oldGraph is a graph of an older version opened for upgrading.
type oldGraph interface {
	manifest() *Manifest
	copyTo(b *Builder) error
	close()
}

// dirGraph is a graph of versions DirVersion to Version-1, read by the normal reader.
type dirGraph struct{ g *Graph }

// openDirVersion opens the graph at dir, of versions DirVersion to Version-1, and checks
// every section checksum and the structure (Graph.Check).
func openDirVersion(dir string) (*dirGraph, error) {
	g, err := open(graphDir{path: dir}, DirVersion)
	if err != nil {
		return nil, err
	}
	if err := g.Check(); err != nil {
		g.Close()
		return nil, err
	}
	return &dirGraph{g}, nil
}

func (d *dirGraph) manifest() *Manifest { return d.g.M }
func (d *dirGraph) close()              { d.g.Close() }

// copyTo decodes every list (and its weights) and appends it to b, then the ids.
func (d *dirGraph) copyTo(b *Builder) error {
	g := d.g
	var buf []uint32
	for dir, c := range []*CSR{g.Out(), g.In()} {
		if dir == int(In) && !g.Directed() {
			break
		}
		w := b.Writer(Direction(dir))
		for _, s := range c.Shards {
			for v := s.Lo; v < s.Hi(); v++ {
				var err error
				if buf, err = s.Neighbors(buf[:0], v); err != nil {
					return err
				}
				if len(buf) > 0 {
					if err := w.AppendWeightedList(v, buf, s.WeightsOf(v)); err != nil {
						return err
					}
				}
			}
		}
	}
	if g.M.IDs != nil {
		return b.WriteIDs(int(g.M.Vertices), func(i int) uint64 { return g.idAt(int64(i)) })
	}
	return nil
}

// legacyGraph is a graph of versions 2 to 4 opened for upgrading.
type legacyGraph struct {
	dir     string
	m       *Manifest
	out, in []*legacyShard
	ids     *Graph // only its ids: openIDs
}

// legacyShard is one shard of versions 2 to 4: DEGREES, OFFSETS, ADJ in the delta-varint
// codec of legacy.go, and WEIGHTS in version 4.
type legacyShard struct {
	path    string
	h       *shardHeader
	deg     []uint32
	off     []uint32
	adj     []byte
	weights []uint32
	data    mmap.MMap
}

// openLegacy opens the graph at dir for upgrading: an older version's manifest, shards
// that match it, their checksums and offsets, and ids.bin.
func openLegacy(dir string) (*legacyGraph, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	g := &legacyGraph{dir: dir, m: m}
	for _, d := range []Direction{Out, In} {
		infos := m.Out
		if d == In {
			infos = m.In
		}
		for _, info := range infos {
			s, err := openLegacyShard(filepath.Join(dir, info.File), d, info, m)
			if err != nil {
				g.close()
				return nil, err
			}
			if d == Out {
				g.out = append(g.out, s)
			} else {
				g.in = append(g.in, s)
			}
		}
	}
	if m.IDs != nil {
		g.ids = &Graph{Dir: dir, M: m}
		if err := g.ids.openIDs(graphDir{path: dir}); err != nil {
			g.close()
			return nil, err
		}
	}
	return g, nil
}

func openLegacyShard(path string, d Direction, info ShardInfo, m *Manifest) (*legacyShard, error) {
	f, err := graphDir{path: filepath.Dir(path)}.open(filepath.Base(path))
	if err != nil {
		return nil, openFailed(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if st.Size() != info.Bytes || st.Size() < headerSize+footerSize {
		return nil, corrupt(path, -1, "is %s, the manifest says %d", plural.Of(st.Size(), "byte"), info.Bytes)
	}
	data, err := mmap.Map(f, mmap.RDONLY, 0)
	if err != nil {
		return nil, fmt.Errorf("store: mmap %s: %w", path, err)
	}
	s := &legacyShard{path: path, data: data}
	if err := s.check(d, info, m); err != nil {
		data.Unmap()
		return nil, err
	}
	return s, nil
}

// check reads the header and every section of the shard and checks them against the
// manifest's record of it.
func (s *legacyShard) check(d Direction, info ShardInfo, m *Manifest) error {
	h, err := parseShard(s.path, s.data)
	if err != nil {
		return err
	}
	s.h = h
	switch {
	case h.Version != m.FormatVersion:
		return corrupt(s.path, 8, "format version %d in a graph of version %d", h.Version, m.FormatVersion)
	case fmt.Sprintf("%08x", h.CRC) != info.HeaderCRC:
		return corrupt(s.path, headerSize-4, "header checksum %08x, the manifest expects %s", h.CRC, info.HeaderCRC)
	case h.Dir != d || h.Lo != info.Lo || h.Lo+h.N != info.Hi || h.Edges != info.Edges:
		return corrupt(s.path, 12, "holds %s [%d, %d) with %d edges, the manifest says %s [%d, %d) with %d", h.Dir, h.Lo, h.Lo+h.N, h.Edges, d, info.Lo, info.Hi, info.Edges)
	}
	for _, sec := range h.Sections {
		if got := CRC32C(s.data[sec.Offset : sec.Offset+sec.Length]); got != sec.CRC {
			return corrupt(s.path, sec.Offset, "section %d checksum %08x, computed %08x", sec.ID, sec.CRC, got)
		}
	}
	deg, ok1 := h.section(SecDegrees)
	off, ok2 := h.section(SecOffsets)
	adj, ok3 := h.section(SecAdj)
	w, ok4 := h.section(SecWeights)
	switch {
	case !ok1 || !ok2 || !ok3:
		return corrupt(s.path, 36, "missing a DEGREES, OFFSETS or ADJ section")
	case ok4 != (h.Version == 4):
		return corrupt(s.path, 8, "format version %d with a WEIGHTS section: %v (version 4 and only it has one)", h.Version, ok4)
	case deg.Length != 4*int64(h.N) || off.Length != 4*(int64(h.N)+1):
		return corrupt(s.path, deg.Offset, "DEGREES and OFFSETS are %d and %d bytes, expected %d and %d", deg.Length, off.Length, 4*int64(h.N), 4*(int64(h.N)+1))
	case ok4 && w.Length != 4*int64(h.Edges):
		return corrupt(s.path, w.Offset, "WEIGHTS is %d bytes, expected %d", w.Length, 4*int64(h.Edges))
	}
	s.deg = u32s(s.data[deg.Offset : deg.Offset+deg.Length])
	s.off = u32s(s.data[off.Offset : off.Offset+off.Length])
	s.adj = s.data[adj.Offset : adj.Offset+adj.Length]
	if ok4 {
		s.weights = u32s(s.data[w.Offset : w.Offset+w.Length])
	}
	if s.off[0] != 0 || int64(s.off[h.N]) != adj.Length {
		return corrupt(s.path, off.Offset, "offsets run from %d to %d, expected 0 to %d (the ADJ length)", s.off[0], s.off[h.N], adj.Length)
	}
	var sum uint64
	for i := uint32(0); i < h.N; i++ {
		if s.off[i+1] < s.off[i] {
			return corrupt(s.path, off.Offset+4*int64(i+1), "offset of vertex %d (%d) is below the previous one (%d)", h.Lo+i+1, s.off[i+1], s.off[i])
		}
		sum += uint64(s.deg[i])
	}
	if sum != h.Edges {
		return corrupt(s.path, deg.Offset, "degrees sum to %d, header says %d edges", sum, h.Edges)
	}
	return nil
}

// copyTo decodes every list (and its weights) and appends it to b, then the ids.
func (g *legacyGraph) copyTo(b *Builder) error {
	var buf []uint32
	for d, shards := range [][]*legacyShard{g.out, g.in} {
		w := b.Writer(Direction(d))
		for _, s := range shards {
			var e uint64
			for i := uint32(0); i < s.h.N; i++ {
				v, deg := s.h.Lo+i, s.deg[i]
				var err error
				buf, err = legacyDecodeList(buf[:0], v, deg, s.adj[s.off[i]:s.off[i+1]], g.m.Vertices)
				if err != nil {
					sec, _ := s.h.section(SecAdj)
					return corrupt(s.path, sec.Offset+int64(s.off[i]), "adjacency list of vertex %d does not decode to its %d neighbours", v, deg)
				}
				var ws []uint32
				if s.weights != nil {
					ws = s.weights[e : e+uint64(deg)]
				}
				e += uint64(deg)
				if deg > 0 {
					if err := w.AppendWeightedList(v, buf, ws); err != nil {
						return err
					}
				}
			}
		}
	}
	if g.ids != nil {
		return b.WriteIDs(int(g.m.Vertices), func(i int) uint64 { return g.ids.idAt(int64(i)) })
	}
	return nil
}

func (g *legacyGraph) manifest() *Manifest { return g.m }

func (g *legacyGraph) close() {
	for _, s := range append(append([]*legacyShard{}, g.out...), g.in...) {
		s.data.Unmap()
	}
	if g.ids != nil && g.ids.idm != nil {
		g.ids.idm.Unmap()
	}
}
