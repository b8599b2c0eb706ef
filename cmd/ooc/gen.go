package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/oocgraph/ooc/gen"
	"github.com/oocgraph/ooc/ingest"
	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/internal/plural"
	"github.com/oocgraph/ooc/store"
)

func init() {
	register(&command{name: "gen", summary: "generate a Kronecker, uniform random or grid graph", help: genHelp + outputRules, run: runGen})
	flagSets["gen"] = func(e *env) *flag.FlagSet { return newGenFlags(e, &genArgs{}) }
}

const genHelp = `
Usage: ooc gen KIND --scale S [--edgefactor K] [--seed X] [--weights uniform:LO:HI] -o OUT
               [flags]

Generate a synthetic graph with 2^S vertices. KIND is one of:

  kron    Graph500 Kronecker graph: K*2^S edges, initiator A=0.57 B=0.19 C=0.19 D=0.05,
          vertex labels randomly permuted as the Graph500 specification asks. Skewed
          degrees, low diameter; self-loops and duplicate edges included (ingest drops
          them).
  urand   uniform random graph (GAPBS's urand): K*2^S edges with uniform endpoints.
  grid    2-D grid of 2^(S/2) rows and 2^S/rows columns, 4-neighbour edges, plus
          --shortcuts random edges: a high-diameter graph (--edgefactor is refused).
          A shortcut joins two random vertices, so at most (2^S)^2 are taken (one for
          each ordered pair of vertices; and at most 2^48).

The output is the same for a seed on every machine and with any number of threads.
When OUT ends in .ooc the graph goes straight into a graph directory through the ingest
pipeline (--directed, --order, --shard-size, --mem, --backend and -v apply as for 'ooc
ingest', and only there); otherwise OUT is an edge list in --format text ("u v" lines),
bin32 or bin64 (little-endian pairs), and - means standard output. A name ending in
.bin32 or .bin64 is written in that format (ooc ingest reads it so); one ending in .mtx,
.gr, .parquet, .sg or .wsg is refused.

--weights uniform:LO:HI gives every edge an integer weight from LO to HI, a hash of
the seed and the edge's two ends (so the same for a seed on every machine, and the same
for repeated copies of an edge, either way round); a .ooc output is then a weighted
graph (what ooc sssp reads: the lists built as without --weights, on the GPU when the
backend takes them, then weighed in a second pass; the same graph 'ooc ingest --weights'
builds from the "u v w" lines), an edge list output has "u v w" lines (--format text
only).

Examples:
  ooc gen kron --scale 24 --edgefactor 16 --seed 1 -o kron24.ooc
  ooc gen urand --scale 20 -o urand20.txt
  ooc gen grid --scale 22 --shortcuts 16 --format bin32 -o grid22.bin
  ooc gen kron --scale 10 -o - | head
  ooc gen kron --scale 20 --weights uniform:1:255 -o k20w.ooc
`

// genArgs are the flags of gen (and, through addSpecFlags, of bench).
type genArgs struct {
	spec       gen.Spec
	format     string
	formatSet  bool // --format was given
	out        string
	force      bool
	quiet      bool
	verbose    bool
	json       bool
	directed   bool
	order      string
	shardBytes byteSize
	mem        byteSize
	workers    int
	backend    string // the ingest's (gen's --backend); "" is auto
	weights    string // --weights uniform:LO:HI; "" for none
	wspec      gen.WeightSpec
}

// addSpecFlags declares the generator flags that gen and bench share.
func addSpecFlags(fs *flag.FlagSet, s *gen.Spec) {
	intFlag(fs, &s.Scale, "scale", 0, "2^`S` vertices (required)")
	intFlag(fs, &s.EdgeFactor, "edgefactor", 16, "`K`*2^S edges (kron, urand)")
	uintFlag(fs, &s.Seed, "seed", 1, "random seed `X`")
	intFlag(fs, &s.Shortcuts, "shortcuts", -1, "`N` random shortcut edges of a grid, at most (2^S)^2 (-1: one per 65536 vertices, at least 4)")
}

// addBuildFlags declares the flags that shape a graph directory written by gen or bench.
func addBuildFlags(fs *flag.FlagSet, a *genArgs) {
	fs.BoolVar(&a.directed, "directed", false, "keep edge directions (default: undirected)")
	fs.StringVar(&a.order, "order", ingest.OrderAuto, "vertex numbering: auto (whichever is estimated smallest), degree (hubs first), bfs (neighbours near), bisect (similar lists near) or input")
	fs.Var(&a.shardBytes, "shard-size", "ADJ bytes per shard, a `SIZE` such as 256MiB (default 512MiB)")
	fs.Var(&a.mem, "mem", "memory budget of the ingest, a `SIZE` such as 8GiB (default: "+memDefault+")")
	fs.BoolVar(&a.force, "force", false, "replace an existing output: an edge list file, or a graph directory (only a graph directory: a directory of other files is refused)")
	fs.BoolVar(&a.quiet, "q", false, "no progress or summary on stderr")
	fs.BoolVar(&a.json, "json", false, "print the result as one JSON object on stdout")
	intFlag(fs, &a.workers, "workers", 0, "`N` threads (0: all cores)")
}

