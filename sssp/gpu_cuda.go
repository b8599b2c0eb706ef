//go:build cuda

package sssp

import (
	"fmt"
	"math"
	"os"
	"testing"
	"time"
	"unsafe"

	"github.com/oocgraph/ooc/gpu"
	"github.com/oocgraph/ooc/internal/cuda"
	"github.com/oocgraph/ooc/store"
)

const gpuBlock = 256

// flatOnly sizes sp_relax's grid a thread a vertex, so that every round of more than a
// block's warps takes its thread-a-vertex path (OOC_TEST_SSSP_FLAT, honoured by test
// binaries only): tests on small graphs reach it too.
var flatOnly = testing.Testing() && os.Getenv("OOC_TEST_SSSP_FLAT") != ""

// GPU computes shortest paths on a graph placed on the device by package gpu (sssp.cu):
// delta-stepping with a near queue and a far pile, rounds of atomicMin on the distances,
// which end with the same (exact) distances as Run, and the same parents (see Parents).
// Like Run, a round relaxes every out-edge of its vertices (no light/heavy split). Lists
// of pinned shards, and the weights, are read zero-copy.
type GPU struct {
	dg  *gpu.Graph
	mod *cuda.Module
}

// NewGPU loads sssp.cu's kernels for runs on dg.
func NewGPU(dg *gpu.Graph) (*GPU, error) {
	g := &GPU{dg: dg}
	var err error
	if g.mod, err = dg.LoadModule("sssp", Fatbin); err != nil {
		return nil, err
	}
	return g, nil
}

// Close unloads the kernels.
func (g *GPU) Close() error {
	err := g.dg.UnloadModule(g.mod)
	g.mod = nil
	return err
}

