package ingest

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/store"
)

// The BFS order and the automatic order build the graph in the file's order first (the
// ordinary pipeline: one read of the input, bounded by --mem), then read that graph's
// lists to number the vertices, and build the graph again from them, each id renumbered
// (the second pass reads compressed lists, deduplicated, instead of the input). The
// automatic order decides what it can at the end of the first pass's phase 1 (early.go)
// and the rest between the passes: when it keeps the file's order the first graph is
// the result, and when it picks the degree order in the first pass the input is read
// again in it instead of the first graph being built.
//
// The first graph lies inside the new graph's temporary directory, so that a failure or
// a kill leaves nothing behind (the next ingest to the destination removes the directory)
// and the destination holds the graph of the order asked for or what it held before. When
// the file's order is kept, the first graph's files are published as they are.

// reordered says whether an ingest takes the two passes: the BFS and the bisection
// order, and the
// automatic order unless --backend gpu (whose ingest compares the exact sizes of the
// file's and the degree order) or --weights (weighted.go holds the edges and decides in
// memory).
func reordered(opt Options) bool {
	return opt.Order == store.OrderBFS || opt.Order == store.OrderBisect || opt.Order == OrderAuto && opt.Backend != BackendGPU && !opt.Weights
}

// rebuildFrom is the second pass's source: the graph in the file's order.
type rebuildFrom struct {
	g      *store.Graph
	closed bool
	first  *store.Manifest // the first pass's: the input's counts and numbering
	order  string          // the vertex order the second pass writes
	dir    string          // the first graph's directory, removed once read ("" to keep it)
}

// pager drops the first graph's mapped pages from the resident set now and then: every
// limit bytes of lists read (counted generously: a page for each vertex looked up out of
// order) the pages of all its shards go (releaseMapped), to be read again from the page
// cache when needed. The pages are clean page cache, which the system reclaims under
// pressure, but they count in the resident set while mapped. The bound is loose where
// the reads are out of order: a fault maps the pages around the one read (the kernel's
// fault-around, 64 KiB), so a search over a large graph keeps up to about 10x the limit
// mapped between releases; the sequential second pass keeps about the limit.
type pager struct {
	g     *store.Graph
	limit int64
	read  atomic.Int64
	mu    sync.Mutex
}

// newPager keeps g's resident pages within limit bytes (mappedMem: an eighth of the
// long-lived memory, which the numbering's arrays and the second pass's buffers leave
// free), 1 MiB at least. It returns nil, which releases nothing, where g's shards take
// no more than the limit: their pages cannot pass it, and each release would cost a
// madvise a shard and the faults that map the pages again.
func newPager(g *store.Graph, limit int64) *pager {
	limit = max(limit, 1<<20)
	var mapped int64
	for _, s := range g.Shards() {
		mapped += int64(len(s.Bytes()))
	}
	if mapped <= limit {
		return nil
	}
	return &pager{g: g, limit: limit}
}

// add counts n bytes of lists read and drops the pages when they reach the limit.
func (pg *pager) add(n int64) {
	if pg == nil || pg.read.Add(n) < pg.limit {
		return
	}
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if pg.read.Load() < pg.limit {
		return
	}
	releaseGraph(pg.g)
	pg.read.Store(0)
}

// releaseGraph drops every page of g's shards from the resident set (releaseMapped).
func releaseGraph(g *store.Graph) {
	for _, s := range g.Shards() {
		releaseMapped(s.Bytes())
	}
}

// done releases the first graph once the second pass has read its lists and ids.
func (r *rebuildFrom) done() error {
	err := r.close()
	if r.dir != "" {
		if rerr := os.RemoveAll(r.dir); err == nil {
			err = rerr
		}
	}
	return err
}

func (r *rebuildFrom) close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	return r.g.Close()
}

