//go:build cuda

package gpu

import (
	"fmt"
	"syscall"
	"time"
	"unsafe"

	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/internal/cuda"
)

// hostShard is what the host keeps of one shard for streaming: its mapped adjacency and,
// when that is pinned and staging buffers exist, its chunks.
type hostShard struct {
	adj    []byte
	pinned bool
	chunks []Chunk
}

// streamable says whether bottom-up sweeps may stream some shard.
func (dg *Graph) streamable() bool {
	for _, h := range dg.inHost {
		if h.chunks != nil {
			return true
		}
	}
	return false
}

// setupStaging allocates the plan's staging buffers as one region when the plan has
// staging and the buffers serve something: streaming (some shard is pinned and
// OOC_GPU_STREAM is not never: then also the copy stream and the buffers' events, and in
// Auto mode the link's behaviour, from the cache or a probe) or the list cache.
func (dg *Graph) setupStaging(c *cuda.Ctx) error {
	p := dg.Plan
	stream := dg.streamable() && dg.Mode != Never
	if p.Stage == 0 || !stream && len(p.Cache) == 0 {
		return nil
	}
	k := max(p.Stages, 2)
	var err error
	if dg.region, err = c.Alloc("staging", int64(k)*StageBuffer(p.Stage)); err != nil {
		return err
	}
	if !stream {
		return nil
	}
	dg.stage = make([]*cuda.Buffer, k)
	dg.copied = make([]*cuda.Event, k)
	dg.kdone = make([]*cuda.Event, k)
	for b := range k {
		dg.stage[b] = &cuda.Buffer{Ptr: dg.region.Ptr + cuda.DevPtr(int64(b)*StageBuffer(p.Stage)), Bytes: StageBuffer(p.Stage), Name: fmt.Sprintf("stage-%d", b)}
		if dg.copied[b], err = c.NewEvent(false); err != nil {
			return err
		}
		if dg.kdone[b], err = c.NewEvent(false); err != nil {
			return err
		}
	}
	if dg.copyS, err = c.NewStream(); err != nil {
		return err
	}
	if dg.Mode != Auto {
		return nil
	}
	if l, ok := LoadLink(dg.Dev.Name, probeChunk(dg.Plan.Stage)); ok {
		dg.Link = l
		if dg.Log != nil {
			fmt.Fprintf(dg.Log, "stream: cached %s\n", l)
		}
		return nil
	}
	if dg.Link, err = dg.probe(c); err != nil {
		// not fatal: without a valid Link, Choose reads every shard zero-copy as before
		if dg.Log != nil {
			fmt.Fprintf(dg.Log, "stream: link probe failed, bottom-up reads stay zero-copy: %v\n", err)
		}
		dg.Link = Link{}
		return c.Sync()
	}
	if dg.Log != nil {
		fmt.Fprintf(dg.Log, "stream: probed %s\n", dg.Link)
	}
	if err := SaveLink(dg.Link); err != nil && dg.Log != nil {
		fmt.Fprintf(dg.Log, "stream: not caching the link probe: %v\n", err)
	}
	return nil
}

// closeStaging waits for outstanding copies and releases the stream and events, also after
// a setupStaging that failed half way (the buffers go with FreeAll).
func (dg *Graph) closeStaging(c *cuda.Ctx) error {
	var first error
	if dg.copyS != nil {
		first = c.Sync()
	}
	keep := func(err error) {
		if err != nil && first == nil {
			first = err
		}
	}
	keep(c.DestroyStream(dg.copyS))
	dg.copyS = nil
	for b := range dg.copied {
		keep(c.DestroyEvent(dg.copied[b]))
		keep(c.DestroyEvent(dg.kdone[b]))
	}
	dg.copied, dg.kdone, dg.stage, dg.ahead = nil, nil, nil, nil
	dg.region, dg.cached = nil, false
	return first
}

// probeChunk is the size of the probe's copies for staging buffers of stage bytes.
func probeChunk(stage int64) int64 { return min(StageBuffer(stage)-8, 8<<20) }

// probeWindow is the pinned host window of the probe: large enough that the zero-copy reads
// see a shard's address-translation behaviour, small enough to touch and register in a few
// milliseconds.
const probeWindow = 64 << 20

