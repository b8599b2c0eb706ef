package store

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ErrExists is returned by Create when the destination exists and Force is not set.
var ErrExists = errors.New("output exists")

// ErrNoParent is matched by Create's error for an output whose directory does not exist.
var ErrNoParent = errors.New("its directory does not exist")

// ErrNotGraph is matched by errors for paths that hold no graph.
var ErrNotGraph = errors.New("not an ooc graph")

// ErrLocked is returned by Create when another process is writing the same graph.
var ErrLocked = errors.New("graph is being written by another process")

// DefaultShardBytes keeps each shard's ADJ within the ~512 MiB window in which random
// zero-copy GPU reads stay at link speed (docs/design-link-policy.md).
const DefaultShardBytes = 512 << 20

// MaxShardBytes is the largest ShardBytes: an ADJ section's offsets are 32 bits.
const MaxShardBytes = 1<<32 - 1

// CheckShardBytes refuses a ShardBytes that is negative or above MaxShardBytes (0 is
// the default). A build with more would fail at its first shard past 4 GiB, after
// writing it.
func CheckShardBytes(b int64) error {
	if b < 0 || b > MaxShardBytes {
		return fmt.Errorf("store: ShardBytes %d: want 0 (the default, %d) to %d: %w", b, int64(DefaultShardBytes), int64(MaxShardBytes), ErrBadShardBytes)
	}
	return nil
}

// ErrBadShardBytes is matched by CheckShardBytes's error.
var ErrBadShardBytes = errors.New("shard size out of range")

// DefaultShardVertices bounds the per-shard DEGREES and OFFSETS arrays that a writer
// holds in memory (128 MiB for both).
const DefaultShardVertices = 1 << 24

// CreateOptions shape a Builder.
type CreateOptions struct {
	Force         bool      // replace an existing graph at the destination
	Log           io.Writer // where Create reports the leftovers of killed builds it removes; nil = nowhere
	ShardBytes    int64     // ADJ bytes per shard; 0 means DefaultShardBytes; at most MaxShardBytes
	ShardVertices uint32    // vertices per shard; 0 means DefaultShardVertices
	GraphID       uint64    // the graph's identity in every file; 0 means one derived from its content (identify)
	Weighted      bool      // every list comes with its edge weights (a WEIGHTS section)
	FloatWeights  bool      // with Weighted: the weights are float32 bit patterns (format version 7)
}

// version is the format version the builder writes: FloatVersion for float32 weights,
// Version for every other graph.
func (b *Builder) version() uint32 {
	if b.opt.Weighted && b.opt.FloatWeights {
		return FloatVersion
	}
	return Version
}

// Builder writes a graph directory under a temporary name and publishes it atomically
// (FORMAT.md, "Publishing").
type Builder struct {
	dest, tmp string
	opt       CreateOptions
	lock      *os.File
	out, in   *CSRWriter
	ids       *IDsInfo
	idsN      int // the ids WriteIDs wrote
	done      bool
	// beforePublish, when set, checks the complete temporary directory; an error
	// leaves the destination as it was (Upgrade verifies the graph it rewrote).
	beforePublish func(tmp string) error
}

// Create starts a graph at dest. It takes the destination's lock, refuses an existing
// destination unless opt.Force, and removes temporary directories that earlier, killed
// builds left behind in the destination's directory (cleanStale).
func Create(dest string, opt CreateOptions) (*Builder, error) {
	if err := CheckShardBytes(opt.ShardBytes); err != nil {
		return nil, err
	}
	if opt.ShardBytes == 0 {
		opt.ShardBytes = DefaultShardBytes
	}
	if opt.ShardVertices == 0 {
		opt.ShardVertices = DefaultShardVertices
	}
	dest = filepath.Clean(dest)
	parent, base := filepath.Dir(dest), filepath.Base(dest)
	if base == "." || base == ".." || base == string(filepath.Separator) {
		// a directory that holds, or is above, where the graph would be: its lock
		// would lie inside it ("...lock" for ".")
		return nil, fmt.Errorf("store: %s is the current directory, its parent or the root; name the graph directory to create (e.g. g.ooc): %w", dest, ErrExists)
	}
	if st, err := os.Stat(parent); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("store: cannot create %s: %w", dest, ErrNoParent)
	}
	if err := checkNotInsideGraph(dest); err != nil {
		return nil, err
	}
	lock, err := lockFile(filepath.Join(parent, "."+base+".lock"))
	if pe, ok := err.(*fs.PathError); ok {
		// the lock is the first file made beside dest: a read-only or forbidden
		// directory fails here, and the lock's name tells the user nothing
		return nil, fmt.Errorf("store: cannot write %s in %s: %w", base, parent, pe.Err)
	}
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", dest, err)
	}
	b := &Builder{dest: dest, opt: opt, lock: lock}
	if _, err := os.Lstat(dest); err == nil {
		if !opt.Force {
			b.unlock()
			return nil, fmt.Errorf("store: %s exists (use --force to replace it): %w", dest, ErrExists)
		}
		if err := replaceable(dest); err != nil {
			b.unlock()
			return nil, err
		}
	}
	cleanStale(parent, base, opt.Log)
	b.tmp, err = mkdirTemp(parent, "."+base+".tmp-")
	if err != nil {
		b.unlock()
		return nil, fmt.Errorf("store: %w", err)
	}
	b.out = &CSRWriter{b: b, dir: Out}
	b.in = &CSRWriter{b: b, dir: In}
	return b, nil
}

