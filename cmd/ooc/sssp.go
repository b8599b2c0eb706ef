package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"

	"github.com/oocgraph/ooc"
	"github.com/oocgraph/ooc/internal/parquetio"
	"github.com/oocgraph/ooc/internal/plural"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

func init() {
	register(&command{name: "sssp", summary: "shortest paths: the distance of every vertex from a source", help: ssspHelp + outputRules, run: runSSSP})
	flagSets["sssp"] = func(e *env) *flag.FlagSet { return newSSSPFlags(e, &ssspArgs{}) }
}

const ssspHelp = `
Usage: ooc sssp [--src V|random] [--seed N] [--delta D] [--unit-weights] [-o FILE]
                [--text] [--validate] [-v] [--json] [--backend auto|cpu|gpu] [--vram SIZE]
                [--workers N] [GRAPH]

Single-source shortest paths over the out-edges by delta-stepping (Meyer and Sanders,
2003, organized as the GAP benchmark suite's sssp): vertices wait in bins of width
--delta by tentative distance, and each step relaxes the edges of the smallest bin's
vertices on all cores, reading the compressed shards in place. With no GRAPH named, the
only *.ooc graph directory in the current directory is used.

The edge weights are those the graph stores (ooc ingest --weights, ooc gen --weights);
a graph without weights is a usage error unless --unit-weights, which weighs every edge
1 (the distances are then the BFS levels, a cross-check of both).

--src takes the vertex id as the input file numbered it; --src random (the default)
picks a vertex with out-edges using --seed. --delta 0 (the default) takes the largest
weight over the mean degree, at least 1.

The summary gives the source, the vertices reached, the largest distance, the steps,
delta, the time and the backend.

-o FILE writes the distances in binary, little-endian:

  magic "OOCSP001" (8 bytes) | vertices n (uint64) | source (uint64, internal id)
  | id base (uint32) | flags (uint32; bit 0: ids.bin maps the ids) | dist (n x uint32)
  | parent (n x uint32)

Entry i belongs to internal vertex i (own id i + id base, or the i-th id of ids.bin
when flagged); parents are internal ids too, each the smallest predecessor on a
shortest path; unreached vertices have distance and parent 0xFFFFFFFF. With --text the
result is "vertex distance parent" lines in the file's own ids ("- -" for unreached),
on stdout unless -o is given. A FILE ending in .parquet gets a Parquet table instead:
columns id, distance and parent (null where unreached), ` + parquetHelp + `

--validate computes the distances again with Dijkstra's algorithm and checks that every
one is equal, and that the parents form a shortest-path tree.

On the GPU (--backend gpu, or auto when this build has CUDA and a GPU is usable) the
distances are found by delta-stepping too (the same --delta; a bin's near queue is
relaxed in rounds with atomic minima, later bins wait in a far pile; the steps are the
rounds, driven by the device itself), then the same parents; the graph is placed within
--vram and the lists that do not fit are read zero-copy over the link. The weights are
narrowed to 1 or 2 bytes when the largest allows, and kept on the device when the
budget left after the lists holds them, else read zero-copy from pinned host memory.

On a terminal, a run that takes more than a second shows how far it has got on one
line of stderr (the bin and the edges relaxed), erased when it ends.

Examples:
  ooc ingest --weights --directed road.gr && ooc sssp --src 1 --validate road.ooc
  ooc sssp --unit-weights --src 0 --validate road.ooc
  ooc sssp --unit-weights -o dist.bin --json kron24.ooc
`

type ssspArgs struct {
	src         string
	seed        uint64
	delta       uint
	unitWeights bool
	resultFlags
	engineArgs
}

func newSSSPFlags(e *env, a *ssspArgs) *flag.FlagSet {
	fs := newFlags(e, "sssp")
	fs.StringVar(&a.src, "src", "random", "source vertex `V` (the file's own id), or random")
	fs.Uint64Var(&a.seed, "seed", 1, "seed for a random source")
	fs.UintVar(&a.delta, "delta", 0, "bin width `D` of delta-stepping (0: from the weights)")
	fs.BoolVar(&a.unitWeights, "unit-weights", false, "weigh every edge 1")
	a.resultFlags.add(fs, resultHelp{result: "the distances", lines: "vertex distance parent", check: "check every distance against Dijkstra's algorithm", table: "the plan and a per-step table"})
	addEngineFlags(fs, &a.engineArgs)
	return fs
}

// ssspJSON is sssp's --json output.
type ssspJSON struct {
	Source      uint64  `json:"source"`
	Reached     uint64  `json:"reached"`
	MaxDistance uint32  `json:"max_distance"`
	Steps       int     `json:"steps"`
	Delta       uint32  `json:"delta"`
	Edges       uint64  `json:"edges_relaxed"`
	Seconds     float64 `json:"seconds"`
	Backend     string  `json:"backend"`
	UnitWeights bool    `json:"unit_weights"`
	Validated   bool    `json:"validated"`
}