// probe measures the link (estimated 20-40 ms, not yet measured: most of it touching and
// registering the window): (a) cuMemcpyHtoDAsync from the registered window into a staging
// buffer, up to 32 MiB in all, on the copy stream; (b) link_probe's scattered 128-byte zero-copy
// reads, 16 MiB in all, over the window. Both are timed with events.
func (dg *Graph) probe(c *cuda.Ctx) (Link, error) {
	t0 := time.Now()
	l := Link{Device: dg.Dev.Name, Window: probeWindow}
	win, err := syscall.Mmap(-1, 0, probeWindow, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return l, fmt.Errorf("stream: link probe: mapping %s: %w", bytesize.Format(probeWindow), err)
	}
	defer syscall.Munmap(win)
	for i := 0; i < len(win); i += 4096 {
		win[i] = byte(i >> 12)
	}
	pin, err := c.Register(win)
	if err != nil {
		return l, fmt.Errorf("stream: link probe: %w", err)
	}
	defer c.Unregister(pin)
	var ev [4]*cuda.Event
	for i := range ev {
		if ev[i], err = c.NewEvent(true); err != nil {
			return l, err
		}
		defer c.DestroyEvent(ev[i])
	}
	defer c.Sync() // runs first: no copy or read of the window outlives it, even on error
	// (a) copy bandwidth
	// in chunks of the staging size (at most 8 MiB), at most 256 of them: with small
	// staging buffers the per-copy overhead is part of what streaming would cost
	chunk := probeChunk(dg.Plan.Stage)
	l.Chunk = chunk
	total := min(32<<20, 256*chunk)
	var copied int64
	if err := c.Record(ev[0], dg.copyS); err != nil {
		return l, err
	}
	for off := int64(0); copied < total; off = (off + chunk) % (probeWindow - chunk) {
		if err := c.HtoDAsync(dg.stage[0].Ptr, unsafe.Pointer(&win[off]), chunk, dg.copyS); err != nil {
			return l, err
		}
		copied += chunk
	}
	if err := c.Record(ev[1], dg.copyS); err != nil {
		return l, err
	}
	if err := c.EventSync(ev[1]); err != nil {
		return l, err
	}
	sec, err := c.Elapsed(ev[0], ev[1])
	if err != nil {
		return l, err
	}
	l.CopyBps = float64(copied) / max(sec, 1e-9)
	// (b) scattered zero-copy reads; the sink is the staging buffer's first word
	const reads = 1 << 17 // of 128 bytes: 16 MiB
	if err := c.Record(ev[2], nil); err != nil {
		return l, err
	}
	if err := launchLinkProbe(c, dg.mod, dg.Dev.SMs*8, 256, pin.Dev, uint64(probeWindow/128), reads, dg.stage[1].Ptr); err != nil {
		return l, err
	}
	if err := c.Record(ev[3], nil); err != nil {
		return l, err
	}
	if err := c.EventSync(ev[3]); err != nil {
		return l, err
	}
	if sec, err = c.Elapsed(ev[2], ev[3]); err != nil {
		return l, err
	}
	l.ZeroBps = float64(reads*128) / max(sec, 1e-9)
	l.ProbeSec = time.Since(t0).Seconds()
	return l, nil
}

// InShard says how in shard i lies for a bottom-up sweep: its ADJ bytes, whether they are
// pinned host memory, and whether the sweep may stream them through the staging buffers.
func (dg *Graph) InShard(i int) (adj int64, pinned, streamable bool) {
	h := dg.inHost[i]
	return int64(len(h.adj)), h.pinned, h.chunks != nil
}

// OutShard says how out shard i lies for a top-down expansion: its ADJ bytes and whether
// they are pinned host memory.
func (dg *Graph) OutShard(i int) (adj int64, pinned bool) {
	h := dg.outHost[i]
	return int64(len(h.adj)), h.pinned
}

// OutAdjHost is out shard i's ADJ section in host memory (its mapping), wherever the plan
// or the list cache puts it on the device: for a step that copies lists itself (bfs's
// gathered levels).
func (dg *Graph) OutAdjHost(i int) []byte { return dg.outHost[i].adj }