// mkdirTemp is os.MkdirTemp with the mode of mkdir (0777 less the umask) instead of
// 0700: the directory becomes the graph, which other users should be able to read as
// they read its files.
func mkdirTemp(dir, prefix string) (string, error) {
	for range 1000 {
		path := filepath.Join(dir, prefix+strconv.FormatUint(rand.Uint64()%1e12, 10))
		err := os.Mkdir(path, 0o777)
		if err == nil || !os.IsExist(err) {
			return path, err
		}
	}
	return "", fmt.Errorf("store: no unused temporary name %s* in %s", prefix, dir)
}

// replaceable says whether dest, which exists, is something --force may replace: a graph
// directory (a manifest, shards, ids.bin) or an empty directory. Anything else (a file,
// the input itself, a directory holding other files) is refused rather than deleted.
func replaceable(dest string) error {
	st, err := os.Lstat(dest)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if st.Mode()&os.ModeSymlink != 0 {
		to, _ := os.Readlink(dest)
		return fmt.Errorf("store: %s is a symbolic link (to %s); --force replaces a graph directory, not a link to one (name the graph itself, or remove the link): %w", dest, to, ErrExists)
	}
	if !st.IsDir() {
		return fmt.Errorf("store: %s exists and is not a graph directory; --force replaces only a graph (remove it first): %w", dest, ErrExists)
	}
	entries, err := os.ReadDir(dest)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	for _, e := range entries {
		name := e.Name()
		if e.Type().IsRegular() && (name == ManifestName || name == idsFile || isShardName(name)) {
			continue
		}
		return fmt.Errorf("store: %s holds %s, which is not part of a graph; --force replaces only a graph directory (remove it first): %w", dest, name, ErrExists)
	}
	return nil
}

// idsFile is the name of the id map.
const idsFile = "ids.bin"

// TempDir is where the graph is being built; it also suits the build's spill files.
func (b *Builder) TempDir() string { return b.tmp }

// Writer returns the writer of one direction.
func (b *Builder) Writer(d Direction) *CSRWriter {
	if d == In {
		return b.in
	}
	return b.out
}

