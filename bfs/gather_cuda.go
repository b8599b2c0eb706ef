//go:build cuda

package bfs

import (
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/oocgraph/ooc/gpu"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/internal/cuda"
)

// A large top-down level whose lists lie in pinned shards is split between the device and
// the host. The device reads lists of about 100 bytes at random over gigabytes of pinned
// memory at 0.4-0.55 G sectors of 32 bytes a second (urand26 at 3 GiB: its level of 1.18M
// lists, 110 MiB, took 14.2 ms against 5.0 resident; docs/log-2026-11-25.md, gpurand3);
// the host's cores copy random lists at about 13 GB/s (the same level's lists in 8.3 ms
// on 16 cores: a TLB miss and a few memory lines a list, in a virtual machine), and the
// link moves one contiguous buffer at 50 GB/s. Neither alone is fast enough, so both
// work at once: the level's low windows are read zero-copy by td_expand's window launches
// as any level's, while for the vertices from the split on td_gather_index lists the
// gatherable lists, the host copies them end to end into pinned memory (all cores, chunk
// by chunk), each chunk crosses the link in one copy into the in queue's free tail while
// the next is gathered, and td_gathered expands it from device memory as resident lists;
// td_expand expands the other lists from the split on (resident ones, long ones). The
// split is where the two parts end together: it follows the rates each part achieved in
// the last gathered level of the same size class (gatherRates).

// gatherMin and gatherDeg: a top-down level of at least gatherMin vertices with at least
// gatherDeg out-neighbours on the mean is split so (its lists' bytes, not their count,
// are what the copies save: a level of lists of a few bytes, the tail of a Kronecker
// graph, costs the host about as much a list as the device; urand26's levels 3, of
// 16-42K vertices, took 1.6 ms split from 32K on and 0.95 from 16K on, against 2.2
// zero-copy). Tests lower both.
var (
	gatherMin uint32 = 1 << 14
	gatherDeg int64  = 8
)

// splitGrid is the blocks a multiprocessor of a split level's zero-copy window launches:
// four times an ordinary launch's, so more lists are in flight while the gathered part's
// blocks take their turns (urand26 at 3 GiB: its search's median 20.1-20.3 -> 19.7 ms).
const splitGrid = 32

// gatherChunk is the list bytes of a gathered level copied to the device in one copy:
// the device expands a chunk while the host gathers the next. Tests shrink it.
var gatherChunk int64 = 8 << 20

// gatherMax bounds a gathered level's list bytes (besides what fits the device's in
// queue): a level with more reads its lists where they lie. Tests lower it.
var gatherMax int64 = math.MaxInt64

// gatherShare, when in (0, 1], fixes the share of a level's pinned windows whose lists
// are gathered (tests: 1 gathers every list, small shares leave windows to the device);
// 0 lets the measured rates decide.
var gatherShare float64

// touchAhead is how many lists a gathering worker touches before copying them.
const touchAhead = 16

// smallQueue is bfs.cu's SMALL_QUEUE: td_expand expands a queue this short whole in the
// launch from vertex 0.
const smallQueue = 1024

// gatherAlign aligns the parts of a gathered level's buffers (both sides).
const gatherAlign = 256

// gatherBuf is the pinned host memory of gathered levels: the entries, then the bytes.
type gatherBuf struct {
	host []byte
	pin  *cuda.Pinned
}

// gatherRates are the rates (bytes a second) of a level's two parts measured in the last
// gathered level of a size class: the pinned list bytes the zero-copy windows decoded
// over their time, and the gathered bytes over the time from the level's start to its
// last gathered expansion's end. 0: not measured yet.
type gatherRates struct{ zero, gathered float64 }

// gatherMeasure is what a gathered level leaves to settle once its records are read.
type gatherMeasure struct {
	class        int
	zeroWindows  bool  // some windows were read zero-copy (gtime[1], gtime[2] recorded)
	gatheredPart bool  // some lists were gathered (gtime[3] recorded)
	gathered     int64 // bytes
	rule         string
}

// canGather says whether dg's top-down levels may be gathered: some out shard's lists are
// pinned (the list cache may hold some of them on the device), the shard table's index
// fits td_gather_index's 16 bits, and OOC_GPU_STREAM does not forbid copies.
func canGather(dg *gpu.Graph) bool {
	if dg.Mode == gpu.Never || len(dg.Out) > 1<<16 {
		return false
	}
	for i := range dg.Out {
		if dg.Plan.Shards[i].AdjAt == gpu.Pinned && dg.Plan.Shards[i].Adj > 0 {
			return true
		}
	}
	return false
}

