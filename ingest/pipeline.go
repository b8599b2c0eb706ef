package ingest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/store"
)

// pipeline is one ingest. Phase 1 routes every directed edge copy, as a key, into
// chunks; the worker that fills a chunk up orders it by group and appends it, cut into
// per-partition blocks, to the direction's spill file. Phase 2 (build.go) sorts each
// partition's keys and hands the encoded lists to the store in vertex order.
type pipeline struct {
	opt     Options
	input   store.InputInfo
	name    string // the input as errors name it: the path as given, <stdin> for standard input
	b       *store.Builder
	ctx     context.Context
	cancel  context.CancelCauseFunc
	workers int
	mem     int64
	inBytes int64
	start   time.Time
	restore func()

	dirs       int  // spills: 1 undirected, 2 directed (out and in)
	oriented   bool // keys carry their orientation (orient.go)
	spills     [2]*spill
	pool       *memPool // the tapes' memory
	chunkKeys  int      // keys per chunk and direction
	taskKeys   int      // keys a phase-2 task aims at
	budgetKeys int      // keys the budget lets one task sort: the limit for one vertex

	// phase 1
	free, partial chan *chunk
	states        chan *encoderState // the encoders' buffers, one a worker
	inputEdges    atomic.Uint64
	selfLoops     atomic.Uint64
	maxID         atomic.Uint64 // largest id + 1 seen
	groupsOnce    sync.Once     // fixes the spills' group width (setGroups)
	phaseBytes    int64
	compression   string

	// phase 2 and the result
	symmetric   bool // every input edge stands for both directions
	storedEdges uint64
	storedLoops uint64
	reciprocal  uint64         // oriented: the reciprocal pairs merged
	ids         []uint64       // --relabel: the distinct ids, ascending (0-based)
	perm, inv   []uint32       // degree order: new number of each vertex (rank with --relabel), and back
	idx         *idIndex       // --relabel: the ids' index, while phase 1 maps them
	idBase      uint64         // added to every id written to ids.bin
	raw         *rawSpill      // --relabel or degree order: the input pairs
	estimate    *OrderEstimate // the automatic order's choice
	rebuild     *rebuildFrom   // a renumbering of a graph built in the file's order (reorder.go)
	side        *autoSide      // the first build of an automatic order: degrees and sampled lists (early.go)
	readAgain   bool           // the input read again in the numbering p.perm (early.go)
	backend     string         // Report.Backend; "" is the CPU
	phases      []Phase
	committed   bool
}

// errIDTooLarge is the error for an id a graph cannot hold without --relabel.
func errIDTooLarge(name string, id uint64) error {
	return fmt.Errorf("ingest: %s: vertex id %d is beyond the largest a graph holds (%d); use --relabel: %w",
		name, id, uint64(MaxVertexID), parse.ErrBadInput)
}

// scanned says whether the input goes through a scan and a replay (relabel.go).
func (p *pipeline) scanned() bool { return p.opt.Relabel || p.countDegrees() }

// ErrMemTooSmall is matched by the error for a memory budget too small to run in.
var ErrMemTooSmall = errors.New("memory budget too small")

// chunk collects keys of both directions until it is full and spilled.
type chunk struct{ keys [2][]uint64 }

// Memory the pipeline does not size itself: the binary and the runtime outside the Go
// heap (runtimeMem), and the parser's blocks (Parse: (Workers+2) blocks of 4 MiB plus a
// batch per worker).
const (
	runtimeMem   = 12 << 20
	parseBlock   = 4 << 20
	encoderFixed = 3 << 20 // an encoder's buffer, block index and group counts (chunkCounts: at most 1 MiB)
	taskFixed    = 10 << 20
	minKeys      = 16 << 10

	// Chunks fill up to minChunkKeys, 2 MiB a direction, so that the encoders' radix
	// passes run in cache (when phase 1 still sorted fully, on kron21 it ran twice as
	// fast as with 1M-key chunks), and up to maxChunkKeys on graphs of many partitions
	// (fillLimit).
	minChunkKeys = 1 << 18
	maxChunkKeys = 4 << 20
)

