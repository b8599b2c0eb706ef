package store

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// ShardInfo is a manifest's record of one shard file.
type ShardInfo struct {
	File      string `json:"file"`
	Lo        uint32 `json:"lo"`
	Hi        uint32 `json:"hi"`
	Edges     uint64 `json:"edges"`
	Bytes     int64  `json:"bytes"`
	HeaderCRC string `json:"header_crc32c"`

	hdr shardHeader // as written, for Builder.identify
}

// shardWriter streams one shard file: ADJ first (its size is unknown until the shard is
// cut), then DIRECTORY (and WEIGHTS), the footer, and finally the header page at offset
// 0. DIRECTORY and WEIGHTS go to side files until the shard is cut, so a writer's memory
// does not grow with the shard's vertex count (ingest runs within a memory budget).
type shardWriter struct {
	f      *os.File
	w      *bufio.Writer
	path   string
	dirn   Direction
	lo     uint32
	dir    dirWriter
	wts    *sideFile // the WEIGHTS section, for a weighted graph; else nil
	adjLen int64
	edges  uint64
	adjCRC uint32
	// version is the format version in the header: FloatVersion for float32 weights,
	// else Version.
	version uint32
}

// sideFile accumulates one uint32 array section on disk.
type sideFile struct {
	f    *os.File
	path string
	w    *bufio.Writer
	crc  hash.Hash32
	n    int64
}

func newSideFile(path string) (*sideFile, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return &sideFile{f: f, path: path, w: bufio.NewWriterSize(f, 64<<10), crc: crc32.New(castagnoli)}, nil
}

// write appends b.
func (s *sideFile) write(b []byte) {
	s.w.Write(b)
	s.n += int64(len(b))
}

// putAll appends xs[i]+add for each i, in bulk: one call a vertex was a fifth of the
// writer's time, and the writer is the one serial step of ingest's phase 2.
func (s *sideFile) putAll(xs []uint32, add uint32) {
	for len(xs) > 0 {
		b := s.room(len(xs))
		if b == nil {
			return
		}
		for i := range len(b) / 4 {
			binary.LittleEndian.PutUint32(b[4*i:], xs[i]+add)
		}
		s.wrote(b)
		xs = xs[len(b)/4:]
	}
}

// room returns the writer's free buffer for up to n values (at least one), flushing it
// when full, or nil after a write error, which sticks in s.w and comes back from
// copyTo's Flush.
func (s *sideFile) room(n int) []byte {
	if s.w.Available() < 4 && s.w.Flush() != nil {
		return nil
	}
	return s.w.AvailableBuffer()[:min(s.w.Available()/4, n)*4]
}

// wrote appends b, filled from room, to the file.
func (s *sideFile) wrote(b []byte) {
	s.w.Write(b)
	s.n += int64(len(b))
}

// copyTo flushes the side file and copies it to w, computing its CRC on the way.
func (s *sideFile) copyTo(w io.Writer) error {
	if err := s.w.Flush(); err != nil {
		return err
	}
	_, err := io.Copy(io.MultiWriter(w, s.crc), io.NewSectionReader(s.f, 0, s.n))
	return err
}

// close closes and removes the side file; Builder.Abort removes it too, with the
// temporary directory.
func (s *sideFile) close() {
	if s != nil {
		s.f.Close()
		os.Remove(s.path)
	}
}

