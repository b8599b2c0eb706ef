package kernels

import (
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"
	"time"

	"github.com/oocgraph/ooc/internal/engine"
	"github.com/oocgraph/ooc/store"
)

const unreached = engine.Unreached

// BFS runs a direction-optimizing breadth-first search from src (Beamer, Asanović,
// Patterson, "Direction-optimizing breadth-first search", SC 2012; the switching rule and
// its constants are those of GAPBS's bfs.cc). Top-down levels expand a queue; bottom-up
// levels sweep the unvisited vertices in vertex order over a frontier bitmap and stop at
// a vertex's first neighbour in the frontier. On a directed graph top-down follows
// out-lists and bottom-up reads in-lists.
//
// It fills Parent, Level, Levels and Seconds; Reached, Depth and EdgesTraversed are
// filled as engine.Summarize defines them.
func BFS(a Adjacency, src uint32, opt engine.Options) (*engine.BFSResult, error) {
	if src >= a.NumVertices() {
		return nil, fmt.Errorf("kernels: source %d is not a vertex (the graph has %d): %w", src, a.NumVertices(), store.ErrNoVertex)
	}
	opt = opt.WithDefaults()
	b := newBFS(a, Workers(opt.Workers))
	t0 := time.Now()
	b.init()
	err := b.run(src, opt.Alpha, opt.Beta)
	secs := time.Since(t0).Seconds()
	if err != nil {
		return nil, err
	}
	r := &engine.BFSResult{Source: src, Parent: b.parent, Level: b.level, Levels: b.stats, Seconds: secs}
	summarize(a, r)
	return r, nil
}

// bfs is the state of one search.
type bfs struct {
	a       Adjacency
	c       *Compressed // non-nil when a is compressed: bottom-up decodes inline
	f       *Flat       // non-nil when a is flat
	n       uint32
	workers int

	parent, level []uint32
	// queue holds every vertex that was ever a top-down frontier, in order; [head, tail)
	// is the current one (GAPBS's sliding queue). A vertex enters it at most once, so n
	// entries suffice.
	queue      []uint32
	head, tail int
	qtail      atomic.Int64 // where workers append the next frontier

	front, next []uint64 // bitmaps for bottom-up levels
	pieces      []piece  // parts of long lists left for the second top-down pass
	piecesMu    sync.Mutex
	ws          []workerState
	stats       []engine.LevelStat

	failed atomic.Bool
	errMu  sync.Mutex
	err    error
}

// workerState is one worker's scratch and counters, padded so that workers do not share
// cache lines.
type workerState struct {
	buf      []uint32 // decoded list (Compressed.List)
	out      []uint32 // next-frontier vertices not yet flushed to the queue
	scout    uint64   // out-degrees of vertices this worker discovered top-down
	examined uint64
	awake    uint64
	_        [64]byte
}

const flushAt = 1024

func newBFS(a Adjacency, workers int) *bfs {
	b := &bfs{a: a, n: a.NumVertices(), workers: workers, ws: make([]workerState, workers)}
	b.c, _ = a.(*Compressed)
	b.f, _ = a.(*Flat)
	b.parent = make([]uint32, b.n)
	b.level = make([]uint32, b.n)
	b.queue = make([]uint32, b.n)
	return b
}

func (b *bfs) init() {
	ParallelFor(b.workers, int(b.n), 1<<16, func(_, lo, hi int) {
		p, l := b.parent[lo:hi], b.level[lo:hi]
		for i := range p {
			p[i], l[i] = unreached, unreached
		}
	})
}

func (b *bfs) fail(err error) {
	b.errMu.Lock()
	if b.err == nil {
		b.err = err
	}
	b.errMu.Unlock()
	b.failed.Store(true)
}