func newPipeline(opt Options, input store.InputInfo, name string, size int64) (*pipeline, error) {
	if opt.Dest == "" {
		return nil, errors.New("ingest: no destination graph directory given")
	}
	if err := CheckOrder(opt.Order); err != nil {
		return nil, err
	}
	p := &pipeline{opt: opt, input: input, name: inputName(name), inBytes: size, start: time.Now(), workers: defaultWorkers(opt.Workers),
		mem: opt.Mem}
	if p.mem <= 0 {
		p.mem = DefaultMem()
	}
	p.dirs = 1
	if opt.Directed {
		p.dirs = 2
	}
	p.oriented = wantsOrientation(opt)
	if err := p.sizePhase1(); err != nil {
		return nil, err
	}
	if size > 0 {
		if err := checkDisk(opt.diskParent(), diskNeed(name, size, 2)); err != nil {
			return nil, err
		}
	}
	b, err := store.Create(opt.Dest, store.CreateOptions{Force: opt.Force, ShardBytes: opt.ShardBytes, Log: opt.Log})
	if err != nil {
		return nil, err
	}
	p.b = b
	parent := opt.Context
	if parent == nil {
		parent = context.Background()
	}
	p.ctx, p.cancel = context.WithCancelCause(parent)
	p.pool = newMemPool(p.spillMem(), cmp.Or(p.opt.spillSlab, tapeSlab))
	for d, name := range []string{"out.spill", "in.spill"}[:p.dirs] {
		if p.spills[d], err = newSpill(b.TempDir(), name, p.pool); err != nil {
			p.close()
			return nil, err
		}
	}
	if opt.Verbose && opt.Log != nil {
		fmt.Fprintf(opt.Log, "ingest: %s\n", p.budget())
	}
	if e := opt.early; e != nil && e.perm != nil {
		if err := p.readAgainIn(e); err != nil {
			p.close()
			return nil, err
		}
	} else if e != nil && !p.scanned() {
		p.side = p.newAutoSide()
	}
	p.restore = setMemoryLimit(p.heapLimit())
	p.pool.onUse = func(used int64) { debug.SetMemoryLimit(p.heapLimit() - used) }
	return p, nil
}

// sizePhase1 sizes the chunks from the budget: Workers+2 chunks being filled or sorted
// (8 bytes per key and direction) and an encoding buffer per worker, beside the
// numbering's per-vertex arrays (heldBytes; a replay sizes phase 1 again once they
// exist). A budget too small for every core runs fewer workers.
func (p *pipeline) sizePhase1() error {
	for {
		w := int64(p.workers)
		avail := p.live() - p.heldBytes() - (w+2)*parseBlock - w*parse.BatchSize*16 - w*encoderFixed
		p.chunkKeys = int(max(min(avail/(8*((w+2)*int64(p.dirs)+w)), maxChunkKeys), 0))
		if p.chunkKeys >= minKeys {
			break
		}
		if p.workers == 1 {
			need := p.live() - avail + int64(minKeys)*8*((w+2)*int64(p.dirs)+w)
			return fmt.Errorf("ingest: a memory budget of %s is too small (allow at least %s): %w",
				bytesize.Format(p.given()), bytesize.Format(p.givenFor(need)), ErrMemTooSmall)
		}
		p.workers--
	}
	if p.opt.chunkKeys > 0 {
		p.chunkKeys = p.opt.chunkKeys
	}
	return nil
}

// close releases everything an unfinished ingest holds: the spill files, the
// temporary graph directory and the memory limit.
func (p *pipeline) close() {
	if p.cancel != nil {
		p.cancel(nil)
	}
	p.closeSpills()
	if p.b != nil && !p.committed {
		p.b.Abort()
	}
	if p.restore != nil {
		p.restore()
	}
}

func (p *pipeline) closeSpills() {
	p.raw.close()
	for _, s := range p.spills {
		s.close()
	}
}

// fail records the first error and stops every stage.
func (p *pipeline) fail(err error) { p.cancel(err) }

// cause is why the pipeline stopped.
func (p *pipeline) cause() error {
	err := context.Cause(p.ctx)
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("ingest: interrupted: %w", err)
	}
	return err
}

// phase1 runs produce (which calls p.emit) with the chunks ready, and records the
// phase. bytes is the input size for the bar (0 = unknown).
func (p *pipeline) phase1(name string, total int64, produce func(*progress) error) error {
	t0 := time.Now()
	prog := newProgress(p.opt.Progress, name, total, total > 0)
	p.startChunks()
	err := produce(prog)
	if err != nil {
		p.fail(err)
	}
	p.flushChunks()
	prog.finish()
	if err == nil && p.ctx.Err() != nil {
		err = p.cause()
	}
	if err != nil {
		return err
	}
	p.phases = append(p.phases, Phase{Name: name, Seconds: time.Since(t0).Seconds(), Bytes: p.phaseBytes, Edges: p.inputEdges.Load()})
	return nil
}

