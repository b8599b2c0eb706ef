//go:build cuda

package gpu

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/oocgraph/ooc/bfs"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/internal/cuda"
)

const block = 256

// counters layout (kernels read and write these words of the "counters" buffer)
const (
	cntOut     = 0  // u32: vertices emitted into the out queue
	cntHuge    = 4  // u32: huge lists queued by td_expand
	cntDegrees = 8  // u64: degree sum of a queue
	cntChecked = 16 // u64: edges examined bottom-up
	cntLink    = 24 // u64: list bytes top-down decoded from pinned shards
)

type bfsRun struct {
	dg       *Graph
	c        *cuda.Ctx
	st       map[string]*cuda.Buffer
	cnt      cuda.DevPtr
	in, out  *cuda.Buffer
	front    *cuda.Buffer
	next     *cuda.Buffer
	words    int64
	levels   []bfs.LevelStat
	transfer int64

	shardBytes cuda.DevPtr // per in shard: u64 list bytes decoded from pinned, from device memory
	lastBytes  []int64     // per in shard: bytes the previous bottom-up level decoded (-1: none yet)
	link       linkStat    // of the level being run
	choices    []string    // per level, for -v: per in shard r (resident), s (streamed), z (zero-copy)
	linkTD     int64       // the cntLink word at the last counters()
	buLevel    int         // bottom-up levels run so far in this search
}

// linkStat is one level's traffic over the link.
type linkStat struct {
	copied, zero int64
	streamed     int
	choice       []byte
}

// BFS runs a direction-optimizing BFS from src with the CPU engine's switching rule
// (bfs/bfs.go, after GAPBS): bottom-up when the edges out of the frontier exceed the
// unchecked edges over alpha, top-down again once the frontier shrinks and is at most
// n/beta.
func (dg *Graph) BFS(src uint32, alpha, beta int) (*bfs.Result, error) {
	n := dg.N
	res := &bfs.Result{Source: src, Parent: make([]uint32, n), Level: make([]uint32, n)}
	var choices []string
	err := dg.Dev.Do(func(c *cuda.Ctx) error {
		r := &bfsRun{dg: dg, c: c, st: dg.State, cnt: dg.State["counters"].Ptr,
			in: dg.State["queue-a"], out: dg.State["queue-b"],
			front: dg.State["frontier"], next: dg.State["next"], words: (int64(n) + 32) / 32,
			shardBytes: dg.State["shard-bytes"].Ptr, lastBytes: make([]int64, len(dg.In))}
		for i := range r.lastBytes {
			r.lastBytes[i] = -1
		}
		t0 := time.Now()
		if err := r.run(src, alpha, beta); err != nil {
			return err
		}
		res.Seconds = time.Since(t0).Seconds()
		res.Levels = r.levels
		choices = r.choices
		for _, l := range r.levels {
			res.BytesCopied += l.BytesCopied
			res.BytesZeroCopy += l.BytesZeroCopy
			if l.BytesCopied+l.BytesZeroCopy > 0 {
				res.LinkSeconds += l.Seconds
			}
		}
		if err := c.DtoH(unsafe.Pointer(&res.Parent[0]), dg.State["parent"].Ptr, 4*int64(n)); err != nil {
			return err
		}
		return c.DtoH(unsafe.Pointer(&res.Level[0]), dg.State["level"].Ptr, 4*int64(n))
	})
	if err != nil {
		return nil, err
	}
	bfs.Summarize(dg.G, res)
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
		if res.LinkSeconds > 0 {
			fmt.Fprintf(dg.Log, "  link total: %s copied, %s zero-copy in %.3f ms: %.1f GB/s\n",
				bytesize.Format(res.BytesCopied), bytesize.Format(res.BytesZeroCopy), 1e3*res.LinkSeconds,
				float64(res.BytesCopied+res.BytesZeroCopy)/res.LinkSeconds/1e9)
		}
	}
	return res, nil
}

func (r *bfsRun) counters() (out, huge uint32, degrees, checked uint64, err error) {
	var b [4]uint64
	if err = r.c.DtoH(unsafe.Pointer(&b[0]), r.cnt, 32); err != nil {
		return
	}
	r.linkTD = int64(b[3])
	return uint32(b[0]), uint32(b[0] >> 32), b[1], b[2], nil
}

func (r *bfsRun) launch(name string, work uint64, args ...uint64) error {
	if work == 0 {
		return nil
	}
	return r.c.Launch(r.dg.BFSMod, name, r.dg.Grid(work, block), block, args...)
}

func cat(a []uint64, b ...uint64) []uint64 { return append(append([]uint64{}, a...), b...) }

