//go:build cuda

package ooc

import (
	"fmt"
	"strings"

	"github.com/oocgraph/ooc/afforest"
	"github.com/oocgraph/ooc/bfs"
	"github.com/oocgraph/ooc/gpu"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/internal/cuda"
	"github.com/oocgraph/ooc/kcore"
	"github.com/oocgraph/ooc/pagerank"
	"github.com/oocgraph/ooc/sssp"
	"github.com/oocgraph/ooc/store"
)

func init() { Register("gpu", openGPU) }

// GPUMargin is left free on the device when no --vram is given (the driver, the context
// and the JIT-compiled kernels need some).
const GPUMargin = 512 << 20

// gpuEngine is the "gpu" backend: the graph placed on device 0 by package gpu's memory
// plan, BFS by bfs/bfs.cu, Afforest by afforest/afforest.cu, PageRank by
// pagerank/pagerank.cu, k-core by kcore/kcore.cu and SSSP by sssp/sssp.cu.
type gpuEngine struct {
	dev *cuda.Device
	dg  *gpu.Graph
	bfs *bfs.GPU
	cc  *afforest.GPU
	pr  *pagerank.GPU
	kc  *kcore.GPU
	sp  *sssp.GPU
	opt Options

	closed bool // Close has run: what the runs use is freed
}

// gpuWork is the workspace the plan reserves: the largest state of the algorithms opt
// runs.
func gpuWork(g *store.Graph, shards []gpu.ShardSize, opt Options) []gpu.Item {
	n := g.NumVertices()
	var sets [][]gpu.Item
	for _, a := range []struct {
		algo  Algo
		state func() []gpu.Item
	}{
		{AlgoBFS, func() []gpu.Item { return bfs.DeviceState(n, shards) }},
		{AlgoCC, func() []gpu.Item { return afforest.DeviceState(n, opt.ccOptions()) }},
		{AlgoPageRank, func() []gpu.Item { return pagerank.DeviceState(n, shards) }},
		{AlgoKCore, func() []gpu.Item { return kcore.DeviceState(n) }},
		{AlgoSSSP, func() []gpu.Item { return sssp.DeviceState(n, shards) }},
	} {
		if opt.runs(a.algo) {
			sets = append(sets, a.state())
		}
	}
	return gpu.Largest(sets...)
}

// use refuses an algorithm opt leaves out, or any run on a graph closed since the
// engine opened, and holds the graph's mappings for the run (store.Graph.Use: the device
// reads its lists through the host mappings, so a Close during the run waits for it).
func (e *gpuEngine) use(a Algo, name string) (done func(), err error) {
	if e.closed {
		return nil, fmt.Errorf("gpu: %s: %w", name, ErrEngineClosed)
	}
	if !e.opt.runs(a) {
		return nil, fmt.Errorf("gpu: %s: %w", name, ErrNotOpened)
	}
	if done, err = e.dg.G.Use(); err != nil {
		return nil, fmt.Errorf("gpu: %s: %w", name, err)
	}
	return done, nil
}

// openGPU places g on device 0 within opt.VRAM bytes (default: free memory less
// GPUMargin).
func openGPU(g *store.Graph, opt Options) (Engine, error) {
	opt = opt.WithDefaults()
	if err := cuda.Available(); err != nil {
		return nil, fmt.Errorf("gpu: no usable GPU: %w", err)
	}
	dev, err := cuda.Open(0, opt.VRAM, GPUMargin)
	if err != nil {
		return nil, fmt.Errorf("gpu: %w", err)
	}
	shards := gpu.Sizes(g)
	p, err := gpu.MakeFor(g.NumVertices(), shards, dev.Budget(), gpuWork(g, shards, opt), opt.runs(AlgoBFS|AlgoCC))
	if err != nil {
		dev.Close()
		return nil, fmt.Errorf("gpu: %w", err)
	}
	if opt.Verbose != nil {
		fmt.Fprintf(opt.Verbose, "gpu: %s, compute %d.%d, %d SMs, %s\n%s", dev.Name, dev.CC[0], dev.CC[1], dev.SMs,
			bytesize.Format(dev.Total), p)
	}
	dg, err := gpu.Load(dev, g, p, opt.Verbose)
	if err != nil {
		dev.Close()
		return nil, fmt.Errorf("gpu: %w", err)
	}
	e := &gpuEngine{dev: dev, dg: dg, opt: opt}
	if e.bfs, err = bfs.NewGPU(dg); err == nil {
		e.cc, err = afforest.NewGPU(dg)
	}
	if err == nil {
		e.pr, err = pagerank.NewGPU(dg)
	}
	if err == nil {
		e.kc, err = kcore.NewGPU(dg)
	}
	if err == nil {
		e.sp, err = sssp.NewGPU(dg)
	}
	if err != nil {
		e.Close()
		return nil, fmt.Errorf("gpu: %w", err)
	}
	return e, nil
}

func (e *gpuEngine) Name() string { return "gpu" }