func (p *pipeline) startChunks() {
	n := p.workers + 2
	p.free, p.partial = make(chan *chunk, n), make(chan *chunk, n)
	p.states = make(chan *encoderState, p.workers)
	for range n {
		c := &chunk{}
		for d := range p.dirs {
			c.keys[d] = make([]uint64, 0, p.chunkKeys)
		}
		p.free <- c
	}
	for range p.workers {
		p.states <- &encoderState{tmp: make([]uint64, p.chunkKeys), cc: new(chunkCounts)}
	}
}

// flushChunks spills the partly filled chunks, in parallel.
func (p *pipeline) flushChunks() {
	var wg sync.WaitGroup
	for done := false; !done; {
		select {
		case c := <-p.partial:
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := p.spillFull(c); err != nil {
					p.fail(err)
				}
			}()
		default:
			done = true
		}
	}
	wg.Wait()
	p.free, p.partial, p.states = nil, nil, nil
}

// spillFull spills a chunk in the goroutine that filled it up, and frees it. Handed to
// sorter goroutines instead, chunks moved to another core's cache before their two
// passes: on the H100 host (kron23, input order, five runs each) the ingest took 2.04 s
// (median) this way and 2.20 s that way.
func (p *pipeline) spillFull(c *chunk) error {
	var err error
	if p.ctx.Err() == nil {
		st := <-p.states
		err = p.spillChunk(c, st)
		p.states <- st
	}
	for d := range c.keys {
		c.keys[d] = c.keys[d][:0]
	}
	p.free <- c
	return err
}

// emit routes a batch of input edges into chunks; it is called concurrently.
func (p *pipeline) emit(batch []parse.Edge) error {
	if p.ctx.Err() != nil {
		return p.cause()
	}
	if len(batch) == 0 {
		return nil
	}
	p.inputEdges.Add(uint64(len(batch)))
	need := 1
	if !p.opt.Directed {
		need = 2
	}
	var loops, top uint64
	for len(batch) > 0 {
		c, err := p.takeChunk()
		if err != nil {
			return err
		}
		limit := p.fillLimit()
		n := max(min(len(batch), (limit-len(c.keys[0]))/need), 0)
		l, t := p.fill(c, batch[:n])
		loops, top = loops+l, max(top, t)
		batch = batch[n:]
		if limit-len(c.keys[0]) < need {
			if err := p.spillFull(c); err != nil {
				p.fail(err)
				return err
			}
		} else {
			p.partial <- c
		}
	}
	return p.noteBatch(loops, top)
}

// noteBatch counts a filled batch's dropped self-loops and its largest id.
func (p *pipeline) noteBatch(loops, top uint64) error {
	p.selfLoops.Add(loops)
	if top > MaxVertexID {
		// The parser and the replay never pass one; the keys filled are void.
		return errIDTooLarge(p.name, top)
	}
	if p.oriented && top >= orientLimit {
		return &orientIDError{p.name, top} // the keys filled are void
	}
	for old := p.maxID.Load(); top+1 > old; old = p.maxID.Load() {
		if p.maxID.CompareAndSwap(old, top+1) {
			break
		}
	}
	return nil
}

// fillLimit is how many keys a chunk takes before it is sorted: 256K keys, which
// sort in cache, unless the ids seen so far span so many partitions that the blocks
// would shrink below about 2K keys, which would swell the spill's index (24 bytes a
// block) and its block headers.
func (p *pipeline) fillLimit() int {
	parts := int(p.maxID.Load()>>partShift) + 1
	return min(p.chunkKeys, max(cmp.Or(p.opt.fillKeys, minChunkKeys), parts*2048))
}

// fill appends the keys of edges to c and returns the self-loops dropped and the
// largest id (0 for no edges: the caller counts the vertex count from top+1, which a
// batch's ids hold anyway). An undirected edge is stored both ways (a kept self-loop
// once), oriented when p.oriented; a directed one goes to the out-keys and, transposed,
// to the in-keys. The ids' maximum is taken here rather than in a pass of its own over
// the batch.
func (p *pipeline) fill(c *chunk, edges []parse.Edge) (loops, top uint64) {
	if p.oriented {
		return p.fillOriented(c, edges)
	}
	out, in := c.keys[0], c.keys[1]
	for _, e := range edges {
		top = max(top, e.U, e.V)
		u, v := uint32(e.U), uint32(e.V)
		switch {
		case u == v && !p.opt.KeepSelfLoops:
			loops++
		case p.opt.Directed:
			out = append(out, key(u, v))
			in = append(in, key(v, u))
		case u == v:
			out = append(out, key(u, u))
		default:
			out = append(out, key(u, v), key(v, u))
		}
	}
	c.keys[0], c.keys[1] = out, in
	return loops, top
}