// gatherBytes is the pinned host memory gathered levels take for n vertices: what fits
// the device's in queue, which holds a gathered level's entries and bytes, and at most
// maxGatherBytes (a level that would gather more reads its lists where they lie).
func gatherBytes(n uint32) int64 { return min(4*(int64(n)+1), maxGatherBytes) + 4*gatherAlign }

// maxGatherBytes bounds the pinned host memory of gathered levels (urand26's largest
// level gathers about 130 MiB with its entries).
const maxGatherBytes = 1 << 30

// newGatherBuf allocates and pins the host memory of gathered levels for n vertices; nil
// when the host refuses to pin it (no level is gathered then).
func newGatherBuf(c *cuda.Ctx, n uint32) *gatherBuf {
	b := &gatherBuf{host: make([]byte, gatherBytes(n))}
	var err error
	if b.pin, err = c.Pin(b.host); err != nil {
		return nil
	}
	return b
}

// gatherable says whether the host gathers part of a top-down level of qn vertices whose
// out-degrees sum to scout (bfs.cu's gatherStop on the device); td_gather_index lists at
// most 2^24 lists.
func (g *GPU) gatherable(qn uint64, scout int64) bool {
	return g.gbuf != nil && qn >= uint64(gatherMin) && qn < 1<<24 && scout >= gatherDeg*int64(qn)
}

// gmin is the gatherMin the kernels are told: none when no level is gathered.
func (g *GPU) gmin() uint32 {
	if g.gbuf == nil {
		return math.MaxUint32
	}
	return gatherMin
}

func alignUp(n int64) int64 { return (n + gatherAlign - 1) &^ (gatherAlign - 1) }

// share is the part of a level of qn vertices' pinned list bytes to gather: where both
// parts end together at the rates measured for its size class, 0.6 before a measurement
// (urand26 at 3 GiB: 7.7 GB/s zero-copy, about 13 GB/s gathered).
func (g *GPU) share(qn uint32) float64 {
	if gatherShare > 0 {
		return min(gatherShare, 1)
	}
	if r := g.grates[bits.Len32(qn)]; r != nil && r.zero > 0 && r.gathered > 0 {
		return r.gathered / (r.gathered + r.zero)
	}
	return 0.6
}

// gatherSplit is the first of ranges whose lists are gathered: the one that makes the
// gathered windows' pinned bytes closest to share of all (len(ranges): none).
func (r *bfsRun) gatherSplit(ranges [][2]uint32, share float64) int {
	pinned := make([]int64, len(ranges))
	var all int64
	for i, s := range r.dg.Out {
		if adj, p := r.dg.OutShard(i); p {
			for k, rg := range ranges {
				if s.Lo >= rg[0] && s.Lo < rg[1] {
					pinned[k] += adj
				}
			}
			all += adj
		}
	}
	want := share * float64(all)
	best, bestOff := len(ranges), want
	var acc int64
	for k := len(ranges) - 1; k >= 0; k-- {
		acc += pinned[k]
		if off := math.Abs(float64(acc) - want); off < bestOff {
			best, bestOff = k, off
		}
	}
	return best
}

