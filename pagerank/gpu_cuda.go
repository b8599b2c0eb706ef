//go:build cuda

package pagerank

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

const gpuBlock = 256 // at most pagerank.cu's PULL_BLOCK

// GPU runs PageRank on a graph placed on the device by package gpu (pagerank.cu).
type GPU struct{ gpu.Kernels }

// NewGPU loads pagerank.cu's kernels for runs on dg.
func NewGPU(dg *gpu.Graph) (*GPU, error) {
	k, err := dg.LoadKernels("pagerank", Fatbin)
	if err != nil {
		return nil, err
	}
	return &GPU{k}, nil
}

// Run is the package's Run on the device: the same model, stopping rule and float32
// rounding of each score. Every iteration reads every in-list: resident shards in place,
// and each pinned shard either streamed through the runtime's staging ring (gpu.Sweep:
// its chunks copied asynchronously, ahead of the sums of the chunks before them and of
// the resident shards) or read zero-copy, as gpu.Choose decides for a sweep that decodes
// all of the shard's bytes.
func (g *GPU) Run(opt Options) (*Result, error) {
	if err := opt.Check(); err != nil {
		return nil, err
	}
	opt = opt.WithDefaults()
	dg := g.Graph
	n := dg.N
	r := &Result{Scores: make([]float32, n)}
	if n == 0 {
		r.Converged = true // no scores to change, as in Run
		return r, nil
	}
	err := dg.Dev.Do(func(c *cuda.Ctx) error {
		// the shards it may stream are decided from where the lists lie: the staging
		// buffers serve streaming, not the list cache
		if err := dg.ReleaseCache(c); err != nil {
			return err
		}
		dg.Work.Reset()
		st := takeState(dg.Work, n, gpu.MaxDirEdges(gpu.Sizes(dg.G)))
		if err := dg.Work.Err(); err != nil {
			return err
		}
		if err := c.Memset32(st.hubCount.Ptr(), 0, 2); err != nil {
			return err
		}
		t0 := time.Now()
		init := float32(1 / float64(n))
		for _, s := range dg.Out {
			if err := launchPrInit(c, g.Mod, dg.Grid(uint64(s.N), gpuBlock), gpuBlock, s.Adj, s.Dir, s.Bits, s.Lo, s.N,
				st.score.Ptr(), st.contrib.Ptr(), st.outdeg.Ptr(), math.Float32bits(init)); err != nil {
				return err
			}
		}
		base := math.Float64bits((1 - Damping) / float64(n))
		var edges uint64
		for _, s := range dg.In {
			edges += s.Edges
		}
		line := progress.New(opt.Progress, "pagerank")
		defer line.Done()
		for r.Iterations < opt.MaxIters {
			t := time.Now()
			it, err := g.iterate(c, st, base)
			if err != nil {
				return err
			}
			r.Iterations++
			it.Iter, it.Edges, it.Seconds = r.Iterations, edges, time.Since(t).Seconds()
			r.Change = it.Change
			r.Iters = append(r.Iters, it)
			showIteration(line, r.Iterations, it.Change, opt)
			st.contrib, st.next = st.next, st.contrib
			if it.Change < opt.Tolerance {
				break
			}
		}
		r.Converged = r.Change < opt.Tolerance
		r.CopyBps = dg.Link.CopyBps
		r.Seconds = time.Since(t0).Seconds()
		return c.DtoH(unsafe.Pointer(&r.Scores[0]), st.score.Ptr(), 4*int64(n))
	})
	err = dg.CheckLists(g.Mod, err) // a damaged list gives no answer, even where the run failed
	if err != nil {
		return nil, err
	}
	if dg.Log != nil {
		var copied, zero int64
		for _, it := range r.Iters {
			copied += it.BytesCopied
			zero += it.BytesZeroCopy
		}
		fmt.Fprintf(dg.Log, "pagerank: %d iterations on the device in %.3f ms; %s copied, %s zero-copy over the link\n",
			r.Iterations, 1e3*r.Seconds, bytesize.Format(copied), bytesize.Format(zero))
		if copied > 0 && r.CopyBps > 0 {
			rate := float64(copied) / r.Seconds
			fmt.Fprintf(dg.Log, "pagerank: streamed at %.1f GB/s over the iterations, %.0f%% of the probe's copy rate (%.1f GB/s)\n",
				rate/1e9, 100*rate/r.CopyBps, r.CopyBps/1e9)
		}
	}
	return r, nil
}

// iterate runs one iteration over every in shard and returns its statistics (without Iter,
// Edges and Seconds).
func (g *GPU) iterate(c *cuda.Ctx, st devState, base uint64) (IterStat, error) {
	dg := g.Graph
	var it IterStat
	cnt := st.counters.Ptr()
	if err := c.Memset32(cnt, 0, 6); err != nil {
		return it, err
	}
	shards := make([]int, len(dg.In))
	stream := make([]bool, len(dg.In))
	for i := range dg.In {
		adj, _, streamable := dg.InShard(i)
		shards[i] = i
		stream[i] = streamable && gpu.Choose(dg.Mode, dg.Link, adj, adj)
		if stream[i] {
			it.Streamed++
		}
	}
	// pr_pull sums the lists of up to HUB_BLOCKS blocks and queues the longer ones, which
	// pr_hub sums with many thread blocks each and pr_hub_finish scores
	pull := func(i int, adj cuda.DevPtr, i0, i1 uint32, bytes cuda.DevPtr) error {
		s := dg.In[i]
		if i1 <= i0 {
			return nil
		}
		err := launchPrPull(c, g.Mod, dg.Grid(uint64(i1-i0), gpuBlock), gpuBlock, adj, s.Dir, s.Bits, s.Lo, s.N,
			st.contrib.Ptr(), st.score.Ptr(), st.next.Ptr(), st.outdeg.Ptr(), base, i0, i1, cnt+cntChange, bytes,
			st.hubs.Ptr(), st.hubNb.Ptr(), st.hubCount.Ptr(), st.hubSum.Ptr())
		if err != nil {
			return err
		}
		err = launchPrHub(c, g.Mod, dg.Dev.SMs*8, gpuBlock, adj, s.Dir, s.Bits, s.Lo, s.N, st.contrib.Ptr(),
			st.hubs.Ptr(), st.hubNb.Ptr(), st.hubCount.Ptr(), st.hubSum.Ptr(), bytes)
		if err != nil {
			return err
		}
		return launchPrHubFinish(c, g.Mod, 1, gpuBlock, st.score.Ptr(), st.next.Ptr(), st.outdeg.Ptr(), base,
			st.hubs.Ptr(), st.hubCount.Ptr(), st.hubSum.Ptr(), cnt+cntChange)
	}
	// every iteration streams the same chunks: the next one's first copies are issued at
	// the end of this one, to run while the host reads the change
	copied, err := dg.Sweep(c, shards, stream, true, cnt+cntZero, cnt+cntDev, pull)
	if err != nil {
		return it, err
	}
	it.BytesCopied = copied
	var w [3]uint64
	if err := c.DtoH(unsafe.Pointer(&w[0]), cnt, 24); err != nil {
		return it, err
	}
	it.Change = math.Float64frombits(w[cntChange/8])
	it.BytesZeroCopy = int64(w[cntZero/8])
	return it, nil
}
