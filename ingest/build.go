package ingest

import (
	"cmp"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"sync"
	"time"
	"unsafe"

	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/store"
)

// source is where a direction's keys come from: one spill's blocks of a partition.
// skipLoops drops self-loops, which the in-spill of a symmetric directed input repeats.
type source struct {
	s         *spill
	refs      []blockRef
	skipLoops bool
}

// task is a vertex range [lo, hi) of one direction, sorted and encoded by one worker
// and written to each writer in ws, in seq order.
type task struct {
	seq int
	srcRange
	srcs   []source
	heads  [][]blockHead // the blocks' headers by source and block, when split kept them
	n      uint64        // keys to read (before deduplication)
	runs   uint64        // about how many runs they lie in (a block's count, at most a partition's groups), for grouping partitions
	ws     []*store.CSRWriter
	counts bool // the out direction: count the stored edges and self-loops
}

// plan is one CSR to build: which spills feed it and which writers receive it.
type plan struct {
	spills    []*spill
	skipLoops []bool
	ws        []*store.CSRWriter
	counts    bool
}

func (p *pipeline) plans() []plan {
	out, in := p.b.Writer(store.Out), p.b.Writer(store.In)
	switch {
	case !p.opt.Directed:
		return []plan{{spills: []*spill{p.spills[0]}, skipLoops: []bool{false}, ws: []*store.CSRWriter{out}, counts: true}}
	case p.symmetric:
		// Out = E ∪ Eᵀ, which is also its own transpose.
		return []plan{{spills: p.spills[:2], skipLoops: []bool{false, true}, ws: []*store.CSRWriter{out, in}, counts: true}}
	}
	return []plan{
		{spills: p.spills[:1], skipLoops: []bool{false}, ws: []*store.CSRWriter{out}, counts: true},
		{spills: p.spills[1:2], skipLoops: []bool{false}, ws: []*store.CSRWriter{in}},
	}
}

// phase2 sorts and encodes the partitions on all workers and writes them in order.
func (p *pipeline) phase2() error {
	t0 := time.Now()
	plans := p.plans()
	var total uint64
	var spillBytes int64
	for _, pl := range plans {
		for _, s := range pl.spills {
			total += s.keys
			spillBytes += s.size
		}
	}
	workers := p.sizePhase2()
	prog := newProgress(p.opt.Progress, "sort", int64(total), false)
	tasks := make(chan *task)
	var wg sync.WaitGroup
	turn := &turnstile{pending: map[int]*output{}, limit: outputsPerWorker * workers}
	turn.cond.L = &turn.mu
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws := &workerState{}
			for {
				// The output comes first, so the earliest task in flight always has one
				// and the pool cannot fill up with outputs waiting behind it.
				out, err := p.freeOutput(turn)
				if err != nil {
					return
				}
				t, ok := <-tasks
				if !ok {
					return
				}
				if err := p.runTask(t, out, ws, turn, prog); err != nil {
					p.fail(err)
					turn.wake()
				}
			}
		}()
	}
	err := p.dispatch(plans, tasks)
	close(tasks)
	wg.Wait()
	prog.finish()
	if err == nil && p.ctx.Err() != nil {
		err = p.cause()
	}
	if err != nil {
		return err
	}
	p.phases = append(p.phases, Phase{Name: "sort", Seconds: time.Since(t0).Seconds(), Bytes: spillBytes, Edges: total})
	return nil
}

// sizePhase2 gives each worker an equal share of the budget, less the spill index, and
// returns how many workers to run: fewer when a share would sort too few keys. The
// tapes' memory is not theirs.
func (p *pipeline) sizePhase2() int {
	var refs int64
	var keys uint64
	for _, s := range p.spills {
		if s != nil {
			refs += int64(len(s.refs))
			keys += s.keys
		}
	}
	avail := p.live() - p.heldBytes() - refs*24 - p.pool.used() - 2*int64(max(p.workers, 1))*p.headsLimit()
	perKey := int64(bytesPerTaskKey)
	for _, s := range p.spills {
		if s != nil && s.t.fileBytes() > 0 {
			perKey += arenaBytesPerKey
			break
		}
	}
	w := p.workers
	for ; w > 1 && (avail/int64(w)-taskFixed)/perKey < 256<<10; w-- {
	}
	p.budgetKeys = int(max(min((avail/int64(w)-taskFixed)/perKey, 1<<31), minKeys))
	p.taskKeys = min(p.budgetKeys, taskKeysFor(keys, w))
	if p.opt.taskKeys > 0 {
		p.taskKeys = p.opt.taskKeys
	}
	return w
}

