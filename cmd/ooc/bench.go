package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/oocgraph/ooc"
	"github.com/oocgraph/ooc/gen"
	"github.com/oocgraph/ooc/ingest"
	"github.com/oocgraph/ooc/internal/plural"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

func init() {
	register(&command{name: "bench", summary: "generate, ingest, run and validate BFS and CC, report one table", help: benchHelp, run: runBench})
	flagSets["bench"] = func(e *env) *flag.FlagSet { return newBenchFlags(e, &benchArgs{}) }
}

const benchHelp = `
Usage: ooc bench KIND --scale S [--edgefactor K] [--seed X] [flags]
       ooc bench GRAPH.ooc [flags]

Benchmark the engine on a generated graph (KIND is kron, urand or grid, as for
'ooc gen') or on an existing graph directory. A generated graph is written through the
ingest pipeline into a temporary directory under $TMPDIR (removed afterwards) or into
--keep DIR. With a graph directory, the flags that shape a generated graph (--scale,
--edgefactor, --seed, --shortcuts, --directed, --order, --shard-size, --mem, --force and
--keep) are refused.
Then BFS runs from --sources random vertices of nonzero degree (chosen with
--source-seed; the same sources for the same graph and seed), CC runs once, and each
result is checked with the Graph500 validation (--validate=false skips it).

The report is one table on stdout, or with --json one JSON object that holds every
number in the table plus the per-source runs, the parameters and the machine.
GTEPS counts the undirected edges of the traversed component (Graph500); the BFS line
gives the median time over the sources and the GTEPS of that median run. An invalid
result still prints the report and exits with status 1.

Examples:
  ooc bench kron --scale 22
  ooc bench kron --scale 24 --keep kron24.ooc --json > kron24.json
  ooc bench kron24.ooc --sources 64 --backend gpu --vram 3GiB
  ooc bench grid --scale 20 --validate=false
`

type benchArgs struct {
	genArgs
	keep       string
	sources    int
	sourceSeed uint64
	validate   bool
	backend    string
	vram       byteSize // backend, vram and genArgs.workers make the engineArgs
	noCC       bool
	verbose    bool
}

func newBenchFlags(e *env, a *benchArgs) *flag.FlagSet {
	fs := newFlags(e, "bench")
	addSpecFlags(fs, &a.spec)
	addBuildFlags(fs, &a.genArgs)
	// gen's words for these speak of its outputs; bench writes a graph to --keep alone
	fs.Lookup("force").Usage = "replace an existing --keep graph directory (only a graph directory: a directory of other files is refused)"
	fs.Lookup("q").Usage = "no ingest progress or summary on stderr (the report is on stdout)"
	fs.StringVar(&a.keep, "keep", "", "write the generated graph to `DIR` and keep it (default: a temporary directory)")
	intFlag(fs, &a.sources, "sources", 16, "`N` BFS sources (random vertices with degree > 0)")
	uintFlag(fs, &a.sourceSeed, "source-seed", 1, "seed `X` for choosing the BFS sources")
	fs.BoolVar(&a.validate, "validate", true, "check every BFS and CC result")
	fs.StringVar(&a.backend, "backend", "auto", "auto (the GPU when this build has CUDA and a GPU is usable), cpu or gpu")
	fs.Var(&a.vram, "vram", "device memory budget, a `SIZE` such as 3GiB (default: free device memory less a margin)")
	fs.BoolVar(&a.noCC, "no-cc", false, "skip connected components")
	fs.BoolVar(&a.verbose, "v", false, "print the engine's plan and per-source lines on stderr")
	return fs
}

func runBench(e *env, args []string) error {
	var a benchArgs
	fs := newBenchFlags(e, &a)
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("expected a KIND (kron, urand, grid) or a graph directory, got %d arguments (run 'ooc help bench')", len(pos))
	}
	if a.sources < 1 {
		return usagef("--sources %d: want at least 1", a.sources)
	}
	if err := checkWorkers(a.workers); err != nil {
		return err // before a graph is generated with them
	}
	if err := ooc.CheckBackend(a.backend); err != nil {
		return usageError{err} // likewise: the engine opens after the graph is made
	}
	if given(fs, "keep") && (a.keep == "" || a.keep == "-") {
		return usagef("--keep %q: want a directory to write the generated graph to (e.g. --keep kron20.ooc)", a.keep)
	}
	rep := &benchReport{Params: benchParams{Sources: a.sources, SourceSeed: a.sourceSeed, Validate: a.validate,
		Backend: a.backend, VRAM: int64(a.vram), Workers: a.workers}, Host: hostInfo(),
		Started: time.Now().UTC().Format(time.RFC3339)}
	start := time.Now()
	// Interrupted, the bench stops between runs and still removes its temporary graph.
	ctx, stop := signalContext(context.Background())
	defer stop()
	dir, cleanup, err := benchGraph(ctx, e, fs, &a, pos[0], rep)
	if err != nil {
		return err
	}
	defer cleanup()
	if err := benchRun(ctx, e, &a, dir, rep); err != nil {
		return err
	}
	rep.PeakRSS, rep.WallSeconds = ingest.PeakRSS(), time.Since(start).Seconds()
	if a.json {
		err = printJSON(e.stdout, rep)
	} else {
		rep.table(e.stdout)
	}
	if err == nil && !rep.Valid {
		err = fmt.Errorf("bench: validation failed: %s", strings.Join(rep.Errors, "; "))
	}
	return err
}

