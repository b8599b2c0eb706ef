// Package kcore computes the core number of every vertex: the largest k such that the
// vertex lies in a subgraph where every vertex has degree at least k (Seidman, "Network
// structure and minimum degree", 1983). It peels by levels as the parallel algorithms of
// Kabir and Madduri ("Parallel k-core decomposition on multicore platforms", IPDPSW
// 2017) and Dhulipala, Blelloch and Shun (Julienne, SPAA 2017) do: level k removes every
// vertex whose current degree is at most k, and removing a vertex lowers its neighbours'
// degrees, which may bring them down to k in the same level.
//
// Degrees are the ones the shards hold: on an undirected graph a vertex's list length
// (a kept self-loop counts once, kept duplicate edges count each time); on a directed
// graph the core is that of the edges taken as undirected, each directed edge once, so a
// vertex's degree is its in-degree plus its out-degree.
//
// The pure-Go files are the CPU version: it reads the compressed shards in place on all
// cores, and each vertex's lists only once, in the level that removes it. gpu_cuda.go and
// kcore.cu (-tags cuda) are the GPU version, on a graph placed on the device by package
// gpu, with the same levels; it too reads only the lists of the vertices a round removes.
package kcore

import (
	"fmt"
	"io"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/oocgraph/ooc/internal/parallel"
	"github.com/oocgraph/ooc/internal/progress"
	"github.com/oocgraph/ooc/store"
)

// Options tune a run; the zero value means the defaults.
type Options struct {
	Workers int // goroutines; 0 means GOMAXPROCS, below 0 or past 4096 is refused

	// Progress, when not nil, is a terminal that shows a run past its first second how
	// far it has got, on one line erased at its end (package progress).
	Progress io.Writer
}

// LevelStat describes one level that removed vertices, for -v.
type LevelStat struct {
	K       uint32 // the core number of the vertices removed
	Removed uint64
	Rounds  int    // passes over a frontier: 1, plus one per batch handed back for balance
	Edges   uint64 // list entries read
	Seconds float64

	BytesZeroCopy int64 // on the GPU: list bytes read from pinned host memory
}

// Result is the outcome of one run.
type Result struct {
	Core    []uint32 // indexed by internal vertex id
	MaxCore uint32   // the degeneracy of the graph
	Levels  []LevelStat
	Seconds float64
}

// Run computes the core numbers of a.
func Run(a store.Adjacency, opt Options) (*Result, error) {
	if err := parallel.CheckWorkers("kcore: Options.Workers", opt.Workers); err != nil {
		return nil, err
	}
	p := &peel{a: a, workers: parallel.Workers(opt.Workers)}
	t0 := time.Now()
	alive, err := p.init()
	if err != nil {
		return nil, err
	}
	r := &Result{Core: p.deg}
	if isolated := uint64(a.NumVertices()) - uint64(len(alive)); isolated > 0 {
		r.Levels = append(r.Levels, LevelStat{K: 0, Removed: isolated, Seconds: time.Since(t0).Seconds()})
	}
	line := progress.New(opt.Progress, "kcore")
	defer line.Done()
	removed := uint64(a.NumVertices()) - uint64(len(alive))
	k := uint32(0) // every vertex with degree <= k is removed
	for {
		t := time.Now()
		var front []uint32
		if alive, front, k = p.scan(alive, k); len(alive) == 0 {
			break
		}
		st, err := p.level(front, k)
		if err != nil {
			return nil, err
		}
		st.Seconds = time.Since(t).Seconds()
		r.Levels = append(r.Levels, st)
		r.MaxCore = k
		removed += st.Removed
		showLevel(line, k, removed, a.NumVertices())
	}
	r.Seconds = time.Since(t0).Seconds()
	return r, nil
}

// peel is the state of one run. deg[v] is v's degree among the vertices not yet
// removed, except that a removal never lowers a degree below the current level: a vertex
// is removed in level k exactly when its degree reaches k (or starts there), so once all
// levels are done deg[v] is v's core number.
type peel struct {
	a       store.Adjacency
	workers int
	dirs    []store.Direction // the lists that hold a vertex's edges
	deg     []uint32
	ws      []worker

	spillMu sync.Mutex
	spill   []uint32 // vertices removed in this level whose lists are still to read
}

// worker is one worker's scratch and counters, padded so that workers do not share
// cache lines.
type worker struct {
	buf     []uint32
	stack   []uint32
	edges   uint64
	removed uint64
	failed  error
	_       [64]byte
}

// chunk is the number of vertices a worker takes at a time in the scans.
const chunk = 1 << 12

// init fills deg and returns the vertices with edges (the isolated ones have core 0 and
// are done).
func (p *peel) init() ([]uint32, error) {
	n := int(p.a.NumVertices())
	p.deg = make([]uint32, n)
	p.ws = make([]worker, p.workers)
	directed := p.a.Directed()
	p.dirs = []store.Direction{store.Out}
	if directed {
		p.dirs = append(p.dirs, store.In)
	}
	var bad atomic.Int64
	bad.Store(-1)
	counts := make([]int, (n+chunk-1)/chunk)
	parallel.For(p.workers, n, chunk, func(_, lo, hi int) {
		c := 0
		for v := lo; v < hi; v++ {
			d := uint64(p.a.Degree(store.Out, uint32(v)))
			if directed {
				d += uint64(p.a.Degree(store.In, uint32(v)))
			}
			if d > math.MaxUint32 {
				bad.CompareAndSwap(-1, int64(v))
			}
			p.deg[v] = uint32(d)
			if d > 0 {
				c++
			}
		}
		counts[lo/chunk] = c
	})
	if v := bad.Load(); v >= 0 {
		return nil, fmt.Errorf("kcore: vertex %d has more than %d in- and out-edges together", v, uint32(math.MaxUint32))
	}
	alive := make([]uint32, 0, sum(counts))
	for v, d := range p.deg {
		if d > 0 {
			alive = append(alive, uint32(v))
		}
	}
	return alive, nil
}