// Phase 2 tasks hold between minTaskKeys and maxTaskKeys keys, aiming at 16 tasks a
// worker, so that the last tasks leave little tail. A task sorts one sort unit (sortUnit)
// at a time, so its size does not decide what stays in cache; but each task of a split
// partition parses the headers of all the partition's blocks, and on kron23 (input
// order, 256K-key tasks, 16 cores) that cost 8% of the ingest's CPU time.
const (
	minTaskKeys = 1 << 18
	maxTaskKeys = 1 << 20
)

func taskKeysFor(keys uint64, workers int) int {
	return int(min(max(keys/uint64(16*workers), minTaskKeys), maxTaskKeys))
}

// bytesPerTaskKey is a worker's memory per key of a task: a sort unit's keys and the
// radix sort's buffer (8 + 8; a unit is at most a task), a neighbour list (4), the
// task's runs (under 4: phase 1's blocks hold 16 keys a run on average at least) and
// outputsPerWorker encoded outputs (at most 5 bytes per neighbour plus the block index,
// each).
const bytesPerTaskKey = 40

// arenaBytesPerKey is what a task's arena (readBuf) holds per key when the spill is on
// disk: the entries it reads, of at most maxGroupBits+32 bits each, and the blockPad
// after each block's part.
const arenaBytesPerKey = 6

// groupSpan bounds the vertices a task of grouped partitions covers, gaps included: its
// output holds a degree and an offset for each (encode fills the vertices without edges
// between its sources). Unbounded, two edges "0 1" and "100000000 2" made one task of
// 10^8 vertices, 1.6 GiB under a 64 MiB budget and 40 s of growing slices; the writer
// fills the gaps between tasks on disk.
const groupSpan = 4 << partShift

// groupKeys is the size up to which consecutive partitions share one task: enough
// keys to amortize a task's setup, few enough to sort in cache-sized pieces and to
// spread a small graph over every worker.
const groupKeys = 1 << 20

// dispatch cuts each plan into tasks in vertex order: small partitions grouped, large
// ones split. The counting passes that split large partitions run ahead on up to
// p.workers goroutines (splitAhead): done in the dispatcher alone they were the serial
// step that kept phase 2 from scaling past a few cores on large graphs.
func (p *pipeline) dispatch(plans []plan, tasks chan<- *task) error {
	d := &dispatcher{p: p, tasks: tasks}
	for _, pl := range plans {
		ordered := p.partitionTasks(pl)
		results := p.splitAhead(ordered)
		for _, res := range results {
			var r prepared
			select {
			case r = <-res:
			case <-p.ctx.Done():
				return p.cause()
			}
			if r.err != nil {
				p.fail(r.err)
				return r.err
			}
			if err := d.add(r.t, r.split); err != nil {
				p.fail(err)
				return err
			}
		}
		if err := d.flush(); err != nil {
			return err
		}
	}
	return nil
}

// partitionTasks lists a plan's partitions in vertex order as one task each.
func (p *pipeline) partitionTasks(pl plan) []*task {
	parts := map[uint32][]source{}
	for i, s := range pl.spills {
		for part, refs := range s.byPart() {
			parts[part] = append(parts[part], source{s: s, refs: refs, skipLoops: pl.skipLoops[i]})
		}
	}
	order := make([]uint32, 0, len(parts))
	for part := range parts {
		order = append(order, part)
	}
	slices.Sort(order)
	out := make([]*task, len(order))
	for i, part := range order {
		t := &task{srcRange: srcRange{lo: uint64(part) << partShift, hi: uint64(part+1) << partShift}, srcs: parts[part], ws: pl.ws, counts: pl.counts}
		for _, src := range t.srcs {
			for _, r := range src.refs {
				t.n += uint64(r.count)
				t.runs += min(uint64(r.count), uint64(src.s.gb.perPart()))
			}
		}
		out[i] = t
	}
	return out
}

// prepared is a partition's task and, when it is too large for one task, its split.
type prepared struct {
	t     *task
	split []*task
	err   error
}

