package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
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
Usage: ooc sssp [--src V|random] [--seed X] [--delta D] [--unit-weights] [-o FILE]
                [--text] [--force] [--validate] [-v] [--json] [--backend auto|cpu|gpu]
                [--vram SIZE] [--workers N] [GRAPH]

Single-source shortest paths over the out-edges by delta-stepping (Meyer and Sanders,
2003, organized as the GAP benchmark suite's sssp): vertices wait in bins of width
--delta by tentative distance, and each step relaxes the edges of the smallest bin's
vertices on all cores, reading the compressed shards in place. With no GRAPH named, the
only *.ooc graph directory in the current directory is used.

The edge weights are those the graph stores (ooc ingest --weights, ooc gen --weights);
a graph without weights is a usage error unless --unit-weights, which weighs every edge
1 (the distances are then the BFS levels, a cross-check of both). On a graph with
float32 weights (ooc ingest of a real MatrixMarket file, or --float-weights) the
distances are float32: each path's sum rounded to float32 edge by edge, on either
engine, which --validate's Dijkstra computes the same way.

--src takes the vertex id as the input file numbered it; --src random (the default)
picks a vertex with out-edges using --seed. --delta 0 (the default) takes the largest
weight over the mean degree, at least 1 (on float weights: any positive width, 1 when
every weight is 0); a float graph's --delta may be a real number, an integer graph's
is a whole number.

The summary gives the source, the vertices reached, the largest distance, the steps,
delta, the time and the backend.

-o FILE writes the distances in binary, little-endian:

  magic "OOCSP001" (8 bytes) | vertices n (uint64) | source (uint64, internal id)
  | id base (uint32) | flags (uint32; bit 0: ids.bin maps the ids; bit 1: the
  distances are float32) | dist (n x uint32, or n x float32 with bit 1)
  | parent (n x uint32)

Entry i belongs to internal vertex i (own id i + id base, or the i-th id of ids.bin
when flagged); parents are internal ids too, each the smallest predecessor on a
shortest path; unreached vertices have distance and parent 0xFFFFFFFF (float32
distances too: those bits are a NaN, never a distance). With --text the
result is "vertex distance parent" lines (a float distance in the fewest digits that
read back to the same float32) in the file's own ids ("- -" for unreached),
on stdout unless -o is given. A FILE ending in .parquet gets a Parquet table instead:
columns id, distance (an integer, or a double for float32 distances) and parent (null
where unreached),
` + parquetHelp + `

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
	delta       float64
	unitWeights bool
	resultFlags
	engineArgs
}

func newSSSPFlags(e *env, a *ssspArgs) *flag.FlagSet {
	fs := newFlags(e, "sssp")
	fs.StringVar(&a.src, "src", "random", "source vertex `V` (the file's own id), or random")
	uintFlag(fs, &a.seed, "seed", 1, "seed `X` for a random source")
	fs.Var((*realNumber)(&a.delta), "delta", "bin width `D` of delta-stepping (0: from the weights; a real number on float32 weights)")
	fs.BoolVar(&a.unitWeights, "unit-weights", false, "weigh every edge 1")
	a.resultFlags.add(fs, resultHelp{result: "the distances", lines: "vertex distance parent", check: "check every distance against Dijkstra's algorithm", table: "the plan and a per-step table"})
	addEngineFlags(fs, &a.engineArgs)
	return fs
}