func newGenFlags(e *env, a *genArgs) *flag.FlagSet {
	fs := newFlags(e, "gen")
	addSpecFlags(fs, &a.spec)
	addBuildFlags(fs, a)
	fs.BoolVar(&a.verbose, "v", false, "also print how the ingest's memory budget is split")
	fs.StringVar(&a.format, "format", "text", "edge list format: text, bin32 or bin64")
	fs.StringVar(&a.backend, "backend", ingest.BackendAuto, "a .ooc output's ingest: auto (the GPU for 8M edges and more when usable), cpu or gpu")
	fs.StringVar(&a.out, "o", "", "output `OUT`: a .ooc graph directory, an edge list file, or - (required)")
	fs.StringVar(&a.weights, "weights", "", "edge weights `uniform:LO:HI` (seeded integers)")
	return fs
}

// specFromArgs checks the kind and the generator flags of fs: a flag the kind does not
// use (--edgefactor of a grid, --shortcuts of kron or urand) is refused, not ignored.
func specFromArgs(fs *flag.FlagSet, kind string, s gen.Spec) (gen.Spec, error) {
	s.Kind = kind
	scaleSet := false
	var err error
	fs.Visit(func(f *flag.Flag) {
		scaleSet = scaleSet || f.Name == "scale"
		switch {
		case err != nil:
		case f.Name == "edgefactor" && kind == "grid":
			err = usagef("--edgefactor applies to kron and urand; a grid has 4-neighbour edges and --shortcuts")
		case f.Name == "shortcuts" && (kind == "kron" || kind == "urand"):
			err = usagef("--shortcuts applies to grid, not to %s (its edges are --edgefactor)", kind)
		case f.Name == "shortcuts" && s.Shortcuts < -1:
			err = usagef("--shortcuts %d: want 0 or more, or -1 for the default (one per 65536 vertices, at least 4)", s.Shortcuts)
		}
	})
	if err != nil {
		return s, err
	}
	if !scaleSet {
		return s, usagef("--scale is required (2^S vertices, e.g. --scale 20)")
	}
	if err := s.Validate(); err != nil {
		return s, usagef("%v", err)
	}
	return s, nil
}

func runGen(e *env, args []string) error {
	var a genArgs
	fs := newGenFlags(e, &a)
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("expected one KIND (kron, urand or grid), got %d arguments (run 'ooc help gen')", len(pos))
	}
	if a.spec, err = specFromArgs(fs, pos[0], a.spec); err != nil {
		return err
	}
	if err := checkWorkers(a.workers); err != nil {
		return err
	}
	if given(fs, "weights") && a.weights == "" {
		// given empty (a script's unset variable), it is a slip, not a request for none
		return usagef("--weights: an empty spec; give uniform:LO:HI, or leave --weights out")
	}
	if a.weights != "" {
		if a.wspec, err = gen.ParseWeightSpec(a.weights); err != nil {
			return usagef("--weights: %v", err)
		}
	}
	if a.out == "" {
		return usagef("-o OUT is required: a .ooc graph directory, an edge list file, or - for stdout")
	}
	toGraph := strings.HasSuffix(filepath.Clean(a.out), ".ooc") // g.ooc/ too, as ingest -o takes it
	if err := checkOutputFlags(fs, toGraph); err != nil {
		return err
	}
	a.formatSet = given(fs, "format")
	if toGraph {
		rep, err := genGraph(context.Background(), e, &a, a.out)
		if err != nil {
			return err
		}
		return reportGenGraph(e, &a, rep)
	}
	return genEdgeList(e, &a)
}

// checkOutputFlags refuses flags that the kind of output would ignore.
func checkOutputFlags(fs *flag.FlagSet, toGraph bool) (err error) {
	fs.Visit(func(f *flag.Flag) {
		switch {
		case err != nil:
		case toGraph && f.Name == "format":
			err = usagef("--format applies to edge list outputs; a .ooc output is a graph directory")
		case !toGraph && (f.Name == "directed" || f.Name == "order" || f.Name == "shard-size" || f.Name == "mem" ||
			f.Name == "backend" || f.Name == "v"):
			err = usagef("%s applies to graph directory outputs (-o NAME.ooc), not to edge lists", flagName(f.Name))
		}
	})
	return err
}