// splitAhead returns one channel per task, in order, each receiving the task and its
// split. Splits run on up to p.workers goroutines, at most 2*p.workers partitions ahead
// of the dispatcher, so the splits held in memory stay bounded.
func (p *pipeline) splitAhead(ordered []*task) []chan prepared {
	results := make([]chan prepared, len(ordered))
	for i := range results {
		results[i] = make(chan prepared, 1)
	}
	window := make(chan struct{}, 2*max(p.workers, 1))
	run := make(chan struct{}, max(p.workers, 1))
	go func() {
		for i, t := range ordered {
			if t.n <= uint64(p.taskKeys) && t.n+runCost*t.runs <= uint64(p.budgetKeys) {
				results[i] <- prepared{t: t}
				continue
			}
			select {
			case window <- struct{}{}:
			case <-p.ctx.Done():
				return
			}
			run <- struct{}{}
			go func() {
				split, err := p.split(t)
				<-run
				results[i] <- prepared{t: t, split: split, err: err}
			}()
		}
	}()
	// The dispatcher frees a window slot as it takes each split result.
	wrapped := make([]chan prepared, len(ordered))
	for i := range ordered {
		wrapped[i] = make(chan prepared, 1)
		go func() {
			select {
			case r := <-results[i]:
				if r.split != nil || r.err != nil {
					<-window
				}
				wrapped[i] <- r
			case <-p.ctx.Done():
			}
		}()
	}
	return wrapped
}

// runCost is what a run costs phase 2 beyond its keys, in keys: a block's group is
// looked up, loaded and decoded on its own. Where runs hold a key or two (the last
// partitions of a degree-ordered graph: vertices of degree 1-3, each chunk's block
// holding a few keys in each of 128 groups) a task took 3-4x as long as one of as many
// keys elsewhere; kron23 on 16 cores, the last five tasks, of 1M keys each, ran
// 140-210 ms while the other workers idled.
const runCost = 3

// dispatcher numbers tasks and groups small partitions.
type dispatcher struct {
	p     *pipeline
	tasks chan<- *task
	seq   int
	group *task
}

// add takes a partition's task, or the tasks it was split into. Small partitions are
// grouped up to taskKeys keys, a run counted as runCost keys.
func (d *dispatcher) add(t *task, split []*task) error {
	limit := uint64(min(d.p.taskKeys, groupKeys))
	if g := d.group; g != nil && split == nil && g.n+t.n+runCost*(g.runs+t.runs) <= limit && t.hi-g.lo <= groupSpan {
		g.hi, g.hiAt, g.n, g.runs = t.hi, t.hiAt, g.n+t.n, g.runs+t.runs
		g.srcs = append(g.srcs, t.srcs...)
		return nil
	}
	if err := d.flush(); err != nil {
		return err
	}
	if split == nil {
		d.group = t
		return nil
	}
	for _, st := range split {
		if err := d.send(st); err != nil {
			return err
		}
	}
	return nil
}

func (d *dispatcher) flush() error {
	if d.group == nil {
		return nil
	}
	g := d.group
	d.group = nil
	return d.send(g)
}

func (d *dispatcher) send(t *task) error {
	t.seq = d.seq
	d.seq++
	select {
	case d.tasks <- t:
		return nil
	case <-d.p.ctx.Done():
		return d.p.cause()
	}
}

