package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/oocgraph/ooc/ingest"
	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/store"
)

func init() {
	register(&command{name: "ingest", summary: "turn an edge list into a compressed graph directory", help: ingestHelp, run: runIngest})
	flagSets["ingest"] = func(e *env) *flag.FlagSet { return newIngestFlags(e, &ingestArgs{}) }
}

const ingestHelp = `
Usage: ooc ingest [flags] INPUT

Read an edge list and write a graph directory: compressed CSR shards, checksummed,
published atomically (an interrupted ingest leaves nothing that opens as a graph).
INPUT is a file, - for standard input, or a Parquet dataset directory (below); gzip
and zstd are recognised from the bytes.

Formats (detected from the content and the extension; --format overrides). Text is
ASCII or UTF-8, lines end in LF or CRLF, and a UTF-8 byte-order mark before the first
line (as Windows editors and spreadsheets write) is skipped:
  snap    text lines "u v" (spaces, tabs or a comma; further columns ignored; # and %
          comments), 0-based ids
  mtx     MatrixMarket coordinate, general or symmetric (skew-symmetric and hermitian
          read as symmetric), any field; 1-based; the values are read with --weights
  gr      DIMACS shortest path: "p sp N M" and "a u v w" lines; 1-based; the weights
          are read with --weights
  bin32   little-endian uint32 pairs      bin64   little-endian uint64 pairs
          (no header, so the width is taken from --format or a .bin32/.bin64 name;
          --format contradicting that name is refused; --format bin32 on content
          whose second ids are all 0, an even count of pairs, is refused as a
          bin64 file of small ids, unless the name ends .bin32 or --width-meant
          is given, as on standard input)
  parquet Parquet, one row per edge: integer id columns src and dst (--columns names
          others), of any width, signed or unsigned, nulls refused; with --weights
          also a weight column (weight, or --columns SRC,DST,WEIGHT): integer, or
          FLOAT or DOUBLE for float32 weights; other columns are not read. Read
          from a file (its index is at its end), row group by row group on all
          cores. A directory is a Parquet dataset as Spark and
          DuckDB write one: its part files, in subfolders too, read in name order as
          one edge list; names starting with _ or . (_SUCCESS, .crc) are skipped

--weights keeps each edge's weight and stores it beside the lists (what ooc sssp
reads): the third column of a text edge list ("u v w"), the arc weight of a DIMACS
file, the value of a MatrixMarket entry, a Parquet file's weight column.
Weights are integers from 0 to 2^32-1, or float32 numbers: those of a MatrixMarket
file whose field is real (or double) or of a FLOAT or DOUBLE Parquet column, and with
--float-weights those of any text or DIMACS input (a streamed file cannot be known
fractional before it is read; an integer MatrixMarket file or Parquet column is read
as float32 too). A float weight is rounded to the nearest float32 (-0 is 0); ooc sssp
then gives float32 distances. A negative, missing or non-finite (NaN, Inf, beyond the
largest float32) weight, or a fractional one without float weights, is an error
naming its line. Of duplicate edges the one with the smallest weight is kept
(--keep-duplicates keeps every copy with its own weight); an undirected edge weighs
the same both ways, and a directed graph's in-edges carry the weights of their arcs.
A weighted ingest numbers the vertices as --order and --relabel say (--order bfs and
bisect do not take --weights yet; auto chooses between the file's order and the degree
order, or as without --weights for a file read twice) and stores the lists the
unweighted ingest of that numbering stores, byte for byte. It
holds the edges in memory on the CPU while they fit --mem (40 bytes an input edge at
most, 48 with --relabel); a larger regular file is read twice, within --mem: the lists
are built as without --weights (spilling to disk, on the GPU when the backend takes
them), then the file is read once more with its weights, its edges spilled to disk by
window of lists that --mem holds, and each window weighed in turn (kron20 at --mem
256MiB: 3.3x the CPU time of the in-memory path). -v says which path.
From a pipe, edges beyond --mem are refused.

The graph is undirected unless --directed: each input edge is stored both ways.
--directed keeps directions and also stores the transpose (in-edges), which BFS needs;
a symmetric MatrixMarket file stands for both directions of each entry either way.
Self-loops and duplicate edges are dropped and counted unless --keep-self-loops and
--keep-duplicates. An undirected ingest merges a reciprocal pair ("u v" and "v u") into
one edge and counts those pairs apart from the duplicates, the repeats of a line; ids
of 2^31 and more then need --relabel (or --sparse-ids, which counts both as duplicates
unless --weights). Ids stay the file's own: 1-based formats are shown 1-based by every
command. Ids must be below 2^32-1; --relabel accepts any 64-bit ids, numbers the
distinct ids 0..n-1 in ascending order and stores the mapping (it holds 8 bytes per
distinct vertex in memory, twice that while it grows, within half of --mem, and spills 16
bytes per edge to disk; when the ids outgrow that, the rest of the input is only counted,
and the ingest fails naming the --mem that holds them).

--order degree numbers the vertices internally by descending degree, so that every
sorted list starts with the hubs: a graph numbered at random (Kronecker, many social
networks) gets about a fifth smaller and BFS and CC run 2-4x faster. A graph whose own
numbering has locality (web crawls, road networks, meshes) gets larger instead. It costs
one more pass: the input is spilled as it is read (8 bytes per edge), its degrees
counted, then replayed through the pipeline; the numbering takes 12 bytes per vertex (the
largest id + 1), which must fit in half of --mem, or it fails.
--order bfs numbers them breadth-first (Cuthill-McKee: each connected component in turn,
the new neighbours of each vertex in ascending degree), so that
neighbours get nearby numbers: meshes, road maps and graphs numbered at random get small
gaps in their lists and searches read nearby memory. It builds the graph in the file's
order, numbers the vertices from its lists (13 bytes a vertex within half of --mem) and
builds the graph again from them. A directed graph is numbered by its undirected view.
--order bisect numbers them by recursive graph bisection (Dhulipala et al., KDD 2016):
the vertices are split in halves, swapped between them while that shortens the lists'
estimated gaps, and each half split again down to 16 vertices, so that vertices with
similar lists get nearby numbers; the hubs (at most 32 vertices of degree n/16 or more
and 4x the mean) take the first numbers, so that a bottom-up search step finds them at a
list's first entry; a part's half with the highest degree comes first, and a vertex none
of whose neighbours comes before it gets one moved ahead of it, so that, as in a social
network's file, nearly every list starts with a smaller neighbour (the one that the
sampling of connected components links). It shrinks a social graph that the other orders
cannot (facebook_combined 7.13 -> 5.76 bits per edge); on the other graphs measured,
ids.bin costs more than the lists gain.
Like bfs it builds the graph in the file's order first and renumbers it from its lists;
the work is 4 rounds a level, each reading every list twice, O(m log n): 6-12x an
input-order ingest on 2 cores on the real graphs and a grid, about 100x on a uniform
random graph (which it cannot shrink), and it holds 33 bytes a vertex plus 20 a worker
within half of --mem.
--order auto (the default) samples, while it reads the input, the complete lists of 1
vertex in R (R as large as needed for a sixteenth of the stored edges, at least 16K
entries and at most 256K or --mem/512) and encodes them as they are and numbered at
random. When the file's numbering has strong locality (its lists take less than 50% of
what they take numbered at random: web crawls, road maps, meshes) it is kept without
numbering any other, since the other orders discard it. A graph of more than 2^24 list
entries without locality is decided before it is built: unless its degrees are flat
(lists of 4x the mean length or longer hold under 1% of the sample: no hubs to gather,
the degree order not tried), the degrees are counted from the first build's spill files
and the sample encoded in degree order too, ids.bin counted; when that is smaller the
input is read again in the degree order (the graph --order degree stores; from a pipe
the first graph is renumbered instead), else the file's order is built and the BFS order
weighed on it as below. Otherwise the bisection order's
size is predicted by bisecting a ball of up to 4096 vertices grown from a sampled one;
when the numbering has some locality (under 80%: ego networks) the degree and BFS
orders are not tried, else the sample is encoded in degree order too, counting ids.bin,
and the BFS order is computed and estimated only when searches from 8 sampled vertices
need 8 levels or more to reach 4096 vertices (not expanders such as random, Kronecker
and social graphs). The bisection order is computed when its prediction is 5% under the
smallest estimate and the graph has at most 2^24 list entries (facebook_combined: 5.76
bits per edge instead of 7.13). The smallest wins, the file's order on a tie. Size
decides: measured, the orders that search
much faster were the smaller, but for the BFS order on a grid in row order (CC 1.5-1.8x
faster at 2.2x the size) and on a uniform random graph (CC 1.6-1.8x faster at 3% more).
Keeping the file's order costs the sample and the prediction, not a second ingest
(1.0-1.35x the CPU time of --order input); the degree order chosen before the build
costs a first phase 1 more (kron22: 1.07x --order degree); the BFS and bisection orders
build the graph again from the first one's lists.
The summary (-v) says what it estimated.
With degree, bfs or bisect, ids.bin maps the numbers back (4 bytes a vertex, or varints
of the differences between consecutive ids where that saves a quarter on graphs of at
most 2^20 vertices: facebook_combined 1.8 bytes a vertex), and every id a command reads
or prints is still the file's own.
--order input keeps the file's numbering and skips the choice. Every vertex takes 8
bytes in the shards, edges or not: for sparse ids use --relabel. An id range of more than
64 vertices an input edge (from 2^20 vertices) is refused unless --sparse-ids.

--backend auto (the default) builds on the GPU when this build has CUDA (-tags cuda), a
GPU is usable and the input is a regular file of 64 MiB or more; --backend gpu insists,
--backend cpu never does. The GPU build parses on all cores as the CPU's does, holds the
keys in device memory (16 bytes a stored directed edge, plus 24 a vertex) and sorts,
deduplicates and encodes them there; an input too large for the device is read again by
the CPU ingest (not with --backend gpu). Both write the same bytes, except that --order
auto with --backend gpu compares the exact sizes of the file's and the degree order
instead of a sample's (with --backend auto the first pass may run on the GPU).

Memory stays within --mem plus a few MiB, however large the input (--mem's default:
` + memDefault + `): edges are partitioned into
compressed spill files in the output's temporary directory, then sorted partition by
partition on all cores.

The output is OUT.ooc in the current directory, OUT being the input's name without
its extensions (.txt, .gz, .mtx, ...); -o names it. The summary goes to stderr, the
progress bar too when stderr is a terminal (not with -q).

Examples:
  ooc ingest friendster.txt                      # writes ./friendster.ooc
  ooc ingest -o web.ooc --directed web-graph.mtx.gz
  zcat edges.gz | ooc ingest --format snap -o g.ooc -
  ooc ingest --mem 4GiB --shard-size 256MiB --json big.bin32 --format bin32
  ooc ingest --columns from,to -o web.ooc edges.parquet
  ooc ingest --weights --directed road.gr           # DIMACS arc weights kept
`