// flagName writes a flag as its help does: -v, -o, --order.
func flagName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// edgeListFormat is the format of an edge list written to out: format, unless out's
// extension names one. ooc ingest reads a .bin32 or .bin64 file by its extension, so
// such a name is written in its format (--format may only agree), and a name that
// ingest would read as MatrixMarket, DIMACS, Parquet or GAPBS's .sg is refused: text
// under it would not ingest, or (binary read as text, text as binary) ingest wrongly.
func edgeListFormat(out, format string, given bool) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(out)); ext {
	case ".bin32", ".bin64":
		if given && format != ext[1:] {
			return "", usagef("--format %s with -o %s: ooc ingest reads a %s file as %s; drop --format or rename the file", format, out, ext, ext[1:])
		}
		return ext[1:], nil
	case ".mtx", ".gr", ".parquet", ".sg", ".wsg":
		return "", usagef("-o %s: ooc gen writes text, bin32 or bin64 edge lists, and a %s file is read as another format; name it .txt, .el, .bin32 or .bin64 (or NAME.ooc for a graph)", out, ext)
	}
	return format, nil
}

// genResult is gen's --json output.
type genResult struct {
	Graph      string  `json:"graph"`
	Kind       string  `json:"kind"`
	Scale      int     `json:"scale"`
	EdgeFactor int     `json:"edgefactor,omitempty"`
	Seed       uint64  `json:"seed"`
	Shortcuts  *int    `json:"shortcuts,omitempty"`
	Vertices   uint64  `json:"vertices"`
	Generated  uint64  `json:"generated_edges"`
	Output     string  `json:"output"`
	Format     string  `json:"format"`
	Bytes      int64   `json:"bytes"`
	Seconds    float64 `json:"seconds"`
	EdgesPerS  float64 `json:"edges_per_second"`
	PeakRSS    int64   `json:"peak_rss"`

	// For a graph directory: what the ingest stored.
	Edges             uint64  `json:"edges,omitempty"`
	Directed          bool    `json:"directed,omitempty"`
	SelfLoopsDropped  uint64  `json:"self_loops_dropped,omitempty"`
	DuplicatesDropped uint64  `json:"duplicates_dropped,omitempty"`
	ReciprocalPairs   *uint64 `json:"reciprocal_pairs_merged,omitempty"`
	BitsPerEdge       float64 `json:"bits_per_edge,omitempty"`
	Shards            int     `json:"shards,omitempty"`
}

func newGenResult(s gen.Spec, out, format string, bytes int64, secs float64) *genResult {
	r := &genResult{Graph: s.String(), Kind: s.Kind, Scale: s.Scale, Seed: s.Seed, Vertices: s.Vertices(),
		Generated: s.Edges(), Output: out, Format: format, Bytes: bytes, Seconds: secs,
		EdgesPerS: float64(s.Edges()) / math.Max(secs, 1e-9), PeakRSS: ingest.PeakRSS()}
	if s.Kind == "grid" {
		sc := int(s.Edges() - gridLattice(s))
		r.Shortcuts = &sc
	} else {
		r.EdgeFactor = s.EdgeFactor
	}
	return r
}

// gridLattice is the number of grid edges that are not shortcuts.
func gridLattice(s gen.Spec) uint64 {
	rows, cols := s.GridShape()
	return rows*(cols-1) + (rows-1)*cols
}

// genEdgeList writes the edge list to a file (atomically: a temporary name renamed
// when complete) or to stdout.
func genEdgeList(e *env, a *genArgs) error {
	format, err := edgeListFormat(a.out, a.format, a.formatSet)
	if err != nil {
		return err
	}
	f, err := gen.ParseFormat(format)
	if err != nil {
		return usagef("%v", err)
	}
	if a.out == "-" && a.json {
		return usagef("--json prints on stdout, which -o - uses for the edges; write the edges to a file")
	}
	dest, err := checkOutput(e, a.out, a.force)
	if err != nil {
		return err
	}
	start := time.Now()
	if a.weights != "" && f != gen.Text {
		return usagef("--weights writes \"u v w\" lines: --format text only")
	}
	var n int64
	err = dest.write(func(w *bufio.Writer) error {
		var werr error
		if a.weights != "" {
			n, werr = gen.WriteWeighted(w, a.spec, a.wspec, a.workers)
		} else {
			n, werr = gen.Write(w, a.spec, f, a.workers)
		}
		return werr
	})
	if err != nil {
		return err
	}
	r := newGenResult(a.spec, a.out, f.String(), n, time.Since(start).Seconds())
	if !a.quiet {
		fmt.Fprintf(e.stderr, "gen: %s: %s, %s, %s of %s to %s in %.2fs (%s edges/s)\n",
			r.Graph, plural.Of(r.Vertices, "vertex"), plural.Of(r.Generated, "edge"), bytesize.Format(n), r.Format, a.out, r.Seconds, humanRate(r.EdgesPerS))
	}
	if a.json {
		return printJSON(e.stdout, r)
	}
	return nil
}