// split cuts a partition too large for one task into vertex sub-ranges of at most
// taskKeys keys each, and of at most budgetKeys counting each run as runCost keys (a
// task holds a 56-byte descriptor a run, twice: where runs hold a key or two, as in the
// degree order's tail, they outweighed the keys). It cuts between groups, from the group counts in the blocks'
// headers, and counts the keys of single vertices only in groups too large for one
// task (or, with a small budget, for one sort): counting every vertex took a pass over all the partition's keys, a tenth of
// phase 2 on kron21. A sub-range's task then decodes only the groups it overlaps.
func (p *pipeline) split(t *task) ([]*task, error) {
	gb := t.srcs[0].s.gb
	gc := make([]uint64, gb.perPart())
	rc := make([]uint64, gb.perPart()) // each group's runs: the blocks holding keys of it
	var rb readBuf
	var groups []groupRun
	// The headers are kept for the sub-ranges while they take at most headsLimit bytes.
	limit := p.headsLimit()
	var heads [][]blockHead
	if limit > 0 {
		heads = make([][]blockHead, len(t.srcs))
	}
	var shared []groupRun
	for si, src := range t.srcs {
		if heads != nil {
			heads[si] = make([]blockHead, len(src.refs))
			limit -= int64(len(src.refs)) * int64(unsafe.Sizeof(blockHead{}))
		}
		for ri, ref := range src.refs {
			b, hdr, err := src.s.head(&rb, groups, ref)
			if err != nil {
				return nil, err
			}
			groups = b.groups
			for _, g := range groups {
				gc[(g.base>>gb)%uint32(len(gc))] += uint64(g.end - g.start)
				rc[(g.base>>gb)%uint32(len(gc))]++
			}
			if limit -= int64(len(groups)) * int64(unsafe.Sizeof(groupRun{})); limit < 0 {
				heads, shared = nil, nil // too many: the sub-ranges read the headers again
			}
			if heads != nil {
				if cap(shared)-len(shared) < len(groups) {
					shared = make([]groupRun, 0, max(4096, len(groups)))
				}
				at := len(shared)
				shared = append(shared, groups...)
				heads[si][ri] = blockHead{groups: shared[at:len(shared):len(shared)], hdr: int32(hdr), width: uint8(b.width)}
			}
		}
	}
	onDisk := false
	for _, src := range t.srcs {
		onDisk = onDisk || src.s.t.fileBytes() > 0
	}
	size := p.splitKeys(t.n, slices.Max(gc), t.srcs[0].s.bySource, onDisk)
	counts, err := p.bigGroupCounts(t, gc, size)
	if err != nil {
		return nil, err
	}
	// Cut into sub-ranges of about equal size: a short last one finished long before
	// the others, and the outputs after it waited for them (the writer writes in order).
	target := size
	if parts := (t.n + size - 1) / size; parts > 1 {
		target = (t.n + parts - 1) / parts
	}
	var out []*task
	budget := uint64(p.budgetKeys)
	start, acc, cost := t.lo, uint64(0), uint64(0) // cost: acc and the runs, runCost keys each
	startAt := 0.0
	// cut ends a sub-range at v; at is the share of v's group's keys below v, where v
	// lies inside a group.
	cut := func(v uint64, at float64) {
		if acc > 0 {
			out = append(out, &task{srcRange: srcRange{lo: start, hi: v, loAt: startAt, hiAt: at}, srcs: t.srcs, heads: heads, n: acc, ws: t.ws, counts: t.counts})
		}
		start, startAt, acc, cost = v, at, 0, 0
	}
	for g, c := range gc {
		lo := t.lo + uint64(g)<<gb
		r := runCost * rc[g]
		if c <= size {
			// the nearer of the two cuts, or where the runs would pass the budget
			if acc+c > size || acc+c/2 > target || cost+c+r > budget {
				cut(lo, 0)
			}
			acc, cost = acc+c, cost+c+r
			continue
		}
		cut(lo, 0)
		below := uint64(0) // the group's keys below v
		for i, c := range counts[g] {
			v := lo + uint64(i)
			if uint64(c) > uint64(p.budgetKeys) {
				return nil, fmt.Errorf("ingest: vertex %d has %d edges, more than the %d a memory budget of %s sorts at once (raise --mem): %w",
					p.originalID(int(v)), c, p.budgetKeys, bytesize.Format(p.given()), ErrMemTooSmall)
			}
			// A vertex of more than target edges gets a task of its own; each sub-range
			// of the group reads a run from every block of it.
			if acc+uint64(c) > size || acc+uint64(c)/2 > target || acc+uint64(c)+r > budget {
				cut(v, float64(below)/float64(gc[g]))
			}
			acc += uint64(c)
			below += uint64(c)
		}
	}
	cut(t.hi, 0)
	if len(out) == 0 { // no keys after all: one empty task keeps the partition's place
		out = append(out, &task{srcRange: t.srcRange, srcs: t.srcs, ws: t.ws, counts: t.counts})
	}
	return out, nil
}

