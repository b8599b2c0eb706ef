// Package sssp computes single-source shortest paths on graphs with non-negative integer
// or float32 edge weights by delta-stepping (Meyer and Sanders, "Δ-stepping: a parallelizable
// shortest path algorithm", J. Algorithms 2003), organized as GAPBS's SSSP kernel: vertices
// wait in bins of width delta by tentative distance; a step relaxes every out-edge of
// the current bin's vertices in parallel, each worker filing the vertices it improved in
// bins of its own; a worker whose copy of the current bin is small and non-empty
// processes it again at once (bucket fusion: Zhang et al., "Optimizing ordered graph
// algorithms with GraphIt", CGO 2020), and the next step takes the smallest bin that any
// worker holds. A vertex is never removed from a bin it left; a step skips the vertices
// whose distance already lies below the current bin.
//
// The weights come through the Weights interface, aligned with the out-lists. The pure-Go
// files are the CPU version, reading the compressed shards in place on all cores.
//
// Float32 weights (Weights.Float) travel as their bit patterns, as the store holds them,
// and so do the distances: for non-negative floats the bits order as the numbers, so the
// compare-and-swap that lowers a distance is the integer one, and Inf (MaxUint32) lies
// above every finite float's bits. Only the sum differs: float32 addition, rounded at
// each edge in path order (what validate's Dijkstra computes too), and the bin of a
// distance, its float value over a float bin width. The run picks the integer or the
// float relaxation loop once per vertex, so the integer loop is the same as without
// float support.
package sssp

import (
	"fmt"
	"io"
	"math"
	"sync/atomic"
	"time"

	"github.com/oocgraph/ooc/internal/fault"
	"github.com/oocgraph/ooc/internal/parallel"
	"github.com/oocgraph/ooc/internal/progress"
	"github.com/oocgraph/ooc/store"
)

// Inf is the distance of a vertex the source does not reach.
const Inf = math.MaxUint32

// Options tune a run; the zero value means the defaults.
type Options struct {
	Workers int    // goroutines; 0 means GOMAXPROCS, below 0 or past 4096 is refused
	Delta   uint32 // bin width; 0 means DefaultDelta
	// FloatDelta is the bin width for float weights; 0 means Delta if that is set, else
	// DefaultFloatDelta. A negative, NaN or infinite FloatDelta is refused on any
	// weights, as ooc sssp's --delta is.
	FloatDelta float32
	Parents    bool // also fill Result.Parent (see Parents), after the search

	// Progress, when not nil, is a terminal that shows a run past its first second how
	// far it has got, on one line erased at its end (package progress).
	Progress io.Writer
}

// DefaultDelta is the bin width Meyer and Sanders suggest, Θ(max weight / mean degree):
// wide enough that a bin holds work for all cores, narrow enough that few of its
// vertices are improved again later. It is at least 1.
func DefaultDelta(a store.Adjacency, w Weights) uint32 {
	return DeltaFor(a.NumVertices(), a.NumEdges(), w.Max())
}

// DeltaFor is DefaultDelta for n vertices, m edges and the largest weight maxW.
func DeltaFor(n uint32, m uint64, maxW uint32) uint32 {
	if n == 0 || m == 0 {
		return 1
	}
	mean := float64(m) / float64(n)
	return uint32(max(1, math.Ceil(float64(maxW)/mean)))
}

// DefaultFloatDelta is DefaultDelta for float weights: the largest weight over the mean
// out-degree, 1 for a graph without edges or with only zero weights.
func DefaultFloatDelta(a store.Adjacency, w Weights) float32 {
	return FloatDeltaFor(a.NumVertices(), a.NumEdges(), math.Float32frombits(w.Max()))
}

// FloatDeltaFor is DefaultFloatDelta for n vertices, m edges and the largest weight maxW.
func FloatDeltaFor(n uint32, m uint64, maxW float32) float32 {
	if n == 0 || m == 0 || !(maxW > 0) {
		return 1
	}
	d := float32(float64(maxW) / (float64(m) / float64(n)))
	return max(d, math.SmallestNonzeroFloat32)
}