func runSSSP(e *env, args []string) error {
	var a ssspArgs
	pos, err := parseFlags(e, newSSSPFlags(e, &a), args)
	if err != nil {
		return err
	}
	if a.delta > uint(^uint32(0)) {
		return usagef("--delta %d: want at most %d", a.delta, ^uint32(0))
	}
	dest, g, err := openResultGraph(e, "sssp", pos, a.resultFlags)
	if err != nil {
		return err
	}
	defer g.Close()
	opt := ooc.SSSPOptions{Delta: uint32(a.delta), UnitWeights: a.unitWeights, Parents: dest != nil || a.validate}
	srcs, err := pickSources(g, a.src, 1, a.seed)
	if err != nil {
		return err
	}
	eng, err := openEngine(e, g, a.engineArgs, a.verbose, ooc.AlgoSSSP)
	if err != nil {
		return err
	}
	defer eng.Close()
	r, err := eng.SSSP(srcs[0], opt)
	if errors.Is(err, ooc.ErrNoWeights) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	if a.verbose {
		printSteps(e.stderr, r)
	}
	if a.validate {
		w, err := ooc.EdgeWeights(g, opt)
		if err != nil {
			return err
		}
		err = validate.SSSP(g, w, r.Source, r.Dist)
		if err == nil {
			err = validate.SSSPParents(g, w, r.Source, r.Dist, r.Parent)
		}
		if err != nil {
			return fmt.Errorf("sssp from %d (%s backend): %w", g.External(r.Source), eng.Name(), err)
		}
	}
	out := ssspJSON{Source: g.External(r.Source), Reached: r.Reached, Steps: len(r.Steps), Delta: r.Delta,
		Seconds: r.Seconds, Backend: eng.Name(), UnitWeights: a.unitWeights, Validated: a.validate}
	for _, d := range r.Dist {
		if d != ooc.Infinity {
			out.MaxDistance = max(out.MaxDistance, d)
		}
	}
	for _, s := range r.Steps {
		out.Edges += s.Edges
	}
	summary := a.summaryTo(e, dest)
	fmt.Fprintf(summary, "sssp: source %d: reached %s, largest distance %d, %s (delta %d), %s relaxed, %.6f s, backend %s%s\n",
		out.Source, plural.Of(out.Reached, "vertex"), out.MaxDistance, plural.Of(out.Steps, "step"), out.Delta, plural.Of(out.Edges, "edge"), out.Seconds, eng.Name(), validatedNote(a.validate))
	return a.finish(e, dest, func(d *output) error { return writeSSSP(d, g, r, a.text) }, out)
}

func printSteps(w io.Writer, r *ooc.SSSPResult) {
	fmt.Fprintf(w, "%8s %12s %14s %14s %12s %10s\n", "bin", "frontier", "edges relaxed", "zero-copy MB", "copied MB", "ms")
	for _, s := range r.Steps {
		cp := "-" // not held for the host
		if s.Held {
			cp = fmt.Sprintf("%.1f", float64(s.BytesCopied)/1e6)
		}
		fmt.Fprintf(w, "%8d %12d %14d %14.1f %12s %10.3f\n", s.Bin, s.Frontier, s.Edges, float64(s.BytesZeroCopy)/1e6, cp, s.Seconds*1e3)
	}
}

const ssspMagic = "OOCSP001"

// writeSSSP writes the distances to dest.
func writeSSSP(dest *output, g *store.Graph, r *ooc.SSSPResult, text bool) error {
	if isParquetName(dest.name) {
		unsigned := idsUnsigned(g)
		return writeResultTable(dest, g, unsigned, []resultColumn{
			{parquetio.Column{Name: "distance", Nullable: true}, func(v uint32) parquetio.Cell {
				return parquetio.Cell{V: uint64(r.Dist[v]), Null: r.Dist[v] == ooc.Infinity}
			}},
			{idColumn("parent", unsigned, true), func(v uint32) parquetio.Cell {
				if r.Dist[v] == ooc.Infinity {
					return parquetio.Cell{Null: true}
				}
				return parquetio.Cell{V: g.External(r.Parent[v])}
			}},
		})
	}
	write := func(w *bufio.Writer) error {
		if text {
			return writeRows(w, g, len(r.Dist), func(b []byte, v uint32) []byte {
				if r.Dist[v] == ooc.Infinity {
					return append(b, " - -"...)
				}
				b = strconv.AppendUint(append(b, ' '), uint64(r.Dist[v]), 10)
				return strconv.AppendUint(append(b, ' '), g.External(r.Parent[v]), 10)
			})
		}
		writeHeader(w, g, ssspMagic, len(r.Dist), r.Source)
		writeU32s(w, r.Dist)
		return writeU32s(w, r.Parent)
	}
	return dest.write(write)
}