// SweepIn runs a sweep over in shard i as launch calls for vertex ranges [i0, i1) of the
// shard, each reading the shard's ADJ at adj. When stream is set and the shard has chunks,
// its pinned chunks are copied through the staging ring on the copy stream, up to one
// chunk per buffer ahead of the launches (adj then points into a staging buffer), and the
// rest is read where it lies. cnt is zc for a launch that reads pinned memory zero-copy
// and dev for one that reads device memory. It returns the bytes copied.
func (dg *Graph) SweepIn(c *cuda.Ctx, i int, stream bool, zc, dev cuda.DevPtr, launch func(adj cuda.DevPtr, i0, i1 uint32, cnt cuda.DevPtr) error) (int64, error) {
	return dg.Sweep(c, []int{i}, []bool{stream}, false, zc, dev, func(_ int, adj cuda.DevPtr, i0, i1 uint32, cnt cuda.DevPtr) error {
		return launch(adj, i0, i1, cnt)
	})
}

// pending is a copy issued into staging buffer buf: chunk ch of in shard shard.
type pending struct {
	shard int
	ch    Chunk
	buf   int
}

// Sweep runs a sweep over the in shards listed, as launch calls for vertex ranges
// [i0, i1) of shard i reading its ADJ at adj (cnt as in SweepIn). The shards with stream
// set have their pinned chunks copied through the staging ring; the others are read
// where they lie, and their launches come first, so that the first copies overlap them.
// The copy stream runs up to one chunk per staging buffer ahead of the launches, waiting
// only for the launches that last read the buffer it fills. With prefetch set, the copies
// of the sweep's first chunks are issued again at its end, for a next sweep over the same
// shards (an iteration of PageRank), which then finds them done or under way. It returns
// the bytes copied for this sweep's launches.
func (dg *Graph) Sweep(c *cuda.Ctx, shards []int, stream []bool, prefetch bool, zc, dev cuda.DevPtr, launch func(i int, adj cuda.DevPtr, i0, i1 uint32, cnt cuda.DevPtr) error) (int64, error) {
	for k, i := range shards {
		if stream[k] && dg.inHost[i].chunks != nil && dg.stage != nil {
			// the staging buffers are needed: the cached shards are read where they lie
			if err := dg.ReleaseCache(c); err != nil {
				return 0, err
			}
			break
		}
	}
	var copies []pending // in launch order
	for k, i := range shards {
		s, h := dg.In[i], dg.inHost[i]
		if !stream[k] || h.chunks == nil || dg.stage == nil {
			cnt := dev
			if h.pinned {
				cnt = zc
			}
			if err := launch(i, s.Adj, 0, s.N, cnt); err != nil {
				return 0, err
			}
			continue
		}
		for _, ch := range h.chunks {
			if ch.Stream && ch.Bytes() > 0 {
				copies = append(copies, pending{shard: i, ch: ch})
				continue
			}
			if err := launch(i, s.Adj, ch.A, ch.B, zc); err != nil {
				return 0, err
			}
		}
	}
	// the copies issued ahead serve this sweep when they are its first chunks, in order;
	// otherwise none does (the copies issued next reuse their buffers, which no launch
	// reads before them)
	ahead := dg.ahead
	dg.ahead = nil
	next := 0 // the next copy to issue
	for ; next < len(copies) && next < len(ahead) && ahead[next].shard == copies[next].shard && ahead[next].ch == copies[next].ch; next++ {
		copies[next].buf = ahead[next].buf
	}
	if next < len(ahead) && next < len(copies) {
		next = 0
	}
	for ; next < len(copies) && next < len(dg.stage); next++ {
		if err := dg.issue(c, &copies[next]); err != nil {
			return 0, err
		}
	}
	var copied int64
	for j := range copies {
		p := copies[j]
		if err := c.Wait(nil, dg.copied[p.buf]); err != nil {
			return copied, err
		}
		if err := launch(p.shard, dg.stage[p.buf].Ptr-cuda.DevPtr(p.ch.Start), p.ch.A, p.ch.B, dev); err != nil {
			return copied, err
		}
		if err := c.Record(dg.kdone[p.buf], nil); err != nil {
			return copied, err
		}
		copied += p.ch.Bytes()
		if next < len(copies) {
			if err := dg.issue(c, &copies[next]); err != nil {
				return copied, err
			}
			next++
		}
	}
	if prefetch {
		for k := 0; k < len(copies) && k < len(dg.stage); k++ {
			p := copies[k]
			if err := dg.issue(c, &p); err != nil {
				return copied, err
			}
			dg.ahead = append(dg.ahead, p)
		}
	}
	return copied, nil
}

