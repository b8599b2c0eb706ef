package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/oocgraph/ooc"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/internal/parquetio"
	"github.com/oocgraph/ooc/internal/plural"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

func init() {
	register(&command{name: "bfs", summary: "breadth-first search: parent and level of every vertex", help: bfsHelp + outputRules, run: runBFS})
	flagSets["bfs"] = func(e *env) *flag.FlagSet { return newBFSFlags(e, &bfsArgs{}) }
}

const bfsHelp = `
Usage: ooc bfs [--src V|random] [--sources N] [--seed X] [--validate] [-o FILE] [--text]
               [--force] [-v] [--json] [--backend auto|cpu|gpu] [--vram SIZE] [--workers N]
               [GRAPH]

Breadth-first search from one vertex: the parent and the level (distance in edges) of
every vertex reached. With no GRAPH named, the only *.ooc graph directory in the current
directory is used.

The search is direction-optimizing (Beamer et al., SC 2012): top-down from a queue
while the frontier is small, bottom-up over the unvisited vertices once it is large,
reading the compressed shards in place. On a directed graph it follows edge directions.

--src takes the vertex id as the input file numbered it (1-based for MatrixMarket and
DIMACS files, the original id when the graph was relabeled); --src random (the default)
picks a vertex with edges using --seed. --sources N runs N searches from distinct random
vertices and reports the median time and GTEPS, as Graph500 does.

The summary line gives the source, vertices reached, depth (the largest level), edges
traversed, time and GTEPS. Edges traversed is what Graph500 counts: on an undirected
graph the undirected edges with both ends reached, on a directed graph the edges
leaving reached vertices (self-loops and duplicates were dropped at ingest).

-o FILE writes the result in binary, little-endian:

  magic "OOCBFS01" (8 bytes) | vertices n (uint64) | source (uint64, internal id)
  | id base (uint32) | flags (uint32; bit 0: ids.bin maps the ids) | parent (n x uint32)
  | level (n x uint32)

Entry i belongs to internal vertex i, whose own id is i + id base, or the i-th id of
ids.bin when flagged; parents are internal ids too. Unreached vertices have parent and
level 0xFFFFFFFF. With --text the result is "vertex parent level" lines in the file's
own ids instead ("-" for unreached), on stdout unless -o is given. A FILE ending in
.parquet gets a Parquet table instead: columns id, level and parent (null where
unreached; the source is its own parent),
` + parquetHelp + `

--validate runs the Graph500 checks on every result: the parents form a tree rooted at
the source, tree edges join levels that differ by one, every edge joins levels that
differ by at most one, and exactly the reached vertices have parents.

The time is the search's alone (the graph open, the summary and the checks apart). With
neither -o, --text nor --validate the CPU search writes parents alone, as GAPBS's
does; with them it also writes every vertex's level, and its time includes that.

Examples:
  ooc bfs --src 0
  ooc bfs --src random --sources 16 --validate kron24.ooc
  ooc bfs --src 12 -v --json web.ooc
  ooc bfs --src 1 --text -o levels.txt road.ooc
`

type bfsArgs struct {
	src     string
	sources int
	seed    uint64
	resultFlags
	engineArgs
}

// engineArgs are the engine flags every result command shares, and what the command asks
// of the engine.
type engineArgs struct {
	backend string
	vram    byteSize
	workers int
	// noLevels: the command uses no BFS levels (ooc.Options.BFSNoLevels); not a flag
	noLevels bool
}

func addEngineFlags(fs *flag.FlagSet, a *engineArgs) {
	fs.StringVar(&a.backend, "backend", "auto", "auto (the GPU when this build has CUDA and a GPU is usable), cpu or gpu")
	fs.Var(&a.vram, "vram", "device memory budget of the graph and the search, a `SIZE` such as 3GiB (default: free device memory less a margin; the CUDA context, about 0.5 GiB, comes on top)")
	intFlag(fs, &a.workers, "workers", 0, "`N` CPU threads (0: all cores)")
}

func newBFSFlags(e *env, a *bfsArgs) *flag.FlagSet {
	fs := newFlags(e, "bfs")
	fs.StringVar(&a.src, "src", "random", "source vertex `V` (the file's own id), or random")
	intFlag(fs, &a.sources, "sources", 1, "`N` searches from distinct random sources; report the median")
	uintFlag(fs, &a.seed, "seed", 1, "seed `X` for random sources")
	a.resultFlags.add(fs, resultHelp{result: "parents and levels", lines: "vertex parent level", check: "check every result with the Graph500 checks", table: "the engine's plan and a per-level table"})
	addEngineFlags(fs, &a.engineArgs)
	return fs
}

