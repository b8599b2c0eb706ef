package bfs

import (
	"fmt"
	"runtime"
	"sync/atomic"

	"github.com/oocgraph/ooc/internal/fault"
	"github.com/oocgraph/ooc/internal/parallel"
	"github.com/oocgraph/ooc/store"
)

// Unreached marks a vertex the BFS did not reach, in both Parent and Level.
const Unreached = ^uint32(0)

// Direction names used in LevelStat.
const (
	TopDown  = "top-down"
	BottomUp = "bottom-up"
)

// Options tune a search; the zero value picks GAPBS's defaults.
type Options struct {
	Workers int // goroutines (CPU); 0 means GOMAXPROCS, below 0 or past 4096 is refused

	// Direction-optimizing BFS (Beamer, Asanović, Patterson, SC 2012): go bottom-up when
	// the edges to check from the frontier exceed the unexplored edges / Alpha, back
	// top-down when the frontier falls below n / Beta. 0 means the GAPBS defaults
	// (DefaultAlpha, DefaultBeta); below 0 is refused (Check). The CPU engine's search of
	// an undirected graph comes back top-down by its estimate of the two levels' costs
	// instead of Beta, unless StrictSwitch.
	Alpha, Beta int

	// StrictSwitch switches directions by GAPBS's rule alone (CPU), without the
	// sampled estimates of a bottom-up level's cost and the floor of its fixed cost
	// that run adds to it.
	StrictSwitch bool

	// NoLevels leaves Result.Level nil on the CPU: the search then writes parents alone,
	// as GAPBS's does (its verifier derives the levels it checks), and Seconds covers
	// that. On roads and meshes the level array (initialised, written for every vertex
	// reached, its pages fresh in each process) was a tenth of a search. The GPU's
	// search produces levels on the device either way and fills Level.
	NoLevels bool
}

// Defaults for the zero Options.
const (
	DefaultAlpha = 15
	DefaultBeta  = 18
)

// Check refuses what no search can mean: Workers past parallel.CheckWorkers's rule and
// an Alpha or Beta below 0 (0 asks for the default), a slip rather than a request.
func (o Options) Check() error {
	if err := parallel.CheckWorkers("bfs: Options.Workers", o.Workers); err != nil {
		return err
	}
	if o.Alpha < 0 {
		return fmt.Errorf("bfs: Options.Alpha %d: want 0 (the default %d) or a positive divisor", o.Alpha, DefaultAlpha)
	}
	if o.Beta < 0 {
		return fmt.Errorf("bfs: Options.Beta %d: want 0 (the default %d) or a positive divisor", o.Beta, DefaultBeta)
	}
	return nil
}

// WithDefaults returns o with Alpha and Beta set when they are 0 (Check refuses them
// below 0).
func (o Options) WithDefaults() Options {
	if o.Alpha <= 0 {
		o.Alpha = DefaultAlpha
	}
	if o.Beta <= 0 {
		o.Beta = DefaultBeta
	}
	return o
}

// LevelStat describes one BFS level, for -v.
type LevelStat struct {
	Level         int
	Frontier      uint64 // vertices at this level (the level's input frontier)
	Direction     string // TopDown or BottomUp
	EdgesExamined uint64 // list entries decoded while expanding this level
	// Seconds is the level's time; on the CPU from the end of the level before (the
	// search's start for the first), the choice of its direction included.
	Seconds float64

	// Host-device link traffic of this level (GPU; zero on the CPU): adjacency
	// bytes copied into device staging buffers (bottom-up), and list bytes kernels
	// decoded straight from pinned host memory (zero-copy, either direction).
	BytesCopied   int64
	BytesZeroCopy int64
	Streamed      int // pinned shards this level streamed rather than read zero-copy
}

// Result is the outcome of one breadth-first search.
type Result struct {
	Source uint32   // internal vertex id
	Parent []uint32 // Parent[Source] = Source; Unreached for unreached vertices
	// Level[Source] = 0; Unreached for unreached vertices. Nil from a CPU search with
	// Options.NoLevels.
	Level   []uint32
	Reached uint64 // vertices reached, the source included
	Depth   uint32 // the largest level

	// EdgesTraversed is the numerator of TEPS as Graph500 counts it: the edges of the
	// component that was traversed. On an undirected graph that is the number of
	// undirected edges with both ends reached (the sum of the reached vertices' degrees
	// over two); on a directed graph, the directed edges leaving reached vertices (the sum
	// of their out-degrees). Self-loops and duplicates were dropped at ingest and are not
	// counted.
	EdgesTraversed uint64

	// Link traffic (GPU; zero on the CPU): the sums of the levels' BytesCopied
	// and BytesZeroCopy, and the seconds of the levels that had any, so that
	// (BytesCopied+BytesZeroCopy)/LinkSeconds is the bandwidth those levels achieved.
	// Device-resident first-neighbour reads and the index sections are not counted.
	BytesCopied   int64
	BytesZeroCopy int64
	LinkSeconds   float64

	Levels []LevelStat
	// Seconds is the search alone: on the CPU from the allocation of parent (and of
	// level) and the queue to the last level written; the summary and any checks are
	// excluded.
	Seconds float64
}

// GTEPS is EdgesTraversed per second, in billions.
func (r *Result) GTEPS() float64 {
	if r.Seconds <= 0 {
		return 0
	}
	return float64(r.EdgesTraversed) / r.Seconds / 1e9
}

// Summarize fills r.Reached, r.Depth and r.EdgesTraversed from r.Level and the graph's
// out-degrees, so that every backend counts edges the same way (see
// Result.EdgesTraversed). Where r.Level is nil it counts the vertices r.Parent gives,
// and leaves r.Depth as the search set it. It reads only the DIRECTORY sections, in
// parallel.
func Summarize(g *store.Graph, r *Result) {
	type chunk struct {
		s      *store.Shard
		lo, hi uint32 // indexes into the shard's vertices
	}
	const size = 1 << 16
	var chunks []chunk
	for _, s := range g.Out().Shards {
		for lo := uint32(0); lo < s.N; lo += min(size, s.N-lo) {
			chunks = append(chunks, chunk{s, lo, lo + min(size, s.N-lo)})
		}
	}
	type part struct {
		reached, degSum uint64
		depth           uint32
	}
	parts := make([]part, len(chunks))
	var next atomic.Int64
	var wg fault.Group
	for range min(runtime.GOMAXPROCS(0), len(chunks)) {
		wg.Go(func() {
			deg := make([]uint32, size)
			for i := int(next.Add(1) - 1); i < len(chunks); i = int(next.Add(1) - 1) {
				c := chunks[i]
				var p part
				c.s.DegreesAt(deg[:c.hi-c.lo], c.lo)
				v0 := c.s.Lo + c.lo
				if r.Level != nil {
					for j, l := range r.Level[v0 : v0+c.hi-c.lo] {
						if l != Unreached {
							p.reached++
							p.degSum += uint64(deg[j])
							p.depth = max(p.depth, l)
						}
					}
				} else {
					for j, x := range r.Parent[v0 : v0+c.hi-c.lo] {
						if x != Unreached {
							p.reached++
							p.degSum += uint64(deg[j])
						}
					}
				}
				parts[i] = p
			}
		})
	}
	wg.Wait()
	var t part
	for _, p := range parts {
		t.reached += p.reached
		t.degSum += p.degSum
		t.depth = max(t.depth, p.depth)
	}
	r.Reached, r.EdgesTraversed = t.reached, t.degSum
	if r.Level != nil {
		r.Depth = t.depth
	}
	if !g.Directed() {
		r.EdgesTraversed /= 2
	}
}