type ingestArgs struct {
	out          string
	format       string
	columns      string
	weights      bool
	floatWeights bool
	widthMeant   bool
	directed     bool
	keepLoops    bool
	keepDups     bool
	relabel      bool
	sparseIDs    bool
	order        string
	backend      string
	shardBytes   byteSize
	mem          byteSize
	workers      int
	quiet        bool
	verbose      bool
	force        bool
	json         bool
}

// memDefault is how every help text describes --mem's default (ingest.DefaultMem).
const memDefault = "half of the RAM or of the cgroup limit, whichever is lower"

func newIngestFlags(e *env, a *ingestArgs) *flag.FlagSet {
	fs := newFlags(e, "ingest")
	fs.StringVar(&a.out, "o", "", "output graph directory `DIR` (default: ./NAME.ooc from the input's name)")
	fs.StringVar(&a.format, "format", "", "input format: snap, mtx, gr, bin32, bin64, parquet (default: detect)")
	fs.StringVar(&a.columns, "columns", "", "Parquet: the id columns `SRC,DST` (default src,dst), and with --weights the weight column: SRC,DST,WEIGHT (default weight)")
	fs.BoolVar(&a.weights, "weights", false, "keep edge weights (third column, DIMACS arc weights, MatrixMarket values); duplicates keep the smallest")
	fs.BoolVar(&a.floatWeights, "float-weights", false, "with --weights: read the weights as float32 (implied by a real MatrixMarket file)")
	fs.BoolVar(&a.widthMeant, "width-meant", false, "with --format bin32: read a file whose second ids are all 0 (a star on vertex 0), refused otherwise as bin64 read at the wrong width")
	fs.BoolVar(&a.directed, "directed", false, "keep edge directions and store the transpose too")
	fs.BoolVar(&a.keepLoops, "keep-self-loops", false, "keep self-loops")
	fs.BoolVar(&a.keepDups, "keep-duplicates", false, "keep duplicate edges")
	fs.BoolVar(&a.relabel, "relabel", false, "number arbitrary 64-bit ids 0..n-1 and store the mapping")
	fs.BoolVar(&a.sparseIDs, "sparse-ids", false, "keep an id range of more than 64 vertices an input edge (refused otherwise: use --relabel)")
	fs.StringVar(&a.order, "order", ingest.OrderAuto, "vertex numbering: auto (whichever is estimated smallest), degree (hubs first), bfs (neighbours near), bisect (similar lists near) or input")
	fs.StringVar(&a.backend, "backend", ingest.BackendAuto, "where lists are sorted and encoded: auto (the GPU when usable), cpu or gpu")
	fs.Var(&a.shardBytes, "shard-size", "adjacency bytes per shard, a `SIZE` such as 256MiB (default 512MiB)")
	fs.Var(&a.mem, "mem", "memory budget, a `SIZE` such as 8GiB (default: "+memDefault+")")
	intFlag(fs, &a.workers, "workers", 0, "`N` threads (0: all cores)")
	fs.BoolVar(&a.quiet, "q", false, "no progress bar or summary")
	fs.BoolVar(&a.verbose, "v", false, "also print how the memory budget is split")
	fs.BoolVar(&a.force, "force", false, "replace an existing graph directory (nothing else: a file or a directory of other files is refused)")
	fs.BoolVar(&a.json, "json", false, "print the report as one JSON object on stdout")
	return fs
}