// ssspJSON is sssp's --json output.
type ssspJSON struct {
	Source      uint64  `json:"source"`
	Reached     uint64  `json:"reached"`
	MaxDistance float64 `json:"max_distance"` // an integer, or a float32's value on float weights
	Steps       int     `json:"steps"`
	Delta       float64 `json:"delta"`
	Float       bool    `json:"float_distances,omitempty"` // the distances are float32
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
	if a.delta < 0 || math.IsNaN(a.delta) || math.IsInf(a.delta, 0) {
		return usagef("--delta %g: want a non-negative bin width", a.delta)
	}
	var opt ooc.SSSPOptions
	var srcs []uint32
	run, err := openRun(e, "sssp", pos, a.resultFlags, &a.engineArgs, ooc.AlgoSSSP, func(dest *output, g *store.Graph) (err error) {
		opt = ooc.SSSPOptions{UnitWeights: a.unitWeights, Parents: dest != nil || a.validate}
		float := g.M.FloatWeights() && !a.unitWeights
		switch {
		case float && (a.delta > math.MaxFloat32 || (a.delta > 0 && float32(a.delta) == 0)):
			return usagef("--delta %g: want a bin width a float32 holds", a.delta)
		case float:
			opt.FloatDelta = float32(a.delta)
		case a.delta != math.Trunc(a.delta) || a.delta > float64(^uint32(0)):
			return usagef("--delta %g: the weights are integers: want a whole number from 0 to %d", a.delta, ^uint32(0))
		default:
			opt.Delta = uint32(a.delta)
		}
		srcs, err = pickSources(context.Background(), g, a.src, 1, a.seed)
		return err
	})
	if err != nil {
		return err
	}
	defer run.close()
	dest, g, eng := run.dest, run.g, run.eng
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
	out := ssspJSON{Source: g.External(r.Source), Reached: r.Reached, Steps: len(r.Steps), Delta: float64(r.Delta),
		Seconds: r.Seconds, Backend: eng.Name(), UnitWeights: a.unitWeights, Validated: a.validate, Float: r.Float}
	var maxDist uint32 // the bits of a float distance order as the floats
	for _, d := range r.Dist {
		if d != ooc.Infinity {
			maxDist = max(maxDist, d)
		}
	}
	out.MaxDistance = float64(maxDist)
	maxText, deltaText := strconv.FormatUint(uint64(maxDist), 10), strconv.FormatUint(uint64(r.Delta), 10)
	if r.Float {
		maxText, deltaText = floatText(math.Float32frombits(maxDist)), floatText(r.FloatDelta)
		// the shortest decimal of each float32, so that JSON shows 0.1, not 0.100000001
		out.MaxDistance, _ = strconv.ParseFloat(maxText, 64)
		out.Delta, _ = strconv.ParseFloat(deltaText, 64)
	}
	for _, s := range r.Steps {
		out.Edges += s.Edges
	}
	summary := a.summaryTo(e, dest)
	fmt.Fprintf(summary, "sssp: source %d: reached %s, largest distance %s, %s (delta %s), %s relaxed, %.6f s, backend %s%s\n",
		out.Source, plural.Of(out.Reached, "vertex"), maxText, plural.Of(out.Steps, "step"), deltaText, plural.Of(out.Edges, "edge"), out.Seconds, eng.Name(), validatedNote(a.validate))
	return a.finish(e, dest, func(d *output) error { return writeSSSP(d, g, r, a.text) }, out)
}

// floatText is a float32 in the fewest digits that read back to it.
func floatText(x float32) string { return strconv.FormatFloat(float64(x), 'g', -1, 32) }

// ssspFloatFlag is the -o header's flag bit of float32 distances.
const ssspFloatFlag = 1 << 1

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
			{parquetio.Column{Name: "distance", Nullable: true, Float: r.Float}, func(v uint32) parquetio.Cell {
				return parquetio.Cell{V: uint64(r.Dist[v]), F: float64(math.Float32frombits(r.Dist[v])), Null: r.Dist[v] == ooc.Infinity}
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
				if r.Float {
					b = strconv.AppendFloat(append(b, ' '), float64(math.Float32frombits(r.Dist[v])), 'g', -1, 32)
				} else {
					b = strconv.AppendUint(append(b, ' '), uint64(r.Dist[v]), 10)
				}
				return strconv.AppendUint(append(b, ' '), g.External(r.Parent[v]), 10)
			})
		}
		var flags uint32
		if r.Float {
			flags = ssspFloatFlag
		}
		writeHeaderFlags(w, g, ssspMagic, len(r.Dist), flags, r.Source)
		writeU32s(w, r.Dist)
		return writeU32s(w, r.Parent)
	}
	return dest.write(write)
}