// twoPass runs first (the ingest in the file's order) with a destination inside the
// new graph's directory, chooses or computes the numbering, and builds the graph again
// in it unless the file's order is kept. For the automatic order the first build may
// decide before its phase 2 (early.go): the file's order kept, or the degree order
// chosen, when the input is read again (rewind; nil when it cannot be) in it.
func twoPass(opt Options, rewind func() error, first func(Options) (*Report, error)) (*Report, error) {
	if (opt.Order == store.OrderBFS || opt.Order == store.OrderBisect) && opt.Weights {
		return nil, fmt.Errorf("ingest: --order %s does not take --weights yet (use --order degree, input or auto): %w", opt.Order, parse.ErrBadInput)
	}
	start := time.Now()
	a := opt
	a.Order, a.noSummary = store.OrderInput, true
	pb, err := newRebuild(opt)
	if err != nil {
		return nil, err
	}
	defer pb.close()
	a.inTemp(filepath.Join(pb.b.TempDir(), "input.ooc"))
	var early *earlyAuto
	if opt.Order == OrderAuto {
		early = &earlyAuto{rewind: rewind, bisectMax: opt.autoBisectMax()}
		a.early = early
	}
	repA, err := first(a)
	if errors.Is(err, errReadAgain) {
		return readAgain(opt, early, pb, start, first)
	}
	if err != nil {
		return nil, err
	}
	if early != nil && early.final {
		repA.Order = early.est
		return publishFirst(pb, a.Dest, repA, start, opt)
	}
	// The first pass's buffers go back to the system before the numbering's arrays and
	// the second pass's take their place: the heap limit it ran under is lifted now.
	debug.FreeOSMemory()
	g, err := store.Open(a.Dest)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	bp := &pipeline{opt: opt, mem: repA.Mem, workers: repA.Workers}
	bp.opt.zstdWindow = repA.Budget.ZstdWindow // the first pass counted it apart
	ch, err := chooseOrder(g, opt, bp, early)
	if err != nil {
		g.Close()
		return nil, err
	}
	order := Phase{Name: "order", Seconds: time.Since(t0).Seconds(), Edges: g.NumEdges()}
	// The numbering's garbage (the bisection's caches, the BFS order's buffers, the
	// sample's keys) goes back to the system too, before the second pass's buffers
	// take its place.
	debug.FreeOSMemory()
	if ch.order == store.OrderInput {
		g.Close()
		repA.Order, repA.Phases = ch.est, append(repA.Phases, order)
		return publishFirst(pb, a.Dest, repA, start, opt)
	}
	r := &rebuildFrom{g: g, first: repA.Manifest, order: ch.order, dir: a.Dest}
	defer r.close()
	rep, err := pb.renumber(r, ch.perm, ch.inv, repA.Compress)
	if err != nil {
		return nil, err
	}
	rep.Phases = append(append(repA.Phases, order), rep.Phases...)
	rep.Order, rep.Seconds, rep.PeakRSS = ch.est, time.Since(start).Seconds(), PeakRSS()
	if opt.Log != nil {
		rep.Summary(opt.Log)
	}
	return rep, nil
}

// publishFirst publishes the first graph, at dir, as the result, in the spills' place.
func publishFirst(pb *pipeline, dir string, rep *Report, start time.Time, opt Options) (*Report, error) {
	pb.closeSpills()
	if err := pb.b.PublishFrom(dir); err != nil {
		return nil, err
	}
	pb.committed = true
	rep.Seconds, rep.PeakRSS = time.Since(start).Seconds(), PeakRSS()
	if opt.Log != nil {
		rep.Summary(opt.Log)
	}
	return rep, nil
}

// readAgain builds the graph in the degree order the first build chose (early) from
// the input read again, inside the new graph's directory, and publishes it.
func readAgain(opt Options, early *earlyAuto, pb *pipeline, start time.Time, first func(Options) (*Report, error)) (*Report, error) {
	// the first build's buffers went with its pipeline; its heap limit is lifted
	debug.FreeOSMemory()
	if err := early.rewind(); err != nil {
		return nil, err
	}
	b := opt
	b.Order, b.Backend, b.early = store.OrderDegree, BackendCPU, early
	b.Verbose, b.noSummary = false, true // the first build printed the budget, this the summary
	b.inTemp(filepath.Join(pb.b.TempDir(), "degree.ooc"))
	rep, err := first(b)
	if err != nil {
		return nil, err
	}
	rep.Phases = append(early.phases, rep.Phases...)
	return publishFirst(pb, b.Dest, rep, start, opt)
}

// newRebuild starts the second pass's pipeline at opt.Dest: it reads numbered lists,
// so it numbers nothing itself.
func newRebuild(opt Options) (*pipeline, error) {
	b := opt
	b.Order, b.Relabel, b.SparseIDs = store.OrderInput, false, true
	b.Verbose, b.noSummary = false, true // the first pass prints the budget, twoPass the summary
	return newPipeline(b, store.InputInfo{}, b.Dest, -1)
}

// renumber is the second pass: the first graph's lists, each id through perm, into
// phase 1, then phase 2 and the commit; inv numbers ids.bin.
func (p *pipeline) renumber(r *rebuildFrom, perm, inv []uint32, compression string) (*Report, error) {
	p.rebuild, p.perm, p.inv, p.compression = r, perm, inv, compression
	n := uint64(len(inv))
	if r.order == store.OrderDegree {
		for _, sp := range p.spills[:p.dirs] {
			sp.bySource = true // hub groups are split many ways
		}
		p.setGroups(func() groupBits { return minGroupBits }) // groupBits says why
	} else {
		p.setGroups(func() groupBits { return groupsFor(n) })
	}
	if err := p.sizePhase1(); err != nil {
		return nil, err
	}
	adj := store.NewCompressed(r.g)
	err := p.phase1("renumber", 0, func(prog *progress) error {
		return emitLists(adj, perm, p.workers, newPager(r.g, p.mappedMem()), func(b []parse.Edge) error {
			prog.addEdges(int64(len(b)))
			return p.emit(b)
		})
	})
	if err != nil {
		return nil, err
	}
	p.perm = nil
	return p.finish(parse.Header{Vertices: n})
}