func runIngest(e *env, args []string) error {
	a := &ingestArgs{}
	pos, err := parseFlags(e, newIngestFlags(e, a), args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("expected one input file (or - for standard input), got %d arguments (run 'ooc help ingest')", len(pos))
	}
	in := pos[0]
	if in == "" {
		return usagef("an empty input name: give an edge list file, a Parquet directory, or - for standard input")
	}
	format, err := parse.ParseFormat(a.format)
	if err != nil {
		return usageError{err}
	}
	if err := checkWorkers(a.workers); err != nil {
		return err
	}
	if a.floatWeights && !a.weights {
		return usagef("--float-weights reads weights: give --weights too")
	}
	if a.widthMeant && format != parse.FormatBin32 {
		return usagef("--width-meant says a bin32 width is meant: give --format bin32 too")
	}
	columns, weightCol, err := parseColumns(a.columns, a.weights)
	if err != nil {
		return err
	}
	if err := checkOrder(a.order); err != nil {
		return err
	}
	if err := checkShardSize(a.shardBytes); err != nil {
		return err
	}
	if ingest.CheckBackend(a.backend) != nil {
		return usagef("--backend %q: want auto, cpu or gpu", a.backend)
	}
	if a.out == "-" {
		return usagef("-o -: ingest writes a graph directory, not standard output; name one (e.g. -o g.ooc)")
	}
	if a.out == "" {
		if in == "-" {
			return usagef("reading standard input needs -o OUT.ooc")
		}
		a.out = defaultOutput(in)
	}
	if m := ingest.MachineMem(); m > 0 && int64(a.mem) > m {
		// Not an error (the budget is a bound, not a reservation), but the spills then stay
		// in memory the machine does not have, and it swaps or kills the ingest.
		fmt.Fprintf(e.stderr, "ooc ingest: warning: --mem %s is more than this machine's %s of memory\n",
			bytesize.Format(int64(a.mem)), bytesize.Format(m))
	}
	opt := ingest.Options{Dest: a.out, Force: a.force, Directed: a.directed, KeepSelfLoops: a.keepLoops,
		KeepDuplicates: a.keepDups, Relabel: a.relabel, SparseIDs: a.sparseIDs, Order: a.order, ShardBytes: int64(a.shardBytes), Mem: int64(a.mem),
		Workers: a.workers, Format: format, Backend: a.backend, Columns: columns,
		Weights: a.weights, WeightColumn: weightCol, FloatWeights: a.floatWeights, WidthMeant: a.widthMeant}
	if !a.quiet {
		opt.Log, opt.Verbose = e.stderr, a.verbose
		if e.isTerminal {
			opt.Progress = e.stderr
		}
	}
	ctx, stop := signalContext(context.Background())
	defer stop()
	opt.Context = ctx
	var rep *ingest.Report
	if in == "-" {
		rep, err = ingest.FileFrom(e.stdin, "-", -1, opt)
	} else {
		rep, err = ingest.File(in, opt)
	}
	if err != nil {
		if errors.Is(err, parse.ErrBadInput) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, ingest.ErrMemTooSmall) || errors.Is(err, parse.ErrWindow) {
			return usageError{err}
		}
		return err
	}
	if a.json {
		return printJSON(e.stdout, ingestJSON(a.out, rep))
	}
	return nil
}