// WriteIDs writes ids.bin for n vertices: at(i) is the original id of internal vertex i.
// The ids are stored 4 bytes wide when all fit, and flagged ascending when they are; as
// varints of their differences (idsDeltaMagic, ids.go) when that is smaller and n is at
// most IDsDeltaMax (FORMAT.md, "ids.bin").
func (b *Builder) WriteIDs(n int, at func(i int) uint64) error {
	path := filepath.Join(b.tmp, idsFile)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer f.Close()
	width, asc, delta := idsLayout(n, at)
	flags, magic, bytes := uint32(0), idsMagic, IDsFileBytes(int64(n), width)
	if asc {
		flags = idsAscending
	}
	if delta > 0 {
		magic, bytes = idsDeltaMagic, delta
	}
	h := newCRC()
	w := bufio.NewWriterSize(io.MultiWriter(f, h), 1<<20)
	var buf [8]byte
	le := binary.LittleEndian
	w.WriteString(magic)
	le.PutUint64(buf[:], uint64(n))
	w.Write(buf[:])
	le.PutUint32(buf[:], uint32(width))
	le.PutUint32(buf[4:], flags)
	w.Write(buf[:])
	// The ids go out in pieces of 64K: one Write call an id was most of the time.
	piece := make([]byte, 0, width<<16)
	var prev uint64
	for i := 0; i < n; {
		end := min(n, i+1<<16)
		piece = piece[:0]
		switch {
		case delta > 0:
			piece, prev = appendDeltaIDs(piece, prev, i, end, at)
		case width == 4:
			for j := i; j < end; j++ {
				piece = le.AppendUint32(piece, uint32(at(j)))
			}
		default:
			for j := i; j < end; j++ {
				piece = le.AppendUint64(piece, at(j))
			}
		}
		w.Write(piece)
		i = end
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("store: writing %s: %w", path, err)
	}
	crc := h.Sum32()
	le.PutUint32(buf[:4], crc)
	if _, err := f.Write(append(buf[:4:4], magic...)); err != nil {
		return fmt.Errorf("store: writing %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	b.ids, b.idsN = &IDsInfo{File: idsFile, Bytes: bytes, CRC: fmt.Sprintf("%08x", crc)}, n
	return nil
}

// Commit finishes the shards (padding both directions to m.Vertices), fills in the
// manifest's shard lists, sizes and ids, writes it last and publishes the directory.
func (b *Builder) Commit(m *Manifest) error {
	if b.done {
		return errors.New("store: Commit after Commit or Abort")
	}
	err := b.commit(m)
	if err != nil {
		b.Abort()
	}
	return err
}

func (b *Builder) commit(m *Manifest) error {
	// Both directions' last shards finish at once.
	var err error
	if err = b.out.finish(m.Vertices); err != nil {
		return err
	}
	if m.Directed {
		if err = b.in.finish(m.Vertices); err != nil {
			return err
		}
	}
	if m.Out, err = b.out.wait(); err != nil {
		return err
	}
	m.In = nil
	if m.Directed {
		if m.In, err = b.in.wait(); err != nil {
			return err
		}
	}
	m.Edges = b.out.edges
	if m.Directed && b.in.edges != m.Edges {
		return fmt.Errorf("store: %d out-edges but %d in-edges", m.Edges, b.in.edges)
	}
	m.IDs = b.ids
	m.Weighted = b.opt.Weighted
	m.WeightType = ""
	if b.opt.Weighted && b.opt.FloatWeights {
		m.WeightType = WeightFloat32
	}
	if m.IDs != nil && b.idsN != int(m.Vertices) {
		return fmt.Errorf("store: refusing to publish: ids.bin holds %d ids for %d vertices", b.idsN, m.Vertices)
	}
	if m.VertexOrder == "" {
		m.VertexOrder = OrderInput
	}
	if want := HasIDs(m.Relabeled, m.VertexOrder); want != (m.IDs != nil) {
		return fmt.Errorf("store: relabeled %v, vertex order %q, but ids.bin written: %v", m.Relabeled, m.VertexOrder, m.IDs != nil)
	}
	m.Options.ShardBytes, m.Options.BlockSize = b.opt.ShardBytes, BlockSize
	if m.Created == "" {
		m.Created = time.Now().UTC().Format(time.RFC3339)
	}
	m.Bytes = 0
	for _, s := range append(append([]ShardInfo{}, m.Out...), m.In...) {
		m.Bytes += s.Bytes
	}
	if m.IDs != nil {
		m.Bytes += m.IDs.Bytes
	}
	if err := m.validate(filepath.Join(b.tmp, ManifestName)); err != nil {
		return fmt.Errorf("store: refusing to publish: %w", err)
	}
	if err := b.identify(m); err != nil {
		return err
	}
	// The manifest's own size is counted too; its length depends on m.Bytes, so settle it.
	for {
		body, err := m.Marshal()
		if err != nil {
			return err
		}
		total := m.Bytes - m.manifestBytes + int64(len(body))
		if total == m.Bytes {
			if err := writeFileSync(filepath.Join(b.tmp, ManifestName), body); err != nil {
				return err
			}
			break
		}
		m.manifestBytes = int64(len(body))
		m.Bytes = total
	}
	if err := syncDir(b.tmp); err != nil {
		return err
	}
	if b.beforePublish != nil {
		if err := b.beforePublish(b.tmp); err != nil {
			return err
		}
	}
	if err := b.publish(); err != nil {
		return err
	}
	b.done = true
	b.unlock()
	return nil
}

// publish moves the finished temporary directory to the destination. A graph already
// there is exchanged with it in one step where the system can (Linux), so that readers
// opening the destination meanwhile find the old graph or the new one, never none;
// elsewhere it is renamed away first. The old graph is then removed: readers that
// opened it keep their mappings, and Open retries when the graph changed under it.
// PublishFrom publishes as b's graph the graph that another Builder committed at dir, a
// directory inside b's temporary directory (TempDir), its bytes unchanged: its files move
// up into the temporary directory, which is published as Commit publishes it. b's writers
// must have written nothing, and nothing else may lie in the temporary directory.
func (b *Builder) PublishFrom(dir string) error {
	if b.done {
		return errors.New("store: PublishFrom after Commit or Abort")
	}
	err := b.adopt(dir)
	if err == nil {
		err = b.publish()
	}
	if err != nil {
		b.Abort()
		return err
	}
	b.done = true
	b.unlock()
	return nil
}

// adopt moves the files of the graph at dir into b's temporary directory.
func (b *Builder) adopt(dir string) error {
	if filepath.Dir(filepath.Clean(dir)) != filepath.Clean(b.tmp) {
		return fmt.Errorf("store: %s does not lie in %s", dir, b.tmp)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	for _, e := range entries {
		if err := os.Rename(filepath.Join(dir, e.Name()), filepath.Join(b.tmp, e.Name())); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	}
	if err := os.Remove(dir); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return syncDir(b.tmp)
}

func (b *Builder) publish() error {
	if _, err := os.Lstat(b.dest); err == nil {
		if exchange(b.tmp, b.dest) == nil {
			if err := syncDir(filepath.Dir(b.dest)); err != nil {
				return err
			}
			os.RemoveAll(b.tmp) // now the old graph
			return nil
		}
		trash := b.tmp + ".old"
		if err := os.Rename(b.dest, trash); err != nil {
			return fmt.Errorf("store: replacing %s: %w", b.dest, err)
		}
		defer os.RemoveAll(trash)
	}
	if err := os.Rename(b.tmp, b.dest); err != nil {
		return fmt.Errorf("store: publishing %s: %w", b.dest, err)
	}
	return syncDir(filepath.Dir(b.dest))
}

// identify gives the graph its identity (FORMAT.md, version 3) and writes it into every
// shard's header, whose checksum it updates in the footer and the manifest. The identity
// is a hash of every shard's header (which holds its sections' checksums) and of the
// vertex and edge counts: the same lists built twice get the same bytes (whatever the
// ids' numbering or base), and a shard of a graph with other lists carries another
// identity. ids.bin is tied to the manifest by its own checksum.
func (b *Builder) identify(m *Manifest) error {
	id := b.opt.GraphID
	if id == 0 {
		h := sha256.New()
		for _, l := range [][]ShardInfo{m.Out, m.In} {
			for i := range l {
				h.Write(l[i].hdr.encode())
			}
		}
		fmt.Fprintf(h, "%d %d %v", m.Vertices, m.Edges, m.Directed)
		id = binary.LittleEndian.Uint64(h.Sum(nil))
	}
	m.GraphID = fmt.Sprintf("%016x", id)
	for _, l := range [][]ShardInfo{m.Out, m.In} {
		for i := range l {
			l[i].hdr.GraphID = id
			if err := rewriteHeader(filepath.Join(b.tmp, l[i].File), &l[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// rewriteHeader writes s's header, and the footer that repeats its checksum, again.
func rewriteHeader(path string, s *ShardInfo) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	hdr := s.hdr.encode()
	_, err = f.WriteAt(hdr, 0)
	if err == nil {
		_, err = f.WriteAt(encodeFooter(s.hdr.Version, s.hdr.CRC), s.Bytes-footerSize)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("store: writing %s: %w", path, err)
	}
	s.HeaderCRC = fmt.Sprintf("%08x", s.hdr.CRC)
	return nil
}

// Abort removes the temporary directory and releases the lock. It is safe to call after
// Commit (it does nothing then).
func (b *Builder) Abort() error {
	if b.done {
		return nil
	}
	b.done = true
	b.out.abort()
	b.in.abort()
	err := os.RemoveAll(b.tmp)
	b.unlock()
	return err
}

func (b *Builder) unlock() {
	if b.lock != nil {
		unlockFile(b.lock)
		b.lock = nil
	}
}

func writeFileSync(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("store: writing %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("store: %w", err)
	}
	return f.Close()
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !strings.Contains(err.Error(), "invalid argument") {
		return fmt.Errorf("store: fsync %s: %w", dir, err)
	}
	return nil
}

func readAllLimit(r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("larger than %d bytes", limit)
	}
	return b, nil
}
