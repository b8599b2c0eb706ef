//go:build cuda

package bfs

import (
	"fmt"
	"strings"
	"time"
	"unsafe"

	"github.com/oocgraph/ooc/gpu"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/internal/cuda"
	"github.com/oocgraph/ooc/store"
)

const block = 256

// GPU runs searches on a graph placed on the device by package gpu: bfs.cu's kernels,
// driven level by level with the CPU's switching rule. It keeps, from one search to the
// next, what each bottom-up level decoded per shard (the streaming choice's estimate).
type GPU struct {
	gpu.Kernels
	hist    map[int][]int64 // per bottom-up level rank: list bytes each in shard decoded in the last search
	sizes   []gpu.ShardSize // dg's shards
	longCap uint64          // entries of the long-list queue (longCap)
	coop    int             // td_levels' grid: the blocks the device holds at once (0: no cooperative launch)
	maxDeg  uint64          // a bound on every out-degree, at least 1 (td_levels' scout rule)
	staged  bool            // lists may pass two blocks: long lists are expanded by the staged kernels
	streams [3]*cuda.Stream // td_expand's window launches alternate between the first two (topDownBatch); a gathered level's index, copies and expansions go in the third, of the greatest priority
	fork    *cuda.Event     // recorded in the default stream before a level's window launches
	join    [3]*cuda.Event  // recorded in each stream after them
	gbuf    *gatherBuf      // pinned host memory of gathered levels (gather_cuda.go); nil: none is gathered
	gtime   [4]*cuda.Event  // a gathered level's timing events (gather_cuda.go)
	grates  map[int]*gatherRates
}

// coopQueue is the largest queue a level run by td_levels may start from: its registers
// let the device hold fewer threads than td_expand's launches fill, which pays off for the
// thousands of small levels of a high-diameter graph (a barrier instead of three launches
// a level), not for the few large levels of a small-world one. Tests set it to 0 (every
// level by launches) or the maximum (every level by td_levels).
var coopQueue uint32 = 1 << 18

// maxBlocks bounds the out-list blocks of a graph on the GPU: td_expand counts a level's
// long-list blocks in 32 bits.
const maxBlocks = 1<<32 - 1

// NewGPU loads bfs.cu's kernels for searches on dg.
func NewGPU(dg *gpu.Graph) (*GPU, error) {
	g := &GPU{hist: map[int][]int64{}, sizes: gpu.Sizes(dg.G), maxDeg: 1}
	g.longCap = longCap(g.sizes)
	for _, s := range dg.G.Out().Shards {
		g.maxDeg = max(g.maxDeg, s.MaxDegreeBound())
	}
	g.staged = g.maxDeg > 2*store.BlockSize
	if e := gpu.MaxDirEdges(g.sizes); e/store.BlockSize >= maxBlocks {
		return nil, fmt.Errorf("bfs: %d edges in one direction: the GPU search takes fewer than %d", e, uint64(maxBlocks)*store.BlockSize)
	}
	var err error
	if g.Kernels, err = dg.LoadKernels("bfs", Fatbin); err != nil {
		return nil, err
	}
	err = dg.Dev.Do(func(c *cuda.Ctx) error {
		for i := range g.streams {
			if i < 2 {
				g.streams[i], err = c.NewStream()
			} else {
				g.streams[i], err = c.NewUrgentStream()
			}
			if err != nil {
				return err
			}
			if g.join[i], err = c.NewEvent(false); err != nil {
				return err
			}
		}
		if g.fork, err = c.NewEvent(false); err != nil {
			return err
		}
		if canGather(dg) {
			for i := range g.gtime {
				if g.gtime[i], err = c.NewEvent(true); err != nil {
					return err
				}
			}
			g.gbuf = newGatherBuf(c, dg.N)
			g.grates = map[int]*gatherRates{}
		}
		return nil
	})
	if err != nil {
		g.Close()
		return nil, err
	}
	if dg.Dev.Coop {
		err = dg.Dev.Do(func(c *cuda.Ctx) error {
			per, err := c.MaxActiveBlocks(g.Mod, g.tdLevels(), block)
			g.coop = min(per, 8) * dg.Dev.SMs
			return err
		})
		if err != nil {
			g.Close()
			return nil, err
		}
	}
	return g, nil
}