// defaultOutput is NAME.ooc in the current directory for an input NAME.txt.gz.
func defaultOutput(in string) string {
	base := filepath.Base(in)
	for {
		ext := strings.ToLower(filepath.Ext(base))
		switch ext {
		case ".gz", ".gzip", ".zst", ".zstd", ".txt", ".tsv", ".csv", ".el", ".edges", ".edgelist",
			".snap", ".mtx", ".gr", ".bin", ".bin32", ".bin64", ".parquet":
			base = base[:len(base)-len(ext)]
			continue
		}
		break
	}
	if base == "" || base == "." {
		base = "graph"
	}
	return base + ".ooc"
}

// ingestReport is the --json form: the manifest's counts at the top level (as
// 'ooc info --json' prints them) and the phases.
type ingestReport struct {
	Graph string `json:"graph"`
	graphCounts
	Format  string         `json:"format"`
	Seconds float64        `json:"seconds"`
	PeakRSS int64          `json:"peak_rss"`
	Mem     int64          `json:"mem"`
	Workers int            `json:"workers"`
	Backend string         `json:"backend"` // "cpu", or "gpu (DEVICE)"
	Order   string         `json:"vertex_order"`
	Phases  []ingest.Phase `json:"phases"`
	// Estimate is what --order auto saw and chose.
	Estimate *ingest.OrderEstimate `json:"order_estimate,omitempty"`
}