// genGraph generates a.spec straight into the graph directory dest through the ingest
// pipeline: no edge list touches the disk.
// A SIGINT, SIGTERM or SIGHUP (or ctx) cancels it and removes the partial graph.
func genGraph(ctx context.Context, e *env, a *genArgs, dest string) (*ingest.Report, error) {
	ctx, stop := signalContext(ctx)
	defer stop()
	if err := checkOrder(a.order); err != nil {
		return nil, err
	}
	if err := checkShardSize(a.shardBytes); err != nil {
		return nil, err
	}
	if ingest.CheckBackend(a.backend) != nil {
		return nil, usagef("--backend %q: want auto, cpu or gpu", a.backend)
	}
	opt := ingest.Options{Dest: dest, Force: a.force, Directed: a.directed, Order: a.order, ShardBytes: int64(a.shardBytes),
		Mem: int64(a.mem), Workers: a.workers, Context: ctx, Backend: a.backend}
	if !a.quiet {
		opt.Log, opt.Verbose = e.stderr, a.verbose
		if e.isTerminal {
			opt.Progress = e.stderr
		}
	}
	input := store.InputInfo{Name: a.spec.String(), Bytes: -1, Format: "gen"}
	hdr := parse.Header{Vertices: a.spec.Vertices(), Entries: a.spec.Edges()}
	if a.weights != "" {
		input.Name += "-w" + strings.ReplaceAll(a.wspec.String(), ":", "-")
		seed := a.spec.Seed
		rep, err := ingest.WeighEdges(opt, input, hdr, func(emit func([]parse.Edge) error) error {
			return gen.Generate(a.spec, a.workers, func(b []gen.Edge) error {
				return emit(asIngestEdges(b))
			})
		}, func(u, v uint64) uint32 { return a.wspec.Weight(seed, u, v) })
		if errors.Is(err, parse.ErrBadInput) {
			return nil, usageError{err}
		}
		return rep, err
	}
	rep, err := ingest.FromEdges(opt, input, hdr, func(emit func([]parse.Edge) error) error {
		return gen.Generate(a.spec, a.workers, func(b []gen.Edge) error {
			return emit(asIngestEdges(b))
		})
	})
	if errors.Is(err, ingest.ErrMemTooSmall) || errors.Is(err, parse.ErrBadInput) {
		return nil, usageError{err}
	}
	return rep, err
}

// asIngestEdges reinterprets a batch of generated edges as ingest edges: both are
// struct{ U, V uint64 }, and gen does not import ingest, to keep the generator free of
// the pipeline's dependencies. The compile-time check below keeps the layouts tied.
func asIngestEdges(b []gen.Edge) []parse.Edge {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*parse.Edge)(unsafe.Pointer(&b[0])), len(b))
}

// The conversion compiles only while the two types have identical underlying types.
var _ = parse.Edge(gen.Edge{})

func reportGenGraph(e *env, a *genArgs, rep *ingest.Report) error {
	m := rep.Manifest
	r := newGenResult(a.spec, a.out, "ooc", m.Bytes, rep.Seconds)
	r.Edges, r.Directed = m.Edges, m.Directed
	r.SelfLoopsDropped, r.DuplicatesDropped, r.ReciprocalPairs = m.SelfLoopsDropped, m.DuplicatesDropped, m.ReciprocalPairs
	r.BitsPerEdge, r.Shards = bitsPerEdge(m), len(m.Out)+len(m.In)
	if a.json {
		return printJSON(e.stdout, r)
	}
	if !a.quiet {
		fmt.Fprintf(e.stderr, "gen: %s: %s into %s in %.2fs (%s edges/s)\n",
			r.Graph, plural.Of(r.Generated, "generated edge"), a.out, r.Seconds, humanRate(r.EdgesPerS))
	}
	return nil
}

// humanRate prints a rate with a decimal unit, e.g. 123.4M.
func humanRate(x float64) string {
	for _, u := range []struct {
		s string
		f float64
	}{{"G", 1e9}, {"M", 1e6}, {"k", 1e3}} {
		if x >= u.f {
			return strconv.FormatFloat(x/u.f, 'f', 1, 64) + u.s
		}
	}
	return strconv.FormatFloat(x, 'f', 0, 64)
}