func (r *bfsRun) run(src uint32, alpha, beta int) error {
	c, st, n := r.c, r.st, r.dg.N
	if err := c.Memset32(st["parent"].Ptr, ^uint32(0), int64(n)); err != nil {
		return err
	}
	if err := c.Memset32(st["level"].Ptr, ^uint32(0), int64(n)); err != nil {
		return err
	}
	if err := c.Memset32(st["visited"].Ptr, 0, r.words); err != nil {
		return err
	}
	if err := c.Launch(r.dg.BFSMod, "bfs_init", 1, 1, uint64(st["parent"].Ptr), uint64(st["level"].Ptr),
		uint64(st["visited"].Ptr), uint64(r.in.Ptr), uint64(src)); err != nil {
		return err
	}
	var edgesToCheck int64
	for _, s := range r.dg.Out {
		edgesToCheck += int64(s.Edges)
	}
	scout, err := r.queueDegrees(1)
	if err != nil {
		return err
	}
	qn := uint64(1)
	depth := uint32(0)
	for qn > 0 {
		if scout > edgesToCheck/int64(alpha) {
			if err := c.Memset32(r.front.Ptr, 0, r.words); err != nil {
				return err
			}
			if err := r.launch("queue_bits", qn, uint64(r.in.Ptr), qn, uint64(r.front.Ptr)); err != nil {
				return err
			}
			awake := qn
			for {
				old := awake
				t := time.Now()
				var examined uint64
				if awake, examined, err = r.bottomUp(depth); err != nil {
					return err
				}
				r.stat(depth, old, bfs.BottomUp, examined, t)
				depth++
				r.front, r.next = r.next, r.front
				r.in, r.out = r.out, r.in
				if awake < old && awake <= uint64(n)/uint64(beta) {
					break
				}
			}
			qn = awake // the bottom-up sweeps emitted the last level into the queue too
			scout = 1
			continue
		}
		edgesToCheck -= scout
		t := time.Now()
		next, examined, err := r.topDown(qn, depth)
		if err != nil {
			return err
		}
		r.stat(depth, qn, bfs.TopDown, examined, t)
		r.in, r.out = r.out, r.in
		qn = next
		if scout, err = r.queueDegrees(qn); err != nil {
			return err
		}
		depth++
	}
	return nil
}

func (r *bfsRun) stat(depth uint32, frontier uint64, dir string, examined uint64, t time.Time) {
	r.levels = append(r.levels, bfs.LevelStat{Level: int(depth), Frontier: frontier, Direction: dir,
		EdgesExamined: examined, Seconds: time.Since(t).Seconds(),
		BytesCopied: r.link.copied, BytesZeroCopy: r.link.zero, Streamed: r.link.streamed})
	r.choices = append(r.choices, string(r.link.choice))
	r.link = linkStat{}
}

// queueDegrees sums the out-degrees of the qn vertices in the in queue.
func (r *bfsRun) queueDegrees(qn uint64) (int64, error) {
	if err := r.c.Memset32(r.cnt, 0, 8); err != nil {
		return 0, err
	}
	if err := r.launch("queue_degrees", qn, uint64(r.dg.OutTable.Ptr), uint64(len(r.dg.Out)), uint64(r.in.Ptr), qn,
		uint64(r.cnt+cntDegrees)); err != nil {
		return 0, err
	}
	_, _, deg, _, err := r.counters()
	return int64(deg), err
}

// hugeBlocks is td_expand's threshold: lists of more blocks are expanded by CTAs. The
// huge list is sized for HugeBlocks, the smallest allowed; OOC_GPU_HUGE_BLOCKS overrides
// it for experiments.
var hugeBlocks = func() uint32 {
	if v, err := strconv.Atoi(os.Getenv("OOC_GPU_HUGE_BLOCKS")); err == nil && v >= HugeBlocks {
		return uint32(v)
	}
	return 8
}()

// topDown expands the in queue into the out queue: td_expand, then td_huge for the lists
// it queued, then one read of the counters. It returns the out queue's length and the
// edges examined (the in queue's degree sum).
func (r *bfsRun) topDown(qn uint64, depth uint32) (uint64, uint64, error) {
	c, st := r.c, r.st
	if err := c.Memset32(r.cnt, 0, 8); err != nil {
		return 0, 0, err
	}
	table := []uint64{uint64(r.dg.OutTable.Ptr), uint64(len(r.dg.Out))}
	common := []uint64{uint64(st["visited"].Ptr), uint64(st["parent"].Ptr), uint64(st["level"].Ptr), uint64(depth),
		uint64(r.out.Ptr), uint64(r.cnt + cntOut)}
	// one launch when the adjacency is resident; one per shard (in vertex order) when
	// some of it is pinned, so each launch reads within one shard's window
	ranges := [][2]uint32{{0, r.dg.N}}
	if r.dg.Plan.Pinned > 0 {
		ranges = ranges[:0]
		for _, s := range r.dg.Out {
			ranges = append(ranges, [2]uint32{s.Lo, s.Lo + s.N})
		}
	}
	for _, rg := range ranges {
		args := cat(table, uint64(rg[0]), uint64(rg[1]), uint64(r.in.Ptr), qn)
		args = cat(args, common...)
		args = cat(args, uint64(st["huge"].Ptr), uint64(r.cnt+cntHuge), uint64(hugeBlocks), uint64(r.cnt+cntChecked),
			uint64(r.cnt+cntLink))
		if err := r.launch("td_expand", qn, args...); err != nil {
			return 0, 0, err
		}
	}
	args := cat(table, uint64(st["huge"].Ptr), uint64(r.cnt+cntHuge))
	args = cat(args, common...)
	args = append(args, uint64(r.cnt+cntLink))
	if err := c.Launch(r.dg.BFSMod, "td_huge", r.dg.Dev.SMs*8, block, args...); err != nil {
		return 0, 0, err
	}
	out, _, _, examined, err := r.counters()
	r.link = linkStat{zero: r.linkTD}
	return uint64(out), examined, err
}