// genOnly holds bench's flags that shape a generated graph: given with a graph directory
// they would change nothing, so they are refused.
var genOnly = map[string]bool{"scale": true, "edgefactor": true, "seed": true, "shortcuts": true,
	"directed": true, "order": true, "shard-size": true, "mem": true, "force": true, "keep": true}

// benchGraph returns the graph directory to benchmark: arg itself, or a graph generated
// from the kind arg through the ingest path. cleanup removes a temporary graph.
func benchGraph(ctx context.Context, e *env, fs *flag.FlagSet, a *benchArgs, arg string, rep *benchReport) (dir string, cleanup func(), err error) {
	cleanup = func() {}
	if !slices.Contains(gen.Kinds, arg) {
		if _, err := os.Stat(arg); err != nil && !strings.HasSuffix(arg, ".ooc") {
			return "", cleanup, usagef("%q is neither a KIND (kron, urand, grid) nor a graph directory", arg)
		}
		var err error
		fs.Visit(func(f *flag.Flag) {
			if err == nil && genOnly[f.Name] {
				err = usagef("--%s applies to generated graphs, and %s is a graph directory", f.Name, arg)
			}
		})
		return arg, cleanup, err
	}
	if a.spec, err = specFromArgs(fs, arg, a.spec); err != nil {
		return "", cleanup, err
	}
	if n := a.spec.Vertices(); uint64(a.sources) > n {
		return "", cleanup, usagef("--sources %d: %s --scale %d makes %s", a.sources, a.spec.Kind, a.spec.Scale, plural.Of(n, "vertex"))
	}
	dir = a.keep
	if dir == "" {
		tmp, err := os.MkdirTemp("", "ooc-bench-")
		if err != nil {
			// the path is named as $TMPDIR's, not as the path error names it
			return "", cleanup, fmt.Errorf("bench: cannot make a temporary graph directory in %s ($TMPDIR; or give --keep DIR): %w", os.TempDir(), unnamed(err))
		}
		cleanup = func() { os.RemoveAll(tmp) }
		dir = filepath.Join(tmp, a.spec.String()+".ooc")
	}
	ga := a.genArgs
	ga.json = false
	ir, err := genGraph(ctx, e, &ga, dir)
	if err != nil {
		cleanup()
		return "", func() {}, err
	}
	rep.Graph, rep.Generator = a.spec.String(), newGeneratorInfo(a.spec)
	rep.Ingest = &ingestInfo{Seconds: ir.Seconds, EdgesPerSecond: float64(a.spec.Edges()) / math.Max(ir.Seconds, 1e-9),
		InputEdges: ir.Manifest.InputEdges, PeakRSS: ir.PeakRSS, Mem: ir.Mem, Workers: ir.Workers}
	return dir, cleanup, nil
}

// benchRun opens the graph and the engine and runs the BFS and CC passes.
func benchRun(ctx context.Context, e *env, a *benchArgs, dir string, rep *benchReport) error {
	g, err := store.Open(dir)
	if err != nil {
		return err
	}
	defer g.Close()
	rep.describe(g, dir, a.keep != "" || rep.Generator == nil) // a temporary directory says nothing
	algos := ooc.AlgoBFS | ooc.AlgoCC
	if a.noCC {
		algos = ooc.AlgoBFS
	}
	eng, err := openEngine(e, "bench", g, engineArgs{backend: a.backend, vram: a.vram, workers: a.workers, noLevels: !a.validate}, a.verbose, algos)
	if err != nil {
		return err
	}
	defer eng.Close()
	rep.Backend, rep.Plan = eng.Name(), eng.Plan()
	// The sources are those of 'ooc bfs --sources N --seed X' on the same graph.
	if g.NumEdges() == 0 {
		return usagef("the graph has no edges: no vertex to search from")
	}
	srcs, err := pickSources(ctx, g, "random", a.sources, a.sourceSeed)
	if err != nil {
		return err
	}
	rep.Valid = true
	if err := benchBFS(ctx, e, a, g, eng, srcs, rep); err != nil {
		return err
	}
	if a.noCC {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("bench: interrupted before CC: %w", context.Cause(ctx))
	}
	return benchCC(a, g, eng, rep)
}