// bigGroupCounts counts the keys of each vertex of the groups of more than size keys,
// on up to p.workers goroutines, each counting one group in a slice of the partition's
// blocks: a degree-ordered graph's first partition holds most of it (kron23: 70%, one
// group a fifth), and counting its groups one after the other, or even one a goroutine,
// held up the start of phase 2 while every worker waited (16 cores: 2.6-3.9 of 20-25
// worker-seconds).
func (p *pipeline) bigGroupCounts(t *task, gc []uint64, size uint64) ([][]uint32, error) {
	gb := t.srcs[0].s.gb
	counts := make([][]uint32, len(gc))
	var mu sync.Mutex
	var errs []error
	sem := make(chan struct{}, max(p.workers, 1))
	var wg sync.WaitGroup
	for g, c := range gc {
		if c <= size {
			continue
		}
		counts[g] = make([]uint32, gb.mask()+1)
		lo := t.lo + uint64(g)<<gb
		for si := range t.srcs {
			src := &t.srcs[si]
			for i := 0; i < len(src.refs); i += countSlice {
				refs := src.refs[i:min(i+countSlice, len(src.refs))]
				wg.Add(1)
				sem <- struct{}{}
				go func() {
					defer func() { <-sem; wg.Done() }()
					local := make([]uint32, gb.mask()+1)
					err := vertexCounts(local, src, refs, lo)
					mu.Lock()
					defer mu.Unlock()
					if err != nil {
						errs = append(errs, err)
					}
					for v, c := range local {
						counts[g][v] += c
					}
				}()
			}
		}
	}
	wg.Wait()
	return counts, errors.Join(errs...)
}

// countSlice is how many blocks one goroutine of bigGroupCounts reads.
const countSlice = 256

// splitTaskKeys caps the sub-ranges of a split partition (512 MiB of task memory).
const splitTaskKeys = 1 << 24

// splitKeys is the size of the sub-ranges of a partition of n keys whose largest group
// holds maxGroup keys. A sub-range reads the header of each of the partition's blocks and
// the entries of the groups it overlaps, so a group cut into T sub-ranges is read T times:
// a degree-ordered graph's first partitions hold most of it (kron22: 74.5% in the first
// 2^17 vertices, 11.3% in the first 1024), and cutting them at maxTaskKeys read kron24's
// spill 7.7 times over (36 GB of reads for a 4.7 GB spill). Degree-ordered (bySource)
// partitions whose spill is partly on disk are therefore cut into sub-ranges as large as
// two per worker or a quarter of the largest group allow (kron26 on 16 cores: phase 2
// 16.5 s; 21.5 s with the quarter alone). From memory the re-reading costs little, and
// tasks that sort in cache gained (kron21 degree order, 2 cores: phase 2 1.9 -> 0.95 s,
// when a task still sorted all its keys at once). Elsewhere sub-ranges grow beyond
// taskKeys only with a group too large for it.
func (p *pipeline) splitKeys(n, maxGroup uint64, bySource, onDisk bool) uint64 {
	if p.opt.taskKeys > 0 {
		return uint64(p.taskKeys) // tests force many sub-ranges
	}
	size := max(uint64(p.taskKeys), maxGroup/4)
	if bySource && onDisk {
		size = max(size, n/uint64(2*max(p.workers, 1)))
	}
	return min(uint64(p.budgetKeys), size, splitTaskKeys)
}

// vertexCounts adds to counts[v-lo] the keys of each vertex v of the group that starts
// at lo in the blocks refs of src.
func vertexCounts(counts []uint32, src *source, refs []blockRef, lo uint64) error {
	var rb readBuf
	var groups []groupRun
	for _, ref := range refs {
		b, err := src.s.readRange(&rb, groups, ref, nil, srcRange{lo: lo, hi: lo + src.s.gb.mask() + 1}, false)
		if err != nil {
			return err
		}
		groups = b.groups
		countBlock(counts, src, b, lo)
	}
	return nil
}

// countBlock adds the keys of block b in the group that starts at lo to counts[v-lo].
func countBlock(counts []uint32, src *source, b spillBlock, lo uint64) {
	for gi := range b.groups {
		g := &b.groups[gi]
		if uint64(g.base) != lo {
			continue
		}
		mask := b.gb.mask()
		counts := counts[:mask+1]
		if !src.skipLoops { // the source alone, without shifting the entry by a variable
			for i := g.start; i < g.end; i++ {
				counts[entryAt(b.entries, b.skip, b.width, i)&mask]++
			}
			continue
		}
		for i := g.start; i < g.end; i++ {
			if k := b.key(g, i); keySrc(k) != keyDst(k) {
				counts[uint64(keySrc(k))-lo]++
			}
		}
	}
}