// tdLevels is the name of the td_levels kernel g launches: td_levels_staged when a list
// may pass two blocks (expandQueue queues it for expandLong), else td_levels, which keeps
// the L1 cache that the staged kernel's shared buffer takes.
func (g *GPU) tdLevels() string {
	if g.staged {
		return "td_levels_staged"
	}
	return "td_levels"
}

// Close unloads the kernels and releases the streams and events.
func (g *GPU) Close() error {
	err := g.Kernels.Close()
	keep := func(e error) {
		if e != nil && err == nil {
			err = e
		}
	}
	keep(g.Graph.Dev.Do(func(c *cuda.Ctx) error {
		var first error
		var pin *cuda.Pinned
		if g.gbuf != nil {
			pin = g.gbuf.pin
		}
		errs := []error{destroyEvent(c, g.fork), c.Unregister(pin)}
		for i := range g.streams {
			errs = append(errs, c.DestroyStream(g.streams[i]), destroyEvent(c, g.join[i]))
		}
		for _, e := range g.gtime {
			errs = append(errs, destroyEvent(c, e))
		}
		for _, e := range errs {
			if e != nil && first == nil {
				first = e
			}
		}
		return first
	}))
	g.streams, g.join, g.fork, g.gbuf, g.gtime = [3]*cuda.Stream{}, [3]*cuda.Event{}, nil, nil, [4]*cuda.Event{}
	return err
}

// destroyEvent releases e; nil does nothing.
func destroyEvent(c *cuda.Ctx, e *cuda.Event) error {
	if e == nil {
		return nil
	}
	return c.DestroyEvent(e)
}

type bfsRun struct {
	g       *GPU
	dg      *gpu.Graph
	c       *cuda.Ctx
	st      devState
	cnt     cuda.DevPtr
	in, out gpu.Buf[uint32]
	front   gpu.Buf[uint32]
	next    gpu.Buf[uint32]
	words   int64
	levels  []LevelStat

	lastBytes []int64  // per in shard: bytes the previous bottom-up level decoded (-1: none yet)
	link      linkStat // of the level being run
	choices   []string // per level, for -v: per in shard r (resident), s (streamed), z (zero-copy)
	buLevel   int      // bottom-up levels run so far in this search
	reached   uint64   // vertices visited so far
	rules     []string // for -v: each sampled direction choice
}

// linkStat is one level's traffic over the link.
type linkStat struct {
	copied, zero int64
	streamed     int
	choice       []byte
}

