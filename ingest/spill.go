package ingest

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// A key is one directed edge copy, src<<32 | dst: sorting keys sorts by source, then
// by neighbour, which is CSR order.
func key(src, dst uint32) uint64 { return uint64(src)<<32 | uint64(dst) }
func keySrc(k uint64) uint32     { return uint32(k >> 32) }
func keyDst(k uint64) uint32     { return uint32(k) }

// partShift fixes the partition width at 2^17 source vertices, so edges can be routed
// before the vertex count is known. Narrow partitions give phase 2 tasks that sort
// within the caches and keep every core busy on graphs of a few million vertices;
// phase 2 groups consecutive small partitions into one task. A graph of 2^32 vertices
// has at most 32768 partitions.
const partShift = 17

func partOf(k uint64) uint32 { return uint32(k >> (32 + partShift)) }

// blockKeys bounds the keys of one spill block, and so the encoding buffer of a sorter.
const blockKeys = 64 << 10

// blockRef locates one spill block: a sorted run of keys of one partition.
type blockRef struct {
	part  uint32
	count uint32
	off   int64
	len   int64
}

// spill is one direction's spill file. Sorters append whole blocks under mu; the
// in-memory index keeps file descriptors and spill files to one per direction however
// many partitions there are.
type spill struct {
	path string
	f    *os.File
	mu   sync.Mutex
	size int64
	refs []blockRef
	keys uint64
}

func newSpill(dir, name string) (*spill, error) {
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("ingest: spill file: %w", err)
	}
	return &spill{path: path, f: f}, nil
}

// write appends buf, which holds the encoded blocks refs (offsets relative to buf).
func (s *spill) write(buf []byte, refs []blockRef) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.f.Write(buf); err != nil {
		return fmt.Errorf("ingest: writing spill file %s: %w", s.path, unwrapPath(err))
	}
	for _, r := range refs {
		r.off += s.size
		s.refs = append(s.refs, r)
		s.keys += uint64(r.count)
	}
	s.size += int64(len(buf))
	return nil
}

// byPart sorts the index by partition and returns each partition's blocks; the order
// of blocks within a partition does not matter, since phase 2 sorts their keys.
func (s *spill) byPart() map[uint32][]blockRef {
	slices.SortFunc(s.refs, func(a, b blockRef) int {
		if a.part != b.part {
			return int(a.part) - int(b.part)
		}
		return int(a.off - b.off)
	})
	m := make(map[uint32][]blockRef)
	for i := 0; i < len(s.refs); {
		j := i
		for j < len(s.refs) && s.refs[j].part == s.refs[i].part {
			j++
		}
		m[s.refs[i].part] = s.refs[i:j:j]
		i = j
	}
	return m
}

func (s *spill) close() error {
	if s == nil || s.f == nil {
		return nil
	}
	err := s.f.Close()
	os.Remove(s.path)
	s.f = nil
	return err
}

// appendBlock encodes sorted keys as the first key followed by the gaps, each a
// uvarint: keys of one partition sorted within a chunk are dense, so most gaps are
// neighbour deltas of one or two bytes.
func appendBlock(dst []byte, keys []uint64) []byte {
	prev := uint64(0)
	for _, k := range keys {
		dst = binary.AppendUvarint(dst, k-prev)
		prev = k
	}
	return dst
}

var errBlock = errors.New("malformed spill block")

// blockReader decodes one block, possibly in several calls (for split partitions).
type blockReader struct {
	buf  []byte
	pos  int
	prev uint64
	left uint32
}

// next returns the next key, or false at the end of the block.
func (r *blockReader) next() (uint64, bool, error) {
	if r.left == 0 {
		return 0, false, nil
	}
	if r.pos < len(r.buf) && r.buf[r.pos] < 0x80 { // most gaps are neighbour deltas below 128
		r.prev += uint64(r.buf[r.pos])
		r.pos++
		r.left--
		return r.prev, true, nil
	}
	x, n := binary.Uvarint(r.buf[r.pos:])
	if n <= 0 {
		return 0, false, errBlock
	}
	r.pos += n
	r.left--
	r.prev += x
	return r.prev, true, nil
}

// readBlock reads the bytes of ref into buf (grown as needed).
func (s *spill) readBlock(buf []byte, ref blockRef) ([]byte, error) {
	buf = slices.Grow(buf[:0], int(ref.len))[:ref.len]
	if _, err := s.f.ReadAt(buf, ref.off); err != nil {
		return buf, fmt.Errorf("ingest: reading spill file %s at offset %d: %w", s.path, ref.off, unwrapPath(err))
	}
	return buf, nil
}

// cursor is a position inside a block: the next key is decoded at pos, relative to
// prev, with left keys to go.
type cursor struct {
	pos  int
	prev uint64
	left uint32
}

// decodeRange appends to dst the keys of block ref whose source lies in [lo, hi),
// decoding from the start of the block or, when from is not nil, from a cursor at or
// before the first such key.
func (s *spill) decodeRange(dst []uint64, buf []byte, ref blockRef, from *cursor, lo, hi uint64) ([]uint64, []byte, error) {
	buf, err := s.readBlock(buf, ref)
	if err != nil {
		return dst, buf, err
	}
	r := blockReader{buf: buf, left: ref.count}
	if from != nil {
		r.pos, r.prev, r.left = from.pos, from.prev, from.left
	}
	for {
		k, ok, err := r.next()
		if err != nil {
			return dst, buf, fmt.Errorf("ingest: spill file %s at offset %d: %w", s.path, ref.off+int64(r.pos), err)
		}
		if !ok || uint64(keySrc(k)) >= hi {
			return dst, buf, nil
		}
		if uint64(keySrc(k)) >= lo {
			dst = append(dst, k)
		}
	}
}
