// Package pagerank ranks the vertices of a graph by PageRank (Page, Brin, Motwani,
// Winograd, "The PageRank citation ranking", 1999) with the model of GAPBS's PageRank kernel: each
// vertex scores (1-d)/n plus d times the sum, over its in-neighbours v, of v's score
// divided by v's out-degree, with damping d = 0.85. A vertex without out-edges passes its
// score to nobody, so that mass leaves the system each iteration (GAPBS's treatment of
// dangling vertices: no redistribution, no renormalization) and the scores sum to less
// than one on graphs that have such vertices.
//
// The iteration pulls over in-lists (the stored transpose on directed graphs) and reads
// the compressed shards in place on all cores. It is Jacobi style: an iteration reads only
// the previous iteration's contributions, so the scores do not depend on the number of
// workers or the order they run in. Scores are float32 as in GAPBS; each vertex's
// incoming sum and the L1 change are added in float64, so that a hub's millions of small
// contributions are not lost to rounding.
//
// The pure-Go files are the CPU version; gpu_cuda.go and pagerank.cu (-tags cuda) the GPU
// version, on a graph placed on the device by package gpu.
package pagerank

import (
	"container/heap"
	"fmt"
	"io"
	"math"
	"sync/atomic"
	"time"

	"github.com/oocgraph/ooc/internal/parallel"
	"github.com/oocgraph/ooc/internal/progress"
	"github.com/oocgraph/ooc/store"
)

// Damping is the probability that the random surfer follows an edge.
const Damping = 0.85

// Defaults for the zero Options.
const (
	DefaultTolerance = 1e-4
	DefaultMaxIters  = 100
)

// Options tune a run; the zero value means the defaults.
type Options struct {
	Workers int // goroutines; 0 means GOMAXPROCS, below 0 or past 4096 is refused
	// Tolerance: stop once an iteration changes the scores by less than this in L1;
	// 0 means DefaultTolerance; below 0, NaN and +Inf are refused (Run's error names
	// the field), as ooc pagerank's --tolerance refuses them.
	Tolerance float64
	MaxIters  int // stop after this many iterations; 0 means DefaultMaxIters, below 0 is refused

	// Progress, when not nil, is a terminal that shows a run past its first second how
	// far it has got, on one line erased at its end (package progress).
	Progress io.Writer
}

// WithDefaults returns o with every zero field but Workers replaced by its default.
func (o Options) WithDefaults() Options {
	if o.Tolerance == 0 {
		o.Tolerance = DefaultTolerance
	}
	if o.MaxIters == 0 {
		o.MaxIters = DefaultMaxIters
	}
	return o
}

// Check refuses a Tolerance no run can mean: NaN (no change is below it, so every run
// would end at MaxIters unconverged), +Inf (every first iteration would converge) and
// below 0; a MaxIters below 0; and Workers past parallel.CheckWorkers's rule. 0 asks
// for the default in each; a count below it is a slip rather than a request.
func (o Options) Check() error {
	if err := parallel.CheckWorkers("pagerank: Options.Workers", o.Workers); err != nil {
		return err
	}
	if !(o.Tolerance >= 0) || math.IsInf(o.Tolerance, 1) {
		return fmt.Errorf("pagerank: Options.Tolerance %v: want a positive finite number (0: the default %g)", o.Tolerance, float64(DefaultTolerance))
	}
	if o.MaxIters < 0 {
		return fmt.Errorf("pagerank: Options.MaxIters %d: want 0 (the default %d) or a count of iterations", o.MaxIters, DefaultMaxIters)
	}
	return nil
}

// IterStat describes one iteration, for -v.
type IterStat struct {
	Iter    int     // from 1
	Change  float64 // L1 norm of the change in the scores
	Edges   uint64  // in-list entries read
	Seconds float64

	// on the GPU: list bytes copied to the device through the staging buffers, list bytes
	// read zero-copy from pinned host memory, and the shards streamed
	BytesCopied, BytesZeroCopy int64
	Streamed                   int
}

// Result is the outcome of one run.
type Result struct {
	Scores     []float32 // indexed by internal vertex id
	Iterations int
	Change     float64 // L1 change of the last iteration (0 when there was none)
	Converged  bool    // Change fell below the tolerance within MaxIters
	Iters      []IterStat
	Seconds    float64 // the iterations alone
	CopyBps    float64 // on the GPU: the link probe's copy rate (bytes/s), 0 when not probed
}

// ErrorBound is an upper bound on the L1 distance from r's scores to the exact fixed
// point of the model. The iteration contracts by Damping in L1, so scores that moved by
// c in their last step lie within (d·c + ρ)/(1-d) of the fixed point, where ρ bounds one
// step's float32 rounding (each score and contribution is rounded once per step, a
// relative error of 2^-24 each on scores that sum to at most one; ρ = 1e-6 covers that
// several times over).
func (r *Result) ErrorBound() float64 {
	const rounding = 1e-6
	return (Damping*r.Change + rounding) / (1 - Damping)
}

// chunk is the number of vertices a worker takes at a time; also the granularity of the
// partial L1 sums, which are added in chunk order so the total is the same for any
// number of workers.
const chunk = 1 << 12

// Run computes the PageRank scores of a.
func Run(a store.Adjacency, opt Options) (*Result, error) {
	if err := opt.Check(); err != nil {
		return nil, err
	}
	opt = opt.WithDefaults()
	n := a.NumVertices()
	p := &run{a: a, n: n, workers: parallel.Workers(opt.Workers)}
	t0 := time.Now()
	p.init()
	r := &Result{Scores: p.scores}
	line := progress.New(opt.Progress, "pagerank")
	defer line.Done()
	for r.Iterations < opt.MaxIters && n > 0 {
		t := time.Now()
		change, err := p.iterate()
		if err != nil {
			return nil, err
		}
		r.Iterations++
		r.Change = change
		r.Iters = append(r.Iters, IterStat{Iter: r.Iterations, Change: change, Edges: a.NumEdges(), Seconds: time.Since(t).Seconds()})
		showIteration(line, r.Iterations, change, opt)
		if change < opt.Tolerance {
			break
		}
	}
	r.Converged = r.Change < opt.Tolerance
	r.Seconds = time.Since(t0).Seconds()
	return r, nil
}