// Run runs a direction-optimizing BFS from src with the CPU engine's switching rule
// (bfs.go, after GAPBS): bottom-up when the edges out of the frontier exceed the
// unchecked edges over alpha, top-down again once the frontier shrinks and is at most
// n/beta.
func (g *GPU) Run(src uint32, opt Options) (*Result, error) {
	dg := g.Graph
	n := dg.N
	if src >= n {
		return nil, fmt.Errorf("bfs: source %d is not a vertex (the graph has %d): %w", src, n, store.ErrNoVertex)
	}
	if err := opt.Check(); err != nil {
		return nil, err
	}
	opt = opt.WithDefaults()
	res := &Result{Source: src, Parent: make([]uint32, n), Level: make([]uint32, n)}
	var choices, rules []string
	err := dg.Dev.Do(func(c *cuda.Ctx) error {
		// top-down levels read lists where they lie: the idle staging buffers hold some
		// pinned shards (a bottom-up sweep that streams gives them back)
		if err := dg.CacheLists(c); err != nil {
			return err
		}
		dg.Work.Reset()
		st := takeState(dg.Work, n, g.longCap, len(dg.Plan.Shards))
		if err := dg.Work.Err(); err != nil {
			return err
		}
		r := &bfsRun{g: g, dg: dg, c: c, st: st, cnt: st.counters.Ptr(),
			in: st.queueA, out: st.queueB,
			front: st.frontier, next: st.next, words: (int64(n) + 32) / 32,
			lastBytes: make([]int64, len(dg.In))}
		for i := range r.lastBytes {
			r.lastBytes[i] = -1
		}
		t0 := time.Now()
		if err := r.run(src, opt); err != nil {
			return err
		}
		res.Seconds = time.Since(t0).Seconds()
		res.Levels = r.levels
		choices = r.choices
		rules = r.rules
		for _, l := range r.levels {
			res.BytesCopied += l.BytesCopied
			res.BytesZeroCopy += l.BytesZeroCopy
			if l.BytesCopied+l.BytesZeroCopy > 0 {
				res.LinkSeconds += l.Seconds
			}
		}
		if err := c.DtoH(unsafe.Pointer(&res.Parent[0]), st.parent.Ptr(), 4*int64(n)); err != nil {
			return err
		}
		return c.DtoH(unsafe.Pointer(&res.Level[0]), st.level.Ptr(), 4*int64(n))
	})
	err = dg.CheckLists(g.Mod, err) // a damaged list gives no answer, even where the run failed
	if err != nil {
		return nil, err
	}
	Summarize(dg.G, res)
	if dg.Log != nil {
		fmt.Fprintf(dg.Log, "stream: bfs from %d: %.3f ms, %d levels\n", dg.G.External(src), 1e3*res.Seconds, len(res.Levels))
		for i, l := range res.Levels {
			fmt.Fprintf(dg.Log, "  level %2d %-9s frontier %10d examined %12d %8.3f ms", l.Level, l.Direction,
				l.Frontier, l.EdgesExamined, 1e3*l.Seconds)
			if l.BytesCopied+l.BytesZeroCopy > 0 {
				fmt.Fprintf(dg.Log, "  link: %d shards streamed, %s copied, %s zero-copy, %.1f GB/s",
					l.Streamed, bytesize.Format(l.BytesCopied), bytesize.Format(l.BytesZeroCopy),
					float64(l.BytesCopied+l.BytesZeroCopy)/max(l.Seconds, 1e-9)/1e9)
			}
			if i < len(choices) && strings.ContainsAny(choices[i], "sz") {
				fmt.Fprintf(dg.Log, "  shards [%s] (s streamed, z zero-copy, r resident)", choices[i])
			}
			fmt.Fprintln(dg.Log)
		}
		for _, l := range rules {
			fmt.Fprintf(dg.Log, "  %s\n", l)
		}
		if res.LinkSeconds > 0 {
			fmt.Fprintf(dg.Log, "  link total: %s copied, %s zero-copy in %.3f ms: %.1f GB/s\n",
				bytesize.Format(res.BytesCopied), bytesize.Format(res.BytesZeroCopy), 1e3*res.LinkSeconds,
				float64(res.BytesCopied+res.BytesZeroCopy)/res.LinkSeconds/1e9)
		}
	}
	return res, nil
}

// grid is the launch grid for work items (0: no launch).
func (r *bfsRun) grid(work uint64) int { return r.dg.Grid(work, block) }

// counters reads the bottom-up counters: vertices emitted and edges examined.
func (r *bfsRun) counters() (out uint32, checked uint64, err error) {
	var b [4]uint64
	if err = r.c.DtoH(unsafe.Pointer(&b[0]), r.cnt, 32); err != nil {
		return
	}
	return uint32(b[0]), b[2], nil
}

