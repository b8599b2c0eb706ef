package ingest

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/store"
)

// --relabel and the degree order read the input once (the scan), spilling the raw pairs
// (16 bytes an edge with --relabel, whose ids may be 64-bit, else 8) and collecting what
// the numbering needs: the distinct ids in memory with --relabel (8 bytes per distinct
// vertex, twice that while the set grows, within the half of --mem that orderMem gives
// the numbering), the degree of every id for the degree order (4 bytes per
// vertex). Then they replay the pairs through the ordinary pipeline, each id mapped to its
// internal number: its rank among the distinct ids, its position in the degree order, or
// both composed. Neither numbering depends on the order of the input.

// scanPass is phase 1 of a relabeled or degree-ordered file input.
func (p *pipeline) scanPass(r io.Reader, name string) (parse.Header, error) {
	var res *parse.ParseResult
	maxID := uint64(MaxVertexID)
	if p.opt.Relabel {
		maxID = math.MaxUint64
	}
	err := p.scan(p.inBytes, func(prog *progress, collect func([]parse.Edge) error) error {
		var err error
		res, err = parse.Parse(r, p.parseOptions(name, maxID, prog), collect)
		if res != nil {
			p.input.Format, p.compression = string(res.Format), res.Compression
		}
		return err
	})
	if err != nil {
		return parse.Header{}, err
	}
	return res.Header, p.replay(res.Header)
}

// scanEdges is phase 1 of a relabeled or degree-ordered FromEdges.
func (p *pipeline) scanEdges(hdr parse.Header, produce func(emit func([]parse.Edge) error) error) (parse.Header, error) {
	err := p.scan(0, func(_ *progress, collect func([]parse.Edge) error) error { return produce(collect) })
	if err != nil {
		return hdr, err
	}
	return hdr, p.replay(hdr)
}

// rawSpill holds the input pairs of a scanned ingest.
type rawSpill struct {
	t         *tape
	mu        sync.Mutex // guards ids and sort
	wide      bool       // 16-byte pairs of uint64 (--relabel), else 8-byte pairs of uint32
	ids       []uint64   // --relabel: distinct ids so far: ids[:sorted] sorted and unique, then unsorted
	sort      int
	deg       *degreeCounter // degree order without --relabel: degrees by id
	sample    *listSample    // automatic order: sampled lists
	keepLoops bool
	directed  bool
	idsLimit  int64 // bytes the id set may take (--relabel); past it the set overflows
	mem       int64 // the budget, for the message

	// Once the id set outgrows idsLimit the ingest cannot proceed; the rest of the scan
	// only counts the distinct ids (sketch), spilling nothing, so that the refusal
	// (tooManyIDs) names the budget the whole input needs.
	over   atomic.Bool
	sketch *idSketch // guarded by mu
	overAt int       // distinct ids held when the set overflowed
}

func (r *rawSpill) pairBytes() int64 {
	if r.wide {
		return 16
	}
	return 8
}

