//go:build cuda

package sssp

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"
	"time"
	"unsafe"

	"github.com/oocgraph/ooc/gpu"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/internal/cuda"
	"github.com/oocgraph/ooc/internal/progress"
	"github.com/oocgraph/ooc/store"
)

const gpuBlock = 256

// flatOnly makes sp_relax take its thread-a-vertex path for every queue
// (OOC_TEST_SSSP_FLAT, honoured by test binaries only): tests on small graphs reach it too.
var flatOnly = testing.Testing() && os.Getenv("OOC_TEST_SSSP_FLAT") != ""

// Steps queued between two reads of the control words: the first batch, and the most
// (each step writes at most one record, so a batch writes fewer than the ring holds, and
// the host drains the ring at every read).
const (
	firstBatch = 8
	maxBatch   = 256
)

// GPU computes shortest paths on a graph placed on the device by package gpu (sssp.cu):
// delta-stepping with a near queue and a far pile, rounds of atomicMin on the distances,
// which end with the same (exact) distances as Run, and the same parents (see Parents).
// Like Run, a round relaxes every out-edge of its vertices (no light/heavy split); lists
// of more than 64 blocks are shared by many warps; a round that reads host memory runs
// on fewer warps than one that reads only device memory (sssp.cu). The device drives the
// bins and rounds; the host queues batches of steps and reads the
// control words after each. The weights are placed as devWeights says. Lists and weights
// in pinned host memory are read zero-copy, but for rounds the device holds for the host
// because their queue is large (holdAt): those go chunk by chunk over the out-shards
// whose lists or weights are pinned, each chunk with queued vertices either copied
// through the runtime's staging buffers (gpu.Graph.Stream) or read in place, whichever
// the chunk's queued edges and the measured link rates say costs less (runHeld).
type GPU struct {
	gpu.Kernels
	w *devWeights // nil until the first weighted run
}

// NewGPU loads sssp.cu's kernels for runs on dg.
func NewGPU(dg *gpu.Graph) (*GPU, error) {
	k, err := dg.LoadKernels("sssp", Fatbin)
	if err != nil {
		return nil, err
	}
	return &GPU{Kernels: k}, nil
}

// Close releases the weights and unloads the kernels.
func (g *GPU) Close() error {
	var err error
	if g.w != nil {
		err = g.Graph.Dev.Do(g.w.free)
		g.w = nil
	}
	if kerr := g.Kernels.Close(); err == nil {
		err = kerr
	}
	return err
}

// gpuRun is one run's device state and the host's view of it.
type gpuRun struct {
	g     *GPU
	c     *cuda.Ctx
	st    devState
	ctl   cuda.DevPtr
	delta uint32 // the bin width; with fl, a float32's bits
	unit  uint32
	fl    uint32 // 1: float32 weights and distances (sssp.cu's C_FLOAT)
	shift uint32
	// onDevice: the rounds read no host memory
	onDevice bool
	line     *progress.Line
	hold     *holdPlan // the chunks of held rounds; nil: no round is held
	rule     holdRule
	// past: a relaxation summed past the largest distance (sssp.cu's C_BAD); Run then
	// asks unreachedPast whether that made the answer wrong
	past bool
}