// Widths returns o with its bin width decided for weights w on a: on float32 weights
// FloatDelta (o.FloatDelta, else o.Delta, else DefaultFloatDelta) and Delta 0, otherwise
// Delta (o.Delta, else DefaultDelta) and FloatDelta 0. Both engines run with what it returns.
func (o Options) Widths(a store.Adjacency, w Weights) (Options, error) {
	if fd := o.FloatDelta; fd != 0 && (!(fd > 0) || math.IsInf(float64(fd), 0)) {
		return o, fmt.Errorf("sssp: Options.FloatDelta %g: want 0 (from Delta or the weights) or a positive finite bin width", fd)
	}
	if !w.Float() {
		if o.Delta == 0 {
			o.Delta = DefaultDelta(a, w)
		}
		o.FloatDelta = 0
		return o, nil
	}
	if o.FloatDelta == 0 && o.Delta != 0 {
		o.FloatDelta = float32(o.Delta)
	}
	if o.FloatDelta == 0 {
		o.FloatDelta = DefaultFloatDelta(a, w)
	}
	o.Delta = 0
	return o, checkFloatWidth(o.FloatDelta)
}

// checkFloatWidth refuses a float bin width that is not positive and finite.
func checkFloatWidth(fd float32) error {
	if !(fd > 0) || math.IsInf(float64(fd), 0) {
		return fmt.Errorf("sssp: bin width %g: want a positive finite number", fd)
	}
	return nil
}

// StepStat describes one step, for -v.
type StepStat struct {
	Bin      uint64 // the bin processed: distances in [Bin·delta, (Bin+1)·delta)
	Frontier uint64 // vertices in the shared bin, stale ones included
	Edges    uint64 // out-edges relaxed, those of fused bins included
	// BytesZeroCopy is the list and weight bytes the step read from pinned host memory
	// (the GPU; 0 on the CPU).
	BytesZeroCopy int64
	// BytesCopied is the list and weight bytes a round held for the host (Held) copied
	// through the staging buffers (the GPU; 0 on the CPU).
	BytesCopied int64
	Held        bool
	Seconds     float64
}

// Result is the outcome of one run.
type Result struct {
	Source  uint32
	Dist    []uint32 // Inf for unreached vertices
	Parent  []uint32 // with Options.Parents: a shortest-path tree (see Parents); else nil
	Reached uint64   // vertices with a distance, the source included
	Delta   uint32   // the bin width (integer weights)
	// Float says that Dist holds float32 bit patterns (float weights: Weights.Float), Inf
	// still marking the unreached; FloatDelta is then the bin width and Delta 0.
	Float      bool
	FloatDelta float32
	Steps      []StepStat
	Seconds    float64 // the search for the distances, without the parents
}

// binThreshold is the size below which a worker processes its copy of the current bin
// at once rather than in a step of its own (GAPBS's kBinSizeThreshold).
const binThreshold = 1000

// noBin marks the absence of a next bin.
const noBin = math.MaxUint64

