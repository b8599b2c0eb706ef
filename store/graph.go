package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"sync"
	"syscall"

	mmap "github.com/edsrzf/mmap-go"
	"github.com/oocgraph/ooc/internal/fault"
	"github.com/oocgraph/ooc/internal/plural"
)

// Graph is an open graph directory: the manifest and every shard mapped read-only and
// shared (which is what cuMemHostRegister accepts with READ_ONLY; docs/design-link-policy.md).
//
// Opening checks every structure that a reader could trip over (manifest checksum,
// shard headers, footers, section bounds, the tie between manifest and shard headers);
// the section checksums are checked by Shard.Check or Graph.Check, which engines call
// before computing, so corrupt bytes never produce an answer.
type Graph struct {
	Dir string
	M   *Manifest
	out *CSR
	in  *CSR
	// ids.bin, when the manifest lists it: original id of each internal vertex
	ids32  []uint32
	ids64  []uint64
	idsAsc bool
	idm    mmap.MMap
	// use guards closed and users: Use counts a reader in, Close waits for none
	use    sync.Mutex
	idle   sync.Cond // signalled by the last Use's done
	users  int       // Use calls not yet done
	closed bool      // Close began: no new Use; the mappings go when users reach 0
	gone   bool      // Close unmapped everything
	// the compact ids.bin's varints (ids.go), decoded into ids32 or ids64 at open
	idsDelta []byte
}

// ErrClosed is matched by the error of Check on a graph that was closed.
var ErrClosed = errors.New("graph is closed")

// Closed reports whether Close has been called: the graph's lists are unmapped, or will
// be once the reads in flight (Use) end, and must not be read.
func (g *Graph) Closed() bool {
	g.use.Lock()
	defer g.use.Unlock()
	return g.closed
}

// Use holds the graph's mappings for a reader until it calls done (once): Close waits
// for every Use in flight to end before it unmaps, so that a search running while
// another goroutine closes the graph finishes on mapped bytes instead of faulting. On a
// graph that Close was called on it returns an error matching ErrClosed. Every engine
// run and Check hold one; a caller reading lists itself (NewCompressed) may too.
func (g *Graph) Use() (done func(), err error) {
	g.use.Lock()
	defer g.use.Unlock()
	if g.closed {
		return nil, fmt.Errorf("store: %s: %w", g.Dir, ErrClosed)
	}
	g.users++
	var once sync.Once
	return func() {
		once.Do(func() {
			g.use.Lock()
			defer g.use.Unlock()
			if g.users--; g.users == 0 && g.idle.L != nil {
				g.idle.Broadcast()
			}
		})
	}, nil
}

// CSR is one direction of a graph as its shards in vertex order.
type CSR struct {
	Dir    Direction
	N      uint32 // vertices of the graph
	Edges  uint64
	Shards []*Shard
}

// Open opens the graph directory dir. A graph replaced while it is being opened (ingest
// --force publishes a new directory under the same name) is opened again, up to a few
// times, so that the result is the old graph or the new one, never a mix: every file is
// opened relative to one open handle on the directory, and the directory at dir must
// still be that one after all its files were opened.
func Open(dir string) (*Graph, error) {
	if dir == "" {
		return nil, fmt.Errorf("store: an empty name, not a graph directory: %w", ErrNotGraph)
	}
	for attempt := 0; ; attempt++ {
		g, same, err := openOnce(dir)
		if same || attempt == 8 {
			return g, err
		}
		if g != nil {
			g.Close()
		}
	}
}

// openOnce opens the graph at dir and reports whether dir still names the directory
// its files came from. The open handle keeps that directory's inode alive, so a
// directory published under the name meanwhile cannot carry the same inode number.
func openOnce(dir string) (g *Graph, same bool, err error) {
	// OpenRoot opens whatever dir names, and the open of a FIFO waits for a writer:
	// only a directory is opened as one.
	var root *os.Root
	if st, serr := os.Stat(dir); serr == nil && st.IsDir() {
		root, err = os.OpenRoot(dir)
	} else {
		err = fs.ErrInvalid
	}
	if err != nil {
		// No directory to hold: open by name, for the errors that say what dir is.
		g, err := open(graphDir{path: dir}, Version)
		return g, true, err
	}
	defer root.Close()
	before, err1 := root.Stat(".")
	g, err = open(graphDir{path: dir, root: root}, Version)
	after, err2 := os.Stat(dir)
	return g, err1 == nil && err2 == nil && os.SameFile(before, after), err
}

