//go:build cuda

package sssp

import (
	"math"
	"unsafe"

	"github.com/oocgraph/ooc/gpu"
	"github.com/oocgraph/ooc/internal/cuda"
	"github.com/oocgraph/ooc/store"
)

// chunk is a vertex range of a streamed out-shard (one with lists or weights in pinned
// host memory) for held rounds (sssp.cu): its pinned lists and weights fit one staging
// buffer (stream), or it is a list, or a run of lists, too large for one, read in place.
type chunk struct {
	shard  int
	a, b   uint32 // vertices [a, b)
	adj    []byte // the lists to copy (pinned host memory; nil when they are on the device)
	adjOff int64  // ADJ offset of adj[0]
	w      []byte // the weights to copy (nil when on the device or unit)
	wOff   int64  // byte offset within the shard's weights of w[0]
	wAt    int64  // where w goes in the staging buffer
	stream bool
	// perEdge is what reading an out-edge of the chunk zero-copy costs in bytes: its share
	// of the pinned list bytes and its pinned weight
	perEdge float64
}

// holdPlan is a run's chunks (sorted by first vertex) and what the hold rule needs.
type holdPlan struct {
	chunks []chunk
	copy   int64 // bytes copied when every streamable chunk is
	pinned int64 // list and weight bytes of the streamed out-shards in pinned host memory
}

// listRoom is the staging bytes of n list bytes: 16 bytes of slack for the widest
// aligned load a list decoder makes past them (gpu.StageBuffer), 8-aligned for the
// weights after them.
func listRoom(n int64) int64 { return (n + 16 + 7) &^ 7 }

// planHold cuts the streamed out-shards into chunks of at most cap bytes (a staging
// buffer: the lists from the first one's offset rounded down to 8 in listRoom, then the
// weights), greedily in vertex order, and marks the streamed shards in skip. It returns
// nil when no shard has pinned lists or weights.
func planHold(r *gpuRun, cap int64, skip []uint32) *holdPlan {
	dg := r.g.Graph
	hp := &holdPlan{}
	for i, s := range dg.G.Out().Shards {
		adjP := dg.Out[i].AdjPinned
		var wHost []byte
		var wShift uint32
		if r.unit == 0 && r.g.w.host[i] != nil {
			wHost, wShift = r.g.w.host[i], r.g.w.shift
		}
		if s.N == 0 || (!adjP && wHost == nil) {
			continue
		}
		skip[i] = 1
		lo := s.Lo
		wAt := func(x uint32) int64 { // the weight byte offset of vertex lo+x's list
			if x == s.N {
				return int64(len(wHost))
			}
			return int64(r.g.w.wOff[lo+x]) << wShift
		}
		need := func(a, b uint32) int64 {
			var n int64
			if adjP {
				n = listRoom(int64(s.ListOffset(b)) - int64(s.ListOffset(a))&^7)
			}
			if wHost != nil {
				n += wAt(b) - wAt(a)
			}
			return n
		}
		var perEdge float64
		if adjP && s.Edges > 0 {
			perEdge = float64(len(s.Adj)) / float64(s.Edges)
			hp.pinned += int64(len(s.Adj))
		}
		if wHost != nil {
			perEdge += float64(int(1) << wShift)
			hp.pinned += int64(len(wHost))
		}
		for a := uint32(0); a < s.N; {
			// the largest b in (a, N] whose chunk fits
			x, y := a, s.N
			for x < y {
				m := x + (y-x+1)/2
				if need(a, m) <= cap {
					x = m
				} else {
					y = m - 1
				}
			}
			if x == a { // list a alone does not fit: read in place, with the lists after it that do not either
				if k := len(hp.chunks) - 1; k >= 0 && hp.chunks[k].shard == i && !hp.chunks[k].stream && hp.chunks[k].b == lo+a {
					hp.chunks[k].b++
				} else {
					hp.chunks = append(hp.chunks, chunk{shard: i, a: lo + a, b: lo + a + 1, perEdge: perEdge})
				}
				a++
				continue
			}
			ch := chunk{shard: i, a: lo + a, b: lo + x, stream: true, perEdge: perEdge}
			if adjP {
				ch.adjOff = int64(s.ListOffset(a)) &^ 7
				ch.adj = s.Adj[ch.adjOff:s.ListOffset(x)]
				ch.wAt = listRoom(int64(len(ch.adj)))
			}
			if wHost != nil {
				ch.wOff = wAt(a)
				ch.w = wHost[ch.wOff:wAt(x)]
			}
			hp.copy += int64(len(ch.adj) + len(ch.w))
			hp.chunks = append(hp.chunks, ch)
			a = x
		}
	}
	if len(hp.chunks) == 0 {
		return nil
	}
	return hp
}