// Run computes the distances from src with the graph's stored weights (the largest of
// them maxW, its bits on float32 weights), or with every weight 1 when unit is set, in
// bins of width opt.Delta (at least 1), or of opt.FloatDelta (positive and finite) on
// float32 weights, where the distances are float32 bits too (Result.Float); the caller
// decides them (Options.Widths). With opt.Parents it also fills
// Result.Parent. A step is a round of the near queue of bin Bin. opt.Workers means
// nothing there.
func (g *GPU) Run(src, maxW uint32, unit bool, opt Options) (*Result, error) {
	delta, parents := opt.Delta, opt.Parents
	dg := g.Graph
	n := dg.N
	if src >= n {
		return nil, fmt.Errorf("sssp: source %d is not a vertex (the graph has %d): %w", src, n, store.ErrNoVertex)
	}
	float := !unit && dg.G.M.FloatWeights()
	res := &Result{Source: src, Delta: delta, Float: float}
	if float {
		fd := opt.FloatDelta
		if err := checkFloatWidth(fd); err != nil {
			return nil, err
		}
		delta, res.Delta, res.FloatDelta = math.Float32bits(fd), 0, fd
	} else if delta == 0 {
		return nil, fmt.Errorf("sssp: delta 0: want a bin width of at least 1")
	}
	err := dg.Dev.Do(func(c *cuda.Ctx) error {
		// the shards it may stream are decided from where the lists lie: the staging
		// buffers serve streaming, not the list cache
		if err := dg.ReleaseCache(c); err != nil {
			return err
		}
		r := &gpuRun{g: g, c: c, delta: delta, line: progress.New(opt.Progress, "sssp")}
		if float {
			r.fl = 1
		}
		defer r.line.Done()
		if unit {
			r.unit = 1
		} else if g.w == nil {
			var err error
			if g.w, err = loadWeights(dg, c, maxW); err != nil {
				return err
			}
		}
		dg.Work.Reset()
		r.st = takeState(dg.Work, n, len(dg.Out))
		if err := dg.Work.Err(); err != nil {
			return err
		}
		r.ctl = r.st.ctl.Ptr()
		r.onDevice = onDevice(dg.Plan, g.w, unit)
		skip := make([]uint32, len(dg.Out)+1)
		if b := dg.StageBytes(); b > 0 && !r.onDevice {
			if r.hold = planHold(r, b, skip); r.hold != nil && len(r.hold.chunks) > maxChunks {
				r.hold = nil
			}
		}
		if err := r.init(src, skip); err != nil {
			return err
		}
		t0 := time.Now()
		steps, err := r.search()
		if err != nil {
			return err
		}
		res.Steps = steps
		res.Seconds = time.Since(t0).Seconds()
		res.Dist = make([]uint32, n)
		if err := c.DtoH(unsafe.Pointer(&res.Dist[0]), r.st.dist.Ptr(), 4*int64(n)); err != nil {
			return err
		}
		if r.past {
			if err := unreachedPast(store.NewCompressed(dg.G), float, res.Dist); err != nil {
				return err
			}
		}
		if !parents {
			return nil
		}
		res.Parent = make([]uint32, n)
		return r.parents(src, res.Parent)
	})
	err = dg.CheckLists(g.Mod, err) // a damaged list gives no answer, even where the run failed
	if err != nil {
		return nil, err
	}
	if parents {
		res.Parent[src] = src
	}
	for _, d := range res.Dist {
		if d != Inf {
			res.Reached++
		}
	}
	if dg.Log != nil {
		var e uint64
		var zero, copied int64
		held := 0
		for _, s := range res.Steps {
			e += s.Edges
			zero += s.BytesZeroCopy
			copied += s.BytesCopied
			if s.Held {
				held++
			}
		}
		width := strconv.FormatUint(uint64(delta), 10)
		if float {
			width = strconv.FormatFloat(float64(res.FloatDelta), 'g', -1, 32)
		}
		fmt.Fprintf(dg.Log, "sssp: delta %s, %d rounds on the device in %.3f ms; %d edges relaxed; %s read zero-copy over the link, %s copied in %d held rounds\n",
			width, len(res.Steps), 1e3*res.Seconds, e, bytesize.Format(zero), bytesize.Format(copied), held)
	}
	return res, nil
}

// init fills the state: every distance infinite but the source's, the source alone in
// the next near queue, the weights' table and offsets, the held rounds' tables (skip: the
// streamed out-shards), the control words.
func (r *gpuRun) init(src uint32, skip []uint32) error {
	c, st, n := r.c, r.st, r.g.Graph.N
	if w := r.g.w; r.unit == 0 {
		r.shift = w.shift
		if err := c.HtoD(st.wts.Ptr(), unsafe.Pointer(&w.table[0]), 8*int64(len(w.table))); err != nil {
			return err
		}
		if err := c.HtoD(st.wOff.Ptr(), unsafe.Pointer(&w.wOff[0]), 4*int64(len(w.wOff))); err != nil {
			return err
		}
	}
	if err := c.Memset32(st.dist.Ptr(), math.MaxUint32, int64(n)); err != nil {
		return err
	}
	if err := c.Memset32(st.stamp.Ptr(), 0, int64(n)); err != nil {
		return err
	}
	if err := c.Memset32(st.farBits.Ptr(), 0, int64(n/32+1)); err != nil {
		return err
	}
	zero := uint32(0)
	if err := c.HtoD(st.dist.Ptr()+cuda.DevPtr(4*src), unsafe.Pointer(&zero), 4); err != nil {
		return err
	}
	if err := c.HtoD(st.queues[1].Ptr(), unsafe.Pointer(&src), 4); err != nil {
		return err
	}
	if err := c.Memset32(st.acc.Ptr(), 0, 2*accWords); err != nil {
		return err
	}
	if err := c.Memset32(st.hold.Ptr(), 0, int64(n)/32+1); err != nil {
		return err
	}
	if err := c.HtoD(st.skip.Ptr(), unsafe.Pointer(&skip[0]), 4*int64(len(skip))); err != nil {
		return err
	}
	if r.hold != nil {
		lo := make([]uint32, len(r.hold.chunks))
		for i, ch := range r.hold.chunks {
			lo[i] = ch.a
		}
		if err := c.HtoD(st.chLo.Ptr(), unsafe.Pointer(&lo[0]), 4*int64(len(lo))); err != nil {
			return err
		}
	}
	at, ns := r.holdAt()
	ctl := [ctlWords]uint32{ctlMode: stepRound, ctlFront: 0, ctlNext: 1, ctlFar: 2, ctlNN: 1, ctlMinBin: math.MaxUint32,
		ctlBad: math.MaxUint32, ctlHold: at, ctlHoldNs: math.Float32bits(ns), ctlFloat: r.fl}
	return c.HtoD(r.ctl, unsafe.Pointer(&ctl[0]), 4*ctlWords)
}

