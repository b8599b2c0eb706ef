package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/oocgraph/ooc"
	"github.com/oocgraph/ooc/internal/plural"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

func init() {
	register(&command{name: "kcore", summary: "k-core decomposition: the core number of every vertex", help: kcoreHelp + outputRules, run: runKCore})
	flagSets["kcore"] = func(e *env) *flag.FlagSet { return newKCoreFlags(e, &kcoreArgs{}) }
}

const kcoreHelp = `
Usage: ooc kcore [-o FILE] [--text] [--force] [--validate] [-v] [--json]
                 [--backend auto|cpu|gpu] [--vram SIZE] [--workers N] [GRAPH]

The core number of every vertex: the largest k such that the vertex belongs to a
subgraph in which every vertex has at least k neighbours (Seidman, 1983). Vertices are
peeled in parallel by levels of their current degree, reading each vertex's lists once,
from the compressed shards in place. With no GRAPH named, the only *.ooc graph
directory in the current directory is used.

Degrees are those the graph stores: on a directed graph the edges count as undirected,
each directed edge once (a vertex's degree is its in-degree plus its out-degree, so a
reciprocal pair counts twice); a self-loop kept at ingest counts once.

The summary gives the largest core number (the degeneracy), the vertices that have
it, the number of levels, the time and the backend.

-o FILE writes the core numbers in binary, little-endian:

  magic "OOCKC001" (8 bytes) | vertices n (uint64) | id base (uint32)
  | flags (uint32; bit 0: ids.bin maps the ids) | core (n x uint32)

Entry i belongs to internal vertex i (own id i + id base, or the i-th id of ids.bin
when flagged). With --text the result is "vertex core" lines in the file's own ids, on
stdout unless -o is given. A FILE ending in .parquet gets a Parquet table instead:
columns id and core,
` + parquetHelp + `

--validate computes the core numbers again with the sequential algorithm of Batagelj
and Zaversnik (2003) and checks that every one is equal.

On the GPU (--backend gpu, or auto when this build has CUDA and a GPU is usable) the
degrees and the queues stay in device memory and the graph is placed within --vram;
each round reads only the lists of the vertices it removes, those that do not fit on
the device zero-copy over the link (-v adds the bytes per level).

On a terminal, a run that takes more than a second shows how far it has got on one
line of stderr (the core number and the vertices removed), erased when it ends.

Examples:
  ooc kcore
  ooc kcore -o core.bin --json kron24.ooc
  ooc kcore --validate -v web.ooc
`

type kcoreArgs struct {
	resultFlags
	engineArgs
}

func newKCoreFlags(e *env, a *kcoreArgs) *flag.FlagSet {
	fs := newFlags(e, "kcore")
	a.resultFlags.add(fs, resultHelp{result: "the core numbers", lines: "vertex core", check: "check every core number against Batagelj-Zaversnik", table: "the plan and a per-level table"})
	addEngineFlags(fs, &a.engineArgs)
	return fs
}

// kcoreJSON is kcore's --json output.
type kcoreJSON struct {
	MaxCore         uint32  `json:"max_core"`
	MaxCoreVertices uint64  `json:"max_core_vertices"`
	Levels          int     `json:"levels"`
	Seconds         float64 `json:"seconds"`
	Backend         string  `json:"backend"`
	Validated       bool    `json:"validated"`
}

func runKCore(e *env, args []string) error {
	var a kcoreArgs
	pos, err := parseFlags(e, newKCoreFlags(e, &a), args)
	if err != nil {
		return err
	}
	run, err := openRun(e, "kcore", pos, a.resultFlags, &a.engineArgs, ooc.AlgoKCore, nil)
	if err != nil {
		return err
	}
	defer run.close()
	dest, g, eng := run.dest, run.g, run.eng
	r, err := eng.KCore()
	if err != nil {
		return err
	}
	if a.verbose {
		printCoreLevels(e.stderr, r)
	}
	if a.validate {
		if _, err := validate.KCore(g, r.Core); err != nil {
			return fmt.Errorf("kcore (%s backend): %w", eng.Name(), err)
		}
	}
	out := kcoreJSON{MaxCore: r.MaxCore, Levels: len(r.Levels), Seconds: r.Seconds, Backend: eng.Name(), Validated: a.validate}
	if len(r.Levels) > 0 {
		out.MaxCoreVertices = r.Levels[len(r.Levels)-1].Removed
	}
	summary := a.summaryTo(e, dest)
	fmt.Fprintf(summary, "kcore: max core %d (%s), %s, %.6f s, backend %s%s\n",
		out.MaxCore, plural.Of(out.MaxCoreVertices, "vertex"), plural.Of(out.Levels, "level"), out.Seconds, eng.Name(), validatedNote(a.validate))
	return a.finish(e, dest, func(d *output) error { return writeKCore(d, g, r.Core, a.text) }, out)
}

func printCoreLevels(w io.Writer, r *ooc.KCoreResult) {
	link := false
	for _, s := range r.Levels {
		link = link || s.BytesZeroCopy > 0
	}
	fmt.Fprintf(w, "%8s %12s %7s %14s %10s", "core", "removed", "rounds", "edges read", "ms")
	if link {
		fmt.Fprintf(w, " %12s", "zero-copy MB")
	}
	fmt.Fprintln(w)
	for _, s := range r.Levels {
		fmt.Fprintf(w, "%8d %12d %7d %14d %10.3f", s.K, s.Removed, s.Rounds, s.Edges, s.Seconds*1e3)
		if link {
			fmt.Fprintf(w, " %12.1f", float64(s.BytesZeroCopy)/1e6)
		}
		fmt.Fprintln(w)
	}
}

const kcoreMagic = "OOCKC001"

// writeKCore writes the core numbers to dest.
func writeKCore(dest *output, g *store.Graph, core []uint32, text bool) error {
	return writeVertexValues(dest, g, kcoreMagic, core, text, "core", false, func(v uint32) uint64 { return uint64(core[v]) })
}
