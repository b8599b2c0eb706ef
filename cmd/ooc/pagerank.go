package main

import (
	"bufio"
	"encoding/binary"
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
	register(&command{name: "pagerank", summary: "PageRank: a score per vertex, the top vertices printed", help: pagerankHelp + outputRules, run: runPageRank})
	flagSets["pagerank"] = func(e *env) *flag.FlagSet { return newPageRankFlags(e, &pagerankArgs{}) }
}

const pagerankHelp = `
Usage: ooc pagerank [--top K] [--tolerance X] [--max-iters N] [-o FILE] [--text] [--force]
                    [--validate] [-v] [--json] [--backend auto|cpu|gpu] [--vram SIZE]
                    [--workers N] [GRAPH]

PageRank (Page, Brin, Motwani, Winograd, 1999) with the model of the GAP benchmark
suite: damping 0.85, and a vertex without out-edges passes its score to nobody (its
share leaves the system, so the scores then sum to less than one). Each iteration
pulls every vertex's new score from the previous scores of its in-neighbours, reading
the compressed shards in place on all cores, until the scores change by less than
--tolerance in L1 or --max-iters iterations have run. Scores are float32. With no
GRAPH named, the only *.ooc graph directory in the current directory is used.

The summary gives the iterations, the last L1 change and whether it fell below the
tolerance, the time and the backend, followed by the --top highest-scoring vertices
in the file's own ids. The scores lie within (0.85 c + 1e-6) / 0.15 of the exact
fixed point in L1, where c is the last change: about 6 times the tolerance.

-o FILE writes the scores in binary, little-endian:

  magic "OOCPR001" (8 bytes) | vertices n (uint64) | id base (uint32)
  | flags (uint32; bit 0: ids.bin maps the ids) | score (n x float32)

Entry i belongs to internal vertex i (own id i + id base, or the i-th id of ids.bin
when flagged). With --text the scores are "vertex score" lines in the file's own ids,
on stdout unless -o is given. A FILE ending in .parquet gets a Parquet table instead:
columns id and score (DOUBLE),
` + parquetHelp + `

--validate computes the scores again by power iteration in float64 to an L1 change
below 1e-9 and checks that the result lies within the bound above.

On the GPU (--backend gpu, or auto when this build has CUDA and a GPU is usable) the
scores, contributions and out-degrees stay in device memory and the graph is placed
within --vram: the in-lists that do not fit are streamed to the device every iteration
(asynchronous copies into two staging buffers, overlapped with the summing) or read
zero-copy over the link. -v then adds the bytes each iteration moved over the link.

On a terminal, a run that takes more than a second shows how far it has got on one
line of stderr (the iteration and its L1 change), erased when it ends.

Examples:
  ooc pagerank --top 10 web.ooc
  ooc pagerank -o pr.bin --json kron24.ooc
  ooc pagerank --tolerance 1e-6 --max-iters 200 --validate -v web.ooc
`

type pagerankArgs struct {
	top       int
	tolerance float64
	maxIters  int
	resultFlags
	engineArgs
}

func newPageRankFlags(e *env, a *pagerankArgs) *flag.FlagSet {
	fs := newFlags(e, "pagerank")
	intFlag(fs, &a.top, "top", 10, "print the `K` highest-scoring vertices (0: none)")
	a.tolerance = ooc.DefaultPageRankTolerance
	fs.Var((*realNumber)(&a.tolerance), "tolerance", "stop once an iteration changes the scores by less than `X` in L1")
	intFlag(fs, &a.maxIters, "max-iters", ooc.DefaultPageRankMaxIters, "stop after `N` iterations")
	a.resultFlags.add(fs, resultHelp{result: "the scores", lines: "vertex score", check: "check the scores against a float64 power iteration", table: "the plan and a per-iteration table"})
	addEngineFlags(fs, &a.engineArgs)
	return fs
}

// pagerankJSON is pagerank's --json output.
type pagerankJSON struct {
	Iterations    int          `json:"iterations"`
	Change        float64      `json:"change"`
	Converged     bool         `json:"converged"`
	Tolerance     float64      `json:"tolerance"`
	MaxIters      int          `json:"max_iters"`
	ErrorBound    float64      `json:"error_bound"`
	Seconds       float64      `json:"seconds"`
	SecondsPerIt  float64      `json:"seconds_per_iteration"`
	Backend       string       `json:"backend"`
	Validated     bool         `json:"validated"`
	L1FromRef     *float64     `json:"l1_from_reference,omitempty"`
	Top           []vertexRank `json:"top"`
	EdgesPerIter  uint64       `json:"edges_per_iteration"`
	VerticesTotal uint32       `json:"vertices"`
}

type vertexRank struct {
	Vertex uint64  `json:"vertex"`
	Score  float32 `json:"score"`
}