// Run computes the distances from src.
func Run(a store.Adjacency, w Weights, src uint32, opt Options) (*Result, error) {
	n := a.NumVertices()
	if src >= n {
		return nil, fmt.Errorf("sssp: source %d is not a vertex (the graph has %d): %w", src, n, store.ErrNoVertex)
	}
	if err := parallel.CheckWorkers("sssp: Options.Workers", opt.Workers); err != nil {
		return nil, err
	}
	opt, err := opt.Widths(a, w)
	if err != nil {
		return nil, err
	}
	s := &search{a: a, w: w, workers: parallel.Workers(opt.Workers), float: w.Float()}
	r := &Result{Source: src, Float: s.float, Delta: opt.Delta, FloatDelta: opt.FloatDelta}
	s.delta, s.fdelta = uint64(opt.Delta), float64(opt.FloatDelta)
	t0 := time.Now()
	s.dist = make([]uint32, n)
	parallel.For(s.workers, int(n), 1<<14, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			s.dist[v] = Inf
		}
	})
	s.dist[src] = 0
	s.ws = make([]*worker, s.workers)
	for i := range s.ws {
		s.ws[i] = newWorker()
	}
	line := progress.New(opt.Progress, "sssp")
	defer line.Done()
	var relaxed uint64
	front, bin := []uint32{src}, uint64(0)
	for bin != noBin {
		t := time.Now()
		next, edges, err := s.step(front, bin)
		if err != nil {
			return nil, err
		}
		r.Steps = append(r.Steps, StepStat{Bin: bin, Frontier: uint64(len(front)), Edges: edges, Seconds: time.Since(t).Seconds()})
		relaxed += edges
		if s.float {
			showBin(line, bin, float64(bin)*s.fdelta, relaxed)
		} else {
			showBin(line, bin, bin*s.delta, relaxed)
		}
		front, bin = s.gather(front[:0], next), next
	}
	for _, ws := range s.ws {
		if ws.past {
			if err := unreachedPast(s.a, s.float, s.dist); err != nil {
				return nil, err
			}
			break
		}
	}
	r.Dist = s.dist
	r.Seconds = time.Since(t0).Seconds()
	for _, d := range r.Dist {
		if d != Inf {
			r.Reached++
		}
	}
	if opt.Parents {
		var err error
		if r.Parent, err = Parents(a, w, r, s.workers); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// search is the state of one run.
type search struct {
	a       store.Adjacency
	w       Weights
	delta   uint64 // the bin width (integer weights)
	workers int
	dist    []uint32
	ws      []*worker
	float   bool    // float32 weights and distances (as bits)
	fdelta  float64 // the bin width (float weights)
}

// maxFloatBin bounds the bin of a float distance (a huge distance over a tiny width): the
// bins stay monotone in the distance, the last one merely wide.
const maxFloatBin = 1 << 62

// bin is the bin of distance d.
func (s *search) bin(d uint32) uint64 {
	if !s.float {
		return uint64(d) / s.delta
	}
	return uint64(min(float64(math.Float32frombits(d))/s.fdelta, maxFloatBin))
}

// window is the number of bins a worker holds in a ring; vertices filed further ahead
// wait in an unsorted overflow list, so that memory and the search for the next bin
// grow with the vertices filed, not with the distance range over delta.
const window = 1 << 12

// worker is one worker's bins and scratch, padded so that workers do not share cache
// lines. ring[b%window] holds the vertices filed in bin b for b in [base, base+window);
// far holds those filed beyond, farMin being at most the smallest of their bins. first
// is at most the smallest non-empty bin of the ring (noBin when it is empty).
type worker struct {
	ring   [window][]uint32
	base   uint64
	first  uint64
	far    []uint32
	farMin uint64
	buf    []uint32
	edges  uint64
	failed error
	// past: a relaxation summed past the largest distance, which Run's end hands to
	// unreachedPast (an error only where no shorter path reached the vertex)
	past bool
	_    [64]byte
}

func newWorker() *worker { return &worker{first: noBin, farMin: noBin} }

// file appends v to bin b (b >= base).
func (ws *worker) file(b uint64, v uint32) {
	if b-ws.base >= window {
		ws.far = append(ws.far, v)
		ws.farMin = min(ws.farMin, b)
		return
	}
	ws.ring[b%window] = append(ws.ring[b%window], v)
	ws.first = min(ws.first, b)
}

// at returns bin b's slot, or nil when b lies outside the ring.
func (ws *worker) at(b uint64) *[]uint32 {
	if b < ws.base || b-ws.base >= window {
		return nil
	}
	return &ws.ring[b%window]
}

// next returns the smallest bin that may hold a vertex, or noBin.
func (ws *worker) next() uint64 {
	for b := max(ws.first, ws.base); b != noBin && b-ws.base < window; b++ {
		if len(ws.ring[b%window]) > 0 {
			ws.first = b
			return b
		}
	}
	ws.first = noBin
	return ws.farMin
}

// advance moves the ring to start at bin b (every bin below b is empty) and refiles the
// overflow vertices whose bins the ring now covers, by their current distances; those
// whose distance lies below b were improved and settled since they were filed.
func (ws *worker) advance(b uint64, s *search) {
	if b <= ws.base {
		return
	}
	ws.base = b
	if ws.farMin == noBin || ws.farMin-b >= window {
		return
	}
	far := ws.far
	ws.far, ws.farMin = nil, noBin
	for _, v := range far {
		if vb := s.bin(s.dist[v]); vb >= b {
			ws.file(vb, v)
		}
	}
}

// step relaxes the out-edges of the frontier's vertices that still belong to bin b,
// fuses small local copies of bin b, and returns the smallest bin any worker holds. A
// frontier of one grab runs on the calling goroutine: long chains of small steps (road
// networks, paths) then start no goroutines.
func (s *search) step(front []uint32, b uint64) (next, edges uint64, err error) {
	var cursor atomic.Int64
	if len(front) <= grab || s.workers == 1 {
		s.work(s.ws[0], front, b, &cursor)
	} else {
		var wg fault.Group // reads mapped shards: a fault reaches the command (internal/fault)
		for i := range s.ws {
			wg.Go(func() { s.work(s.ws[i], front, b, &cursor) })
		}
		wg.Wait()
	}
	next = noBin
	for _, ws := range s.ws {
		next = min(next, ws.next())
		edges += ws.edges
		ws.edges = 0
		if ws.failed != nil && err == nil {
			err = ws.failed
		}
	}
	return next, edges, err
}

// grab is the number of frontier vertices a worker takes at a time.
const grab = 64

// work is one worker's part of a step: grabs of the frontier while any are left, then
// its own copy of bin b again and again while that is small and not empty.
func (s *search) work(ws *worker, front []uint32, b uint64, cursor *atomic.Int64) {
	lower := b * s.delta // distances below this belong to bins already done
	for ws.failed == nil {
		lo := int(cursor.Add(grab)) - grab
		if lo >= len(front) {
			break
		}
		for _, u := range front[lo:min(lo+grab, len(front))] {
			if d := atomic.LoadUint32(&s.dist[u]); (!s.float && uint64(d) >= lower) || (s.float && s.bin(d) >= b) {
				s.relax(ws, u)
			}
		}
	}
	for ws.failed == nil {
		cur := ws.at(b)
		if cur == nil || len(*cur) == 0 || len(*cur) >= binThreshold {
			break
		}
		fused := *cur
		*cur = nil
		for _, u := range fused {
			s.relax(ws, u)
		}
	}
}

// relax lowers the distance of every out-neighbour of u that an edge from u improves,
// and files each improved neighbour in the bin of its new distance.
func (s *search) relax(ws *worker, u uint32) {
	nbrs, err := s.a.List(store.Out, u, math.MaxUint32, ws.buf)
	if err != nil {
		ws.failed = err
		return
	}
	ws.buf = nbrs[:0] // keep a grown decode buffer (Flat ignores it and writes nothing)
	weights := s.w.Of(u)
	if len(weights) != len(nbrs) {
		ws.failed = errMisaligned(u, len(weights), len(nbrs))
		return
	}
	ws.edges += uint64(len(nbrs))
	if s.float {
		s.relaxFloat(ws, nbrs, weights, atomic.LoadUint32(&s.dist[u]))
		return
	}
	du := uint64(atomic.LoadUint32(&s.dist[u]))
	for k, v := range nbrs {
		nd := du + uint64(weights[k])
		if nd >= Inf { // no improvement of a distance v has (unreachedPast)
			ws.past = true
			continue
		}
		for {
			old := atomic.LoadUint32(&s.dist[v])
			if uint64(old) <= nd {
				break
			}
			if atomic.CompareAndSwapUint32(&s.dist[v], old, uint32(nd)) {
				ws.file(nd/s.delta, v)
				break
			}
		}
	}
}

// relaxFloat is relax's loop for float weights: the distance through u is the float32
// sum of u's distance du and the weight, and its bits are compared and stored as the
// integer loop does (they order as the floats).
func (s *search) relaxFloat(ws *worker, nbrs, weights []uint32, du uint32) {
	fu := math.Float32frombits(du)
	for k, v := range nbrs {
		nd := math.Float32bits(fu + math.Float32frombits(weights[k]))
		if nd >= 0x7F800000 { // +Inf: as relax's overflow; or NaN from a damaged weight
			if nd > 0x7F800000 {
				ws.failed = fmt.Errorf("sssp: the distance to vertex %d is not a number (a weight is NaN)", v)
				return
			}
			ws.past = true
			continue
		}
		for {
			old := atomic.LoadUint32(&s.dist[v])
			if old <= nd {
				break
			}
			if atomic.CompareAndSwapUint32(&s.dist[v], old, nd) {
				ws.file(s.bin(nd), v)
				break
			}
		}
	}
}

// gather moves every worker's ring to start at bin b and its copy of bin b into dst,
// the next shared frontier.
func (s *search) gather(dst []uint32, b uint64) []uint32 {
	if b == noBin {
		return dst
	}
	for _, ws := range s.ws {
		ws.advance(b, s)
		if bin := ws.at(b); bin != nil {
			dst = append(dst, *bin...)
			*bin = (*bin)[:0]
		}
	}
	return dst
}

// showBin draws a run's progress at bin bin, whose distances start at from (a uint64, or
// a float64 on float32 weights), relaxed edges relaxed so far: the CPU's and the GPU's
// runs word it alike.
func showBin(l *progress.Line, bin uint64, from any, relaxed uint64) {
	l.Show("bin %d (distances from %v), %d edges relaxed", bin, from, relaxed)
}