// bfsRun is one search in --json output.
type bfsRun struct {
	Source         uint64  `json:"source"`
	Reached        uint64  `json:"reached"`
	Depth          uint32  `json:"depth"`
	EdgesTraversed uint64  `json:"edges_traversed"`
	Seconds        float64 `json:"seconds"`
	GTEPS          float64 `json:"gteps"`
}

// bfsJSON is bfs's --json output: the fields of the (median) run, then details.
type bfsJSON struct {
	bfsRun
	Backend   string   `json:"backend"`
	EdgeCount string   `json:"edge_count"` // which edges edges_traversed counts
	Validated bool     `json:"validated"`
	Sources   int      `json:"sources"`
	Runs      []bfsRun `json:"runs,omitempty"`
	MedianSec float64  `json:"median_seconds,omitempty"`
	MedianGT  float64  `json:"median_gteps,omitempty"`
}

func runBFS(e *env, args []string) error {
	var a bfsArgs
	pos, err := parseFlags(e, newBFSFlags(e, &a), args)
	if err != nil {
		return err
	}
	switch {
	case a.sources < 1:
		return usagef("--sources %d: want at least 1", a.sources)
	case a.sources > 1 && a.src != "random":
		return usagef("--sources %d picks random sources; drop --src %s", a.sources, a.src)
	case a.sources > 1 && a.out != "":
		return usagef("-o writes one result; drop --sources or -o")
	}
	var srcs []uint32
	run, err := openRun(e, "bfs", pos, a.resultFlags, &a.engineArgs, ooc.AlgoBFS, func(dest *output, g *store.Graph) (err error) {
		if a.sources > 1 { // one source is pickSources' to check, by the flag that named it
			if err := checkSources(a.sources, g); err != nil {
				return err
			}
		}
		srcs, err = pickSources(context.Background(), g, a.src, a.sources, a.seed)
		a.noLevels = dest == nil && !a.validate // the summary needs parents alone
		return err
	})
	if err != nil {
		return err
	}
	defer run.close()
	dest, g, eng := run.dest, run.g, run.eng

	out := &bfsJSON{Backend: eng.Name(), EdgeCount: edgeCountName(g), Validated: a.validate, Sources: len(srcs)}
	summary := a.summaryTo(e, dest)
	var last *ooc.BFSResult
	for _, src := range srcs {
		r, err := eng.BFS(src)
		if err != nil {
			return err
		}
		if a.validate {
			t := time.Now()
			err := validate.BFS(g, src, r.Parent, r.Level)
			if a.verbose {
				fmt.Fprintf(e.stderr, "bfs: check of the search from %d took %.3f s\n", g.External(src), time.Since(t).Seconds())
			}
			if err != nil {
				return fmt.Errorf("bfs from %d (%s backend): %w", g.External(src), eng.Name(), err)
			}
		}
		run := bfsRun{Source: g.External(src), Reached: r.Reached, Depth: r.Depth,
			EdgesTraversed: r.EdgesTraversed, Seconds: r.Seconds, GTEPS: r.GTEPS()}
		out.Runs = append(out.Runs, run)
		if a.verbose {
			printLevels(e.stderr, r)
		}
		fmt.Fprintf(summary, "bfs: source %d: reached %s, depth %d, %s (%s), %.6f s, %.3f GTEPS, backend %s%s\n",
			run.Source, plural.Of(run.Reached, "vertex"), run.Depth, plural.Of(run.EdgesTraversed, "edge")+" traversed", out.EdgeCount, run.Seconds, run.GTEPS, eng.Name(), validatedNote(a.validate))
		last = r
	}
	out.bfsRun = medianRun(out.Runs)
	if len(srcs) > 1 {
		out.MedianSec, out.MedianGT = out.Seconds, out.GTEPS
		fmt.Fprintf(summary, "bfs: median of %d sources: %.6f s, %.3f GTEPS, backend %s\n", len(srcs), out.Seconds, out.GTEPS, eng.Name())
	} else {
		out.Runs = nil
	}
	return a.finish(e, dest, func(d *output) error { return writeBFS(d, g, last, a.text) }, out)
}

