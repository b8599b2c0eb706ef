//go:build cuda

package kcore

import (
	"fmt"
	"math"
	"time"
	"unsafe"

	"github.com/oocgraph/ooc/gpu"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/internal/cuda"
	"github.com/oocgraph/ooc/internal/progress"
)

const gpuBlock = 256

// GPU runs the k-core decomposition on a graph placed on the device by package gpu
// (kcore.cu).
type GPU struct{ gpu.Kernels }

// NewGPU loads kcore.cu's kernels for runs on dg.
func NewGPU(dg *gpu.Graph) (*GPU, error) {
	k, err := dg.LoadKernels("kcore", Fatbin)
	if err != nil {
		return nil, err
	}
	return &GPU{k}, nil
}

// gpuRun is one run's device state and the host's view of it.
type gpuRun struct {
	g    *GPU
	c    *cuda.Ctx
	st   devState
	ctl  cuda.DevPtr
	line *progress.Line
}

// Steps queued between two reads of the control words: the first batch, and the most
// (each step starts at most one level, so a batch writes at most maxBatch records: fewer
// than the ring holds, and the host drains the ring at every read).
const (
	firstBatch = 8
	maxBatch   = 256
)

// Run is the package's Run on the device: the same levels, each removing the same
// vertices, so the core numbers and the levels' K, Removed and Edges equal the CPU's (the
// rounds may differ: they depend on the order of the removals). The device drives the
// levels and rounds (kcore.cu); the host queues batches of steps and reads the control
// words after each. opt.Workers means nothing there.
func (g *GPU) Run(opt Options) (*Result, error) {
	dg := g.Graph
	n := dg.N
	res := &Result{Core: make([]uint32, n)}
	if n == 0 {
		return res, nil
	}
	err := dg.Dev.Do(func(c *cuda.Ctx) error {
		dg.Work.Reset()
		st := takeState(dg.Work, n)
		if err := dg.Work.Err(); err != nil {
			return err
		}
		r := &gpuRun{g: g, c: c, st: st, ctl: st.ctl.Ptr(), line: progress.New(opt.Progress, "kcore")}
		defer r.line.Done()
		t0 := time.Now()
		na, err := r.degrees()
		if err != nil {
			return err
		}
		if isolated := uint64(n) - uint64(na); isolated > 0 {
			res.Levels = append(res.Levels, LevelStat{K: 0, Removed: isolated, Seconds: time.Since(t0).Seconds()})
		}
		if na > 0 {
			levels, err := r.peel(na)
			if err != nil {
				return err
			}
			res.Levels = append(res.Levels, levels...)
			res.MaxCore = levels[len(levels)-1].K
		}
		res.Seconds = time.Since(t0).Seconds()
		return c.DtoH(unsafe.Pointer(&res.Core[0]), st.deg.Ptr(), 4*int64(n))
	})
	err = dg.CheckLists(g.Mod, err) // a damaged list gives no answer, even where the run failed
	if err != nil {
		return nil, err
	}
	if dg.Log != nil {
		var zero int64
		rounds := 0
		for _, l := range res.Levels {
			zero += l.BytesZeroCopy
			rounds += l.Rounds
		}
		fmt.Fprintf(dg.Log, "kcore: %d levels, %d rounds on the device in %.3f ms; %s read zero-copy over the link\n",
			len(res.Levels), rounds, 1e3*res.Seconds, bytesize.Format(zero))
	}
	return res, nil
}

// readCtl reads the control words, waiting for the steps queued before.
func (r *gpuRun) readCtl() ([ctlWords]uint32, error) {
	var w [ctlWords]uint32
	err := r.c.DtoH(unsafe.Pointer(&w[0]), r.ctl, 4*ctlWords)
	return w, err
}

// degrees fills deg (out-degree plus, on a directed graph, in-degree) and lists the
// vertices with edges in lists[0]; it returns their number.
func (r *gpuRun) degrees() (uint32, error) {
	c, dg, st, m := r.c, r.g.Graph, r.st, r.g.Mod
	if err := c.Memset32(r.ctl, 0, ctlWords); err != nil {
		return 0, err
	}
	if err := c.Memset32(r.ctl+4*ctlBad, math.MaxUint32, 1); err != nil {
		return 0, err
	}
	for _, s := range dg.Out {
		if err := launchKcDegree(c, m, dg.Grid(uint64(s.N), gpuBlock), gpuBlock, s.Adj, s.Dir, s.Bits, s.Lo, s.N,
			st.deg.Ptr(), 0, r.ctl+4*ctlBad); err != nil {
			return 0, err
		}
	}
	if dg.G.Directed() {
		for _, s := range dg.In {
			if err := launchKcDegree(c, m, dg.Grid(uint64(s.N), gpuBlock), gpuBlock, s.Adj, s.Dir, s.Bits, s.Lo, s.N,
				st.deg.Ptr(), 1, r.ctl+4*ctlBad); err != nil {
				return 0, err
			}
		}
	}
	if err := launchKcAlive(c, m, dg.Grid(uint64(dg.N), gpuBlock), gpuBlock, st.deg.Ptr(), dg.N, st.lists[0].Ptr(), r.ctl+4*ctlNA); err != nil {
		return 0, err
	}
	w, err := r.readCtl()
	if err != nil {
		return 0, err
	}
	if w[ctlBad] != math.MaxUint32 {
		return 0, fmt.Errorf("kcore: vertex %d has more than %d in- and out-edges together", dg.G.External(w[ctlBad]), uint32(math.MaxUint32))
	}
	return w[ctlNA], nil
}