// gatherLevel runs level lv (the first of its batch) split between zero-copy windows and
// gathered lists, queued on the default stream, the window streams and the gather stream;
// the caller queues td_long and td_scout after it and settles the returned measure once
// the records are read. It returns the bytes it copied to the device (the lists). When the
// gathered lists do not fit the in queue's tail they are read where they lie, by window
// launches.
func (r *bfsRun) gatherLevel(lv tdLaunch, ranges [][2]uint32) (int64, *gatherMeasure, error) {
	c, st, g := r.c, r.st, r.g
	t0 := time.Now()
	qn := int64(lv.qn)
	// the in queue's free tail: entries (16 bytes a list), bytes
	eOff := alignUp(4 * qn)
	room := lv.in.Bytes() - 16 // the decoder's aligned 16-byte loads end at most 15 bytes past a list
	host := g.gbuf.host
	if eOff+16*qn > room || 16*qn > int64(len(host)) {
		return 0, nil, r.expandWindows(lv, ranges, expandAll)
	}
	share := g.share(lv.qn)
	k := r.gatherSplit(ranges, share)
	if qn <= smallQueue {
		k = 0 // td_expand expands a small queue whole in the launch from vertex 0
	}
	split := r.dg.N
	if k < len(ranges) {
		split = ranges[k][0]
	}
	m := &gatherMeasure{class: bits.Len32(lv.qn)}
	base, gs := lv.in.Ptr(), g.streams[2]
	word := r.cnt + cntGather
	if k < len(ranges) {
		if err := c.Memset32(word, 0, 2); err != nil {
			return 0, nil, err
		}
	}
	if err := r.forkStreams(); err != nil {
		return 0, nil, err
	}
	if err := c.Record(g.gtime[0], nil); err != nil {
		return 0, nil, err
	}
	// the index first, in the stream of the greatest priority: its blocks go before the
	// windows' (so do the gathered expansions', which are short)
	if k < len(ranges) {
		err := c.OnStream(gs, func() error {
			return launchTdGatherIndex(c, g.Mod, r.tdGrid(), block, r.dg.OutTable.Ptr, int32(len(r.dg.Out)), base, split,
				base+cuda.DevPtr(eOff), word, st.recs.Ptr(), lv.qn, lv.scout, lv.left0, lv.alpha)
		})
		if err != nil {
			return 0, nil, err
		}
	}
	// the low windows zero-copy, as any level's
	for i, rg := range ranges[:k] {
		l := lv
		l.grid = splitGrid * r.dg.Dev.SMs
		if i == 0 {
			l.first = 1
		}
		if err := r.tdExpand(g.streams[i%2], l, rg[0], rg[1]); err != nil {
			return 0, nil, err
		}
	}
	if k > 0 {
		m.zeroWindows = true
		for i := range 2 {
			if err := c.Record(g.gtime[1+i], g.streams[i]); err != nil {
				return 0, nil, err
			}
		}
	}
	if k == len(ranges) {
		m.rule = fmt.Sprintf("level %2d: no window gathered (share %.2f)", lv.depth, share)
		return 0, m, r.joinStreams()
	}
	// from the split on, the lists that are not gathered, after the windows
	kept := lv
	kept.mode = expandKept
	if k == 0 {
		kept.first = 1
	}
	if err := r.tdExpand(g.streams[k%2], kept, split, r.dg.N); err != nil {
		return 0, nil, err
	}
	if err := c.StreamSync(gs); err != nil {
		return 0, nil, err
	}
	var w uint64
	if err := c.DtoH(unsafe.Pointer(&w), word, 8); err != nil {
		return 0, nil, err
	}
	lists, total := int64(w>>40), int64(w&(1<<40-1))
	if lists > qn {
		return 0, nil, fmt.Errorf("bfs: gathering level %d: %d lists listed for a queue of %d", lv.depth, lists, qn)
	}
	bOff, hB := alignUp(eOff+16*lists), alignUp(16*lists)
	if lists == 0 {
		m.rule = fmt.Sprintf("level %2d: nothing to gather from vertex %d on", lv.depth, split)
		return 0, m, r.joinStreams()
	}
	if bOff+total > room || hB+total > int64(len(host)) || total > min(gatherMax, math.MaxUint32) {
		if err := r.expandWindows(lv, ranges[k:], expandGatherable); err != nil {
			return 0, nil, err
		}
		m.rule = fmt.Sprintf("level %2d: %d lists, %s to gather do not fit the device's queue: read where they lie",
			lv.depth, lists, bytesize.Format(total))
		return 0, m, r.joinStreams()
	}
	if err := c.DtoH(unsafe.Pointer(&host[0]), base+cuda.DevPtr(eOff), 16*lists); err != nil {
		return 0, nil, err
	}
	tIndex := time.Since(t0)
	ents := unsafe.Slice((*[2]uint64)(unsafe.Pointer(&host[0])), lists)
	bytes := host[hB : hB+total]
	// chunks of entries of about gatherChunk bytes, in slices the workers take in order
	// (half the host's cores: the device's zero-copy reads of the low windows share the
	// host's memory, and 8 workers of 16 took urand26's level 4 from 10.8 to 10.2 ms);
	// the last worker to finish a chunk's slices hands it to this thread, which queues its
	// copy and its expansion on the gather stream
	workers := max(1, runtime.GOMAXPROCS(0)/2)
	slice := max(1, (lists+int64(64*workers)-1)/int64(64*workers))
	per := max(1, (gatherChunk*lists/max(total, 1)+slice-1)/slice) // slices a chunk
	nslices := (lists + slice - 1) / slice
	nc := int((nslices + per - 1) / per)
	left := make([]atomic.Int64, nc)
	for i := range nc {
		left[i].Store(min(per, nslices-int64(i)*per))
	}
	adjs := make([][]byte, len(r.dg.Out))
	for i := range adjs {
		adjs[i] = r.dg.OutAdjHost(i)
	}
	sinks := make([]byte, nslices) // keeps the touching loads, a byte a slice
	done := make(chan int, nc)
	var next, bad atomic.Int64
	bad.Store(-1)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= nslices {
					return
				}
				var sink byte
				for e0 := i * slice; e0 < min((i+1)*slice, lists); e0 += touchAhead {
					e1 := min(e0+touchAhead, (i+1)*slice, lists)
					// read a byte of each list first: the loads are independent, so their
					// memory lines (and page walks) are fetched together, where copy's
					// size-dependent branches would let few be in flight
					for e := e0; e < e1; e++ {
						a := ents[e][0]
						start, sh, n := int64(uint32(a)), int(a>>32&0xFFFF), int64(a>>48)
						if sh < len(adjs) && start+n <= int64(len(adjs[sh])) && n > 0 {
							sink ^= adjs[sh][start] ^ adjs[sh][start+n-1]
						}
					}
					for e := e0; e < e1; e++ {
						a, b := ents[e][0], ents[e][1]
						start, sh, n, at := int64(uint32(a)), int(a>>32&0xFFFF), int64(a>>48), int64(uint32(b))
						if sh >= len(adjs) || start+n > int64(len(adjs[sh])) || at+n > total {
							bad.CompareAndSwap(-1, e)
							continue
						}
						copy(bytes[at:at+n], adjs[sh][start:start+n])
					}
				}
				sinks[i] = sink
				if ch := i / per; left[ch].Add(-1) == 0 {
					done <- int(ch)
				}
			}
		}()
	}
	// chunk k's entries [e0, e1) and bytes [b0, b1): the entries' offsets rise with them
	bounds := func(k int) (e0, e1, b0, b1 int64) {
		e0, e1 = int64(k)*per*slice, min(int64(k+1)*per*slice, lists)
		b0, b1 = int64(uint32(ents[e0][1])), total
		if e1 < lists {
			b1 = int64(uint32(ents[e1][1]))
		}
		return
	}
	var qerr error
	for range nc {
		k := <-done
		if qerr != nil {
			continue
		}
		e0, e1, b0, b1 := bounds(k)
		if b0 > b1 || b1 > total {
			qerr = fmt.Errorf("bfs: gathering level %d: chunk %d's bytes [%d, %d) of %d", lv.depth, k, b0, b1, total)
			continue
		}
		if b1 > b0 {
			qerr = c.HtoDAsync(base+cuda.DevPtr(bOff+b0), unsafe.Pointer(&bytes[b0]), b1-b0, gs)
		}
		if qerr == nil {
			qerr = c.OnStream(gs, func() error {
				return launchTdGathered(c, g.Mod, min(r.dg.Grid(uint64(e1-e0), block), r.tdGrid()), block, r.dg.OutTable.Ptr,
					int32(len(r.dg.Out)), base+cuda.DevPtr(eOff), uint32(e0), uint32(e1), base+cuda.DevPtr(bOff),
					st.visited.Ptr(), st.parent.Ptr(), st.level.Ptr(), lv.depth, lv.out.Ptr(), st.recs.Ptr(), lv.j)
			})
		}
	}
	wg.Wait()
	tGather := time.Since(t0)
	if e := bad.Load(); e >= 0 {
		a, b := ents[e][0], ents[e][1]
		qerr = fmt.Errorf("bfs: gathering level %d: entry %d names %d bytes at offset %d of out shard %d (of %d) for offset %d of %d",
			lv.depth, e, a>>48, uint32(a), a>>32&0xFFFF, len(r.dg.Out), uint32(b), total)
	}
	if qerr != nil {
		return 0, nil, qerr
	}
	if err := c.Record(g.gtime[3], gs); err != nil {
		return 0, nil, err
	}
	m.gatheredPart, m.gathered = true, total
	m.rule = fmt.Sprintf("level %2d: windows %d-%d of %d gathered (share %.2f): %d lists, %s in %d chunks by %d workers; listed %.3f ms, copied %.3f ms",
		lv.depth, k, len(ranges)-1, len(ranges), share, lists, bytesize.Format(total), nc, workers,
		1e3*tIndex.Seconds(), 1e3*tGather.Seconds())
	return total, m, r.joinStreams()
}

// settle records a gathered level's rates for its size class, once its records are read
// (the device is done with it): zero the pinned bytes its windows decoded zero-copy.
func (r *bfsRun) settle(m *gatherMeasure, zero uint64) error {
	g := r.g
	rates := g.grates[m.class]
	if rates == nil {
		rates = &gatherRates{}
		g.grates[m.class] = rates
	}
	var tz, tg float64
	if m.zeroWindows {
		for i := range 2 {
			t, err := r.c.Elapsed(g.gtime[0], g.gtime[1+i])
			if err != nil {
				return err
			}
			tz = max(tz, t)
		}
		if tz > 0 && zero > 0 {
			rates.zero = float64(zero) / tz
		}
	}
	if m.gatheredPart {
		var err error
		if tg, err = r.c.Elapsed(g.gtime[0], g.gtime[3]); err != nil {
			return err
		}
		if tg > 0 {
			rates.gathered = float64(m.gathered) / tg
		}
	}
	r.rules = append(r.rules, fmt.Sprintf("%s; zero-copy part %.3f ms, gathered part %.3f ms", m.rule, 1e3*tz, 1e3*tg))
	return nil
}