func validatedNote(v bool) string {
	if v {
		return ", validated"
	}
	return ""
}

func edgeCountName(g *store.Graph) string {
	if g.Directed() {
		return "directed edges leaving reached vertices"
	}
	return "undirected edges in the traversed component"
}

// medianRun returns a run whose seconds and GTEPS are the medians (each taken on its own;
// the other fields are those of the run with the median time).
func medianRun(runs []bfsRun) bfsRun {
	byTime := slices.Clone(runs)
	slices.SortFunc(byTime, func(x, y bfsRun) int { return cmpFloat(x.Seconds, y.Seconds) })
	m := byTime[len(byTime)/2]
	m.Seconds = median(runs, func(r bfsRun) float64 { return r.Seconds })
	m.GTEPS = median(runs, func(r bfsRun) float64 { return r.GTEPS })
	return m
}

func median(runs []bfsRun, f func(bfsRun) float64) float64 {
	x := make([]float64, len(runs))
	for i, r := range runs {
		x[i] = f(r)
	}
	slices.Sort(x)
	if len(x)%2 == 1 {
		return x[len(x)/2]
	}
	return (x[len(x)/2-1] + x[len(x)/2]) / 2
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// pickSources resolves --src: a vertex id as the user knows it, or count distinct random
// vertices with out-edges drawn with the seed; fewer vertices with out-edges than count
// is a usage error naming --sources. The draws and the pass over the vertices after
// them stop with ctx's cause once ctx is done (bench's signals).
func pickSources(ctx context.Context, g *store.Graph, src string, count int, seed uint64) ([]uint32, error) {
	n := g.NumVertices()
	// The degrees come from the out-shards' directories before the engine checks the
	// graph: a damaged directory is refused here (its checksum and structure, a few
	// bits a vertex), not decoded into a fault.
	for _, s := range g.Out().Shards {
		if err := s.CheckDirectory(); err != nil {
			return nil, err
		}
	}
	if src != "random" {
		id, err := strconv.ParseUint(src, 10, 64)
		if err != nil {
			return nil, usagef("--src %q: want a vertex id or random", src)
		}
		v, err := g.Internal(id)
		if err != nil {
			return nil, fmt.Errorf("--src %d: %w", id, err)
		}
		if degree(g, v) == 0 {
			return nil, usagef("--src %d: the vertex has no %s, so the search would reach only itself (pick another, or --src random)", id, outEdgesName(g))
		}
		return []uint32{v}, nil
	}
	if g.NumEdges() == 0 {
		return nil, usagef("--src random: the graph has no edges")
	}
	// A count past n, or past the edges (no more vertices have one), is refused before
	// the draws, which run up to 64 a source, and the pass over every vertex after them.
	if err := checkSources(count, g); err != nil {
		return nil, err
	}
	if m := g.NumEdges(); uint64(count) > m {
		return nil, usagef("--sources %d: the graph has at most %s with %s (it stores %s)", count, plural.Of(m, "vertex"), outEdgesName(g),
			plural.Of(m, "directed edge"))
	}
	rng := rand.New(rand.NewPCG(seed, 0xbf5))
	seen := map[uint32]bool{}
	var srcs []uint32
	for tries := 0; len(srcs) < count && tries < 64*count; tries++ {
		if tries%sourcesCheckEvery == 0 && ctx.Err() != nil {
			return nil, sourcesInterrupted(ctx)
		}
		v := rng.Uint32N(n)
		if degree(g, v) == 0 || seen[v] {
			continue
		}
		seen[v] = true
		srcs = append(srcs, v)
	}
	if len(srcs) < count {
		// Few vertices have out-edges: the rest are a uniform sample (a reservoir) of
		// those not drawn yet, in one pass over the vertices.
		k := count - len(srcs)
		var rest []uint32
		seenRest := 0
		for v := range n {
			if v%sourcesCheckEvery == 0 && ctx.Err() != nil {
				return nil, sourcesInterrupted(ctx)
			}
			if degree(g, v) == 0 || seen[v] {
				continue
			}
			if seenRest++; len(rest) < k {
				rest = append(rest, v)
			} else if j := rng.IntN(seenRest); j < k {
				rest[j] = v
			}
		}
		if len(rest) < k {
			return nil, usagef("--sources %d: the graph has %s with %s", count, plural.Of(len(srcs)+len(rest), "vertex"), outEdgesName(g))
		}
		srcs = append(srcs, rest...)
	}
	return srcs, nil
}

// sourcesCheckEvery is how many draws, or vertices of the pass, pickSources takes
// between two looks at its context.
const sourcesCheckEvery = 1 << 16

func sourcesInterrupted(ctx context.Context) error {
	return fmt.Errorf("interrupted while picking sources: %w", context.Cause(ctx))
}

func degree(g *store.Graph, v uint32) uint32 { return g.Out().ShardOf(v).Degree(v) }

func outEdgesName(g *store.Graph) string {
	if g.Directed() {
		return "out-edges"
	}
	return "edges"
}

// openEngine opens the backend the flags ask for, to run algos (the GPU engine plans device
// memory for those alone); a backend this build lacks is a usage error. cmd names the
// command in the --vram notice.
func openEngine(e *env, cmd string, g *store.Graph, a engineArgs, verbose bool, algos ooc.Algo) (ooc.Engine, error) {
	if err := checkWorkers(a.workers); err != nil {
		return nil, err
	}
	opt := ooc.Options{Workers: a.workers, VRAM: int64(a.vram), Algorithms: algos, BFSNoLevels: a.noLevels}
	if verbose {
		opt.Verbose = e.stderr
	}
	if e.isTerminal { // a long run's progress line: no use to a pipe or a log
		opt.Progress = e.stderr
	}
	eng, err := ooc.Open(g, a.backend, opt)
	if errors.Is(err, ooc.ErrNoBackend) {
		return nil, usageError{err}
	}
	if err != nil {
		return nil, err
	}
	if a.vram != 0 && eng.Name() != "gpu" {
		fmt.Fprintf(e.stderr, "ooc %s: note: --vram %s has no effect: %s\n", cmd, bytesize.Format(int64(a.vram)), whyCPU(a.backend))
	}
	if verbose {
		fmt.Fprintf(e.stderr, "plan: %s\n", eng.Plan())
	}
	return eng, nil
}

// whyCPU says why an engine opened with backend is the CPU's. --vram budgets the GPU
// engine alone; given to a run of the CPU engine it is a note, not a refusal, since a
// script may pass the same flags to every build and machine.
func whyCPU(backend string) string {
	switch {
	case backend == "cpu":
		return "--backend cpu runs the CPU engine"
	case !slices.Contains(ooc.Backends(), "gpu"):
		return "this ooc was built without CUDA (-tags cuda), so the CPU engine runs"
	default:
		return "no usable GPU was found, so the CPU engine runs (-v says why)"
	}
}

func printLevels(w io.Writer, r *ooc.BFSResult) {
	fmt.Fprintf(w, "%6s %12s %-9s %14s %10s\n", "level", "frontier", "direction", "edges examined", "ms")
	for _, s := range r.Levels {
		fmt.Fprintf(w, "%6d %12d %-9s %14d %10.3f\n", s.Level, s.Frontier, s.Direction, s.EdgesExamined, s.Seconds*1e3)
	}
}

const bfsMagic = "OOCBFS01"

// writeBFS writes the result to dest.
func writeBFS(dest *output, g *store.Graph, r *ooc.BFSResult, text bool) error {
	if isParquetName(dest.name) {
		unsigned := idsUnsigned(g)
		return writeResultTable(dest, g, unsigned, []resultColumn{
			{parquetio.Column{Name: "level", Nullable: true}, func(v uint32) parquetio.Cell {
				return parquetio.Cell{V: uint64(r.Level[v]), Null: r.Level[v] == ooc.Unreached}
			}},
			{idColumn("parent", unsigned, true), func(v uint32) parquetio.Cell {
				if r.Level[v] == ooc.Unreached {
					return parquetio.Cell{Null: true}
				}
				return parquetio.Cell{V: g.External(r.Parent[v])}
			}},
		})
	}
	write := func(w *bufio.Writer) error {
		if text {
			return writeRows(w, g, len(r.Level), func(b []byte, v uint32) []byte {
				if r.Level[v] == ooc.Unreached {
					return append(b, " - -"...)
				}
				b = strconv.AppendUint(append(b, ' '), g.External(r.Parent[v]), 10)
				return strconv.AppendUint(append(b, ' '), uint64(r.Level[v]), 10)
			})
		}
		writeHeader(w, g, bfsMagic, len(r.Level), r.Source)
		writeU32s(w, r.Parent)
		return writeU32s(w, r.Level)
	}
	return dest.write(write)
}