func (e *gpuEngine) BFS(src uint32) (*BFSResult, error) {
	done, err := e.use(AlgoBFS, "bfs")
	if err != nil {
		return nil, err
	}
	defer done()
	r, err := e.bfs.Run(src, e.opt.bfsOptions())
	if err != nil && src >= e.dg.N {
		return nil, fmt.Errorf("gpu: %w", err) // a source no vertex has: no id to name
	}
	if err != nil {
		return nil, fmt.Errorf("gpu: bfs from %d: %w", e.dg.G.External(src), err)
	}
	return r, nil
}

func (e *gpuEngine) CC() (*CCResult, error) {
	done, err := e.use(AlgoCC, "cc")
	if err != nil {
		return nil, err
	}
	defer done()
	r, err := e.cc.Run(e.opt.ccOptions())
	if err != nil {
		return nil, fmt.Errorf("gpu: cc: %w", err)
	}
	return r, nil
}

// PageRank runs on the device; opt.Workers means nothing there.
func (e *gpuEngine) PageRank(opt PageRankOptions) (*PageRankResult, error) {
	done, err := e.use(AlgoPageRank, "pagerank")
	if err != nil {
		return nil, err
	}
	defer done()
	if opt.Progress == nil {
		opt.Progress = e.opt.Progress
	}
	r, err := e.pr.Run(opt)
	if err != nil {
		return nil, fmt.Errorf("gpu: pagerank: %w", err)
	}
	return r, nil
}

func (e *gpuEngine) KCore() (*KCoreResult, error) {
	done, err := e.use(AlgoKCore, "kcore")
	if err != nil {
		return nil, err
	}
	defer done()
	r, err := e.kc.Run(kcore.Options{Progress: e.opt.Progress})
	if err != nil {
		return nil, fmt.Errorf("gpu: kcore: %w", err)
	}
	return r, nil
}

// SSSP runs delta-stepping on the device (sssp.GPU), with opt.Delta (opt.FloatDelta on
// float32 weights) or the CPU engine's default bin width. The weights are checked as the
// CPU engine checks them (EdgeWeights).
func (e *gpuEngine) SSSP(src uint32, opt SSSPOptions) (*SSSPResult, error) {
	done, err := e.use(AlgoSSSP, "sssp")
	if err != nil {
		return nil, err
	}
	defer done()
	w, err := EdgeWeights(e.dg.G, opt)
	if err != nil {
		return nil, err
	}
	so, err := sssp.Options{Delta: opt.Delta, FloatDelta: opt.FloatDelta, Parents: opt.Parents, Progress: e.opt.Progress}.Widths(store.NewCompressed(e.dg.G), w)
	if err != nil {
		return nil, err
	}
	r, err := e.sp.Run(src, w.Max(), opt.UnitWeights, so)
	if err != nil {
		return nil, fmt.Errorf("gpu: %w", err)
	}
	return r, nil
}

// Plan says what is where, for -v and --json.
func (e *gpuEngine) Plan() string {
	p := e.dg.Plan
	var b strings.Builder
	fmt.Fprintf(&b, "gpu %s: budget %s; state %s; graph %s resident, %s pinned zero-copy", e.dev.Name, bytesize.Format(p.Budget),
		bytesize.Format(gpu.Sum(p.State)), bytesize.Format(p.Resident), bytesize.Format(p.Pinned))
	if p.CacheBytes > 0 {
		fmt.Fprintf(&b, " (%s of it held in the staging buffers while no step streams)", bytesize.Format(p.CacheBytes))
	}
	fmt.Fprintf(&b, "; loaded in %.2f s (%s copied)", e.dg.LoadTime, bytesize.Format(e.dg.Copied))
	return b.String()
}

// GPUPlan is the memory plan the engine placed the graph by (tests read it).
func (e *gpuEngine) GPUPlan() *gpu.Plan { return e.dg.Plan }

// Memory reports the allocator's budget and peak and the device memory the driver
// reports taken since the engine's context was created (tests hold them to --vram).
func (e *gpuEngine) Memory() (budget, peak, driver int64, err error) {
	driver, err = e.dev.DriverUsed()
	return e.dev.Budget(), e.dev.Peak(), driver, err
}

func (e *gpuEngine) Close() error {
	if e.closed {
		return nil // freed once: a second free of the device's buffers would fault
	}
	e.closed = true
	var err error
	if e.bfs != nil {
		err = e.bfs.Close()
	}
	var closers []func() error
	if e.cc != nil {
		closers = append(closers, e.cc.Close)
	}
	if e.pr != nil {
		closers = append(closers, e.pr.Close)
	}
	if e.kc != nil {
		closers = append(closers, e.kc.Close)
	}
	if e.sp != nil {
		closers = append(closers, e.sp.Close)
	}
	for _, close := range closers {
		if cerr := close(); err == nil {
			err = cerr
		}
	}
	if cerr := e.dg.Close(); err == nil {
		err = cerr
	}
	if cerr := e.dev.Close(); err == nil {
		err = cerr
	}
	return err
}