// emitLists hands every stored edge of adj to emit once, ids through perm, in batches
// from workers goroutines: an undirected graph's edge {u, v} from the list of min(u, v)
// (a self-loop from its only entry), a directed graph's out-lists whole.
func emitLists(adj store.Adjacency, perm []uint32, workers int, pg *pager, emit func([]parse.Edge) error) error {
	n := adj.NumVertices()
	const span = 1 << 14
	tasks := (int64(n) + span - 1) / span
	directed := adj.Directed()
	var next atomic.Int64
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			batch := make([]parse.Edge, 0, parse.BatchSize)
			var scratch []uint32
			var err error
			for t := next.Add(1) - 1; t < tasks && err == nil; t = next.Add(1) - 1 {
				lo := uint32(t * span)
				hi := uint32(min(int64(lo)+span, int64(n)))
				rerr := adj.Range(store.Out, lo, hi, math.MaxUint32, &scratch, nil, func(v uint32, nbrs []uint32) {
					pg.add(16 + listBytes*int64(len(nbrs)))
					pv := uint64(perm[v])
					for _, u := range nbrs {
						if err != nil || !directed && u < v {
							continue
						}
						batch = append(batch, parse.Edge{U: pv, V: uint64(perm[u])})
						if len(batch) == cap(batch) {
							err, batch = emit(batch), batch[:0]
						}
					}
				})
				err = cmpErr(err, rerr)
			}
			if err == nil && len(batch) > 0 {
				err = emit(batch)
			}
			errs[w] = err
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

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// orderChoice is a numbering chosen (or asked for) and what the choice saw.
type orderChoice struct {
	order     string
	perm, inv []uint32
	est       *OrderEstimate
}

// chooseOrder numbers g's vertices for --order bfs or bisect, or chooses for --order
// auto (estimate.go) with what its first pass found (early, nil for none); bp holds
// the budget.
func chooseOrder(g *store.Graph, opt Options, bp *pipeline, early *earlyAuto) (*orderChoice, error) {
	adj := store.NewCompressed(g)
	n := int64(g.NumVertices())
	pg := newPager(g, bp.mappedMem())
	if opt.Order == store.OrderBFS {
		need := bfsOrderBytes * n
		if need <= bp.orderMem() {
			need += 8 * int64(maxDegree(adj, pg)) * int64(bp.workers)
		}
		if need > bp.orderMem() {
			return nil, fmt.Errorf("ingest: the BFS order takes %d bytes a vertex and a list buffer a worker, %s for %d vertices, more than a memory budget of %s holds beside the spills (give --mem %s, or use --order input or degree): %w",
				bfsOrderBytes, bytesize.Format(need), n, bytesize.Format(bp.given()), bytesize.Format(bp.givenFor(2*need)), ErrMemTooSmall)
		}
		perm, inv, err := bfsOrder(adj, bp.workers, pg)
		return &orderChoice{order: store.OrderBFS, perm: perm, inv: inv}, err
	}
	if opt.Order == store.OrderBisect {
		w, cache := bisectPlan(n, bp.orderMem(), bp.workers)
		if w == 0 {
			return nil, fmt.Errorf("ingest: the bisection order takes %d bytes a vertex, %s for %d vertices, more than a memory budget of %s holds beside the spills (give --mem %s, or use --order input, degree or bfs): %w",
				bisectBytes+bisectWorkerBytes, bytesize.Format(bisectNeed(n, 1)), n, bytesize.Format(bp.given()), bytesize.Format(bp.givenFor(2*bisectNeed(n, 1))), ErrMemTooSmall)
		}
		perm, inv, err := bisectOrder(adj, w, cache, pg)
		return &orderChoice{order: store.OrderBisect, perm: perm, inv: inv}, err
	}
	return estimateOrders(adj, opt, bp, pg, early)
}

// maxDegree is the largest degree of adj's vertices in the undirected view.
func maxDegree(adj store.Adjacency, pg *pager) uint32 {
	var m uint32
	for v := range adj.NumVertices() {
		m = max(m, undirectedDegree(adj, v))
		if v%(1<<16) == 0 {
			pg.add(degreePages(adj))
		}
	}
	return m
}

// undirectedDegree is v's degree in the undirected view: out + in when directed.
func undirectedDegree(adj store.Adjacency, v uint32) uint32 {
	d := adj.Degree(store.Out, v)
	if adj.Directed() {
		d += adj.Degree(store.In, v)
	}
	return d
}

// degreePages is what the pager counts for reading the degrees of 2^16 vertices: more
// than the directory takes for them.
func degreePages(adj store.Adjacency) int64 {
	if adj.Directed() {
		return 16 << 16
	}
	return 8 << 16
}
