package main

import (
	"fmt"

	"github.com/oocgraph/ooc/ingest"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/internal/parallel"
	"github.com/oocgraph/ooc/internal/plural"
	"github.com/oocgraph/ooc/store"
)

// Memory a command holds per vertex of the graph (results, frontiers, scratch, and the
// mapped DEGREES and OFFSETS pages it touches), without and with --validate: the peak
// resident size of each command on a graph of 2^26 vertices and 2 edges, rounded up.
var vertexBytes = map[string][2]int64{
	"bfs":      {16, 16},
	"cc":       {16, 24},
	"pagerank": {24, 44},
	"kcore":    {12, 24},
	"sssp":     {16, 24}, // 12 measured without -o; the parents -o writes take 4 more
}

// machineMem is the memory this process may use (cgroup-aware); tests replace it.
var machineMem = ingest.MachineMem

// checkMemory refuses to start a command whose per-vertex state alone exceeds the
// memory this process may use: the kernel's out-of-memory killer would otherwise end it
// half-way, with no message. Every command that allocates per-vertex state calls it
// before allocating.
func checkMemory(cmd string, g *store.Graph, validate bool) error {
	perVertex := vertexBytes[cmd][0]
	if validate {
		perVertex = vertexBytes[cmd][1]
	}
	have := machineMem()
	need := perVertex * int64(g.NumVertices())
	if have <= 0 || need <= have {
		return nil
	}
	fix := "run it on a machine with more memory"
	if g.M.IDs == nil && uint64(g.NumVertices()) > 64*max(g.NumEdges(), 1) {
		fix = "most of its vertices have no edges: re-ingest with --relabel to number the distinct ids 0..n-1"
	}
	return fmt.Errorf("%s needs about %s of memory for %d vertices (%d bytes each) and this machine has %s: %s",
		cmd, bytesize.Format(need), g.NumVertices(), perVertex, bytesize.Format(have), fix)
}

// maxWorkers bounds --workers (the API refuses a count past it alike).
const maxWorkers = parallel.MaxWorkers

// checkWorkers validates --workers (0: all cores).
func checkWorkers(n int) error {
	if n < 0 || n > maxWorkers {
		return usagef("--workers %d: want 0 (all cores) to %d", n, maxWorkers)
	}
	return nil
}

// checkSources bounds a count of sources by the vertices there are to start from.
func checkSources(n int, g *store.Graph) error {
	if uint64(n) > uint64(g.NumVertices()) {
		return usagef("--sources %d: the graph has %s", n, plural.Of(g.NumVertices(), "vertex"))
	}
	return nil
}
