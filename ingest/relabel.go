package ingest

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// --relabel reads the input once, spilling the raw pairs (16 bytes an edge) and
// collecting the distinct ids in memory (8 bytes per distinct vertex, outside --mem),
// then replays the pairs, each id mapped to its rank among the distinct ids, through
// the ordinary pipeline. Ranks do not depend on the input's order (FORMAT.md, ids.bin).

// relabelPass is phase 1 of a relabeled file input.
func (p *pipeline) relabelPass(r io.Reader, name string) (Header, error) {
	var res *ParseResult
	err := p.scan(p.inBytes, func(prog *progress, collect func([]Edge) error) error {
		var err error
		res, err = Parse(r, p.parseOptions(name, math.MaxUint64, prog), collect)
		if res != nil {
			p.input.Format, p.compression = string(res.Format), res.Compression
		}
		return err
	})
	if err != nil {
		return Header{}, err
	}
	return res.Header, p.replay(res.Header.IDBase)
}

// relabelEdges is phase 1 of a relabeled FromEdges.
func (p *pipeline) relabelEdges(hdr Header, produce func(emit func([]Edge) error) error) (Header, error) {
	err := p.scan(0, func(_ *progress, collect func([]Edge) error) error { return produce(collect) })
	if err != nil {
		return hdr, err
	}
	return hdr, p.replay(hdr.IDBase)
}

// rawSpill holds the input pairs of a relabeled ingest.
type rawSpill struct {
	path string
	f    *os.File
	mu   sync.Mutex
	w    *bufio.Writer
	ids  []uint64 // distinct ids so far: ids[:sorted] sorted and unique, then unsorted
	sort int
}

// scan runs the collecting pass: every batch goes to the raw spill, its ids to the set.
func (p *pipeline) scan(total int64, run func(*progress, func([]Edge) error) error) error {
	t0 := time.Now()
	path := filepath.Join(p.b.TempDir(), "raw.spill")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("ingest: spill file: %w", err)
	}
	p.raw = &rawSpill{path: path, f: f, w: bufio.NewWriterSize(f, 1<<20)}
	prog := newProgress(p.opt.Progress, "scan", total, total > 0)
	var edges atomic.Int64
	err = run(prog, func(b []Edge) error {
		prog.addEdges(int64(len(b)))
		edges.Add(int64(len(b)))
		return p.raw.add(b)
	})
	prog.finish()
	if err == nil {
		err = p.raw.flush()
	}
	if err != nil {
		return err
	}
	p.ids = p.raw.distinct()
	if uint64(len(p.ids)) > MaxVertexID+1 {
		return fmt.Errorf("ingest: %d distinct vertex ids, more than the %d a graph holds: %w", len(p.ids), uint64(MaxVertexID)+1, ErrBadInput)
	}
	p.phases = append(p.phases, Phase{Name: "scan", Seconds: time.Since(t0).Seconds(), Bytes: max(p.inBytes, 0), Edges: uint64(edges.Load())})
	return nil
}

// addScratch is one emit call's buffers for rawSpill.add.
type addScratch struct {
	buf      []byte
	ids, tmp []uint64
}

var addScratchPool = sync.Pool{New: func() any { return new(addScratch) }}

// add spills a batch and merges its ids into the set. The encoding and a sort of the
// batch's own ids happen outside the lock, so that concurrent batches proceed in
// parallel; the lock covers one write and one append.
func (r *rawSpill) add(b []Edge) error {
	sc := addScratchPool.Get().(*addScratch)
	defer addScratchPool.Put(sc)
	sc.buf, sc.ids = sc.buf[:0], sc.ids[:0]
	for _, e := range b {
		sc.buf = binary.LittleEndian.AppendUint64(sc.buf, e.U)
		sc.buf = binary.LittleEndian.AppendUint64(sc.buf, e.V)
		sc.ids = append(sc.ids, e.U, e.V)
	}
	sc.tmp = slices.Grow(sc.tmp[:0], len(sc.ids))[:len(sc.ids)]
	ids := slices.Compact(radixSort(sc.ids, sc.tmp))
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := r.w.Write(sc.buf); err != nil {
		return fmt.Errorf("ingest: writing spill file %s: %w", r.path, unwrapPath(err))
	}
	r.ids = append(r.ids, ids...)
	// Compact when the unsorted tail outgrows the set: amortized O(log n) per id, and
	// memory about twice the distinct ids.
	if len(r.ids) > 2*r.sort+1<<20 {
		r.compact()
	}
	return nil
}