// run is GAPBS's DOBFS loop: go bottom-up when the edges out of the frontier (scout)
// exceed the edges not yet checked over alpha; come back once the frontier shrinks below
// n/beta.
func (b *bfs) run(src uint32, alpha, beta int) error {
	b.parent[src], b.level[src] = src, 0
	b.queue[0], b.head, b.tail = src, 0, 1
	edgesToCheck := int64(b.a.NumEdges())
	scout := int64(b.a.Degree(store.Out, src))
	depth := uint32(0)
	for b.head < b.tail {
		if scout > edgesToCheck/int64(alpha) {
			b.queueToBitmap()
			awake := uint64(b.tail - b.head)
			for {
				old := awake
				t := time.Now()
				var examined uint64
				awake, examined = b.bottomUp(depth)
				b.stat(depth, old, engine.BottomUp, examined, t)
				if b.failed.Load() {
					return b.err
				}
				depth++
				b.front, b.next = b.next, b.front
				if awake < old && awake <= uint64(b.n)/uint64(beta) {
					break
				}
			}
			b.bitmapToQueue()
			scout = 1
			continue
		}
		edgesToCheck -= scout
		t := time.Now()
		frontier := uint64(b.tail - b.head)
		s, examined := b.topDown(depth)
		b.stat(depth, frontier, engine.TopDown, examined, t)
		if b.failed.Load() {
			return b.err
		}
		scout = int64(s)
		depth++
	}
	return nil
}

func (b *bfs) stat(depth uint32, frontier uint64, dir string, examined uint64, t time.Time) {
	b.stats = append(b.stats, engine.LevelStat{Level: int(depth), Frontier: frontier,
		Direction: dir, EdgesExamined: examined, Seconds: time.Since(t).Seconds()})
}

// flush moves a worker's discovered vertices into the shared queue with one atomic add.
func (b *bfs) flush(ws *workerState) {
	if len(ws.out) == 0 {
		return
	}
	pos := b.qtail.Add(int64(len(ws.out))) - int64(len(ws.out))
	copy(b.queue[pos:], ws.out)
	ws.out = ws.out[:0]
}

// collect flushes every worker, advances the queue window to the new frontier and
// returns the sums of the per-worker counters (resetting them).
func (b *bfs) collect() (scout, examined, awake uint64) {
	for i := range b.ws {
		ws := &b.ws[i]
		b.flush(ws)
		scout += ws.scout
		examined += ws.examined
		awake += ws.awake
		ws.scout, ws.examined, ws.awake = 0, 0, 0
	}
	b.head, b.tail = b.tail, int(b.qtail.Load())
	return
}

// topDown expands the queue's frontier: every unvisited out-neighbour is claimed with a
// compare-and-swap on its parent, so exactly one worker enqueues it. Lists longer than
// pieceSize (the hubs of skewed graphs) are cut at block boundaries into pieces that
// other workers expand in a second pass, so one hub does not serialize a level.
func (b *bfs) topDown(depth uint32) (scout, examined uint64) {
	frontier := b.queue[b.head:b.tail]
	b.qtail.Store(int64(b.tail))
	b.pieces = b.pieces[:0]
	chunk := min(64, max(1, len(frontier)/(8*b.workers)))
	ParallelFor(b.workers, len(frontier), chunk, func(w, lo, hi int) {
		ws := &b.ws[w]
		for _, u := range frontier[lo:hi] {
			if b.failed.Load() || b.expand(ws, u, 0, depth) < int(pieceSize) {
				continue
			}
			if d := b.a.Degree(store.Out, u); d > pieceSize {
				b.piecesMu.Lock()
				for lo := pieceSize; lo < d; lo += pieceSize {
					b.pieces = append(b.pieces, piece{u, lo})
				}
				b.piecesMu.Unlock()
			}
		}
	})
	ParallelFor(b.workers, len(b.pieces), 1, func(w, lo, hi int) {
		for _, p := range b.pieces[lo:hi] {
			if !b.failed.Load() {
				b.expand(&b.ws[w], p.u, p.lo, depth)
			}
		}
	})
	scout, examined, _ = b.collect()
	return scout, examined
}