// turnstile lets workers finish tasks in any order but write them in seq order. A
// finished task's output waits in pending; whichever worker finds the next one there
// while no one is writing writes it and every later one that is ready, while the others
// go on sorting. A worker waited for its turn before and left its core idle meanwhile:
// on two cores a quarter of phase 2.
//
// The outputs are a pool shared by the workers, so that a task slower than the others
// holds up only the outputs that wait behind it, not the workers that finished them: with
// two outputs of its own a worker waited once it was two tasks ahead of the slowest, and
// on the 16-core H100 host the workers of the input order spent a quarter of phase 2
// waiting for an output (kron23, 1M-key tasks: 3.2 of 14.4 worker-seconds).
type turnstile struct {
	mu      sync.Mutex
	cond    sync.Cond
	next    int
	pending map[int]*output
	writing bool
	free    []*output // written outputs, ready to reuse
	made    int       // outputs allocated, at most limit
	limit   int
}

// outputsPerWorker sizes the pool of outputs: one being sorted into and two waiting per
// worker.
const outputsPerWorker = 3

func (t *turnstile) wake() {
	t.mu.Lock()
	t.cond.Broadcast()
	t.mu.Unlock()
}

// output is one task's encoded lists: the dense degrees, offsets and data that
// CSRWriter.AppendRange takes, from vertex lo on.
type output struct {
	t       *task
	lo      uint32
	degrees []uint32
	offsets []uint32
	data    []byte
	loops   uint64
	edges   uint64
	pairs   uint64 // reciprocal pairs merged (oriented keys)
	sum     uint32 // CRC32C of data[offsets[0]:], computed by the worker
}

// workerState is a worker's buffers, reused from task to task.
type workerState struct {
	keys, tmp []uint64
	rb        readBuf
	groups    []groupRun
	runs      []entryRun // a task's runs as read
	sorted    []entryRun // and ordered by group
	slots     []uint32
	touched   byte // sums the bytes loaded ahead (runsAhead), so that the compiler keeps the loads
	// count is a sort unit's digit counts: the decode fills them through widthLoops, an
	// interface call, which would move an array of the unit's own to the heap each unit
	count [1 << wideBits]uint32
}

// freeOutput takes an output from the pool, waiting while all of them are pending or
// being written.
func (p *pipeline) freeOutput(turn *turnstile) (*output, error) {
	turn.mu.Lock()
	defer turn.mu.Unlock()
	for p.ctx.Err() == nil {
		if n := len(turn.free); n > 0 {
			o := turn.free[n-1]
			turn.free = turn.free[:n-1]
			return o, nil
		}
		if turn.made < turn.limit {
			turn.made++
			return &output{}, nil
		}
		turn.cond.Wait()
	}
	return nil, p.cause()
}

func (p *pipeline) runTask(t *task, out *output, ws *workerState, turn *turnstile, prog *progress) error {
	if err := p.sortTask(t, ws, out); err != nil {
		return err
	}
	out.t = t
	prog.add(int64(t.n))
	prog.addEdges(int64(t.n))
	turn.mu.Lock()
	defer turn.mu.Unlock()
	turn.pending[t.seq] = out
	if turn.writing {
		return nil
	}
	turn.writing = true
	defer func() { turn.writing = false }()
	for {
		o := turn.pending[turn.next]
		if o == nil {
			return nil
		}
		if p.ctx.Err() != nil {
			return p.cause()
		}
		delete(turn.pending, turn.next)
		turn.mu.Unlock()
		err := p.write(o)
		turn.mu.Lock()
		turn.free = append(turn.free, o)
		turn.next++
		turn.cond.Broadcast()
		if err != nil {
			return err
		}
	}
}

// write hands a task's output to its writers; only one worker writes at a time.
func (p *pipeline) write(o *output) error {
	if len(o.degrees) > 0 {
		for _, w := range o.t.ws {
			if err := w.AppendRangeSum(o.lo, o.degrees, o.offsets, o.data, o.sum); err != nil {
				return err
			}
		}
	}
	if o.t.counts {
		p.storedEdges += o.edges
		p.storedLoops += o.loops
		p.reciprocal += o.pairs
	}
	return nil
}

