package ooc

import (
	"fmt"

	"github.com/oocgraph/ooc/afforest"
	"github.com/oocgraph/ooc/bfs"
	"github.com/oocgraph/ooc/internal/parallel"
	"github.com/oocgraph/ooc/internal/plural"
	"github.com/oocgraph/ooc/kcore"
	"github.com/oocgraph/ooc/pagerank"
	"github.com/oocgraph/ooc/sssp"
	"github.com/oocgraph/ooc/store"
)

// cpuEngine is the "cpu" backend: direction-optimizing BFS (package bfs), Afforest
// (package afforest), PageRank (package pagerank), k-core (package kcore) and SSSP
// (package sssp) on all cores, reading the compressed shards in place.
type cpuEngine struct {
	g      *store.Graph
	adj    *store.Compressed
	opt    Options
	closed bool
}

// openCPU wraps a checked graph (Open has run g.Check).
func openCPU(g *store.Graph, opt Options) (Engine, error) {
	opt = opt.WithDefaults()
	opt.Workers = parallel.Workers(opt.Workers)
	return &cpuEngine{g: g, adj: store.NewCompressed(g), opt: opt}, nil
}

func (e *cpuEngine) Name() string { return "cpu" }

func (e *cpuEngine) BFS(src uint32) (*BFSResult, error) {
	done, err := e.use()
	if err != nil {
		return nil, err
	}
	defer done()
	return bfs.Run(e.adj, src, e.opt.bfsOptions())
}

func (e *cpuEngine) CC() (*CCResult, error) {
	done, err := e.use()
	if err != nil {
		return nil, err
	}
	defer done()
	return afforest.Run(e.adj, e.opt.ccOptions())
}

// use holds the graph's mappings for one run (store.Graph.Use): a graph closed since
// the engine opened is refused, and one closed during the run stays mapped to its end;
// so is a run after the engine's Close.
func (e *cpuEngine) use() (done func(), err error) {
	if e.closed {
		return nil, fmt.Errorf("engine: %w", ErrEngineClosed)
	}
	done, err = e.g.Use()
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	return done, nil
}

func (e *cpuEngine) PageRank(opt PageRankOptions) (*PageRankResult, error) {
	done, err := e.use()
	if err != nil {
		return nil, err
	}
	defer done()
	if opt.Workers == 0 {
		opt.Workers = e.opt.Workers
	}
	if opt.Progress == nil {
		opt.Progress = e.opt.Progress
	}
	return pagerank.Run(e.adj, opt)
}

func (e *cpuEngine) KCore() (*KCoreResult, error) {
	done, err := e.use()
	if err != nil {
		return nil, err
	}
	defer done()
	return kcore.Run(e.adj, kcore.Options{Workers: e.opt.Workers, Progress: e.opt.Progress})
}

func (e *cpuEngine) SSSP(src uint32, opt SSSPOptions) (*SSSPResult, error) {
	done, err := e.use()
	if err != nil {
		return nil, err
	}
	defer done()
	w, err := EdgeWeights(e.g, opt)
	if err != nil {
		return nil, err
	}
	return sssp.Run(e.adj, w, src, sssp.Options{Workers: e.opt.Workers, Delta: opt.Delta, FloatDelta: opt.FloatDelta, Parents: opt.Parents, Progress: e.opt.Progress})
}

func (e *cpuEngine) Plan() string {
	return fmt.Sprintf("cpu: %s; %s, %s in %s read in place (mmap), no decompressed copy; BFS alpha=%d beta=%d; Afforest rounds=%d",
		plural.Of(e.opt.Workers, "worker"), plural.Of(e.g.NumVertices(), "vertex"), plural.Of(e.g.NumEdges(), "edge"), plural.Of(len(e.g.Shards()), "compressed shard"), e.opt.Alpha, e.opt.Beta, e.opt.AfforestRounds)
}

func (e *cpuEngine) Close() error {
	e.closed = true
	return nil
}