// run is the CPU's switching rule on the device: GAPBS's (bottom-up when the frontier's
// out-edges exceed the unchecked edges over alpha, top-down again once the frontier
// shrinks and is at most n/beta), and, unless opt.StrictSwitch, a level GAPBS's rule
// sends bottom-up stays top-down when its frontier's out-edges are at most what a
// bottom-up level is estimated to examine (sampleBottomUp, as the CPU's run; the CPU
// weighs every frontier, the device only some). Only a frontier of at least 1/sampledMin of the edges is weighed so: the sample and
// the one-level batch it leads to cost a wait for the device, more than a small level
// (grid 2^26 at 1410 MiB: its last ~35 levels, frontiers of ~1,800 edges, kept top-down
// one at a time took 3.5 ms more a search than GAPBS's bottom-up levels).
// Nor is a frontier of fewer than sampledDeg out-edges a vertex: its lists are expanded a
// thread a list, with a claim per edge scattered over all vertices, and the sample, whose
// lists lie across the link, costs more than it could save (urand26 at 3 GiB: level 5, 33
// out-edges a vertex, sampled 0.2-0.4 ms a search and sent bottom-up every time).
// Nor is one whose out-edges exceed the unchecked edges left beside them, on an undirected
// graph: a bottom-up level examines at most the lists of the unvisited vertices, which are
// among those (kron26 in degree order: its level 3, 1.9G out-edges against ~20M entries).
// A hub frontier whose neighbours find it late in their lists is cheaper top-down: kron26
// in input order, source 31661268, level 2: 17,345 hubs, 146M out-edges against 170-186M
// entries bottom-up.
func (r *bfsRun) run(src uint32, opt Options) error {
	alpha, beta := opt.Alpha, opt.Beta
	c, st, n := r.c, r.st, r.dg.N
	if err := c.Memset32(st.parent.Ptr(), ^uint32(0), int64(n)); err != nil {
		return err
	}
	if err := c.Memset32(st.level.Ptr(), ^uint32(0), int64(n)); err != nil {
		return err
	}
	if err := c.Memset32(st.visited.Ptr(), 0, r.words); err != nil {
		return err
	}
	if err := launchBfsInit(c, r.g.Mod, 1, 1, st.parent.Ptr(), st.level.Ptr(), st.visited.Ptr(), r.in.Ptr(), src); err != nil {
		return err
	}
	var edgesToCheck int64
	for _, s := range r.dg.Out {
		edgesToCheck += int64(s.Edges)
	}
	edgesTotal := edgesToCheck
	scout := int64(store.NewCompressed(r.dg.G).Degree(store.Out, src))
	qn := uint64(1)
	r.reached = 1
	depth := uint32(0)
	batch := firstBatch
	for qn > 0 {
		if scout > edgesToCheck/int64(alpha) {
			if err := c.Memset32(r.front.Ptr(), 0, r.words); err != nil {
				return err
			}
			if err := launchQueueBits(c, r.g.Mod, r.grid(qn), block, r.in.Ptr(), uint32(qn), r.front.Ptr()); err != nil {
				return err
			}
			if !opt.StrictSwitch && scout >= edgesTotal/sampledMin && scout >= sampledDeg*int64(qn) &&
				(r.dg.G.Directed() || 2*scout <= edgesToCheck) {
				est, err := r.sampleBottomUp(src, depth)
				if err != nil {
					return err
				}
				keep := float64(scout) <= est
				dir := BottomUp
				if keep {
					dir = TopDown
				}
				r.rules = append(r.rules, fmt.Sprintf("level %2d: frontier out-edges %d, bottom-up estimate %.0f: %s",
					depth, scout, est, dir))
				if keep {
					ran, err := r.topDownBatch(1, &qn, &scout, &edgesToCheck, depth, alpha, true)
					if err != nil {
						return err
					}
					depth += uint32(ran)
					batch = firstBatch
					continue
				}
			}
			awake := qn
			for {
				old := awake
				t := time.Now()
				var examined uint64
				var err error
				if awake, examined, err = r.bottomUp(depth); err != nil {
					return err
				}
				r.reached += awake
				r.stat(depth, old, BottomUp, examined, time.Since(t).Seconds())
				depth++
				r.front, r.next = r.next, r.front
				r.in, r.out = r.out, r.in
				if awake < old && awake <= uint64(n)/uint64(beta) {
					break
				}
			}
			qn = awake // the bottom-up sweeps emitted the last level into the queue too
			scout = 1
			batch = firstBatch
			continue
		}
		ran, err := r.topDownBatch(batch, &qn, &scout, &edgesToCheck, depth, alpha, false)
		if err != nil {
			return err
		}
		depth += uint32(ran)
		batch = min(2*batch, maxBatch)
	}
	return nil
}