func (r *rawSpill) compact() {
	slices.Sort(r.ids)
	r.ids = slices.Compact(r.ids)
	r.sort = len(r.ids)
}

func (r *rawSpill) flush() error {
	if err := r.w.Flush(); err != nil {
		return fmt.Errorf("ingest: writing spill file %s: %w", r.path, unwrapPath(err))
	}
	return nil
}

func (r *rawSpill) distinct() []uint64 {
	r.compact()
	ids := slices.Clip(r.ids)
	r.ids = nil
	return ids
}

func (r *rawSpill) close() {
	if r != nil && r.f != nil {
		r.f.Close()
		os.Remove(r.path)
		r.f = nil
	}
}

// replay maps the spilled pairs to ranks and feeds them to the pipeline on all workers,
// then turns the ids into the file's own (adding the format's id base).
func (p *pipeline) replay(base uint32) error {
	idx := newIDIndex(p.ids)
	st, err := p.raw.f.Stat()
	if err != nil {
		return fmt.Errorf("ingest: %w", err)
	}
	size := st.Size()
	const pairs = BatchSize
	nchunks := (size + 16*pairs - 1) / (16 * pairs)
	p.phaseBytes = size
	err = p.phase1("partition", size, func(prog *progress) error {
		var next atomic.Int64
		var wg sync.WaitGroup
		errs := make([]error, p.workers)
		for w := range p.workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				buf, batch := make([]byte, 16*pairs), make([]Edge, 0, pairs)
				for c := next.Add(1) - 1; c < nchunks && errs[w] == nil; c = next.Add(1) - 1 {
					errs[w] = p.replayChunk(idx, c*16*pairs, buf, batch, size, prog)
				}
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
		return nil
	})
	p.raw.close()
	if base != 0 {
		for i := range p.ids {
			p.ids[i] += uint64(base)
		}
	}
	return err
}

func (p *pipeline) replayChunk(idx *idIndex, off int64, buf []byte, batch []Edge, size int64, prog *progress) error {
	buf = buf[:min(int64(len(buf)), size-off)]
	if _, err := p.raw.f.ReadAt(buf, off); err != nil {
		return fmt.Errorf("ingest: reading spill file %s at offset %d: %w", p.raw.path, off, unwrapPath(err))
	}
	batch = batch[:0]
	for i := 0; i+16 <= len(buf); i += 16 {
		u, v := binary.LittleEndian.Uint64(buf[i:]), binary.LittleEndian.Uint64(buf[i+8:])
		batch = append(batch, Edge{idx.rank(u), idx.rank(v)})
	}
	prog.add(int64(len(buf)))
	prog.addEdges(int64(len(batch)))
	return p.emit(batch)
}

// idIndex finds an id's rank: a table of 2^16 buckets over the id range narrows the
// binary search to the ids sharing the bucket.
type idIndex struct {
	ids   []uint64
	min   uint64
	shift uint
	start []uint32
}

func newIDIndex(ids []uint64) *idIndex {
	x := &idIndex{ids: ids}
	if len(ids) == 0 {
		return x
	}
	x.min = ids[0]
	span := ids[len(ids)-1] - ids[0]
	x.shift = uint(max(bits.Len64(span)-16, 0))
	nb := int(span>>x.shift) + 2
	x.start = make([]uint32, nb)
	b := 0
	for i, id := range ids {
		for ; b <= int((id-x.min)>>x.shift); b++ {
			x.start[b] = uint32(i)
		}
	}
	for ; b < nb; b++ {
		x.start[b] = uint32(len(ids))
	}
	return x
}

// rank returns the position of id, which must be one of the ids.
func (x *idIndex) rank(id uint64) uint64 {
	b := (id - x.min) >> x.shift
	lo, hi := int(x.start[b]), int(x.start[b+1])
	return uint64(lo + sort.Search(hi-lo, func(i int) bool { return x.ids[lo+i] >= id }))
}