// run is the state of one computation.
type run struct {
	a       store.Adjacency
	n       uint32
	workers int

	base    float64   // (1-d)/n
	deg     []uint32  // out-degrees
	scores  []float32 // the current scores
	contrib []float32 // scores[v]/deg[v] of the previous iteration (0 for no out-edges)
	next    []float32 // contributions being written by the current iteration
	partial []float64 // L1 change per chunk
	ws      []worker
}

// worker is one worker's scratch, padded so that workers do not share cache lines.
type worker struct {
	buf  []uint32
	sums []float64
	_    [64]byte
}

func (p *run) init() {
	n := int(p.n)
	p.deg = make([]uint32, n)
	p.scores = make([]float32, n)
	p.contrib = make([]float32, n)
	p.next = make([]float32, n)
	p.partial = make([]float64, (n+chunk-1)/chunk)
	p.ws = make([]worker, p.workers)
	if n == 0 {
		return
	}
	p.base = (1 - Damping) / float64(n)
	init := float32(1 / float64(n))
	parallel.For(p.workers, n, chunk, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			d := p.a.Degree(store.Out, uint32(v))
			p.deg[v] = d
			p.scores[v] = init
			p.contrib[v] = share(init, d)
		}
	})
}

// share is a vertex's contribution to each of its d out-neighbours; a vertex without
// out-edges contributes nothing (it appears in no in-list, so the value is never read;
// zero keeps the array free of infinities).
func share(score float32, d uint32) float32 {
	if d == 0 {
		return 0
	}
	return score / float32(d)
}

// iterate computes the next scores from p.contrib, writes the next contributions into
// p.next, swaps the two and returns the L1 change of the scores.
func (p *run) iterate() (float64, error) {
	var failed atomic.Pointer[error]
	parallel.For(p.workers, int(p.n), chunk, func(w, lo, hi int) {
		if failed.Load() != nil {
			return
		}
		ws := &p.ws[w]
		if cap(ws.sums) < chunk {
			ws.sums = make([]float64, chunk)
		}
		sums := ws.sums[:hi-lo]
		clear(sums)
		contrib := p.contrib
		var err error
		if c, ok := p.a.(*store.Compressed); ok {
			err = pullCompressed(c, uint32(lo), uint32(hi), contrib, sums, p.n)
		} else {
			err = p.a.Range(store.In, uint32(lo), uint32(hi), ^uint32(0), &ws.buf, nil, func(v uint32, nbrs []uint32) {
				var s float64
				for _, u := range nbrs {
					s += float64(contrib[u])
				}
				sums[int(v)-lo] = s
			})
		}
		if err != nil {
			failed.CompareAndSwap(nil, &err)
			return
		}
		var change float64
		for i, s := range sums {
			v := lo + i
			score := float32(p.base + Damping*s)
			change += abs(float64(score) - float64(p.scores[v]))
			p.scores[v] = score
			p.next[v] = share(score, p.deg[v])
		}
		p.partial[lo/chunk] = change
	})
	if err := failed.Load(); err != nil {
		return 0, *err
	}
	p.contrib, p.next = p.next, p.contrib
	var total float64
	for _, c := range p.partial {
		total += c
	}
	return total, nil
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// Top returns the k vertices with the highest scores of r (see Top).
func (r *Result) Top(k int) []uint32 { return Top(r.Scores, k) }

// Top returns the k vertices with the highest scores, highest first; ties go to the
// smaller id. It keeps a heap of k entries, so it takes O(n log k).
func Top(scores []float32, k int) []uint32 {
	k = min(k, len(scores))
	if k <= 0 {
		return nil
	}
	h := &minHeap{s: scores}
	for v := range scores {
		if len(h.v) < k {
			heap.Push(h, uint32(v))
		} else if h.better(uint32(v), h.v[0]) {
			h.v[0] = uint32(v)
			heap.Fix(h, 0)
		}
	}
	top := make([]uint32, len(h.v))
	for i := len(top) - 1; i >= 0; i-- {
		top[i] = heap.Pop(h).(uint32)
	}
	return top
}

// minHeap holds vertex ids with the worst (lowest score, then largest id) on top.
type minHeap struct {
	s []float32
	v []uint32
}

func (h *minHeap) better(a, b uint32) bool {
	if h.s[a] != h.s[b] {
		return h.s[a] > h.s[b]
	}
	return a < b
}
func (h *minHeap) Len() int           { return len(h.v) }
func (h *minHeap) Less(i, j int) bool { return h.better(h.v[j], h.v[i]) }
func (h *minHeap) Swap(i, j int)      { h.v[i], h.v[j] = h.v[j], h.v[i] }
func (h *minHeap) Push(x any)         { h.v = append(h.v, x.(uint32)) }
func (h *minHeap) Pop() any {
	x := h.v[len(h.v)-1]
	h.v = h.v[:len(h.v)-1]
	return x
}

// showIteration draws a run's progress after iteration it, whose L1 change was change:
// the CPU's and the GPU's runs word it alike.
func showIteration(l *progress.Line, it int, change float64, opt Options) {
	l.Show("iteration %d of at most %d, L1 change %.3g (stops below %.3g)", it, opt.MaxIters, change, opt.Tolerance)
}