func sum(x []int) int {
	s := 0
	for _, c := range x {
		s += c
	}
	return s
}

// scan drops from alive the vertices removed by levels up to k and finds the next
// level: the smallest degree left, and the vertices that have it (the level's
// frontier). It compacts alive in place. Since a vertex left at level k has degree
// above k and there are at most 2m/k such vertices, the scans cost O(m log kmax) in all.
func (p *peel) scan(alive []uint32, k uint32) (left, front []uint32, next uint32) {
	nc := (len(alive) + chunk - 1) / chunk
	kept := make([]int, nc)    // alive vertices compacted to the front of each chunk
	mins := make([]uint32, nc) // each chunk's smallest degree
	nmin := make([]int, nc)    // vertices of that degree, gathered after the kept ones
	frontBuf := make([]uint32, len(alive))
	parallel.For(p.workers, len(alive), chunk, func(_, lo, hi int) {
		c, m, f := lo, uint32(math.MaxUint32), lo
		for _, v := range alive[lo:hi] {
			d := p.deg[v]
			if d <= k {
				continue
			}
			alive[c] = v
			c++
			if d < m {
				m, f = d, lo
			}
			if d == m {
				frontBuf[f] = v
				f++
			}
		}
		kept[lo/chunk], mins[lo/chunk], nmin[lo/chunk] = c-lo, m, f-lo
	})
	next = math.MaxUint32
	for _, m := range mins {
		next = min(next, m)
	}
	n := 0
	for i := range nc {
		lo := i * chunk
		n += copy(alive[n:], alive[lo:lo+kept[i]])
	}
	f := 0
	for i := range nc {
		if mins[i] == next {
			lo := i * chunk
			f += copy(frontBuf[f:], frontBuf[lo:lo+nmin[i]])
		}
	}
	return alive[:n], frontBuf[:f], next
}

// spillAt is the size of a worker's stack above which it hands vertices back for the
// next round, so that one long chain of removals does not keep the other workers idle.
// Tests lower it to exercise the hand-back.
var spillAt = 1 << 14

// level removes front (the vertices of degree k) and every vertex whose degree falls to
// k as a consequence, and returns the level's counters.
func (p *peel) level(front []uint32, k uint32) (LevelStat, error) {
	st := LevelStat{K: k}
	for len(front) > 0 {
		st.Rounds++
		parallel.For(p.workers, len(front), 64, func(w, lo, hi int) {
			ws := &p.ws[w]
			if ws.failed != nil {
				return
			}
			ws.stack = append(ws.stack[:0], front[lo:hi]...)
			for len(ws.stack) > 0 && ws.failed == nil {
				v := ws.stack[len(ws.stack)-1]
				ws.stack = ws.stack[:len(ws.stack)-1]
				ws.removed++
				p.remove(ws, v, k)
				if len(ws.stack) > spillAt {
					p.handBack(ws.stack[spillAt/2:])
					ws.stack = ws.stack[:spillAt/2]
				}
			}
		})
		front = append(front[:0], p.spill...)
		p.spill = p.spill[:0]
	}
	for i := range p.ws {
		ws := &p.ws[i]
		st.Edges += ws.edges
		st.Removed += ws.removed
		ws.edges, ws.removed = 0, 0
		if ws.failed != nil {
			return st, ws.failed
		}
	}
	return st, nil
}

func (p *peel) handBack(vs []uint32) {
	p.spillMu.Lock()
	p.spill = append(p.spill, vs...)
	p.spillMu.Unlock()
}

// remove lowers the degree of each neighbour of v that is still above k, and pushes the
// neighbours whose degree that brings down to k: they are removed in this level too.
func (p *peel) remove(ws *worker, v, k uint32) {
	for _, d := range p.dirs {
		nbrs, err := p.a.List(d, v, math.MaxUint32, ws.buf)
		if err != nil {
			ws.failed = err
			return
		}
		ws.buf = nbrs[:0] // keep a grown decode buffer (Flat ignores it and writes nothing)
		ws.edges += uint64(len(nbrs))
		for _, u := range nbrs {
			for {
				du := atomic.LoadUint32(&p.deg[u])
				if du <= k {
					break
				}
				if atomic.CompareAndSwapUint32(&p.deg[u], du, du-1) {
					if du-1 == k {
						ws.stack = append(ws.stack, u)
					}
					break
				}
			}
		}
	}
}

// showLevel draws a run's progress at core k, removed of the n vertices gone: the CPU's
// and the GPU's runs word it alike.
func showLevel(l *progress.Line, k uint32, removed uint64, n uint32) {
	l.Show("core %d, %d of %d vertices removed", k, removed, n)
}