// fillOriented is fill for an oriented ingest (orient.go). Ids of orientLimit and more
// make void keys, which noteBatch refuses.
func (p *pipeline) fillOriented(c *chunk, edges []parse.Edge) (loops, top uint64) {
	out := c.keys[0]
	keep := p.opt.KeepSelfLoops
	for _, e := range edges {
		top = max(top, e.U, e.V)
		u, v := uint32(e.U), uint32(e.V)
		switch {
		case u != v:
			out = append(out, orientedKey(u, v, 0), orientedKey(v, u, 1))
		case keep:
			out = append(out, orientedKey(u, u, 0))
		default:
			loops++
		}
	}
	c.keys[0] = out
	return loops, top
}

// takeChunk returns a partly filled chunk if there is one, else a free one, waiting
// for one to be spilled: the fixed number of chunks bounds phase 1's memory.
func (p *pipeline) takeChunk() (*chunk, error) { return p.takeFrom(p.partial, p.free) }

// takeFrom returns a chunk from partial if one is there, else the first from either.
func (p *pipeline) takeFrom(partial, free chan *chunk) (*chunk, error) {
	select {
	case c := <-partial:
		return c, nil
	default:
	}
	select {
	case c := <-partial:
		return c, nil
	case c := <-free:
		return c, nil
	case <-p.ctx.Done():
		return nil, p.cause()
	}
}

// encoderState is the buffers of one chunk's encoding; there is one a worker.
type encoderState struct {
	tmp  []uint64
	enc  []byte
	refs []blockRef
	cc   *chunkCounts
}

// setGroups fixes the width of the spills' groups, once, before the first block: from
// the vertex count where a scan knows it, else (the input order) from the ids seen by
// the time the first chunk is full, the chunk's own included. A guess too small costs
// speed, never correctness: a chunk's keys then scatter over more groups.
func (p *pipeline) setGroups(gb func() groupBits) {
	p.groupsOnce.Do(func() {
		w := cmp.Or(p.opt.groupBits, gb())
		for _, s := range p.spills[:p.dirs] {
			s.gb = w
		}
	})
}

// topSource is 1 + the largest source of c's keys.
func topSource(c *chunk) uint64 {
	var top uint64
	for _, keys := range c.keys {
		for _, k := range keys {
			top = max(top, k)
		}
	}
	return uint64(keySrc(top)) + 1
}

// spillChunk encodes a chunk's keys of each direction as blocks and spills them:
// straight from the chunk (encodeChunk) where it can, else sorted by group first.
func (p *pipeline) spillChunk(c *chunk, st *encoderState) error {
	p.setGroups(func() groupBits { return groupsFor(max(p.maxID.Load(), topSource(c))) })
	for d := range p.dirs {
		s := p.spills[d]
		enc, refs, ok := encodeChunk(st.cc, c.keys[d], st.tmp, st.refs[:0], s.bySource, s.gb)
		st.refs = refs
		if ok {
			if err := s.write(enc, refs); err != nil {
				return err
			}
			continue
		}
		if err := p.spillKeys(s, groupSort(c.keys[d], st.tmp, s.bySource, s.gb), st); err != nil {
			return err
		}
	}
	return nil
}

// spillKeys cuts keys ordered by group into blocks of one partition each (at most
// blockKeys keys) and appends them to s in writes of about 1 MiB.
func (p *pipeline) spillKeys(s *spill, keys []uint64, st *encoderState) error {
	st.enc, st.refs = st.enc[:0], st.refs[:0]
	for i := 0; i < len(keys); {
		part := partOf(keys[i])
		j := i + 1
		for j < len(keys) && j-i < blockKeys && partOf(keys[j]) == part {
			j++
		}
		off := len(st.enc)
		st.enc = appendBlock(st.enc, keys[i:j], s.gb)
		st.refs = append(st.refs, blockRef{part: part, count: uint32(j - i), off: int64(off), len: int64(len(st.enc) - off)})
		i = j
		if len(st.enc) >= 1<<20 || i == len(keys) {
			if err := s.write(st.enc, st.refs); err != nil {
				return err
			}
			st.enc, st.refs = st.enc[:0], st.refs[:0]
		}
	}
	return nil
}
