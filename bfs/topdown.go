package bfs

import (
	"github.com/oocgraph/ooc/internal/parallel"
	"sync/atomic"

	"github.com/oocgraph/ooc/store"
)

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
	parallel.For(b.workers, len(frontier), chunk, func(w, lo, hi int) {
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
	parallel.For(b.workers, len(b.pieces), 1, func(w, lo, hi int) {
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
		ws.buf = nbrs[:0] // keep a grown decode buffer; store.Flat returns its own memory
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