// holdRule is what the host learns for held rounds: the highest zero-copy rate of the
// held rounds that read their chunks in place (measured on the H200 with urand26: the
// rate grows with the round's queue, 5.6 GB/s at 1.3M vertices to 11.3 GB/s at 13.3M,
// so the highest is the nearest for the next, larger round).
type holdRule struct {
	inPlaceBps float64
}

// minMeasured is the least a round must read zero-copy for its rate to count (sssp.cu's
// MEASURE_MIN).
const minMeasured = 16 << 20

// holdFrac is the share of the cost of streaming every chunk from which a round is held:
// a held round streams only the chunks whose copy costs less than reading their queued
// lists in place, and reading in place chunk by chunk keeps the zero-copy reads of a
// launch inside one chunk's window (../shared/GPU.md: random reads spread over more
// than about 512 MB run at a fraction of the link's rate), so holding pays below the
// cost of copying it all.
const holdFrac = 0.25

// learn takes the rate of the held rounds among steps that read their chunks in place.
func (h *holdRule) learn(steps []StepStat) {
	for _, s := range steps {
		if s.Held && s.BytesCopied == 0 && s.BytesZeroCopy >= minMeasured && s.Seconds > 0 {
			h.inPlaceBps = max(h.inPlaceBps, float64(s.BytesZeroCopy)/s.Seconds)
		}
	}
}

// priorBps is the zero-copy rate assumed before any round is measured: the link probe's
// (random 128-byte reads in a window of Link.Window bytes) scaled down by the window's
// share of the pinned bytes, the reads of a round spreading over all of them.
func (r *gpuRun) priorBps() float64 {
	l := r.g.Graph.Link
	return l.ZeroBps * min(1, float64(l.Window)/float64(max(r.hold.pinned, 1)))
}

// holdAt gives the hold rule's thresholds for the control words (sssp.cu's sp_round):
// the smallest near queue held (math.MaxUint32: none), and the estimated zero-copy time
// in ns from which a round is held (0: none). With OOC_GPU_STREAM=always every round is
// held; in auto mode, rounds whose estimated zero-copy time reaches holdFrac of the time
// to copy every streamable chunk at the probe's copy rate: estimated by the device from
// the latest measured zero-copy round (HOLDNS), and before that from the pinned bytes per
// vertex of the streamed shards at priorBps.
func (r *gpuRun) holdAt() (uint32, float32) {
	hp, dg := r.hold, r.g.Graph
	if hp == nil || dg.Mode == gpu.Never {
		return math.MaxUint32, 0
	}
	if dg.Mode == gpu.Always {
		return 0, 0
	}
	l := dg.Link
	if hp.copy == 0 || l.CopyBps <= 0 || l.ZeroBps <= 0 {
		return math.MaxUint32, 0
	}
	sec := holdFrac * float64(hp.copy) / l.CopyBps
	per := float64(hp.pinned) / float64(max(dg.N, 1))
	n := sec * r.priorBps() / per
	return uint32(min(math.Ceil(n), math.MaxUint32)), float32(sec * 1e9)
}

