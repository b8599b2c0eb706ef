// Package cpu registers the "cpu" backend with package engine: direction-optimizing BFS
// (package bfs) and Afforest (package afforest) on all cores, reading the compressed
// shards in place. Import it for its side effect:
//
//	import _ "github.com/oocgraph/ooc/internal/engine/cpu"
package cpu

import (
	"fmt"

	"github.com/oocgraph/ooc"
	"github.com/oocgraph/ooc/afforest"
	"github.com/oocgraph/ooc/bfs"
	"github.com/oocgraph/ooc/internal/parallel"
	"github.com/oocgraph/ooc/store"
)

func init() { ooc.Register("cpu", Open) }

// Engine is the CPU backend.
type Engine struct {
	g   *store.Graph
	adj *store.Compressed
	opt ooc.Options
}

// Open wraps a checked graph (ooc.Open has run g.Check).
func Open(g *store.Graph, opt ooc.Options) (ooc.Engine, error) {
	opt = opt.WithDefaults()
	opt.Workers = parallel.Workers(opt.Workers)
	return &Engine{g: g, adj: store.NewCompressed(g), opt: opt}, nil
}

func (e *Engine) Name() string { return "cpu" }

func (e *Engine) BFS(src uint32) (*ooc.BFSResult, error) { return bfs.BFS(e.adj, src, e.opt) }

func (e *Engine) CC() (*ooc.CCResult, error) { return afforest.Run(e.adj, e.opt) }

func (e *Engine) Plan() string {
	return fmt.Sprintf("cpu: %d workers; %d vertices, %d edges in %d compressed shards read in place (mmap), no decompressed copy; BFS alpha=%d beta=%d; Afforest rounds=%d",
		e.opt.Workers, e.g.NumVertices(), e.g.NumEdges(), len(e.g.Shards()), e.opt.Alpha, e.opt.Beta, e.opt.AfforestRounds)
}

func (e *Engine) Close() error { return nil }