// scan runs the collecting pass: every batch goes to the raw spill, its ids to the set
// or the degree counts.
func (p *pipeline) scan(total int64, run func(*progress, func([]parse.Edge) error) error) error {
	t0 := time.Now()
	t, err := newTape(p.b.TempDir(), "raw.spill", p.pool)
	if err != nil {
		return err
	}
	p.raw = &rawSpill{t: t, wide: p.opt.Relabel, keepLoops: p.opt.KeepSelfLoops, directed: p.opt.Directed,
		idsLimit: p.orderMem(), mem: p.mem}
	if p.countDegrees() && !p.opt.Relabel {
		p.raw.deg = new(degreeCounter)
	}
	if p.opt.Order == OrderAuto {
		p.raw.sample = newListSample(cmp.Or(p.opt.sampleCap, sampleEntries(p.mem)))
	}
	prog := newProgress(p.opt.Progress, "scan", total, total > 0)
	var edges atomic.Int64
	err = run(prog, func(b []parse.Edge) error {
		if p.ctx.Err() != nil {
			return p.cause()
		}
		prog.addEdges(int64(len(b)))
		edges.Add(int64(len(b)))
		return p.raw.add(b, p.name)
	})
	prog.finish()
	if err != nil {
		return err
	}
	if p.raw.over.Load() {
		return p.raw.tooManyIDs(p.opt.zstdWindow)
	}
	if p.opt.Relabel {
		// the distinct ids number the vertices, none when the input has no edges (not
		// the header's count: vertexCount takes a non-nil ids as the relabeled count)
		if p.ids = p.raw.distinct(); p.ids == nil {
			p.ids = []uint64{}
		}
		if uint64(len(p.ids)) > MaxVertexID+1 {
			return fmt.Errorf("ingest: %d distinct vertex ids, more than the %d a graph holds: %w", len(p.ids), uint64(MaxVertexID)+1, parse.ErrBadInput)
		}
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

// add spills a batch and merges its ids into the set or counts its degrees. The
// encoding, the write, a sort of the batch's own ids and the (atomic) counting happen
// outside the lock, so that concurrent batches proceed in parallel; the lock covers
// one append to the set.
func (r *rawSpill) add(b []parse.Edge, name string) error {
	sc := addScratchPool.Get().(*addScratch)
	defer addScratchPool.Put(sc)
	sc.buf, sc.ids = sc.buf[:0], sc.ids[:0]
	le := binary.LittleEndian
	var ids []uint64 // the batch's distinct ids (--relabel), in sc.ids or sc.tmp
	if r.wide {
		for _, e := range b {
			sc.buf = le.AppendUint64(sc.buf, e.U)
			sc.buf = le.AppendUint64(sc.buf, e.V)
			sc.ids = append(sc.ids, e.U, e.V)
		}
		sc.tmp = reuse(sc.tmp, len(sc.ids))[:len(sc.ids)]
		ids = slices.Compact(radixSort(sc.ids, sc.tmp))
	} else {
		for _, e := range b {
			if e.U > MaxVertexID || e.V > MaxVertexID {
				return errIDTooLarge(name, max(e.U, e.V))
			}
			sc.buf = le.AppendUint32(sc.buf, uint32(e.U))
			sc.buf = le.AppendUint32(sc.buf, uint32(e.V))
		}
	}
	if r.over.Load() {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.sketch.add(ids)
		return nil
	}
	if r.deg != nil {
		r.deg.add(b, r.keepLoops)
	}
	if r.sample != nil {
		r.sample.add(b, true, !r.directed, r.keepLoops)
	}
	if _, err := r.t.append(sc.buf); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.wide {
		return r.addIDs(ids)
	}
	return nil
}

// addIDs appends a batch's distinct ids to the set, compacting it (sort, dedup) when the
// unsorted tail outgrows the sorted part: amortized O(log n) per id, and memory about
// twice the distinct ids. The set grows by an explicit copy whose old and new arrays,
// both alive during it, count against idsLimit together.
func (r *rawSpill) addIDs(ids []uint64) error {
	if r.over.Load() {
		r.sketch.add(ids)
		return nil
	}
	if need := len(r.ids) + len(ids); need > cap(r.ids) {
		if len(r.ids) > r.sort {
			r.compact()
			need = len(r.ids) + len(ids)
		}
		if need > cap(r.ids) {
			n := max(need, 2*r.sort+1<<20)
			if r.idsLimit > 0 {
				n = min(n, int(r.idsLimit/8)-cap(r.ids))
			}
			if held := 8 * int64(cap(r.ids)+n); n < need || r.idsLimit > 0 && held > r.idsLimit {
				r.overflow(ids)
				return nil
			}
			grown := make([]uint64, len(r.ids), n)
			copy(grown, r.ids)
			r.ids = grown
		}
	}
	r.ids = append(r.ids, ids...)
	if len(r.ids) > 2*r.sort+1<<20 {
		r.compact()
	}
	return nil
}

// overflow drops the id set for a sketch of it and the batch's ids: from here the
// scan counts.
func (r *rawSpill) overflow(ids []uint64) {
	r.compact()
	r.overAt = len(r.ids)
	r.sketch = new(idSketch)
	r.sketch.add(r.ids)
	r.sketch.add(ids)
	r.ids = nil
	r.over.Store(true)
}

// tooManyIDs is the refusal of a scan whose id set overflowed, naming a --mem that
// holds the distinct ids the sketch counted however the set grew (relabelMemFor; the
// set's growth decides how much less suffices: up to a fifth less on sparse ids), plus
// zstdWindow, a zstd window counted apart.
func (r *rawSpill) tooManyIDs(zstdWindow int64) error {
	n := int64(math.Ceil(r.sketch.estimate()))
	return fmt.Errorf("ingest: --relabel holds the distinct ids in memory, %d bytes each while the set grows, in half the budget: this input has about %d distinct ids (%d fitted in %s); give --mem %s, which holds them: %w",
		relabelIDBytes, n, r.overAt, bytesize.Format(r.mem+zstdWindow), bytesize.Format(relabelMemFor(n)+zstdWindow), ErrMemTooSmall)
}

func (r *rawSpill) compact() {
	slices.Sort(r.ids)
	r.ids = slices.Compact(r.ids)
	r.sort = len(r.ids)
}

// distinct returns the set, sorted and unique, in the array it grew in (up to twice the
// ids), whose capacity heldBytes counts: slicing it shorter cannot give the memory back,
// and a copy of its own length would hold both arrays at the scan's end, beside the
// scan's buffers (kron22 --relabel under 96 MiB: 89 MiB of runtime memory against an
// 84 MiB heap limit).
func (r *rawSpill) distinct() []uint64 {
	r.compact()
	ids := r.ids
	r.ids = nil
	return ids
}

func (r *rawSpill) close() {
	if r != nil {
		r.t.close()
	}
}

// replay numbers the vertices (rank, degree order or both), then feeds the spilled pairs,
// mapped, to the pipeline on all workers.
func (p *pipeline) replay(hdr parse.Header) error {
	// The numbering is known: keys keep their orientation when every id it gives fits
	// (orient.go).
	switch {
	case p.opt.Relabel:
		p.oriented = p.oriented && uint64(len(p.ids)) <= orientLimit
	case p.raw.deg != nil:
		p.oriented = p.oriented && max(p.raw.deg.top.Load(), hdr.Vertices) <= orientLimit
	}
	var idx *idIndex
	if p.opt.Relabel {
		idx = newIDIndex(p.ids)
		p.idx = idx
	}
	if p.countDegrees() {
		t0 := time.Now()
		var deg []uint32
		if p.opt.Relabel {
			// degrees by rank: one more read of the spill
			deg = make([]uint32, len(p.ids))
			err := p.readRaw("count", func(batch []parse.Edge) error {
				for _, e := range batch {
					if e.U != e.V || p.opt.KeepSelfLoops {
						atomic.AddUint32(&deg[idx.rank(e.U)], 1)
						atomic.AddUint32(&deg[idx.rank(e.V)], 1)
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
		} else {
			n := max(p.raw.deg.top.Load(), hdr.Vertices)
			if need := degreeOrderBytes * int64(n); need > p.orderMem() {
				// The per-vertex arrays would not fit beside the spills: sparse ids (the
				// largest 4*10^9 in a file of two edges took 48 GB and the machine).
				if p.opt.Order != OrderAuto {
					return fmt.Errorf("ingest: the degree order takes %d bytes a vertex, %s for %d vertices (the largest id + 1), more than a memory budget of %s holds beside the spills (give --mem %s, use --order input, or --relabel if the ids are sparse): %w",
						degreeOrderBytes, bytesize.Format(need), n, bytesize.Format(p.given()), bytesize.Format(p.givenFor(2*need)), ErrMemTooSmall)
				}
				p.raw.deg, p.raw.sample = nil, nil
				p.estimate = &OrderEstimate{Skipped: fmt.Sprintf("the degree order would take %s for %d vertices, more than half the budget", bytesize.Format(need), n)}
			} else {
				deg = p.raw.deg.flatten(n, p.workers)
				p.raw.deg = nil
			}
		}
		if deg != nil {
			p.perm, p.inv = degreeOrder(deg, p.workers)
			if p.opt.Order == OrderAuto && !p.chooseDegree(idx) {
				p.perm, p.inv = nil, nil
			}
		}
		p.phases = append(p.phases, Phase{Name: "order", Seconds: time.Since(t0).Seconds(), Edges: uint64(len(deg))})
	}
	for _, sp := range p.spills[:p.dirs] {
		sp.bySource = p.inv != nil // hub groups are split many ways
	}
	switch {
	case p.inv != nil:
		p.setGroups(func() groupBits { return minGroupBits }) // groupBits says why
	case p.opt.Relabel:
		p.setGroups(func() groupBits { return groupsFor(uint64(len(p.ids))) })
	}
	p.idBase = uint64(hdr.IDBase)
	if err := p.sizePhase1(); err != nil { // beside the arrays just made (heldBytes)
		return err
	}
	var err error
	p.phaseBytes = p.rawSize()
	err = p.phase1("partition", p.phaseBytes, func(prog *progress) error {
		return p.readRawInto(prog, func(batch []parse.Edge) error {
			for i, e := range batch {
				if idx != nil {
					e = parse.Edge{U: idx.rank(e.U), V: idx.rank(e.V)}
				}
				if p.perm != nil {
					e = parse.Edge{U: uint64(p.perm[e.U]), V: uint64(p.perm[e.V])}
				}
				batch[i] = e
			}
			return p.emit(batch)
		})
	})
	p.raw.close()
	p.perm, p.idx = nil, nil
	return err
}

// degreeOrderBytes is what the degree order holds per vertex: the degrees, the
// permutation and its inverse, 4 bytes each.
const degreeOrderBytes = 12

// countDegrees says whether the scan counts degrees: for the degree order, or to choose.
func (p *pipeline) countDegrees() bool {
	return !p.readAgain && (p.opt.Order == store.OrderDegree || p.opt.Order == OrderAuto)
}

// chooseDegree estimates the adjacency's bytes in both orders from the sampled lists
// (scaled by the sampling rate) and says whether the degree order, with its ids.bin
// (4 bytes a vertex, unless --relabel needs one anyway), comes out smaller.
func (p *pipeline) chooseDegree(idx *idIndex) bool {
	s := p.raw.sample
	p.raw.sample = nil
	in := func(x uint64) uint32 { return uint32(x) }
	if idx != nil {
		in = func(x uint64) uint32 { return uint32(idx.rank(x)) }
	}
	deg := func(x uint64) uint32 { return p.perm[in(x)] }
	rate := int64(s.rate.Load())
	// The two encodings at once: one after the other they were half of the order phase.
	var inBytes int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		inBytes = sampleBytes(s.entries, in, p.opt.KeepDuplicates)
	}()
	degBytes := sampleBytes(s.entries, deg, p.opt.KeepDuplicates)
	<-done
	est := &OrderEstimate{SampleRate: uint64(rate), SampledLists: len(s.entries),
		InputBytes: rate * inBytes, DegreeBytes: rate * degBytes}
	if !p.opt.Relabel {
		est.DegreeBytes += store.IDsFileBytes(int64(len(p.perm)), 4)
	}
	est.ChoseDegree = est.DegreeBytes < est.InputBytes
	p.estimate = est
	return est.ChoseDegree
}

func (p *pipeline) rawSize() int64 { return p.raw.t.size }

// readRaw reads the raw spill on all workers as a phase of its own (with a bar).
func (p *pipeline) readRaw(name string, fn func([]parse.Edge) error) error {
	t0 := time.Now()
	size := p.rawSize()
	prog := newProgress(p.opt.Progress, name, size, true)
	err := p.readRawInto(prog, fn)
	prog.finish()
	if err != nil {
		return err
	}
	p.phases = append(p.phases, Phase{Name: name, Seconds: time.Since(t0).Seconds(), Bytes: size, Edges: uint64(size / p.raw.pairBytes())})
	return nil
}

// readRawInto hands the raw spill's pairs, in batches, to fn on all workers.
func (p *pipeline) readRawInto(prog *progress, fn func([]parse.Edge) error) error {
	size := p.rawSize()
	pb := p.raw.pairBytes()
	chunk := pb * parse.BatchSize
	nchunks := (size + chunk - 1) / chunk
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, p.workers)
	for w := range p.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			batch := make([]parse.Edge, 0, parse.BatchSize)
			for c := next.Add(1) - 1; c < nchunks && errs[w] == nil; c = next.Add(1) - 1 {
				if p.ctx.Err() != nil {
					errs[w] = p.cause()
					break
				}
				off := c * chunk
				var b []byte
				var err error
				if b, buf, err = p.raw.t.read(buf, off, min(chunk, size-off)); err != nil {
					errs[w] = err
					break
				}
				batch = decodeRaw(batch[:0], b, pb)
				prog.add(int64(len(b)))
				prog.addEdges(int64(len(batch)))
				errs[w] = fn(batch)
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
}

func decodeRaw(batch []parse.Edge, b []byte, pb int64) []parse.Edge {
	le := binary.LittleEndian
	if pb == 16 {
		for i := 0; i+16 <= len(b); i += 16 {
			batch = append(batch, parse.Edge{U: le.Uint64(b[i:]), V: le.Uint64(b[i+8:])})
		}
		return batch
	}
	for i := 0; i+8 <= len(b); i += 8 {
		batch = append(batch, parse.Edge{U: uint64(le.Uint32(b[i:])), V: uint64(le.Uint32(b[i+4:]))})
	}
	return batch
}

// originalID is the file's own id of internal vertex i, once the scan has numbered them.
func (p *pipeline) originalID(i int) uint64 {
	if p.rebuild != nil {
		return p.rebuild.g.External(p.inv[i])
	}
	v := uint64(i)
	if p.inv != nil {
		v = uint64(p.inv[i])
	}
	if p.ids != nil {
		v = p.ids[v]
	}
	return v + p.idBase
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