// stream says whether a held round copies chunk ch, of which deg out-edges are queued:
// with OOC_GPU_STREAM=always whenever it can; in auto mode when the copy at the probe's
// rate takes less time than reading the queued edges' lists and weights in place at zbps.
func (r *gpuRun) stream(ch *chunk, deg uint64, zbps float64) bool {
	dg := r.g.Graph
	if !ch.stream {
		return false
	}
	if dg.Mode == gpu.Always {
		return true
	}
	l := dg.Link
	if zbps <= 0 || l.CopyBps <= 0 {
		return false
	}
	return float64(deg)*ch.perEdge/zbps > float64(len(ch.adj)+len(ch.w))/l.CopyBps
}

// inPlaceBps is the rate a held round assumes for reading its chunks in place: the last
// such round's, else the device's latest zero-copy round's (bpns bytes a ns; reading
// a chunk at a time is not slower), else priorBps.
func (r *gpuRun) inPlaceBps(bpns float32) float64 {
	if r.rule.inPlaceBps > 0 {
		return r.rule.inPlaceBps
	}
	if bpns > 0 {
		return float64(bpns) * 1e9
	}
	return r.priorBps()
}

// runHeld runs the held round of nf vertices (sssp.cu): the queue's vertices filed and
// counted per chunk, the others relaxed, then each chunk with queued vertices relaxed
// from a staging buffer or in place, and the steps resumed. It returns the bytes copied.
func (r *gpuRun) runHeld(nf uint32, bpns float32) (int64, error) {
	c, dg, st, m, hp := r.c, r.g.Graph, r.st, r.g.Mod, r.hold
	nch := len(hp.chunks)
	l0, l1, l2 := st.queues[0].Ptr(), st.queues[1].Ptr(), st.queues[2].Ptr()
	if err := c.Memset32(st.chCnt.Ptr(), 0, int64(nch)); err != nil {
		return 0, err
	}
	if err := c.Memset32(st.chDeg.Ptr(), 0, 2*int64(nch)); err != nil {
		return 0, err
	}
	if err := c.Memset32(st.chMax.Ptr(), 0, int64(nch)); err != nil {
		return 0, err
	}
	if err := launchSpHoldMark(c, m, dg.Grid(uint64(nf)+1, gpuBlock), gpuBlock, dg.OutTable.Ptr, int32(len(dg.Out)),
		st.skip.Ptr(), l0, l1, l2, r.ctl, st.hold.Ptr(), st.chLo.Ptr(), uint32(nch), st.chCnt.Ptr(), st.chDeg.Ptr(), st.chMax.Ptr()); err != nil {
		return 0, err
	}
	cnt := make([]uint32, nch)
	deg := make([]uint64, nch)
	if err := c.DtoH(unsafe.Pointer(&cnt[0]), st.chCnt.Ptr(), 4*int64(nch)); err != nil {
		return 0, err
	}
	if err := c.DtoH(unsafe.Pointer(&deg[0]), st.chDeg.Ptr(), 8*int64(nch)); err != nil {
		return 0, err
	}
	most := make([]uint32, nch)
	if err := c.DtoH(unsafe.Pointer(&most[0]), st.chMax.Ptr(), 4*int64(nch)); err != nil {
		return 0, err
	}
	// job 0: the vertices of the other shards; then a job per chunk with queued vertices
	jobs := [][]gpu.Copy{nil}
	var which []int
	zbps := r.inPlaceBps(bpns)
	for k := range hp.chunks {
		if cnt[k] == 0 {
			continue
		}
		ch := &hp.chunks[k]
		var cs []gpu.Copy
		if r.stream(ch, deg[k], zbps) {
			cs = []gpu.Copy{{Host: ch.adj}, {Host: ch.w, Off: ch.wAt}}
		}
		jobs = append(jobs, cs)
		which = append(which, k)
	}
	w := r.g.w
	copied, err := dg.Stream(c, jobs, func(j int, buf cuda.DevPtr) error {
		if j == 0 {
			rgrid := dg.Grid(32*(uint64(nf)+1), gpuBlock)
			if err := launchSpRelax(c, m, rgrid, gpuBlock, dg.OutTable.Ptr, int32(len(dg.Out)), st.wts.Ptr(), st.wOff.Ptr(),
				r.shift, r.unit, st.dist.Ptr(), st.stamp.Ptr(), st.farBits.Ptr(), l0, l1, l2, r.ctl, st.acc.Ptr(), r.delta,
				r.warpMax(), st.hubs.Ptr(), st.hubNb.Ptr(), st.hubCap, st.skip.Ptr()); err != nil {
				return err
			}
			if err := launchSpRelaxHub(c, m, dg.Dev.SMs*8, gpuBlock, dg.OutTable.Ptr, int32(len(dg.Out)), st.wts.Ptr(),
				st.wOff.Ptr(), r.shift, r.unit, st.dist.Ptr(), st.stamp.Ptr(), st.farBits.Ptr(), l0, l1, l2, r.ctl,
				st.acc.Ptr(), r.delta, st.hubs.Ptr(), st.hubNb.Ptr(), st.hubCap, 1); err != nil {
				return err
			}
			return launchSpHubsClear(c, m, 1, 1, r.ctl)
		}
		ch := &hp.chunks[which[j-1]]
		s := dg.Out[ch.shard]
		adj, adjP := s.Adj, s.AdjPinned
		var wb cuda.DevPtr
		var wP uint32
		if r.unit == 0 {
			wb, wP = cuda.DevPtr(w.table[2*ch.shard]), uint32(w.table[2*ch.shard+1])
		}
		if buf != 0 {
			if ch.adj != nil {
				adj, adjP = buf-cuda.DevPtr(ch.adjOff), false
			}
			if ch.w != nil {
				wb, wP = buf+cuda.DevPtr(ch.wAt)-cuda.DevPtr(ch.wOff), 0
			}
		}
		var ap uint32
		if adjP {
			ap = 1
		}
		// sp_relax_chunk: a warp per span words of hold, as many as give each warp the
		// device holds (two blocks an SM) two of them, up to 32
		words := uint64((ch.b-1)/32 - ch.a/32 + 1)
		span := min(max(words/uint64(32*dg.Dev.SMs), 1), 32)
		units := (words + span - 1) / span
		if err := launchSpRelaxChunk(c, m, dg.Grid(32*units, gpuBlock), gpuBlock, dg.OutTable.Ptr, int32(ch.shard),
			ch.a, ch.b, adj, ap, wb, wP, st.wOff.Ptr(), r.shift, r.unit, st.hold.Ptr(), st.dist.Ptr(), st.stamp.Ptr(),
			st.farBits.Ptr(), l0, l1, l2, r.ctl, st.acc.Ptr(), r.delta, uint32(span), st.hubs.Ptr(), st.hubNb.Ptr(),
			st.hubCap); err != nil {
			return err
		}
		if most[which[j-1]] <= hubBlocks*store.BlockSize {
			return nil // no list the kernel queued
		}
		if err := launchSpRelaxChunkHub(c, m, dg.Dev.SMs*8, gpuBlock, dg.OutTable.Ptr, int32(ch.shard), adj, ap, wb, wP,
			st.wOff.Ptr(), r.shift, r.unit, st.dist.Ptr(), st.stamp.Ptr(), st.farBits.Ptr(), l0, l1, l2, r.ctl,
			st.acc.Ptr(), r.delta, st.hubs.Ptr(), st.hubNb.Ptr(), st.hubCap); err != nil {
			return err
		}
		return launchSpHubsClear(c, m, 1, 1, r.ctl)
	})
	if err != nil {
		return copied, err
	}
	if err := c.Memset32(st.hold.Ptr(), 0, int64(dg.N)/32+1); err != nil {
		return copied, err
	}
	return copied, launchSpResume(c, m, 1, 1, r.ctl)
}