// readCtl reads the control words, waiting for the steps queued before.
func (r *gpuRun) readCtl() ([ctlWords]uint32, error) {
	var w [ctlWords]uint32
	err := r.c.DtoH(unsafe.Pointer(&w[0]), r.ctl, 4*ctlWords)
	return w, err
}

// search queues batches of steps until the device marks the run done, and returns the
// rounds. A held round ends its batch: the host runs it (runHeld), having learnt the
// rates of the held rounds before it, and starts again from a batch of firstBatch steps
// (the steps after a hold in its batch do nothing).
func (r *gpuRun) search() ([]StepStat, error) {
	var recs [][recWords]uint64
	copied := map[int]int64{} // held rounds (by record) and the bytes they copied
	learnt := 0               // the records whose rounds the hold rule has seen
	ring := make([][recWords]uint64, recRing)
	for batch := firstBatch; ; batch = min(2*batch, maxBatch) {
		for range batch {
			if err := r.step(); err != nil {
				return nil, err
			}
		}
		w, err := r.readCtl()
		if err != nil {
			return nil, err
		}
		r.past = r.past || w[ctlBad] != math.MaxUint32
		if upto := int(w[ctlSteps]); upto > len(recs) {
			if err := r.c.DtoH(unsafe.Pointer(&ring[0][0]), r.st.rec.Ptr(), 8*recRing*recWords); err != nil {
				return nil, err
			}
			for i := len(recs); i < upto; i++ {
				recs = append(recs, ring[i%recRing])
			}
			last := recs[len(recs)-1]
			if r.fl != 0 {
				showBin(r.line, last[0], float64(last[0])*float64(math.Float32frombits(r.delta)), last[3+accEdges])
			} else {
				showBin(r.line, last[0], last[0]*uint64(r.delta), last[3+accEdges])
			}
		}
		if w[ctlMode] == stepDone {
			break
		}
		if r.hold == nil || w[ctlMode] != stepHold {
			continue
		}
		if len(recs) > learnt+1 {
			r.rule.learn(roundStats(recs[learnt:], copied, learnt))
			learnt = len(recs) - 1
		}
		n, err := r.runHeld(w[ctlNF], math.Float32frombits(w[ctlBpns]))
		if err != nil {
			return nil, err
		}
		copied[int(w[ctlSteps])-1] = n
		batch = firstBatch / 2
	}
	return roundStats(recs, copied, 0), nil
}

// roundStats turns the round records (the last one ends the run; the first is record
// first of the run) into the steps; copied holds the held rounds and their bytes copied.
func roundStats(recs [][recWords]uint64, copied map[int]int64, first int) []StepStat {
	var out []StepStat
	for i := 0; i+1 < len(recs); i++ {
		a, b := recs[i], recs[i+1]
		n, held := copied[first+i]
		out = append(out, StepStat{Bin: a[0], Frontier: a[1], Edges: b[3+accEdges] - a[3+accEdges],
			BytesZeroCopy: int64(b[3+accBytes] - a[3+accBytes]), BytesCopied: n, Held: held,
			Seconds: float64(b[2]-a[2]) / 1e9})
	}
	return out
}