func (r *bfsRun) stat(depth uint32, frontier uint64, dir string, examined uint64, sec float64) {
	r.levels = append(r.levels, LevelStat{Level: int(depth), Frontier: frontier, Direction: dir,
		EdgesExamined: examined, Seconds: sec,
		BytesCopied: r.link.copied, BytesZeroCopy: r.link.zero, Streamed: r.link.streamed})
	r.choices = append(r.choices, string(r.link.choice))
	r.link = linkStat{}
}

// window is the most pinned adjacency one top-down launch reads: random zero-copy reads
// spread wider are bound by address translation (docs/design-link-policy.md). Tests
// shrink it to run a launch per shard.
var window int64 = 512 << 20

// tdRanges are the vertex ranges of td_expand's launches: one over all vertices when the
// adjacency is resident, else runs of consecutive out shards whose pinned ADJ sections
// together fit the window (a shard larger than it alone), in vertex order.
func (r *bfsRun) tdRanges() [][2]uint32 {
	if r.dg.Plan.Pinned == 0 {
		return [][2]uint32{{0, r.dg.N}}
	}
	var out [][2]uint32
	var bytes int64
	for i, s := range r.dg.Out {
		adj, pinned := r.dg.OutShard(i)
		if !pinned {
			adj = 0
		}
		if len(out) == 0 || bytes > 0 && bytes+adj > window {
			out = append(out, [2]uint32{s.Lo, s.Lo})
			bytes = 0
		}
		out[len(out)-1][1] = s.Lo + s.N
		bytes += adj
	}
	return out
}

// tdLaunch is what every launch of one top-down level of a batch is told: its queues,
// depth and index in the batch, and the batch's first level's queue length, out-degree
// sum and unchecked edges (the device's rule, tdLevel).
type tdLaunch struct {
	in, out     gpu.Buf[uint32]
	depth, j    uint32
	qn          uint32
	scout       uint64
	left0       uint64
	alpha       uint32
	first, mode uint32 // td_expand's: the launch writes the record's fields; the lists it expands
	grid        int    // td_expand's grid when not 0 (else tdGrid)
}

// expandModes of td_expand (bfs.cu's EXPAND_*).
const (
	expandAll        = 0
	expandKept       = 1
	expandGatherable = 2
)

// tdGrid is td_expand's grid: one that fills the device once (the kernels stride over
// larger queues): most levels of a deep search are small, and every block of a launch
// reads the records.
func (r *bfsRun) tdGrid() int { return min(r.dg.Grid(uint64(r.dg.N), block), r.dg.Dev.SMs*8) }

// expandWindows launches td_expand for level lv over each of ranges, the lists mode
// selects; the first range's launch writes the level's record fields when mode is
// expandAll.
//
// A level's window launches alternate between two streams, so the next window's blocks
// start as this one's retire: a launch ends with the slowest of its lists (a chain of
// dependent link reads), which otherwise idles most of the device (urand26 at 3 GiB, 11
// windows: its largest level 14.8 -> 13.9 ms). At most two windows are read at once: a
// launch waits for the one two before it, in its stream.
func (r *bfsRun) expandWindows(lv tdLaunch, ranges [][2]uint32, mode uint32) error {
	fork := len(ranges) > 1
	if fork {
		if err := r.forkStreams(); err != nil {
			return err
		}
	}
	for k, rg := range ranges {
		var s *cuda.Stream
		if fork {
			s = r.g.streams[k%2]
		}
		l := lv
		l.mode = mode
		if k == 0 && mode == expandAll {
			l.first = 1
		}
		if err := r.tdExpand(s, l, rg[0], rg[1]); err != nil {
			return err
		}
	}
	if fork {
		return r.joinStreams()
	}
	return nil
}