func ingestJSON(dest string, r *ingest.Report) ingestReport {
	m := r.Manifest
	return ingestReport{Graph: dest, graphCounts: countsOf(m), Format: m.Input.Format, Seconds: r.Seconds,
		PeakRSS: r.PeakRSS, Mem: r.Mem, Workers: r.Workers, Backend: r.Backend, Order: m.VertexOrder, Phases: r.Phases, Estimate: r.Order}
}

// minShardBytes is --shard-size's least: below a page every list is a shard of its own
// (sections are page-aligned), and a build that would cut more than store.MaxShards
// shards stops. Its most is store.MaxShardBytes (an ADJ section's offsets are 32 bits).
const minShardBytes = 4 << 10

// checkShardSize validates --shard-size (0: the default).
func checkShardSize(b byteSize) error {
	if b != 0 && (b < minShardBytes || b > store.MaxShardBytes) {
		return usagef("--shard-size %s: want 4 KiB to 4 GiB less one byte (4294967295)", bytesize.Format(int64(b)))
	}
	return nil
}

// checkOrder validates --order.
func checkOrder(order string) error {
	if ingest.CheckOrder(order) != nil || order == "" {
		return usagef("--order %q: want auto, degree, bfs, bisect or input", order)
	}
	return nil
}

// parseColumns reads --columns SRC,DST.
func parseColumns(s string, weights bool) ([2]string, string, error) {
	if s == "" {
		return [2]string{}, "", nil
	}
	f := strings.Split(s, ",")
	if slices.Contains(f, "") || len(f) < 2 || len(f) > 3 || (len(f) == 3 && !weights) {
		if weights {
			return [2]string{}, "", usagef("--columns %q: want SRC,DST or SRC,DST,WEIGHT", s)
		}
		return [2]string{}, "", usagef("--columns %q: want two column names, SRC,DST (a third, the weight, with --weights)", s)
	}
	if len(f) == 3 {
		return [2]string{f[0], f[1]}, f[2], nil
	}
	return [2]string{f[0], f[1]}, "", nil
}