func newShardWriter(path string, dir Direction, lo uint32, weighted bool, version uint32) (*shardWriter, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if _, err := f.Seek(headerSize, 0); err != nil {
		f.Close()
		return nil, fmt.Errorf("store: %w", err)
	}
	s := &shardWriter{f: f, w: bufio.NewWriterSize(&writeback{f: f, done: headerSize, at: headerSize}, 1<<20), path: path, dirn: dir, lo: lo, version: version}
	if s.dir.hdr, err = newSideFile(path + ".dirh"); err == nil {
		s.dir.packed, err = newSideFile(path + ".dirb")
	}
	if err == nil && weighted {
		s.wts, err = newSideFile(path + ".wts")
	}
	if err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// writeback writes a file sequentially from offset at and starts the kernel writing each
// writebackBytes to disk as they fill (startWriteback): the kernel otherwise writes
// nothing until the fsync that ends the shard, which then took 0.27-0.40 s for 512 MiB on
// the H100 host, while the rest of the ingest waited.
type writeback struct {
	f    *os.File
	done int64 // bytes before done are being written back
	at   int64
}

const writebackBytes = 8 << 20

func (w *writeback) Write(b []byte) (int, error) {
	n, err := w.f.Write(b)
	w.at += int64(n)
	if w.at-w.done >= writebackBytes {
		startWriteback(w.f, w.done, w.at-w.done)
		w.done = w.at
	}
	return n, err
}

func (s *shardWriter) close() {
	s.f.Close()
	s.closeSides()
}

func (s *shardWriter) closeSides() {
	s.dir.hdr.close()
	s.dir.packed.close()
	s.wts.close()
}

func (s *shardWriter) n() uint32 { return s.dir.n }

// appendLists appends the lists of consecutive vertices: degrees[i] and the bytes
// data[offsets[i]:offsets[i+1]], and in a weighted graph their weights, one per
// neighbour in list order.
func (s *shardWriter) appendLists(degrees, offsets []uint32, data []byte, weights []uint32, sum uint32, whole bool) error {
	base := offsets[0]
	if s.wts != nil {
		s.wts.putAll(weights, 0)
	}
	at := uint32(s.adjLen) - base // wraps to s.adjLen+offsets[i]-base
	for i, d := range degrees {
		s.dir.add(offsets[i]+at, d)
		s.edges += uint64(d)
	}
	chunk := data[offsets[0]:offsets[len(degrees)]]
	s.adjLen += int64(len(chunk))
	if whole {
		s.adjCRC = CRC32CCombine(s.adjCRC, sum, int64(len(chunk)))
	} else {
		s.adjCRC = crc32.Update(s.adjCRC, castagnoli, chunk)
	}
	_, err := s.w.Write(chunk)
	return err
}

func (s *shardWriter) appendEmpty(count uint32) {
	s.dir.addEmpty(uint32(s.adjLen), count)
}

func (s *shardWriter) pad(pos int64) (int64, error) {
	next := (pos + sectionAlign - 1) / sectionAlign * sectionAlign
	if next > pos {
		if _, err := s.w.Write(make([]byte, next-pos)); err != nil {
			return 0, err
		}
	}
	return next, nil
}

// writeSection copies a side file as section id, starting at the next aligned
// position after pos.
func (s *shardWriter) writeSection(pos int64, id uint32, side *sideFile) (Section, int64, error) {
	start, err := s.pad(pos)
	if err != nil {
		return Section{}, 0, err
	}
	if err := side.copyTo(s.w); err != nil {
		return Section{}, 0, err
	}
	return Section{ID: id, Offset: start, Length: side.n, CRC: side.crc.Sum32()}, start + side.n, nil
}

// writeDirectory writes DIRECTORY at the next aligned position after pos: the headers
// of the groups and of the sentinel, the packed pairs, and the zero word.
func (s *shardWriter) writeDirectory(pos int64) (Section, int64, error) {
	d := &s.dir
	d.flush(uint32(s.adjLen))
	d.header(uint32(s.adjLen), 0, 0, 0)
	start, err := s.pad(pos)
	if err != nil {
		return Section{}, 0, err
	}
	if err := d.hdr.copyTo(s.w); err != nil {
		return Section{}, 0, err
	}
	if err := d.packed.copyTo(s.w); err != nil {
		return Section{}, 0, err
	}
	var zero [8]byte
	if _, err := s.w.Write(zero[:]); err != nil {
		return Section{}, 0, err
	}
	n := d.hdr.n + d.packed.n + 8
	crc := CRC32CCombine(d.hdr.crc.Sum32(), d.packed.crc.Sum32(), d.packed.n)
	crc = CRC32CCombine(crc, CRC32C(zero[:]), 8)
	return Section{ID: SecDirectory, Offset: start, Length: n, CRC: crc}, start + n, nil
}

// finish writes the remaining sections, footer and header, fsyncs and closes the file.
func (s *shardWriter) finish() (ShardInfo, error) {
	info, err := s.finishErr()
	s.closeSides()
	if err != nil {
		s.f.Close()
		return info, fmt.Errorf("store: writing %s: %w", s.path, err)
	}
	return info, nil
}

func (s *shardWriter) finishErr() (ShardInfo, error) {
	if s.adjLen > 1<<32-1 {
		return ShardInfo{}, fmt.Errorf("adjacency of %d bytes exceeds the 4 GiB a shard can hold", s.adjLen)
	}
	if s.edges > maxShardEdges {
		return ShardInfo{}, fmt.Errorf("%d edges in one shard, more than the %d a shard can hold", s.edges, uint64(maxShardEdges))
	}
	adj := Section{ID: SecAdj, Offset: headerSize, Length: s.adjLen, CRC: s.adjCRC}
	dir, pos, err := s.writeDirectory(headerSize + s.adjLen)
	if err != nil {
		return ShardInfo{}, err
	}
	h := shardHeader{Version: s.version, Dir: s.dirn, Lo: s.lo, N: s.n(), Edges: s.edges, Block: BlockSize, Sections: []Section{adj, dir}}
	if s.wts != nil {
		if s.edges > 1<<32-1 {
			return ShardInfo{}, fmt.Errorf("%d edges in one shard, more than the %d a weighted shard can hold", s.edges, uint32(1<<32-1))
		}
		var wts Section
		if wts, pos, err = s.writeSection(pos, SecWeights, s.wts); err != nil {
			return ShardInfo{}, err
		}
		h.Sections = append(h.Sections, wts)
	}
	hdr := h.encode()
	if _, err := s.w.Write(encodeFooter(h.Version, h.CRC)); err != nil {
		return ShardInfo{}, err
	}
	if err := s.w.Flush(); err != nil {
		return ShardInfo{}, err
	}
	if _, err := s.f.WriteAt(hdr, 0); err != nil {
		return ShardInfo{}, err
	}
	if err := s.f.Sync(); err != nil {
		return ShardInfo{}, err
	}
	if err := s.f.Close(); err != nil {
		return ShardInfo{}, err
	}
	return ShardInfo{
		File: filepath.Base(s.path), Lo: s.lo, Hi: s.lo + s.n(), Edges: s.edges,
		Bytes: pos + footerSize, HeaderCRC: fmt.Sprintf("%08x", h.CRC), hdr: h,
	}, nil
}

// CSRWriter writes one direction of a graph as a sequence of shards, cutting a new shard
// whenever the current one would exceed the builder's ShardBytes or ShardVertices.
// Vertices arrive in increasing order; vertices skipped over get degree 0.
type CSRWriter struct {
	b       *Builder
	dir     Direction
	cur     *shardWriter
	next    uint32 // first vertex not yet written
	shards  []*finishing
	edges   uint64
	scratch []byte
	one     [2]uint32
}

// finishing is a shard whose sections, footer, header and fsync are being written in
// the background: a shard cut in the middle of an ingest would otherwise hold up every
// list behind it.
type finishing struct {
	done chan struct{}
	info ShardInfo
	err  error
}

// finishAsync finishes s in the background.
func finishAsync(s *shardWriter) *finishing {
	f := &finishing{done: make(chan struct{})}
	go func() {
		defer close(f.done)
		f.info, f.err = s.finish()
	}()
	return f
}

// failed returns the error of a shard finished in the background, if one has failed so
// far, without waiting for the others.
func (w *CSRWriter) failed() error {
	for _, f := range w.shards {
		select {
		case <-f.done:
			if f.err != nil {
				return f.err
			}
		default:
		}
	}
	return nil
}

// wait waits for the shards being finished and returns their records in order.
func (w *CSRWriter) wait() ([]ShardInfo, error) {
	infos := make([]ShardInfo, 0, len(w.shards))
	var first error
	for _, f := range w.shards {
		<-f.done
		if f.err != nil && first == nil {
			first = f.err
		}
		infos = append(infos, f.info)
	}
	return infos, first
}

// AppendList encodes and appends one vertex's sorted neighbour list.
func (w *CSRWriter) AppendList(v uint32, nbrs []uint32) error {
	return w.AppendWeightedList(v, nbrs, nil)
}

// AppendWeightedList is AppendList for a weighted graph: weights[k] weighs the edge to
// nbrs[k].
func (w *CSRWriter) AppendWeightedList(v uint32, nbrs, weights []uint32) error {
	w.scratch = AppendList(w.scratch[:0], v, nbrs)
	w.one = [2]uint32{0, uint32(len(w.scratch))}
	return w.AppendWeightedRange(v, []uint32{uint32(len(nbrs))}, w.one[:], w.scratch, weights)
}

// AppendRange appends pre-encoded lists (AppendList) of the vertices lo, lo+1, ...:
// vertex lo+i has degree degrees[i] and the bytes data[offsets[i]:offsets[i+1]].
// offsets has len(degrees)+1 entries.
func (w *CSRWriter) AppendRange(lo uint32, degrees, offsets []uint32, data []byte) error {
	return w.appendRange(lo, degrees, offsets, data, nil, 0, false)
}

// AppendWeightedRange is AppendRange for a weighted graph: weights holds the weights of
// the lists one after the other, as many as the degrees sum to.
func (w *CSRWriter) AppendWeightedRange(lo uint32, degrees, offsets []uint32, data []byte, weights []uint32) error {
	return w.appendRange(lo, degrees, offsets, data, weights, 0, false)
}

// AppendRangeSum is AppendRange given sum, the CRC32C of the lists'
// bytes data[offsets[0]:offsets[len(degrees)]], which the caller computed (in parallel
// with other work): the writer then combines checksums instead of reading the bytes.
func (w *CSRWriter) AppendRangeSum(lo uint32, degrees, offsets []uint32, data []byte, sum uint32) error {
	return w.appendRange(lo, degrees, offsets, data, nil, sum, true)
}

func (w *CSRWriter) appendRange(lo uint32, degrees, offsets []uint32, data []byte, weights []uint32, sum uint32, hasSum bool) error {
	if len(offsets) != len(degrees)+1 || int(offsets[len(degrees)]) > len(data) {
		return fmt.Errorf("store: AppendRange: %d degrees need %d offsets ending within %d bytes", len(degrees), len(degrees)+1, len(data))
	}
	if err := w.checkWeights(degrees, weights); err != nil {
		return err
	}
	if lo < w.next || uint64(lo)+uint64(len(degrees)) > 1<<32-1 {
		return fmt.Errorf("store: AppendRange: vertex %d out of order (next is %d) or beyond the id space", lo, w.next)
	}
	if err := w.fill(lo); err != nil {
		return err
	}
	for i := 0; i < len(degrees); {
		if err := w.ensure(lo + uint32(i)); err != nil {
			return err
		}
		// Take as many lists as fit in the current shard (at least one).
		j := i + 1
		room := w.b.opt.ShardBytes - w.cur.adjLen
		maxV := int(w.b.opt.ShardVertices - w.cur.n())
		edgeRoom, e := shardEdgeLimit-w.cur.edges, uint64(degrees[i])
		for j < len(degrees) && j-i < maxV && int64(offsets[j+1]-offsets[i]) <= room && e+uint64(degrees[j]) <= edgeRoom {
			e += uint64(degrees[j])
			j++
		}
		if w.cur.n() > 0 && (int64(offsets[i+1]-offsets[i]) > room || uint64(degrees[i]) > edgeRoom) {
			if err := w.cut(lo + uint32(i)); err != nil {
				return err
			}
			continue
		}
		// sum covers the whole range: usable when the range goes to one shard
		whole := hasSum && i == 0 && j == len(degrees)
		var ws []uint32 // e is the degrees' sum over [i, j)
		if weights != nil {
			ws, weights = weights[:e], weights[e:]
		}
		if err := w.cur.appendLists(degrees[i:j], offsets[i:j+1], data, ws, sum, whole); err != nil {
			return fmt.Errorf("store: writing %s: %w", w.cur.path, err)
		}
		w.edges += e
		i = j
	}
	w.next = lo + uint32(len(degrees))
	return nil
}

// checkWeights checks that weights come exactly with a weighted graph's lists, as many
// as the degrees sum to.
func (w *CSRWriter) checkWeights(degrees, weights []uint32) error {
	if !w.b.opt.Weighted {
		if weights != nil {
			return errors.New("store: weights given for a graph created without CreateOptions.Weighted")
		}
		return nil
	}
	var e uint64
	for _, d := range degrees {
		e += uint64(d)
	}
	if uint64(len(weights)) != e {
		return fmt.Errorf("store: a weighted graph's lists need one weight per neighbour: %d weights for %d neighbours", len(weights), e)
	}
	return nil
}

// fill writes degree-0 vertices up to (not including) v.
func (w *CSRWriter) fill(v uint32) error {
	for w.next < v {
		if err := w.ensure(w.next); err != nil {
			return err
		}
		k := min(v-w.next, w.b.opt.ShardVertices-w.cur.n())
		w.cur.appendEmpty(k)
		w.next += k
	}
	return nil
}

// ensure makes sure a shard is open and has room for one more vertex v.
func (w *CSRWriter) ensure(v uint32) error {
	if w.cur != nil && w.cur.n() >= w.b.opt.ShardVertices {
		return w.cut(v)
	}
	if w.cur == nil {
		return w.open(v)
	}
	return nil
}

// shardName is the file name of direction d's shard i: out-00000.shard.
func shardName(d Direction, i int) string { return fmt.Sprintf("%s-%05d.shard", d, i) }

// isShardName says whether name is a shard's, as shardName writes them.
func isShardName(name string) bool {
	rest, ok := strings.CutSuffix(name, ".shard")
	if !ok {
		return false
	}
	for _, d := range []Direction{Out, In} {
		if num, ok := strings.CutPrefix(rest, d.String()+"-"); ok {
			return len(num) >= 5 && strings.Trim(num, "0123456789") == ""
		}
	}
	return false
}

// shardEdgeLimit is the most neighbours the writer puts in one shard: DIRECTORY counts
// 2^40 (maxShardEdges); tests lower it.
var shardEdgeLimit uint64 = maxShardEdges

// MaxShards bounds the shards of one direction: every shard is a file and a mapping for
// every reader, and two directions at this bound stay within half of Linux's default
// vm.max_map_count (65530).
const MaxShards = 16384

// maxShards is MaxShards, lowered by tests.
var maxShards = MaxShards

// ErrTooManyShards is matched by the error of a build that would need more than
// MaxShards shards in one direction.
var ErrTooManyShards = errors.New("too many shards")

func (w *CSRWriter) open(v uint32) error {
	if len(w.shards) >= maxShards {
		return fmt.Errorf("store: the %s-adjacency needs more than %d shards of %d bytes: %w (give a larger shard size)",
			w.dir, maxShards, w.b.opt.ShardBytes, ErrTooManyShards)
	}
	sw, err := newShardWriter(filepath.Join(w.b.tmp, shardName(w.dir, len(w.shards))), w.dir, v, w.b.opt.Weighted, w.b.version())
	if err != nil {
		return err
	}
	w.cur = sw
	return nil
}

func (w *CSRWriter) cut(v uint32) error {
	if err := w.failed(); err != nil {
		return err
	}
	w.shards = append(w.shards, finishAsync(w.cur))
	w.cur = nil
	return w.open(v)
}

// finish completes the last shard with degree-0 vertices up to nv and starts finishing
// it in the background (wait returns the shards).
func (w *CSRWriter) finish(nv uint32) error {
	if w.next > nv {
		return fmt.Errorf("store: %s lists reach vertex %d, beyond the %d vertices", w.dir, w.next-1, nv)
	}
	if err := w.fill(nv); err != nil {
		return err
	}
	if w.cur != nil {
		w.shards = append(w.shards, finishAsync(w.cur))
		w.cur = nil
	}
	return nil
}

func (w *CSRWriter) abort() {
	if w.cur != nil {
		w.cur.close()
		w.cur = nil
	}
	w.wait() // the temporary directory goes once no shard is being written
}