// bottomUp sweeps the unvisited vertices shard by shard over the in-lists.
func (r *bfsRun) bottomUp(depth uint32) (awake, examined uint64, err error) {
	c, st := r.c, r.st
	if err := c.Memset32(r.cnt, 0, 8); err != nil {
		return 0, 0, err
	}
	if err := c.Memset32(r.next.Ptr, 0, r.words); err != nil {
		return 0, 0, err
	}
	ns := len(r.dg.In)
	if err := c.Memset32(r.shardBytes, 0, int64(4*ns)); err != nil {
		return 0, 0, err
	}
	r.link = linkStat{}
	for i, s := range r.dg.In {
		h := r.dg.inHost[i]
		stream := false
		if h.chunks != nil {
			stream = Choose(r.dg.Mode, r.dg.Link, int64(len(h.adj)), r.estimate(i))
		}
		args := func(adj cuda.DevPtr, i0, i1 uint32, cnt cuda.DevPtr) []uint64 {
			a := []uint64{uint64(adj), uint64(s.Off), uint64(s.Deg), uint64(s.Lo), uint64(s.N),
				uint64(r.front.Ptr), uint64(st["visited"].Ptr), uint64(r.next.Ptr),
				uint64(st["parent"].Ptr), uint64(st["level"].Ptr), uint64(depth), uint64(r.out.Ptr),
				uint64(r.cnt + cntOut), uint64(r.cnt + cntChecked)}
			a = append(a, r.dg.FirstArgs()...)
			return append(a, uint64(i0), uint64(i1), uint64(cnt))
		}
		copied, err := r.sweepShard(i, stream, args)
		if err != nil {
			return 0, 0, err
		}
		r.link.copied += copied
		switch {
		case stream && h.chunks != nil:
			r.link.streamed++
			r.link.choice = append(r.link.choice, 's')
		case h.pinned:
			r.link.choice = append(r.link.choice, 'z')
		default:
			r.link.choice = append(r.link.choice, 'r')
		}
	}
	out, _, _, checked, err := r.counters()
	if err != nil {
		return 0, 0, err
	}
	per := make([]uint64, 2*max(ns, 1))
	if err := c.DtoH(unsafe.Pointer(&per[0]), r.shardBytes, int64(16*ns)); err != nil {
		return 0, 0, err
	}
	hist := make([]int64, ns)
	for i := range ns {
		r.link.zero += int64(per[2*i])
		r.lastBytes[i] = int64(per[2*i] + per[2*i+1])
		hist[i] = r.lastBytes[i]
	}
	if r.dg.buHist == nil {
		r.dg.buHist = map[int][]int64{}
	}
	r.dg.buHist[r.buLevel] = hist
	r.buLevel++
	return uint64(out), checked, nil
}

// estimate is the list bytes the coming bottom-up sweep will decode from in shard i, for
// Choose: what the same bottom-up level (by its rank among this search's bottom-up levels)
// decoded in the previous search, else what this search's previous bottom-up level decoded
// (the unvisited vertices only shrink), else 0: with no measurement the shard is read
// zero-copy, the behaviour measured before streaming existed (docs/gpu-notes.md section 4;
// most checks end in the device-resident first neighbours).
func (r *bfsRun) estimate(i int) int64 {
	if h, ok := r.dg.buHist[r.buLevel]; ok && i < len(h) {
		return h[i]
	}
	return max(r.lastBytes[i], 0)
}

// String says where the graph is, for -v.
func (dg *Graph) String() string {
	return fmt.Sprintf("%s (compute %d.%d, %d SMs, %s)\n%s", dg.Dev.Name, dg.Dev.CC[0], dg.Dev.CC[1], dg.Dev.SMs,
		bytesize.Format(dg.Dev.Total), dg.Plan)
}