// issue queues the copy of p's chunk into the next staging buffer of the ring, after the
// launches that last read that buffer, and sets p.buf.
func (dg *Graph) issue(c *cuda.Ctx, p *pending) error {
	h := dg.inHost[p.shard]
	var err error
	p.buf, err = dg.fill(c, []Copy{{Host: h.adj[p.ch.Start:p.ch.End]}})
	return err
}

// fill queues the copies into the next staging buffer of the ring, after the launches
// that last read that buffer, and returns the buffer.
func (dg *Graph) fill(c *cuda.Ctx, copies []Copy) (int, error) {
	b := dg.issued % len(dg.stage)
	dg.issued++
	if err := c.Wait(dg.copyS, dg.kdone[b]); err != nil {
		return b, err
	}
	for _, cp := range copies {
		if len(cp.Host) == 0 {
			continue
		}
		if err := c.HtoDAsync(dg.stage[b].Ptr+cuda.DevPtr(cp.Off), unsafe.Pointer(&cp.Host[0]), int64(len(cp.Host)), dg.copyS); err != nil {
			return b, err
		}
	}
	return b, c.Record(dg.copied[b], dg.copyS)
}

// Copy is host bytes that a streamed launch needs at byte Off of its staging buffer.
type Copy struct {
	Host []byte // pinned host memory (a registered shard or mapping)
	Off  int64
}

// StageBytes is the size of each staging buffer, or 0 when dg has none (no pinned
// adjacency, no staging in the plan, or OOC_GPU_STREAM=never).
func (dg *Graph) StageBytes() int64 {
	if dg.stage == nil {
		return 0
	}
	return StageBuffer(dg.Plan.Stage)
}

// Stream runs launch(k, buf) for every job k, for an algorithm whose launches read
// host bytes of its own choosing through the staging ring (Sweep streams in shards' ADJ
// chunks). The jobs without copies launch first, in order, with buf 0, so that the first
// copies overlap them; each other job's copies go into a staging buffer on the copy
// stream, up to one job per buffer ahead of the launches, and its launch, given that
// buffer, waits for them. Every copy must lie inside a buffer (StageBytes). It returns the
// bytes copied.
func (dg *Graph) Stream(c *cuda.Ctx, jobs [][]Copy, launch func(k int, buf cuda.DevPtr) error) (int64, error) {
	for _, cs := range jobs {
		if len(cs) > 0 {
			if err := dg.ReleaseCache(c); err != nil {
				return 0, err
			}
			break
		}
	}
	dg.ahead = nil // the buffers a Sweep's prefetch filled are taken
	var copied []int
	for k, cs := range jobs {
		if len(cs) == 0 {
			if err := launch(k, 0); err != nil {
				return 0, err
			}
			continue
		}
		if dg.stage == nil {
			return 0, fmt.Errorf("stream: no staging buffers for a streamed launch")
		}
		for _, cp := range cs {
			if cp.Off < 0 || cp.Off+int64(len(cp.Host)) > dg.StageBytes() {
				return 0, fmt.Errorf("stream: a copy of %d bytes at %d does not fit a staging buffer of %d", len(cp.Host), cp.Off, dg.StageBytes())
			}
		}
		copied = append(copied, k)
	}
	bufs := make([]int, len(copied))
	next := 0
	for ; next < len(copied) && next < len(dg.stage); next++ {
		var err error
		if bufs[next], err = dg.fill(c, jobs[copied[next]]); err != nil {
			return 0, err
		}
	}
	var bytes int64
	for j, k := range copied {
		b := bufs[j]
		if err := c.Wait(nil, dg.copied[b]); err != nil {
			return bytes, err
		}
		if err := launch(k, dg.stage[b].Ptr); err != nil {
			return bytes, err
		}
		if err := c.Record(dg.kdone[b], nil); err != nil {
			return bytes, err
		}
		for _, cp := range jobs[k] {
			bytes += int64(len(cp.Host))
		}
		if next < len(copied) {
			var err error
			if bufs[next], err = dg.fill(c, jobs[copied[next]]); err != nil {
				return bytes, err
			}
			next++
		}
	}
	return bytes, nil
}