// testHookManifestRead, when set by a test, runs between reading a graph's manifest and
// opening its shards.
var testHookManifestRead func()

// graphDir opens the files of one graph directory: through root when it is set, so that
// all of them come from the directory root was opened on, else by joining path.
type graphDir struct {
	path string
	root *os.Root
}

// open opens the file name of d for reading. A file that is not a regular file (a FIFO,
// whose open would wait for a writer, a directory, a device) is refused as corrupt, as
// is a symbolic link that leaves the directory (root refuses it); errors name the file
// by its path under d.path.
func (d graphDir) open(name string) (*os.File, error) {
	path := filepath.Join(d.path, name)
	var f *os.File
	var err error
	if d.root != nil {
		f, err = d.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	} else {
		f, err = os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && pe.Err.Error() == "path escapes from parent" {
			return nil, corrupt(path, -1, "a symbolic link out of the graph directory; expected a file inside it")
		}
		if errors.As(err, &pe) {
			pe.Path = path
		}
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, corrupt(path, -1, "is a %s, expected a regular file", fileKind(st.Mode()))
	}
	return f, nil
}

// fileKind names the type of a file that is not a regular file.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "special file"
}

// openFailed is the error of a file of the graph that d.open could not open: a
// CorruptError as it is, else with the package's prefix.
func openFailed(err error) error {
	var ce *CorruptError
	if errors.As(err, &ce) {
		return err
	}
	return fmt.Errorf("store: %w", err)
}

// open opens the graph of d, refusing a format version other than oldest to Version (the
// engines read only Version; Upgrade reads the versions with a DIRECTORY through it too).
func open(d graphDir, oldest uint32) (*Graph, error) {
	dir := d.path
	m, err := readManifest(d)
	if err != nil {
		return nil, err
	}
	if testHookManifestRead != nil {
		testHookManifestRead()
	}
	if m.FormatVersion < oldest || m.FormatVersion > MaxVersion {
		return nil, &OldVersionError{Dir: dir, Version: m.FormatVersion}
	}
	g := &Graph{Dir: dir, M: m}
	if g.out, err = openCSR(d, Out, m.Out, m); err != nil {
		g.Close()
		return nil, err
	}
	g.in = g.out
	if m.Directed {
		if g.in, err = openCSR(d, In, m.In, m); err != nil {
			g.Close()
			return nil, err
		}
	}
	if m.IDs != nil {
		if err := g.openIDs(d); err != nil {
			g.Close()
			return nil, err
		}
	}
	return g, nil
}

func openCSR(gd graphDir, d Direction, infos []ShardInfo, m *Manifest) (*CSR, error) {
	c := &CSR{Dir: d, N: m.Vertices, Edges: m.Edges}
	for _, info := range infos {
		path := filepath.Join(gd.path, info.File)
		s, err := openShardIn(gd, info.File, m.Vertices)
		if err != nil {
			c.close()
			return nil, err
		}
		c.Shards = append(c.Shards, s)
		want := fmt.Sprintf("%08x", s.HeaderCRC)
		switch {
		case s.Dir != d:
			err = corrupt(path, 12, "holds %s-edges, the manifest lists it as %s", s.Dir, d)
		case s.Lo != info.Lo || s.Hi() != info.Hi:
			err = corrupt(path, 16, "covers [%d, %d), the manifest says [%d, %d)", s.Lo, s.Hi(), info.Lo, info.Hi)
		case s.Edges != info.Edges:
			err = corrupt(path, 24, "holds %d edges, the manifest says %d", s.Edges, info.Edges)
		case s.Version != m.FormatVersion:
			err = corrupt(path, 8, "format version %d in a graph of version %d (a shard of another graph?)", s.Version, m.FormatVersion)
		case (s.Weights != nil) != m.Weighted:
			err = corrupt(path, 36, "holds weights: %v, the manifest says weighted: %v", s.Weights != nil, m.Weighted)
		case fmt.Sprintf("%016x", s.GraphID) != m.GraphID:
			err = corrupt(path, graphIDAt, "belongs to graph %016x, the manifest is graph %s (a shard of another graph)", s.GraphID, m.GraphID)
		case want != info.HeaderCRC:
			err = corrupt(path, headerSize-4, "header checksum %s, the manifest expects %s (a shard of another graph?)", want, info.HeaderCRC)
		case int64(len(s.data)) != info.Bytes:
			err = corrupt(path, -1, "is %s, the manifest says %d", plural.Of(len(s.data), "byte"), info.Bytes)
		}
		if err != nil {
			c.close()
			return nil, err
		}
	}
	return c, nil
}