// tdExpand launches td_expand for level lv over the vertices [lo, hi) in stream s.
func (r *bfsRun) tdExpand(s *cuda.Stream, lv tdLaunch, lo, hi uint32) error {
	c, st := r.c, r.st
	return c.OnStream(s, func() error {
		grid := r.tdGrid()
		if lv.grid > 0 {
			grid = lv.grid
		}
		return launchTdExpand(c, r.g.Mod, grid, block, r.dg.OutTable.Ptr, int32(len(r.dg.Out)), lo, hi, lv.first,
			lv.in.Ptr(), st.visited.Ptr(), st.parent.Ptr(), st.level.Ptr(), lv.depth, lv.out.Ptr(), st.long.Ptr(),
			st.longAt.Ptr(), uint32(r.g.longCap), st.recs.Ptr(), lv.j, lv.qn, lv.scout, lv.left0, lv.alpha, r.g.gmin(), uint32(gatherDeg), lv.mode)
	})
}

// topDownBatch queues up to batch top-down levels from the in queue of *qn vertices, whose
// out-degrees sum to *scout, with *left edges unchecked, then reads their records once.
// Each level runs on the device only if the one before it left a queue and GAPBS's rule
// keeps it top-down (bfs.cu's tdLevel), so the levels that ran are those the host would
// have run one by one. It records them, leaves the last one's output in the in queue,
// updates *qn, *scout and *left, and returns how many ran (at least one: the caller
// checked the rule for the first). With force, the first level runs alone whatever
// GAPBS's rule says (run's sampled rule kept it top-down): the device is told that no
// edge was checked yet (left0 maxLeft, so no rule stops it), and *left is set here from
// the level's exact scout.
func (r *bfsRun) topDownBatch(batch int, qn *uint64, scout, left *int64, depth uint32, alpha int, force bool) (int, error) {
	c, st, m := r.c, r.st, r.g.Mod
	left0, leftAfter := uint64(*left), *left-*scout
	if force {
		batch, left0 = 1, maxLeft
	}
	// a level the host gathers runs alone, by launches
	gathered := r.g.gatherable(*qn, *scout)
	if gathered {
		batch = 1
	}
	var copied int64
	var measure *gatherMeasure
	recs := st.recs.Ptr()
	if err := c.Memset32(recs, 0, int64(2*recWords*(batch+1))); err != nil {
		return 0, err
	}
	table, ns := r.dg.OutTable.Ptr, int32(len(r.dg.Out))
	ranges := r.tdRanges()
	in, out := r.in, r.out
	if r.g.coop > 0 && uint64(coopQueue) >= *qn && !gathered {
		if len(ranges) > 1 {
			if err := c.HtoD(st.ranges.Ptr(), unsafe.Pointer(&ranges[0]), int64(8*len(ranges))); err != nil {
				return 0, err
			}
		}
		if err := c.Memset32(st.barrier.Ptr(), 0, 2); err != nil {
			return 0, err
		}
		launch := launchTdLevels
		if r.g.staged {
			launch = launchTdLevelsStaged
		}
		if err := launch(c, m, r.g.coop, block, table, ns, st.ranges.Ptr(), uint32(len(ranges)), in.Ptr(), out.Ptr(),
			st.visited.Ptr(), st.parent.Ptr(), st.level.Ptr(), depth, st.long.Ptr(), st.longAt.Ptr(), uint32(r.g.longCap),
			recs, uint32(batch), uint32(*qn), uint64(*scout), left0, uint32(alpha), coopQueue, r.g.gmin(), uint32(gatherDeg), r.g.maxDeg,
			st.barrier.Ptr()); err != nil {
			return 0, err
		}
	} else {
		grid := r.tdGrid()
		for j := range batch {
			lv := tdLaunch{in: in, out: out, depth: depth + uint32(j), j: uint32(j), qn: uint32(*qn), scout: uint64(*scout),
				left0: left0, alpha: uint32(alpha)}
			var err error
			if j == 0 && gathered {
				copied, measure, err = r.gatherLevel(lv, ranges)
			} else {
				err = r.expandWindows(lv, ranges, expandAll)
			}
			if err != nil {
				return 0, err
			}
			if r.g.longCap > 0 {
				launch := launchTdLong
				if r.g.staged {
					launch = launchTdLongStaged
				}
				if err := launch(c, m, grid, block, table, ns, st.long.Ptr(), st.longAt.Ptr(), st.visited.Ptr(), st.parent.Ptr(),
					st.level.Ptr(), depth+uint32(j), out.Ptr(), recs, uint32(j)); err != nil {
					return 0, err
				}
			}
			if err := launchTdScout(c, m, min(grid, r.dg.Dev.SMs*4), block, table, ns, out.Ptr(), recs, uint32(j)); err != nil {
				return 0, err
			}
			in, out = out, in
		}
	}
	if err := launchTdMark(c, m, 1, 1, recs, uint32(batch)); err != nil {
		return 0, err
	}
	rec := make([][recWords]uint64, batch+1)
	if err := c.DtoH(unsafe.Pointer(&rec[0][0]), recs, int64(8*recWords*(batch+1))); err != nil {
		return 0, err
	}
	if measure != nil {
		if err := r.settle(measure, rec[0][recLink]); err != nil {
			return 0, err
		}
	}
	ran := 0
	for ran < batch && rec[ran][recRan] == 1 {
		ran++
	}
	for j := range ran {
		r.link = linkStat{zero: int64(rec[j][recLink])}
		if j == 0 {
			r.link.copied = copied
		}
		sec := float64(rec[j+1][recT0]-rec[j][recT0]) / 1e9
		r.stat(depth+uint32(j), *qn, TopDown, rec[j][recExamined], sec)
		*qn = uint64(uint32(rec[j][recCount]))
		*scout = int64(rec[j][recDegrees])
		*left = int64(rec[j][recLeft])
		r.reached += *qn
	}
	if force && ran == 1 {
		*left = leftAfter
	}
	if ran%2 == 1 {
		r.in, r.out = r.out, r.in
	}
	if ran == 0 {
		return 0, fmt.Errorf("bfs: a top-down batch at level %d ran no level", depth)
	}
	return ran, nil
}