// pieceSize is the number of neighbours one top-down work item expands at most; a
// multiple of store.BlockSize. Tests lower it to exercise the split.
var pieceSize uint32 = 64 * store.BlockSize

// piece is the part of u's list that starts at position lo.
type piece struct{ u, lo uint32 }

// expand claims the unvisited vertices among u's out-neighbours at positions
// [lo, lo+pieceSize) and returns how many neighbours it read.
func (b *bfs) expand(ws *workerState, u, lo, depth uint32) int {
	nbrs, err := b.a.Slice(store.Out, u, lo, lo+pieceSize, ws.buf)
	if err != nil {
		b.fail(err)
		return 0
	}
	if b.c != nil {
		ws.buf = nbrs[:0] // keep a grown decode buffer; Flat returns its own memory
	}
	ws.examined += uint64(len(nbrs))
	for _, v := range nbrs {
		p := &b.parent[v]
		if atomic.LoadUint32(p) != unreached || !atomic.CompareAndSwapUint32(p, unreached, u) {
			continue
		}
		b.level[v] = depth + 1
		ws.scout += uint64(b.a.Degree(store.Out, v))
		ws.out = append(ws.out, v)
		if len(ws.out) >= flushAt {
			b.flush(ws)
		}
	}
	return len(nbrs)
}

// queueToBitmap turns the queue's frontier into b.front for a bottom-up level.
func (b *bfs) queueToBitmap() {
	words := (int(b.n) + 63) / 64
	if b.front == nil {
		b.front, b.next = make([]uint64, words), make([]uint64, words)
	} else {
		ParallelFor(b.workers, words, 1<<14, func(_, lo, hi int) { clear(b.front[lo:hi]) })
	}
	frontier := b.queue[b.head:b.tail]
	ParallelFor(b.workers, len(frontier), 1<<12, func(_, lo, hi int) {
		for _, v := range frontier[lo:hi] {
			atomic.OrUint64(&b.front[v>>6], 1<<(v&63))
		}
	})
}

// bitmapToQueue appends the vertices of b.front to the queue as the next top-down
// frontier.
func (b *bfs) bitmapToQueue() {
	b.qtail.Store(int64(b.tail))
	ParallelFor(b.workers, len(b.front), 1<<10, func(w, lo, hi int) {
		ws := &b.ws[w]
		for i, word := range b.front[lo:hi] {
			for word != 0 {
				ws.out = append(ws.out, uint32((lo+i)*64+bits.TrailingZeros64(word)))
				word &= word - 1
				if len(ws.out) >= flushAt {
					b.flush(ws)
				}
			}
		}
	})
	b.collect()
}

// bottomUp visits every unvisited vertex in vertex order and gives it the first
// in-neighbour found in the frontier bitmap (Beamer et al.: most vertices find one within
// their first few neighbours, so the rest of the list is never decoded). Chunks are whole
// bitmap words, so each worker owns the words of b.next it writes.
func (b *bfs) bottomUp(depth uint32) (awake, examined uint64) {
	ParallelFor(b.workers, len(b.next), 64, func(w, lo, hi int) {
		clear(b.next[lo:hi])
		if b.failed.Load() {
			return
		}
		vlo, vhi := uint32(lo*64), uint32(min(uint64(hi)*64, uint64(b.n)))
		if b.c != nil {
			b.bottomUpCompressed(&b.ws[w], vlo, vhi, depth)
		} else if b.f != nil {
			b.bottomUpFlat(&b.ws[w], vlo, vhi, depth)
		} else {
			b.bottomUpGeneric(&b.ws[w], vlo, vhi, depth)
		}
	})
	_, examined, awake = b.collect()
	return awake, examined
}

func (b *bfs) visit(ws *workerState, v, u, depth uint32) {
	b.parent[v], b.level[v] = u, depth+1
	b.next[v>>6] |= 1 << (v & 63)
	ws.awake++
}

