package main

import (
	"fmt"

	"github.com/oocgraph/ooc/internal/parallel"
	"github.com/oocgraph/ooc/store"
)

// openCPU prepares a CPU-only algorithm (pagerank, kcore) on g: it checks the flags
// (--backend gpu is a usage error until the algorithm has a GPU version; auto means the
// CPU), verifies the graph's checksums, as engine.Open does for bfs and cc, and returns
// the compressed shards to read and the worker count.
func openCPU(e *env, name string, g *store.Graph, a engineArgs, verbose bool) (*store.Compressed, int, error) {
	switch {
	case a.workers < 0:
		return nil, 0, usagef("--workers %d: want 0 (all cores) or more", a.workers)
	case a.backend == "gpu":
		return nil, 0, usagef("--backend gpu: %s runs on the CPU only so far (use --backend cpu or auto)", name)
	case a.backend != "auto" && a.backend != "cpu" && a.backend != "":
		return nil, 0, usagef("unknown backend %q (expected auto, cpu or gpu)", a.backend)
	}
	if err := g.Check(); err != nil {
		return nil, 0, err
	}
	workers := parallel.Workers(a.workers)
	if verbose {
		fmt.Fprintf(e.stderr, "plan: cpu: %d workers; %d vertices, %d edges in %d compressed shards read in place (mmap)\n",
			workers, g.NumVertices(), g.NumEdges(), len(g.Shards()))
	}
	return store.NewCompressed(g), workers, nil
}