// peel runs the levels on the na alive vertices of lists[0] and returns them. Every step
// removes at least one vertex or starts a level or ends the run, so 2 na + 2 steps end it;
// more means a fault, reported rather than waited for.
func (r *gpuRun) peel(na uint32) ([]LevelStat, error) {
	c := r.c
	init := [ctlWords]uint32{ctlAlive: 0, ctlFront: 1, ctlNext: 2, ctlNA: na, ctlLeast: math.MaxUint32, ctlBad: math.MaxUint32}
	if err := c.HtoD(r.ctl, unsafe.Pointer(&init[0]), 4*ctlWords); err != nil {
		return nil, err
	}
	if err := c.Memset32(r.st.acc.Ptr(), 0, 2*accWords); err != nil {
		return nil, err
	}
	var recs [][recWords]uint64
	ring := make([][recWords]uint64, recRing)
	limit := 2*uint64(na) + 2
	steps := uint64(0)
	for batch := firstBatch; ; batch = min(2*batch, maxBatch) {
		for i := 0; i < batch; i++ {
			if err := r.step(na); err != nil {
				return nil, err
			}
		}
		steps += uint64(batch)
		w, err := r.readCtl()
		if err != nil {
			return nil, err
		}
		upto := int(w[ctlLevel]) // records written: one a level started, and the end's
		if w[ctlMode] == stepDone {
			upto++
		}
		if upto > len(recs) {
			if err := c.DtoH(unsafe.Pointer(&ring[0][0]), r.st.rec.Ptr(), 8*recRing*recWords); err != nil {
				return nil, err
			}
			for i := len(recs); i < upto; i++ {
				recs = append(recs, ring[i%recRing])
			}
			last := recs[len(recs)-1]
			n := r.g.Graph.N // the isolated vertices went first, as core 0
			showLevel(r.line, uint32(last[0]), uint64(n-na)+last[2+accRemoved], n)
		}
		if w[ctlMode] == stepDone {
			break
		}
		if steps > limit {
			return nil, fmt.Errorf("kcore: the device ran %d steps on %d vertices without finishing", steps, na)
		}
	}
	return levelStats(recs), nil
}

// levelStats turns the level records (the last one ends the last level) into the levels.
func levelStats(recs [][recWords]uint64) []LevelStat {
	var out []LevelStat
	for i := 0; i+1 < len(recs); i++ {
		a, b := recs[i], recs[i+1]
		d := func(j int) uint64 { return b[2+j] - a[2+j] }
		out = append(out, LevelStat{K: uint32(a[0]), Removed: d(accRemoved), Rounds: int(d(accRounds)), Edges: d(accEdges),
			BytesZeroCopy: int64(d(accBytes)), Seconds: float64(b[1]-a[1]) / 1e9})
	}
	return out
}

// step queues one step: every launch reads from the control words whether it has work.
func (r *gpuRun) step(na uint32) error {
	c, dg, st, m := r.c, r.g.Graph, r.st, r.g.Mod
	grid := dg.Grid(uint64(na), gpuBlock)
	l0, l1, l2 := st.lists[0].Ptr(), st.lists[1].Ptr(), st.lists[2].Ptr()
	if err := launchKcBegin(c, m, 1, 1, r.ctl); err != nil {
		return err
	}
	if err := launchKcCompact(c, m, grid, gpuBlock, st.deg.Ptr(), l0, l1, l2, r.ctl); err != nil {
		return err
	}
	if err := launchKcLevel(c, m, 1, 1, r.ctl, st.acc.Ptr(), st.rec.Ptr()); err != nil {
		return err
	}
	if err := launchKcGather(c, m, grid, gpuBlock, st.deg.Ptr(), l0, l1, l2, r.ctl); err != nil {
		return err
	}
	in, nsIn := cuda.DevPtr(0), int32(0)
	if dg.G.Directed() {
		in, nsIn = dg.InTable, int32(len(dg.In))
	}
	hubs, hubNb, hc := st.hubs.Ptr(), st.hubNb.Ptr(), cuda.DevPtr(4*st.hubCap)
	if err := launchKcPeel(c, m, grid, gpuBlock, dg.OutTable.Ptr, int32(len(dg.Out)), in, nsIn, st.deg.Ptr(), l0, l1, l2,
		r.ctl, st.acc.Ptr(), hubs, hubNb, st.hubCap); err != nil {
		return err
	}
	// the long lists, each shared by many thread blocks
	if err := launchKcPeelHub(c, m, dg.Dev.SMs*8, gpuBlock, dg.OutTable.Ptr, int32(len(dg.Out)), hubs, hubNb, r.ctl+4*ctlHubs,
		r.ctl+4*ctlHubMax, st.hubCap, st.deg.Ptr(), l0, l1, l2, r.ctl, st.acc.Ptr()); err != nil {
		return err
	}
	if in == 0 {
		return nil
	}
	return launchKcPeelHub(c, m, dg.Dev.SMs*8, gpuBlock, in, nsIn, hubs+hc, hubNb+hc, r.ctl+4*ctlHubs+4,
		r.ctl+4*ctlHubMax+4, st.hubCap, st.deg.Ptr(), l0, l1, l2, r.ctl, st.acc.Ptr())
}