func (b *bfs) bottomUpCompressed(ws *workerState, vlo, vhi, depth uint32) {
	idx := b.c.in
	var s *store.Shard
	for v := vlo; v < vhi; v++ {
		if s == nil || v >= s.Hi() {
			s = idx.shard(v)
		}
		if b.parent[v] != unreached {
			continue
		}
		i := v - s.Lo
		d := s.Degrees[i]
		if d == 0 {
			continue
		}
		u, checked, st := scanFrontier(s.Adj[s.Offsets[i]:s.Offsets[i+1]], v, d, b.n, b.front)
		ws.examined += uint64(checked)
		switch st {
		case found:
			b.visit(ws, v, u, depth)
		case malformed:
			b.fail(s.ListError(v))
			return
		}
	}
}

func (b *bfs) bottomUpFlat(ws *workerState, vlo, vhi, depth uint32) {
	off, adj := b.f.InOff, b.f.InAdj
	for v := vlo; v < vhi; v++ {
		if b.parent[v] != unreached {
			continue
		}
		for _, u := range adj[off[v]:off[v+1]] {
			ws.examined++
			if b.front[u>>6]&(1<<(u&63)) != 0 {
				b.visit(ws, v, u, depth)
				break
			}
		}
	}
}

// bottomUpGeneric serves other Adjacency implementations (decoding whole lists).
func (b *bfs) bottomUpGeneric(ws *workerState, vlo, vhi, depth uint32) {
	for v := vlo; v < vhi; v++ {
		if b.parent[v] != unreached {
			continue
		}
		nbrs, err := b.a.List(store.In, v, ^uint32(0), nil)
		if err != nil {
			b.fail(err)
			return
		}
		for _, u := range nbrs {
			ws.examined++
			if b.front[u>>6]&(1<<(u&63)) != 0 {
				b.visit(ws, v, u, depth)
				break
			}
		}
	}
}

const (
	notFound = iota
	found
	malformed
)

// scanFrontier decodes v's list (degree d) until it meets a vertex whose bit is set in
// front; it returns that vertex, how many neighbours it decoded and found, notFound or
// malformed. The decoding is written out here rather than through ListIter because this
// loop is the hot loop of every bottom-up level.
func scanFrontier(list []byte, v, d, nv uint32, front []uint64) (u, checked uint32, status int) {
	pos := 0
	if nb := store.NumBlocks(d); nb > 1 {
		pos = 4 * int(nb-1)
	}
	for checked < d {
		x, p := uvarint(list, pos)
		f := int64(v) + unzigzag(x)
		if p < 0 || f < 0 || f >= int64(nv) {
			return 0, checked, malformed
		}
		cur := uint64(f)
		end := min(d, checked+store.BlockSize)
		for {
			checked++
			if front[cur>>6]&(1<<(cur&63)) != 0 {
				return uint32(cur), checked, found
			}
			if checked == end {
				break
			}
			if p < len(list) && list[p] < 0x80 { // one-byte delta, the common case, inline
				x, p = uint64(list[p]), p+1
			} else {
				x, p = uvarintSlow(list, p)
			}
			cur += x
			if p < 0 || x >= uint64(nv) || cur >= uint64(nv) {
				return 0, checked, malformed
			}
		}
		pos = p
	}
	return 0, checked, notFound
}

// summarize fills Reached, Depth and EdgesTraversed as engine.Summarize defines them.
func summarize(a Adjacency, r *engine.BFSResult) {
	if c, ok := a.(*Compressed); ok {
		engine.Summarize(c.g, r)
		return
	}
	r.Reached, r.Depth, r.EdgesTraversed = 0, 0, 0
	for v, l := range r.Level {
		if l != unreached {
			r.Reached++
			r.Depth = max(r.Depth, l)
			r.EdgesTraversed += uint64(a.Degree(store.Out, uint32(v)))
		}
	}
	if !a.Directed() {
		r.EdgesTraversed /= 2
	}
}