// step queues one step: every launch reads from the control words whether it has work.
func (r *gpuRun) step() error {
	c, dg, st, m := r.c, r.g.Graph, r.st, r.g.Mod
	grid := dg.Grid(uint64(dg.N)+1, gpuBlock)
	l0, l1, l2 := st.queues[0].Ptr(), st.queues[1].Ptr(), st.queues[2].Ptr()
	if err := launchSpBegin(c, m, 1, 1, r.ctl); err != nil {
		return err
	}
	if err := launchSpFarMin(c, m, grid, gpuBlock, l0, l1, l2, r.ctl, st.dist.Ptr(), r.delta); err != nil {
		return err
	}
	if err := launchSpBin(c, m, 1, 1, r.ctl); err != nil {
		return err
	}
	if err := launchSpSplit(c, m, grid, gpuBlock, l0, l1, l2, r.ctl, st.dist.Ptr(), r.delta, st.farBits.Ptr(),
		st.stamp.Ptr()); err != nil {
		return err
	}
	if err := launchSpRound(c, m, 1, 1, r.ctl, st.acc.Ptr(), st.rec.Ptr()); err != nil {
		return err
	}
	// enough warps for a warp a vertex when the queue is small (sp_relax)
	rgrid := dg.Grid(32*(uint64(dg.N)+1), gpuBlock)
	tab, ns := dg.OutTable.Ptr, int32(len(dg.Out))
	if r.onDevice {
		if err := launchSpRelaxDev(c, m, rgrid, gpuBlock, tab, ns, st.wts.Ptr(), st.wOff.Ptr(), r.shift, r.unit,
			st.dist.Ptr(), st.stamp.Ptr(), st.farBits.Ptr(), l0, l1, l2, r.ctl, st.acc.Ptr(), r.delta, r.warpMax(),
			st.hubs.Ptr(), st.hubNb.Ptr(), st.hubCap); err != nil {
			return err
		}
		// the long lists, each shared by many warps
		return launchSpRelaxHubDev(c, m, dg.Dev.SMs*8, gpuBlock, tab, ns, st.wts.Ptr(), st.wOff.Ptr(), r.shift, r.unit,
			st.dist.Ptr(), st.stamp.Ptr(), st.farBits.Ptr(), l0, l1, l2, r.ctl, st.acc.Ptr(), r.delta, st.hubs.Ptr(),
			st.hubNb.Ptr(), st.hubCap)
	}
	if err := launchSpRelax(c, m, rgrid, gpuBlock, tab, ns, st.wts.Ptr(), st.wOff.Ptr(), r.shift, r.unit, st.dist.Ptr(),
		st.stamp.Ptr(), st.farBits.Ptr(), l0, l1, l2, r.ctl, st.acc.Ptr(), r.delta, r.warpMax(), st.hubs.Ptr(),
		st.hubNb.Ptr(), st.hubCap, 0); err != nil {
		return err
	}
	return launchSpRelaxHub(c, m, dg.Dev.SMs*8, gpuBlock, tab, ns, st.wts.Ptr(), st.wOff.Ptr(), r.shift, r.unit,
		st.dist.Ptr(), st.stamp.Ptr(), st.farBits.Ptr(), l0, l1, l2, r.ctl, st.acc.Ptr(), r.delta, st.hubs.Ptr(),
		st.hubNb.Ptr(), st.hubCap, 0)
}

// warpMax is sp_relax's largest queue for a warp a vertex: any that fits the grid, or
// none with OOC_TEST_SSSP_FLAT.
func (r *gpuRun) warpMax() uint32 {
	if flatOnly {
		return 0
	}
	return math.MaxUint32
}

// onDevice says whether the rounds read device memory only: every out-shard's directory
// and lists, and the weights unless unit (sssp.cu: the _dev kernels then).
func onDevice(p *gpu.Plan, w *devWeights, unit bool) bool {
	for _, s := range p.Shards {
		if s.Dir == store.Out && (s.IndexAt == gpu.Pinned || s.AdjAt == gpu.Pinned) {
			return false
		}
	}
	return unit || w.pinned == 0
}

// parents fills parent (on the host) from the final distances (sp_parents).
func (r *gpuRun) parents(src uint32, parent []uint32) error {
	c, dg, st := r.c, r.g.Graph, r.st
	par := st.stamp.Ptr()
	if err := c.Memset32(par, math.MaxUint32, int64(dg.N)); err != nil {
		return err
	}
	for i, s := range dg.Out {
		if s.N == 0 {
			continue
		}
		if err := launchSpParents(c, r.g.Mod, dg.Grid(uint64(s.N), gpuBlock), gpuBlock, s.Adj, s.Dir, s.Bits, s.Lo, s.N, int32(i),
			st.wts.Ptr(), st.wOff.Ptr(), r.shift, r.unit, r.fl, st.dist.Ptr(), src, par); err != nil {
			return err
		}
	}
	return c.DtoH(unsafe.Pointer(&parent[0]), par, 4*int64(dg.N))
}