func runPageRank(e *env, args []string) error {
	var a pagerankArgs
	pos, err := parseFlags(e, newPageRankFlags(e, &a), args)
	if err != nil {
		return err
	}
	switch {
	case !(a.tolerance > 0) || math.IsInf(a.tolerance, 0):
		return usagef("--tolerance %v: want a positive number", a.tolerance)
	case a.maxIters < 1:
		return usagef("--max-iters %d: want at least 1", a.maxIters)
	case a.top < 0:
		return usagef("--top %d: want 0 or more", a.top)
	}
	run, err := openRun(e, "pagerank", pos, a.resultFlags, &a.engineArgs, ooc.AlgoPageRank, nil)
	if err != nil {
		return err
	}
	defer run.close()
	dest, g, eng := run.dest, run.g, run.eng
	r, err := eng.PageRank(ooc.PageRankOptions{Tolerance: a.tolerance, MaxIters: a.maxIters})
	if err != nil {
		return err
	}
	out := pagerankJSON{Iterations: r.Iterations, Change: r.Change, Converged: r.Converged, Tolerance: a.tolerance,
		MaxIters: a.maxIters, ErrorBound: r.ErrorBound(), Seconds: r.Seconds, Backend: eng.Name(), Validated: a.validate,
		EdgesPerIter: g.NumEdges(), VerticesTotal: g.NumVertices(), Top: []vertexRank{}}
	if r.Iterations > 0 {
		out.SecondsPerIt = r.Seconds / float64(r.Iterations)
	}
	if a.verbose {
		printIterations(e.stderr, r)
	}
	validated := ""
	if a.validate {
		d, err := validate.PageRank(g, r.Scores, r.ErrorBound())
		if err != nil {
			return fmt.Errorf("pagerank (%s backend): %w", eng.Name(), err)
		}
		out.L1FromRef = &d
		validated = fmt.Sprintf(", validated (%.2g from the reference in L1)", d)
	}
	for _, v := range r.Top(a.top) {
		out.Top = append(out.Top, vertexRank{Vertex: g.External(v), Score: r.Scores[v]})
	}
	summary := a.summaryTo(e, dest)
	state := "converged"
	if !r.Converged {
		state = "not converged: the --max-iters limit came first"
	}
	fmt.Fprintf(summary, "pagerank: %s, last L1 change %.3g (%s), %.6f s, %.6f s per iteration, backend %s%s\n",
		plural.Of(r.Iterations, "iteration"), r.Change, state, r.Seconds, out.SecondsPerIt, eng.Name(), validated)
	if len(out.Top) > 0 {
		fmt.Fprintf(summary, "%6s %14s %14s\n", "rank", "vertex", "score")
		for i, t := range out.Top {
			fmt.Fprintf(summary, "%6d %14d %14s\n", i+1, t.Vertex, strconv.FormatFloat(float64(t.Score), 'g', -1, 32))
		}
	}
	return a.finish(e, dest, func(d *output) error { return writePageRank(d, g, r.Scores, a.text) }, out)
}

func printIterations(w io.Writer, r *ooc.PageRankResult) {
	link := false
	for _, s := range r.Iters {
		link = link || s.BytesCopied+s.BytesZeroCopy > 0
	}
	fmt.Fprintf(w, "%6s %12s %14s %10s", "iter", "L1 change", "edges", "ms")
	if link {
		fmt.Fprintf(w, " %12s %12s %8s", "copied MB", "zero-copy MB", "GB/s")
		if r.CopyBps > 0 {
			fmt.Fprintf(w, " %12s", "% of probe")
		}
	}
	fmt.Fprintln(w)
	for _, s := range r.Iters {
		fmt.Fprintf(w, "%6d %12.4g %14d %10.3f", s.Iter, s.Change, s.Edges, s.Seconds*1e3)
		if link {
			b := s.BytesCopied + s.BytesZeroCopy
			rate := float64(b) / max(s.Seconds, 1e-9)
			fmt.Fprintf(w, " %12.1f %12.1f %8.1f", float64(s.BytesCopied)/1e6, float64(s.BytesZeroCopy)/1e6, rate/1e9)
			if r.CopyBps > 0 {
				// the copied bytes over the iteration's time, against the probe's copy rate
				fmt.Fprintf(w, " %12.0f", 100*float64(s.BytesCopied)/max(s.Seconds, 1e-9)/r.CopyBps)
			}
		}
		fmt.Fprintln(w)
	}
	if link && r.CopyBps > 0 {
		fmt.Fprintf(w, "the link probe copied at %.1f GB/s\n", r.CopyBps/1e9)
	}
}

const pagerankMagic = "OOCPR001"

// writePageRank writes the scores to dest.
func writePageRank(dest *output, g *store.Graph, scores []float32, text bool) error {
	if isParquetName(dest.name) {
		return writeResultTable(dest, g, idsUnsigned(g), []resultColumn{
			{parquetio.Column{Name: "score", Float: true}, func(v uint32) parquetio.Cell { return parquetio.Cell{F: float64(scores[v])} }},
		})
	}
	write := func(w *bufio.Writer) error {
		if text {
			return writeRows(w, g, len(scores), func(b []byte, v uint32) []byte {
				return strconv.AppendFloat(append(b, ' '), float64(scores[v]), 'g', -1, 32)
			})
		}
		writeHeader(w, g, pagerankMagic, len(scores))
		var b [4]byte
		for _, s := range scores {
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(s))
			if _, err := w.Write(b[:]); err != nil {
				return err
			}
		}
		return nil
	}
	return dest.write(write)
}
