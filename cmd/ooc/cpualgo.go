package main

import (
	"github.com/oocgraph/ooc"
	"github.com/oocgraph/ooc/store"
)

// openCPUEngine opens the backend for an algorithm that runs on the CPU only so far
// (sssp): --backend auto means the CPU, --backend gpu is a usage error, and
// the rest is openEngine's (flags, checksums, the plan for -v).
func openCPUEngine(e *env, name string, g *store.Graph, a engineArgs, verbose bool) (ooc.Engine, error) {
	switch a.backend {
	case "gpu":
		return nil, usagef("--backend gpu: %s runs on the CPU only so far (use --backend cpu or auto)", name)
	case "auto", "":
		a.backend = "cpu"
	}
	return openEngine(e, g, a, verbose)
}