// sampledMin: run's sampled rule weighs frontiers of at least 1/sampledMin of the edges.
const sampledMin = 256

// sampledDeg: run's sampled rule weighs frontiers of at least sampledDeg out-edges a
// vertex, lists that expandLong spreads over the device (more than two blocks).
const sampledDeg = 2 * store.BlockSize

// maxLeft is the unchecked edges topDownBatch tells the device for a level it must run:
// GAPBS's rule (scout > left/alpha) stops no level then.
const maxLeft = 1 << 62

// sampleBuThreads is how many unvisited vertices bu_sample draws (a thread each).
const sampleBuThreads = 4 * block

// sampleBottomUp estimates the list entries a bottom-up level against the frontier
// bitmap at depth would examine (bfs.cu's bu_sample, the CPU's sampleBottomUp): the mean
// over sampleBuThreads unvisited vertices drawn at random (seeded by the source and the
// depth, so a search decides the same way each time), times the unvisited vertices. A
// sample that finds no unvisited vertex counts each at the mean in-degree.
func (r *bfsRun) sampleBottomUp(src, depth uint32) (float64, error) {
	c, st, n := r.c, r.st, r.dg.N
	unvisited := uint64(n) - min(r.reached, uint64(n))
	if unvisited == 0 {
		return 0, nil
	}
	words := r.cnt + cntSample
	if err := c.Memset32(words, 0, 4); err != nil {
		return 0, err
	}
	first, k, w := r.dg.FirstArray()
	seed := uint64(src)*0x9E3779B97F4A7C15 ^ uint64(depth)<<40
	if err := launchBuSample(c, r.g.Mod, sampleBuThreads/block, block, r.dg.InTable, int32(len(r.dg.In)), st.visited.Ptr(),
		r.front.Ptr(), first, k, w, n, seed, words); err != nil {
		return 0, err
	}
	var b [2]uint64
	if err := c.DtoH(unsafe.Pointer(&b[0]), words, 16); err != nil {
		return 0, err
	}
	if b[1] == 0 {
		var edges uint64
		for _, s := range r.dg.In {
			edges += s.Edges
		}
		return float64(unvisited) * float64(edges) / float64(max(n, 1)), nil
	}
	return float64(b[0]) / float64(b[1]) * float64(unvisited), nil
}