func benchBFS(ctx context.Context, e *env, a *benchArgs, g *store.Graph, eng ooc.Engine, srcs []uint32, rep *benchReport) error {
	for i, src := range srcs {
		if ctx.Err() != nil {
			return fmt.Errorf("bench: interrupted after %d of %s: %w", i, plural.Of(len(srcs), "search"), context.Cause(ctx))
		}
		r, err := eng.BFS(src)
		if err != nil {
			return err
		}
		run := benchBFSRun{bfsRun: bfsRun{Source: g.External(src), Reached: r.Reached, Depth: r.Depth,
			EdgesTraversed: r.EdgesTraversed, Seconds: r.Seconds, GTEPS: r.GTEPS()},
			BytesCopied: r.BytesCopied, BytesZeroCopy: r.BytesZeroCopy, LinkSeconds: r.LinkSeconds}
		if r.LinkSeconds > 0 {
			run.LinkGBps = float64(r.BytesCopied+r.BytesZeroCopy) / r.LinkSeconds / 1e9
		}
		if a.validate {
			run.Valid = new(true)
			t := time.Now()
			err := validate.BFS(g, src, r.Parent, r.Level)
			rep.BFS.ValidateSeconds += time.Since(t).Seconds()
			if err != nil {
				if !errors.Is(err, validate.ErrInvalid) {
					return err
				}
				*run.Valid, rep.Valid = false, false
				rep.Errors = append(rep.Errors, fmt.Sprintf("bfs from %d: %v", run.Source, err))
			}
		}
		rep.BFS.Runs = append(rep.BFS.Runs, run)
		if a.verbose {
			fmt.Fprintf(e.stderr, "bench: bfs %2d/%d from %d: %d reached, depth %d, %.4fs, %.3f GTEPS\n",
				i+1, len(srcs), run.Source, run.Reached, run.Depth, run.Seconds, run.GTEPS)
		}
	}
	rep.BFS.summarize()
	return nil
}

func benchCC(a *benchArgs, g *store.Graph, eng ooc.Engine, rep *benchReport) error {
	r, err := eng.CC()
	if err != nil {
		return err
	}
	rep.CC = &ccInfo{Components: r.Components, Largest: r.Largest, Seconds: r.Seconds, BytesCopied: r.BytesCopied,
		BytesZeroCopy: r.BytesZeroCopy}
	if r.LinkSeconds > 0 {
		rep.CC.LinkGBps = float64(r.BytesCopied+r.BytesZeroCopy) / r.LinkSeconds / 1e9
	}
	if !a.validate {
		return nil
	}
	rep.CC.Valid = new(true)
	t := time.Now()
	p, err := validate.CC(g, r.Labels)
	rep.CC.ValidateSeconds = time.Since(t).Seconds()
	if err == nil && (p.Components != r.Components || p.Largest != r.Largest) {
		err = fmt.Errorf("the engine counted %d components (largest %d), the labels make %d (largest %d): %w",
			r.Components, r.Largest, p.Components, p.Largest, validate.ErrInvalid)
	}
	if err != nil {
		if !errors.Is(err, validate.ErrInvalid) {
			return err
		}
		*rep.CC.Valid, rep.Valid = false, false
		rep.Errors = append(rep.Errors, fmt.Sprintf("cc: %v", err))
	}
	return nil
}

// writeTable prints aligned "name  value" rows.
func writeTable(w io.Writer, rows [][2]string) {
	width := 0
	for _, r := range rows {
		width = max(width, len(r[0]))
	}
	for _, r := range rows {
		fmt.Fprintf(w, "%-*s  %s\n", width, r[0], r[1])
	}
}

func hostInfo() hostData {
	h, _ := os.Hostname()
	return hostData{Hostname: h, OS: runtime.GOOS, Arch: runtime.GOARCH, CPUs: runtime.NumCPU(),
		GOMAXPROCS: runtime.GOMAXPROCS(0), Go: runtime.Version()}
}