// sortTask sorts the task's keys group by group, deduplicates them and encodes the
// lists. It collects the runs of entries each block holds for each group, orders them by
// group and decodes one sort unit of consecutive groups at a time: a unit's keys and
// buffer then stay in the core's own cache through the decode, the radix passes and the
// encoding, where the whole task's 4 MiB did not, and the decode packs the keys for the
// radix sort and counts its first digit on the way.
func (p *pipeline) sortTask(t *task, ws *workerState, out *output) error {
	ws.rb.reset()
	runs := ws.runs[:0]
	var err error
	for si, src := range t.srcs {
		for ri, ref := range src.refs {
			var head *blockHead
			if t.heads != nil {
				head = &t.heads[si][ri]
			}
			if runs, ws.groups, err = src.s.appendRuns(runs, &ws.rb, ws.groups, ref, head, t.srcRange, src.skipLoops); err != nil {
				ws.runs = runs
				return err
			}
		}
	}
	ws.runs = runs
	gb := p.spills[0].gb // one width for all of a pipeline's spills (setGroups)
	runs = ws.byGroup(runs, gb)
	unitSpan := uint32(1) << (gb + unitSpanBits)
	out.begin(t.n)
	for i := 0; i < len(runs); {
		j, n := i, 0
		for j < len(runs) {
			k, m := j, 0
			for ; k < len(runs) && runs[k].base == runs[j].base; k++ {
				m += int(runs[k].end - runs[k].start)
			}
			if j > i && (n+m > unitKeys || runs[j].base-runs[i].base >= unitSpan) {
				break
			}
			j, n = k, n+m
		}
		// A unit's runs hold n entries, but where the task is a sub-range of a group
		// (split) they are the whole group's, of which the task keeps its own share:
		// at most the task's keys, which the budget sized it by.
		p.sortUnit(ws, out, runs[i:j], min(n, int(t.n)), t.lo, t.hi)
		i = j
	}
	out.finish()
	return nil
}

// byGroup orders runs by group, each group's runs staying in the order they were read:
// the order of their blocks in the spill, and in memory.
func (ws *workerState) byGroup(runs []entryRun, gb groupBits) []entryRun {
	if len(runs) == 0 {
		return runs
	}
	lo, hi := runs[0].base, runs[0].base
	for i := range runs {
		lo, hi = min(lo, runs[i].base), max(hi, runs[i].base)
	}
	slots := int((hi-lo)>>gb) + 1
	if slots > 4*len(runs)+4096 { // groups spread thin: a comparison sort costs less
		slices.SortStableFunc(runs, func(a, b entryRun) int { return cmp.Compare(a.base, b.base) })
		return runs
	}
	count := reuse(ws.slots, slots+1)[:slots+1]
	clear(count)
	for i := range runs {
		count[(runs[i].base-lo)>>gb+1]++
	}
	for i := 1; i <= slots; i++ {
		count[i] += count[i-1]
	}
	out := reuse(ws.sorted, len(runs))[:len(runs)]
	for i := range runs {
		g := (runs[i].base - lo) >> gb
		out[count[g]] = runs[i]
		count[g]++
	}
	ws.slots, ws.sorted = count, out
	return out
}

// unitKeys is the size up to which consecutive groups of a task share a sort unit, and
// unitSpanBits the most groups (as bits) a unit covers: a unit's keys and radix buffer
// (16 bytes a key) then fit a core's L2 cache, and its radix passes sort on at most 4
// more bits of source than a single group's.
const (
	unitKeys     = 1 << 15
	unitSpanBits = 4
)

// sortUnit decodes, sorts, deduplicates and encodes the runs of one sort unit, about n
// keys (the buffers are sized by it and grow if the runs hold more).
func (p *pipeline) sortUnit(ws *workerState, out *output, runs []entryRun, n int, lo, hi uint64) {
	keys := reuse(ws.keys, n)
	var sorted []uint64
	if n < 256 {
		// Too few keys to pay for the histograms: radixSort sorts them as they are.
		for i := range runs {
			keys = runs[i].appendKeys(keys, lo, hi)
		}
		sorted = radixSort(keys, ws.sortBuf(len(keys)))
	} else {
		base, gb := runs[0].base, runs[0].gb
		var dstBits uint
		for i := range runs {
			dstBits = max(dstBits, runs[i].width-uint(gb))
		}
		packed := uint(bits.Len32(runs[len(runs)-1].base-base+uint32(gb.mask()))) + dstBits
		pk := packing{dstBits: dstBits, srcLo: uint64(base)}
		// An LSD sort in cache counts its first digit during the decode; a unit too large
		// for one (hubs) counts its top bits for one MSD pass into buckets that are.
		passes := (packed + wideBits - 1) / wideBits
		width := (packed + passes - 1) / passes
		d := digit{mask: uint64(1)<<width - 1}
		if n > msdThreshold {
			nbits := min(msdBits(n), packed)
			d = digit{shift: packed - nbits, mask: uint64(1)<<nbits - 1}
		}
		count := &ws.count
		clear(count[:])
		for i := range runs {
			if i+runsAhead < len(runs) {
				ws.touched += runs[i+runsAhead].firstByte()
			}
			keys = runs[i].appendPacked(keys, lo, hi, uint64(runs[i].base-base), dstBits, count, d)
		}
		if n > msdThreshold {
			sorted = msdSortPacked(keys, ws.sortBuf(len(keys)), count, d, pk)
		} else {
			sorted = lsdSortPacked(keys, ws.sortBuf(len(keys)), count, width, passes, pk)
		}
	}
	ws.keys = keys
	ws.encode(out, sorted, !p.opt.KeepDuplicates, p.opt.KeepSelfLoops, p.oriented)
}