// forkStreams makes the window streams and the gather stream wait for the work queued so
// far in the default stream.
func (r *bfsRun) forkStreams() error {
	if err := r.c.Record(r.g.fork, nil); err != nil {
		return err
	}
	for _, s := range r.g.streams {
		if err := r.c.Wait(s, r.g.fork); err != nil {
			return err
		}
	}
	return nil
}

// joinStreams makes the default stream wait for the work queued in the window streams and
// the gather stream.
func (r *bfsRun) joinStreams() error {
	for i, s := range r.g.streams {
		if err := r.c.Record(r.g.join[i], s); err != nil {
			return err
		}
		if err := r.c.Wait(nil, r.g.join[i]); err != nil {
			return err
		}
	}
	return nil
}

// bottomUp sweeps the unvisited vertices shard by shard over the in-lists.
func (r *bfsRun) bottomUp(depth uint32) (awake, examined uint64, err error) {
	c, st := r.c, r.st
	if err := c.Memset32(r.cnt, 0, 8); err != nil {
		return 0, 0, err
	}
	if err := c.Memset32(r.next.Ptr(), 0, r.words); err != nil {
		return 0, 0, err
	}
	ns := len(r.dg.In)
	shardBytes := st.shardBytes.Ptr()
	if err := c.Memset32(shardBytes, 0, int64(4*ns)); err != nil {
		return 0, 0, err
	}
	first, k, w := r.dg.FirstArray()
	r.link = linkStat{}
	for i, s := range r.dg.In {
		adj, pinned, streamable := r.dg.InShard(i)
		stream := false
		if streamable {
			stream = gpu.Choose(r.dg.Mode, r.dg.Link, adj, r.estimate(i))
		}
		sweep := func(adj cuda.DevPtr, i0, i1 uint32, cnt cuda.DevPtr) error {
			if i1 == i0 {
				return nil
			}
			return launchBuSweep(c, r.g.Mod, r.grid(uint64(i1-i0)), block, adj, s.Dir, s.Bits, s.Lo, s.N,
				r.front.Ptr(), st.visited.Ptr(), r.next.Ptr(), st.parent.Ptr(), st.level.Ptr(), depth, r.out.Ptr(),
				r.cnt+cntOut, r.cnt+cntChecked, first, k, w, i0, i1, cnt)
		}
		zc, dev := shardBytes+cuda.DevPtr(16*i), shardBytes+cuda.DevPtr(16*i+8)
		copied, err := r.dg.SweepIn(c, i, stream, zc, dev, sweep)
		if err != nil {
			return 0, 0, err
		}
		r.link.copied += copied
		switch {
		case stream && streamable:
			r.link.streamed++
			r.link.choice = append(r.link.choice, 's')
		case pinned:
			r.link.choice = append(r.link.choice, 'z')
		default:
			r.link.choice = append(r.link.choice, 'r')
		}
	}
	out, checked, err := r.counters()
	if err != nil {
		return 0, 0, err
	}
	per := make([]uint64, 2*max(ns, 1))
	if err := c.DtoH(unsafe.Pointer(&per[0]), shardBytes, int64(16*ns)); err != nil {
		return 0, 0, err
	}
	hist := make([]int64, ns)
	for i := range ns {
		r.link.zero += int64(per[2*i])
		r.lastBytes[i] = int64(per[2*i] + per[2*i+1])
		hist[i] = r.lastBytes[i]
	}
	r.g.hist[r.buLevel] = hist
	r.buLevel++
	return uint64(out), checked, nil
}

// estimate is the list bytes the coming bottom-up sweep will decode from in shard i, for
// gpu.Choose: what the same bottom-up level (by its rank among this search's bottom-up
// levels) decoded in the previous search, else what this search's previous bottom-up level
// decoded (the unvisited vertices only shrink), else 0: with no measurement the shard is
// read zero-copy, the behaviour measured before streaming existed (docs/log-2026-11-22.md
// section 4; most checks end in the device-resident first neighbours).
func (r *bfsRun) estimate(i int) int64 {
	if h, ok := r.g.hist[r.buLevel]; ok && i < len(h) {
		return h[i]
	}
	return max(r.lastBytes[i], 0)
}