func (c *CSR) close() {
	for _, s := range c.Shards {
		s.close()
	}
}

// ShardOf returns the shard holding vertex v (v < N).
func (c *CSR) ShardOf(v uint32) *Shard {
	i := sort.Search(len(c.Shards), func(i int) bool { return c.Shards[i].Hi() > v })
	return c.Shards[i]
}

// Check runs Shard.Check on every shard, in parallel, and returns the first error.
func (c *CSR) Check() error { return checkShards(c.Shards) }

func checkShards(shards []*Shard) error {
	var (
		wg   fault.Group
		next = make(chan *Shard)
		mu   sync.Mutex
		errs = make(map[*Shard]error)
	)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Go(func() {
			for s := range next {
				if err := s.Check(); err != nil {
					mu.Lock()
					errs[s] = err
					mu.Unlock()
				}
			}
		})
	}
	for _, s := range shards {
		next <- s
	}
	close(next)
	wg.Wait()
	for _, s := range shards { // report the first bad shard in file order
		if err := errs[s]; err != nil {
			return err
		}
	}
	return nil
}

// NumVertices is the number of vertices.
func (g *Graph) NumVertices() uint32 { return g.M.Vertices }

// NumEdges is the number of directed edges stored per direction.
func (g *Graph) NumEdges() uint64 { return g.M.Edges }

// Directed reports whether the graph keeps edge directions.
func (g *Graph) Directed() bool { return g.M.Directed }

// Out is the out-adjacency (all adjacency of an undirected graph).
func (g *Graph) Out() *CSR { return g.out }

// In is the in-adjacency; for an undirected graph it is Out.
func (g *Graph) In() *CSR { return g.in }

// Shards lists every distinct shard of the graph.
func (g *Graph) Shards() []*Shard {
	s := append([]*Shard{}, g.out.Shards...)
	if g.in != g.out {
		s = append(s, g.in.Shards...)
	}
	return s
}

// Check verifies the section checksums of every shard (in parallel) and that ids.bin
// gives no two vertices the same id.
func (g *Graph) Check() error {
	done, err := g.Use()
	if err != nil {
		return err
	}
	defer done()
	if err := checkShards(g.Shards()); err != nil {
		return err
	}
	return g.checkIDsDistinct()
}

// Close unmaps everything once the reads in flight (Use) have ended: it refuses new
// ones at once and waits for those. Slices obtained from the graph must not be used
// afterwards. A second Close waits for the first.
func (g *Graph) Close() error {
	g.use.Lock()
	defer g.use.Unlock()
	g.idle.L = &g.use
	if g.closed {
		for !g.gone {
			g.idle.Wait()
		}
		return nil
	}
	g.closed = true
	for g.users > 0 {
		g.idle.Wait()
	}
	defer g.idle.Broadcast()
	g.gone = true
	if g.out != nil {
		g.out.close()
	}
	if g.in != nil && g.in != g.out {
		g.in.close()
	}
	if g.idm != nil {
		g.idm.Unmap()
		g.idm = nil
	}
	return nil
}

const (
	idsMagic     = "OOCIDS02"
	idsHeader    = 24 // magic, count, width, flags
	idsAscending = 1  // flags bit 0: the ids ascend, so original -> internal is a binary search
)

// IDsFileBytes is the size of an ids.bin of n ids of width bytes (FORMAT.md).
func IDsFileBytes(n int64, width int) int64 { return idsHeader + int64(width)*n + 4 + 8 }