// Run computes the distances from src with the graph's stored weights, or with every
// weight 1 when unit is set, in bins of width delta (at least 1; see DefaultDelta); with
// parents it also fills Result.Parent. A step is a round of the near queue of bin Bin.
func (g *GPU) Run(src, delta uint32, unit, parents bool) (*Result, error) {
	dg := g.dg
	n := dg.N
	if src >= n {
		return nil, fmt.Errorf("sssp: source %d is not a vertex (the graph has %d): %w", src, n, store.ErrNoVertex)
	}
	if delta == 0 {
		return nil, fmt.Errorf("sssp: delta 0: want a bin width of at least 1")
	}
	wts := make([]uint64, len(dg.Out)+1)
	if !unit {
		for i, s := range dg.Out {
			if s.W == 0 && s.Edges > 0 {
				return nil, fmt.Errorf("sssp: %s has no edge weights on the device", dg.G.Dir)
			}
			wts[i] = uint64(s.W)
		}
	}
	// where each vertex's weights start in its shard's WEIGHTS section
	wOff := make([]uint32, n+1)
	if !unit {
		var deg []uint32
		for _, s := range dg.G.Out().Shards {
			var sum uint64
			deg = append(deg[:0], make([]uint32, s.N)...)
			s.DegreesAt(deg, 0)
			for i, d := range deg {
				wOff[s.Lo+uint32(i)] = uint32(sum)
				sum += uint64(d)
			}
			if sum != uint64(len(s.Weights)) || sum > math.MaxUint32 {
				return nil, fmt.Errorf("sssp: shard %s holds %d weights for %d out-edges", s.Path, len(s.Weights), sum)
			}
		}
	}
	uflag := uint32(0)
	if unit {
		uflag = 1
	}
	res := &Result{Source: src, Delta: delta}
	err := dg.Dev.Do(func(c *cuda.Ctx) error {
		dg.Work.Reset()
		st := takeState(dg.Work, n, len(dg.Out))
		if err := dg.Work.Err(); err != nil {
			return err
		}
		m := g.mod
		t0 := time.Now()
		if err := c.HtoD(st.wts.Ptr(), unsafe.Pointer(&wts[0]), 8*int64(len(wts))); err != nil {
			return err
		}
		if err := c.HtoD(st.wOff.Ptr(), unsafe.Pointer(&wOff[0]), 4*int64(len(wOff))); err != nil {
			return err
		}
		if err := c.Memset32(st.dist.Ptr(), math.MaxUint32, int64(n)); err != nil {
			return err
		}
		if err := c.Memset32(st.stamp.Ptr(), 0, int64(n)); err != nil {
			return err
		}
		zero := uint32(0)
		if err := c.HtoD(st.dist.Ptr()+cuda.DevPtr(4*src), unsafe.Pointer(&zero), 4); err != nil {
			return err
		}
		if err := c.HtoD(st.queues[0].Ptr(), unsafe.Pointer(&src), 4); err != nil {
			return err
		}
		cnt := st.counters.Ptr()
		if err := c.Memset32(cnt, 0, 2*counters); err != nil {
			return err
		}
		if err := c.Memset32(st.farBits.Ptr(), 0, int64(n/32+1)); err != nil {
			return err
		}
		if err := c.Memset32(cnt+8*cntBad, math.MaxUint32, 1); err != nil {
			return err
		}
		// the roles of the three queues: near (a), next near (b), far pile (f)
		a, b, f := 0, 1, 2
		var edges uint64
		qn, bin, round := uint32(1), uint64(0), uint32(1)
		var w [counters]uint64
		read := func() error {
			if err := c.DtoH(unsafe.Pointer(&w[0]), cnt, 8*counters); err != nil {
				return err
			}
			if bad := uint32(w[cntBad]); bad != math.MaxUint32 {
				return fmt.Errorf("sssp: the distance to vertex %d exceeds %d", bad, uint32(Inf-1))
			}
			return nil
		}
		for {
			for qn > 0 {
				t := time.Now()
				if err := c.Memset32(cnt+8*cntNext, 0, 2); err != nil {
					return err
				}
				// enough warps for a warp a vertex when the queue is small (sp_relax)
				grid := dg.Grid(32*uint64(qn), gpuBlock)
				if flatOnly {
					grid = dg.Grid(uint64(qn), gpuBlock)
				}
				if err := launchSpRelax(c, m, grid, gpuBlock, dg.OutTable.Ptr, int32(len(dg.Out)), st.wts.Ptr(),
					st.wOff.Ptr(), uflag, st.queues[a].Ptr(), qn, st.dist.Ptr(), st.stamp.Ptr(), round, st.queues[b].Ptr(),
					cnt+8*cntNext, cnt+8*cntEdges, cnt+8*cntBad, (bin+1)*uint64(delta), st.queues[f].Ptr(), st.farBits.Ptr(),
					cnt+8*cntFar); err != nil {
					return err
				}
				if err := read(); err != nil {
					return err
				}
				res.Steps = append(res.Steps, StepStat{Bin: bin, Frontier: uint64(qn), Edges: w[cntEdges] - edges,
					Seconds: time.Since(t).Seconds()})
				edges = w[cntEdges]
				qn = uint32(w[cntNext])
				a, b = b, a
				round++
			}
			// the bin is settled: the next is the far pile's smallest beyond it
			fn := uint32(w[cntFar])
			if fn == 0 {
				break
			}
			if err := c.Memset32(cnt+8*cntMinBin, math.MaxUint32, 2); err != nil {
				return err
			}
			if err := launchSpFarMin(c, m, dg.Grid(uint64(fn), gpuBlock), gpuBlock, st.queues[f].Ptr(), fn, st.dist.Ptr(), delta,
				bin, cnt+8*cntMinBin); err != nil {
				return err
			}
			if err := read(); err != nil {
				return err
			}
			if w[cntMinBin] == math.MaxUint64 {
				break // every vertex of the pile was settled in an earlier bin
			}
			bin = w[cntMinBin]
			if err := c.Memset32(cnt+8*cntNext, 0, 2); err != nil {
				return err
			}
			if err := c.Memset32(cnt+8*cntFar, 0, 2); err != nil {
				return err
			}
			if err := launchSpSplit(c, m, dg.Grid(uint64(fn), gpuBlock), gpuBlock, st.queues[f].Ptr(), fn, st.dist.Ptr(), delta,
				bin, st.farBits.Ptr(), st.stamp.Ptr(), round, st.queues[a].Ptr(), cnt+8*cntNext, st.queues[b].Ptr(),
				cnt+8*cntFar); err != nil {
				return err
			}
			if err := read(); err != nil {
				return err
			}
			round++
			qn = uint32(w[cntNext])
			f, b = b, f
		}
		res.Seconds = time.Since(t0).Seconds()
		res.Dist = make([]uint32, n)
		if err := c.DtoH(unsafe.Pointer(&res.Dist[0]), st.dist.Ptr(), 4*int64(n)); err != nil {
			return err
		}
		if !parents {
			return nil
		}
		par := st.stamp.Ptr()
		if err := c.Memset32(par, math.MaxUint32, int64(n)); err != nil {
			return err
		}
		for i, s := range dg.Out {
			if s.N == 0 {
				continue
			}
			if err := launchSpParents(c, m, dg.Grid(uint64(s.N), gpuBlock), gpuBlock, s.Adj, s.Dir, s.Bits, s.Lo, s.N, int32(i),
				st.wts.Ptr(), st.wOff.Ptr(), uflag, st.dist.Ptr(), src, par); err != nil {
				return err
			}
		}
		res.Parent = make([]uint32, n)
		return c.DtoH(unsafe.Pointer(&res.Parent[0]), par, 4*int64(n))
	})
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
		for _, s := range res.Steps {
			e += s.Edges
		}
		fmt.Fprintf(dg.Log, "sssp: delta %d, %d rounds on the device in %.3f ms; %d edges relaxed\n", delta, len(res.Steps), 1e3*res.Seconds, e)
	}
	return res, nil
}