// sortBuf is the radix sorts' buffer for n keys.
func (ws *workerState) sortBuf(n int) []uint64 {
	if cap(ws.tmp) < n {
		ws.tmp = make([]uint64, n+n/4)
	}
	return ws.tmp[:n]
}

// runsAhead is how many runs ahead of the one it decodes sortUnit loads a run's first
// byte: runs are short (on kron23 in input order 32 keys, 140 bytes, on average) and lie
// anywhere in the spill, so decoding them one after the other waited for memory at each.
// On the H100 host (kron23, three runs each) the sort phase's median was 367M keys/s 4
// runs ahead, 379M 8 ahead and 411M 16 ahead.
const runsAhead = 16

// begin empties out for a task of at most n keys.
func (o *output) begin(n uint64) {
	o.degrees, o.offsets = o.degrees[:0], o.offsets[:0]
	o.data = reuse(o.data, int(5*n+n/16+64))
	o.loops, o.edges, o.pairs = 0, 0, 0
}

// finish closes the offsets of a task's output and checksums its lists.
func (o *output) finish() {
	if len(o.degrees) > 0 {
		o.offsets = append(o.offsets, uint32(len(o.data)))
		o.sum = store.CRC32C(o.data[o.offsets[0]:])
	}
}

// encode appends sorted keys, whose sources follow those already in out, to out's dense
// degrees, offsets and data, each list without its duplicates when dedup is set, and
// counts the self-loops when loops says they are kept (phase 1 drops them otherwise).
// Oriented keys (orient.go) lose their orientation bit and their repeats, and their
// reciprocal pairs are counted. Lists
// are encoded from the keys themselves (store.AppendListKeys), deduplicated in place one
// list at a time: copying each list's neighbours out and a pass over all keys to drop
// duplicates beforehand were a sixth of the encoding.
func (ws *workerState) encode(out *output, keys []uint64, dedup, loops, oriented bool) {
	n := len(keys)
	if n == 0 {
		return
	}
	if len(out.degrees) == 0 {
		out.lo = keySrc(keys[0])
	}
	v := out.lo + uint32(len(out.degrees))
	for i := 0; i < n; {
		s := keySrc(keys[i])
		for ; v < s; v++ {
			out.degrees = append(out.degrees, 0)
			out.offsets = append(out.offsets, uint32(len(out.data)))
		}
		j := i + 1
		for j < n && keySrc(keys[j]) == s {
			j++
		}
		list := keys[i:j]
		switch {
		case oriented:
			var pairs uint64
			list, pairs = mergeOriented(list, s)
			out.pairs += pairs
		case dedup:
			list = slices.Compact(list)
		}
		if loops {
			out.loops += selfLoops(list, key(s, s))
		}
		out.edges += uint64(len(list))
		out.degrees = append(out.degrees, uint32(len(list)))
		out.offsets = append(out.offsets, uint32(len(out.data)))
		out.data = store.AppendListKeys(out.data, s, list)
		v, i = s+1, j
	}
}

// selfLoops counts the keys equal to loop in the sorted list.
func selfLoops(list []uint64, loop uint64) uint64 {
	k, found := slices.BinarySearch(list, loop)
	if !found {
		return 0
	}
	c := 1
	for k+c < len(list) && list[k+c] == loop {
		c++
	}
	return uint64(c)
}

// reuse returns s emptied, with room for n elements: a buffer reused from task to task.
// Unlike slices.Grow it does not copy the old contents into a larger buffer of the old
// capacity plus n, which in degree-ordered phase 2 (tasks of very different sizes)
// copied and zeroed gigabytes.
func reuse[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:0]
	}
	return make([]T, 0, n+n/4)
}