func (g *Graph) openIDs(d graphDir) error {
	path := filepath.Join(g.Dir, g.M.IDs.File)
	if g.M.IDs.File != idsFile {
		return corrupt(filepath.Join(g.Dir, ManifestName), -1, "ids file %q, expected %s", g.M.IDs.File, idsFile)
	}
	f, err := d.open(g.M.IDs.File)
	if errors.Is(err, fs.ErrNotExist) {
		return corrupt(path, -1, "ids file listed in the manifest is missing")
	}
	if err != nil {
		return openFailed(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	n := int64(g.M.Vertices)
	var magic [8]byte
	if _, err := f.ReadAt(magic[:], 0); err == nil && string(magic[:]) == idsDeltaMagic {
		return g.openDeltaIDs(f, path, st.Size())
	}
	if st.Size() != IDsFileBytes(n, 4) && st.Size() != IDsFileBytes(n, 8) {
		return corrupt(path, -1, "is %s, expected %d or %d for %s", plural.Of(st.Size(), "byte"), IDsFileBytes(n, 4), IDsFileBytes(n, 8), plural.Of(n, "id"))
	}
	m, err := mmap.Map(f, mmap.RDONLY, 0)
	if err != nil {
		return fmt.Errorf("store: mmap %s: %w", path, err)
	}
	g.idm = m
	registerMapping(m, path)
	le := binary.LittleEndian
	end := len(m) - 12
	width, flags := int64(le.Uint32(m[16:])), le.Uint32(m[20:])
	switch {
	case string(m[:8]) != idsMagic || string(m[len(m)-8:]) != idsMagic:
		return corrupt(path, 0, "bad magic, expected %q at both ends", idsMagic)
	case int64(le.Uint64(m[8:])) != n:
		return corrupt(path, 8, "holds %s, expected %d", plural.Of(le.Uint64(m[8:]), "id"), n)
	case (width != 4 && width != 8) || st.Size() != IDsFileBytes(n, int(width)):
		return corrupt(path, 16, "id width %d for a file of %d bytes, expected 4 or 8 to match it", width, st.Size())
	case flags&^idsAscending != 0:
		return corrupt(path, 20, "flags %#x, expected only bit 0", flags)
	}
	if err := g.checkIDsSum(path, m); err != nil {
		return err
	}
	g.idsAsc = flags&idsAscending != 0
	if n > 0 && width == 4 {
		g.ids32 = u32s(m[idsHeader:end])
	} else if n > 0 {
		g.ids64 = unsafeU64s(m[idsHeader:end])
	}
	if g.idsAsc {
		for i := int64(1); i < n; i++ {
			if g.idAt(i) <= g.idAt(i-1) {
				return corrupt(path, idsHeader+width*i, "ids flagged ascending but not at index %d", i)
			}
		}
	}
	return nil
}

// checkIDsSum checks the CRC32C that ids.bin m (either layout) ends with, before its
// closing magic, against its bytes and against the manifest's: a valid ids.bin of
// another graph with as many vertices passes every other check.
func (g *Graph) checkIDsSum(path string, m []byte) error {
	end := len(m) - 12
	sum := binary.LittleEndian.Uint32(m[end:])
	switch {
	case CRC32C(m[:end]) != sum:
		return corrupt(path, int64(end), "checksum %08x, computed %08x", sum, CRC32C(m[:end]))
	case fmt.Sprintf("%08x", sum) != g.M.IDs.CRC:
		return corrupt(path, int64(end), "checksum %08x, the manifest expects %s (the ids of another graph?)", sum, g.M.IDs.CRC)
	}
	return nil
}

// openDeltaIDs reads the compact ids.bin (ids.go), size bytes, into ids32 or ids64.
func (g *Graph) openDeltaIDs(f *os.File, path string, size int64) error {
	n := int64(g.M.Vertices)
	if size < IDsFileBytes(0, 4) {
		return corrupt(path, size, "is %s, shorter than an empty ids.bin (%d)", plural.Of(size, "byte"), IDsFileBytes(0, 4))
	}
	// the file is read whole: no larger than n varints take (1 to 10 bytes each)
	if most := IDsFileBytes(0, 4) + 10*n; size > most {
		return corrupt(path, -1, "is %s, more than the varints of %s take (at most %d)", plural.Of(size, "byte"), plural.Of(n, "id"), most)
	}
	m := make([]byte, size)
	if _, err := f.ReadAt(m, 0); err != nil {
		return fmt.Errorf("store: reading %s: %w", path, err)
	}
	le := binary.LittleEndian
	end := len(m) - 12
	width, flags := int64(le.Uint32(m[16:])), le.Uint32(m[20:])
	switch {
	case string(m[len(m)-8:]) != idsDeltaMagic:
		return corrupt(path, size-8, "bad magic at the end, expected %q (truncated?)", idsDeltaMagic)
	case int64(le.Uint64(m[8:])) != n:
		return corrupt(path, 8, "holds %s, expected %d", plural.Of(le.Uint64(m[8:]), "id"), n)
	case width != 4 && width != 8:
		return corrupt(path, 16, "id width %d, expected 4 or 8", width)
	case flags&^idsAscending != 0:
		return corrupt(path, 20, "flags %#x, expected only bit 0", flags)
	}
	if err := g.checkIDsSum(path, m); err != nil {
		return err
	}
	if size != g.M.IDs.Bytes {
		return corrupt(path, -1, "is %s, the manifest says %d", plural.Of(size, "byte"), g.M.IDs.Bytes)
	}
	g.idsAsc = flags&idsAscending != 0
	var err error
	g.ids32, g.ids64, err = decodeDeltaIDs(path, m[idsHeader:end], uint64(n), int(width), g.idsAsc)
	if err != nil {
		return err
	}
	g.idsDelta = m[idsHeader:end]
	return nil
}

// IDsCompact says whether ids.bin stores the ids as varints of their differences (the
// compact layout, FORMAT.md) rather than 4 or 8 bytes each.
func (g *Graph) IDsCompact() bool { return g.idsDelta != nil }

// idOffset is where vertex i's id lies in ids.bin, for errors.
func (g *Graph) idOffset(i int64) int64 {
	if g.idsDelta != nil {
		return deltaIDOffset(g.idsDelta, i)
	}
	if g.ids64 != nil {
		return idsHeader + 8*i
	}
	return idsHeader + 4*i
}

func (g *Graph) idAt(i int64) uint64 {
	if g.ids32 != nil {
		return uint64(g.ids32[i])
	}
	return g.ids64[i]
}

// ErrNoVertex is matched by errors for ids that name no vertex of the graph.
var ErrNoVertex = errors.New("no such vertex")

// noVertex is what External panics with for v, not a vertex of a graph of n vertices;
// a value, not a call, so that External stays cheap enough to inline.
type noVertex struct{ v, n uint32 }

func (e noVertex) Error() string {
	return fmt.Sprintf("store: External(%d): vertex %d is not in the graph (it has %d vertices)", e.v, e.v, e.n)
}

func (e noVertex) Unwrap() error { return ErrNoVertex }

// Internal maps an id as the user knows it (the input file's own id) to the internal
// vertex number.
func (g *Graph) Internal(id uint64) (uint32, error) {
	if g.M.IDs != nil {
		n := int(g.M.Vertices)
		i := n
		switch {
		case g.idsAsc:
			i = sort.Search(n, func(i int) bool { return g.idAt(int64(i)) >= id })
		case g.ids32 != nil && id <= math.MaxUint32:
			// degree order: one scan (4 bytes a vertex) costs less than building the inverse
			if j := slices.Index(g.ids32, uint32(id)); j >= 0 {
				i = j
			}
		case g.ids64 != nil:
			if j := slices.Index(g.ids64, id); j >= 0 {
				i = j
			}
		}
		if i == n || g.idAt(int64(i)) != id {
			return 0, fmt.Errorf("vertex %d does not occur in the graph: %w", id, ErrNoVertex)
		}
		return uint32(i), nil
	}
	base := uint64(g.M.IDBase)
	if id < base || id-base >= uint64(g.M.Vertices) {
		if g.M.Vertices == 0 {
			return 0, fmt.Errorf("vertex %d is not in the graph (it has no vertices): %w", id, ErrNoVertex)
		}
		return 0, fmt.Errorf("vertex %d is not in the graph (ids run from %d to %d): %w", id, base, base+uint64(g.M.Vertices)-1, ErrNoVertex)
	}
	return uint32(id - base), nil
}

// External maps an internal vertex number back to the id the user knows. v must be a
// vertex (below NumVertices), as an index into Shard.Degree must: any other v panics
// with an error matching ErrNoVertex, with an id list or without, rather than name an id
// no vertex has. Internal is the checked lookup of the other direction.
func (g *Graph) External(v uint32) uint64 {
	if v >= g.M.Vertices {
		panic(noVertex{v, g.M.Vertices})
	}
	if g.M.IDs != nil {
		return g.idAt(int64(v))
	}
	return uint64(v) + uint64(g.M.IDBase)
}
