package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/oocgraph/ooc/internal/parquetio"
	"github.com/oocgraph/ooc/internal/plural"
	"github.com/oocgraph/ooc/store"
)

func init() {
	register(&command{name: "export", summary: "write a graph's edges as Parquet, an edge list or MatrixMarket", help: exportHelp + outputRules, run: runExport})
	flagSets["export"] = func(e *env) *flag.FlagSet { return newExportFlags(e, &exportArgs{}) }
}

const exportHelp = `
Usage: ooc export -o FILE [--both] [--force] [-q] [--json] [GRAPH]

Write the graph's edges, in the ids of the file it was ingested from, for another
engine to read: when a graph outgrows one machine, Spark GraphFrames and cuGraph on
Dask take it as Parquet (docs/scale-out.md). With no GRAPH named, the only *.ooc graph
directory in the current directory is used.

The format follows FILE's extension:
  .parquet  columns src and dst (INT64, or UINT64 when an id is 2^63 or more), and
            weight (INT64, DOUBLE for float32 weights) for a weighted graph, in row
            groups of 1M rows, zstd-compressed
  .el       text lines "u v"; also .txt, no extension (a device, a FIFO) and -o -
  .mtx      MatrixMarket coordinate pattern (integer or real: the weights, for a
            weighted graph), "symmetric" (each edge once, row >= col) for an undirected
            graph, else "general"; ids count from 1, so a graph from a 0-based file has
            every id shifted up by one
  .sg/.wsg  GAPBS's serialized graph (its benchmarks read it with -f), every list whole,
            .wsg with the weights (an undirected graph; GAPBS reads them as int32, so
            at most 2147483647); the ids must be 0..n-1

A weighted graph's edge list has the weight as a third column ("u v w"), which
'ooc ingest --weights' reads back (float32 weights in the fewest digits that read back
to the same float32: 'ooc ingest --weights --float-weights'); so do its Parquet table
and MatrixMarket file.

An undirected graph is written with each edge once (u v, not also v u), a self-loop
once; --both writes both directions, as Spark GraphFrames wants for an undirected
graph. A directed graph is written edge by edge, as stored. Vertices without edges do
not appear in an edge list (the .mtx size line keeps the vertex count).

Examples:
  ooc export -o edges.parquet web.ooc
  ooc export --both -o edges.parquet friendster.ooc
  ooc export -o - road.ooc | head
  ooc export -o k26.wsg k26w.ooc && sssp -f k26.wsg -n 3   # GAPBS's sssp, same graph
`

type exportArgs struct {
	out   string
	both  bool
	force bool
	quiet bool
	json  bool
}

func newExportFlags(e *env, a *exportArgs) *flag.FlagSet {
	fs := newFlags(e, "export")
	fs.StringVar(&a.out, "o", "", "write the edges to `FILE` (.parquet, .mtx, or .el for \"u v\" lines; - for stdout)")
	fs.BoolVar(&a.both, "both", false, "write each undirected edge in both directions")
	fs.BoolVar(&a.force, "force", false, "replace an existing FILE")
	fs.BoolVar(&a.quiet, "q", false, "no summary")
	fs.BoolVar(&a.json, "json", false, "print the counts as one JSON object on stdout")
	return fs
}

// exportJSON is export's --json output.
type exportJSON struct {
	File   string `json:"file"`
	Format string `json:"format"`
	Edges  uint64 `json:"edges"` // rows or lines written
	Both   bool   `json:"both"`  // undirected edges written both ways
}

func runExport(e *env, args []string) error {
	var a exportArgs
	pos, err := parseFlags(e, newExportFlags(e, &a), args)
	if err != nil {
		return err
	}
	if a.out == "" {
		return usagef("give -o FILE (.parquet, .el or .mtx), or -o - for \"u v\" lines on stdout")
	}
	if a.out == "-" && a.json {
		return usagef("--json and the edges both want stdout; give -o FILE")
	}
	dest, err := checkOutput(e, a.out, a.force)
	if err != nil {
		return err
	}
	format, err := exportFormat(a.out)
	if err != nil {
		return err
	}
	g, _, err := openGraph(pos)
	if err != nil {
		return err
	}
	defer g.Close()
	if a.both && g.Directed() {
		return usagef("--both writes undirected edges both ways; this graph is directed, and its edges are written as stored")
	}
	if err := g.Check(); err != nil { // every list is read: none may come from bad bytes
		return err
	}
	// a .sg holds every list whole: each undirected edge both ways
	x := &exporter{g: g, both: a.both || g.Directed() || format == "sg" || format == "wsg"}
	switch format {
	case "parquet":
		err = dest.write(x.parquet)
	case "mtx":
		err = dest.write(x.mtx)
	case "sg", "wsg":
		err = dest.write(func(w *bufio.Writer) error { return x.sg(w, format == "wsg") })
	default:
		err = dest.write(x.edgeList)
	}
	if err != nil {
		return err
	}
	summary := e.stdout
	if a.json || a.out == "-" {
		summary = e.stderr
	}
	if !a.quiet {
		fmt.Fprintf(summary, "export: %s written to %s (%s%s)\n", plural.Of(x.written, "edge"), dest.name, format, x.note())
	}
	if a.json {
		return printJSON(e.stdout, exportJSON{File: a.out, Format: format, Edges: x.written, Both: a.both})
	}
	return nil
}

// exportFormat maps -o's extension to a format.
func exportFormat(out string) (string, error) {
	if out == "-" {
		return "el", nil
	}
	switch ext := strings.ToLower(filepath.Ext(out)); ext {
	case ".parquet", ".mtx", ".sg", ".wsg":
		return ext[1:], nil
	case ".el", ".txt", "":
		return "el", nil
	}
	return "", usagef("-o %s: the extension picks the format; want .parquet, .mtx, .sg, .wsg, or .el, .txt or none for \"u v\" lines", out)
}

// exporter walks a graph's stored edges in file ids.
type exporter struct {
	g       *store.Graph
	both    bool // every stored edge; else each undirected edge once (v <= w)
	written uint64
}

func (x *exporter) note() string {
	switch {
	case x.g.Directed():
		return ", directed"
	case x.both:
		return ", each undirected edge both ways"
	}
	return ", each undirected edge once"
}

// each calls fn with every edge written, in internal ids, shard by shard.
func (x *exporter) each(fn func(v, w uint32) error) error {
	return x.eachWeighted(func(v, w, _ uint32) error { return fn(v, w) })
}

// eachWeighted is each with every edge's weight (0 on a graph without weights).
func (x *exporter) eachWeighted(fn func(v, w, weight uint32) error) error {
	var buf []uint32
	for _, s := range x.g.Out().Shards {
		for v := s.Lo; v < s.Hi(); v++ {
			var err error
			if buf, err = s.Neighbors(buf[:0], v); err != nil {
				return err
			}
			ws := s.WeightsOf(v)
			if ws != nil && len(ws) != len(buf) {
				return fmt.Errorf("export: vertex %d has %d weights for %d neighbours", x.g.External(v), len(ws), len(buf))
			}
			for k, w := range buf {
				if !x.both && w < v {
					continue
				}
				var wt uint32
				if ws != nil {
					wt = ws[k]
				}
				if err := fn(v, w, wt); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (x *exporter) parquet(out *bufio.Writer) error {
	unsigned := idsUnsigned(x.g)
	cols := []parquetio.Column{idColumn("src", unsigned, false), idColumn("dst", unsigned, false)}
	weighted, float := x.g.M.Weighted, x.g.M.FloatWeights()
	if weighted { // what 'ooc ingest --weights' reads: INT64, or DOUBLE for float32 weights
		cols = append(cols, parquetio.Column{Name: "weight", Float: float})
	}
	w, err := parquetio.NewWriter(out, cols, 0)
	if err != nil {
		return err
	}
	row := make([]parquetio.Cell, len(cols))
	err = x.eachWeighted(func(v, u, wt uint32) error {
		x.written++
		row[0], row[1] = parquetio.Cell{V: x.g.External(v)}, parquetio.Cell{V: x.g.External(u)}
		if weighted {
			row[2] = parquetio.Cell{V: uint64(wt), F: float64(math.Float32frombits(wt))}
		}
		return w.Write(row...)
	})
	if err != nil {
		return err
	}
	return w.Close()
}

func (x *exporter) edgeList(out *bufio.Writer) error {
	var line []byte
	weighted, float := x.g.M.Weighted, x.g.M.FloatWeights()
	return x.eachWeighted(func(v, w, wt uint32) error {
		x.written++
		line = strconv.AppendUint(line[:0], x.g.External(v), 10)
		line = append(line, ' ')
		line = strconv.AppendUint(line, x.g.External(w), 10)
		switch {
		case float:
			line = appendWeight(line, "real", wt)
		case weighted:
			line = appendWeight(line, "integer", wt)
		}
		line = append(line, '\n')
		_, err := out.Write(line)
		return err
	})
}

// appendWeight appends " w" for a field of "integer" or "real" (float32 weights in the
// fewest digits that read back to the same float32), nothing for "pattern".
func appendWeight(line []byte, field string, wt uint32) []byte {
	switch field {
	case "real":
		return strconv.AppendFloat(append(line, ' '), float64(math.Float32frombits(wt)), 'g', -1, 32)
	case "integer":
		return strconv.AppendUint(append(line, ' '), uint64(wt), 10)
	}
	return line
}

// mtx writes MatrixMarket: a pass counts the entries for the size line, a second writes
// them.
func (x *exporter) mtx(out *bufio.Writer) error {
	shift := uint64(1) // MatrixMarket counts from 1
	if f := x.g.M.Input.Format; f == "mtx" || f == "gr" {
		shift = 0 // the file's ids already do
	}
	var entries, n uint64
	err := x.each(func(v, w uint32) error {
		entries++
		return nil
	})
	if err != nil {
		return err
	}
	for v := range x.g.NumVertices() {
		n = max(n, x.g.External(v))
	}
	if n+shift < n {
		return fmt.Errorf("the id %d cannot be shifted to MatrixMarket's 1-based ids", n)
	}
	n += shift
	kind := "general"
	if !x.both {
		kind = "symmetric"
	}
	field := "pattern" // a weighted graph's values are its weights, which ingest --weights reads
	switch {
	case x.g.M.FloatWeights():
		field = "real"
	case x.g.M.Weighted:
		field = "integer"
	}
	fmt.Fprintf(out, "%%%%MatrixMarket matrix coordinate %s %s\n%%%% written by ooc export\n%d %d %d\n", field, kind, n, n, entries)
	var line []byte
	return x.eachWeighted(func(v, w, wt uint32) error {
		a, b := x.g.External(v)+shift, x.g.External(w)+shift
		if !x.both && a < b {
			a, b = b, a // symmetric: the lower triangle
		}
		x.written++
		line = strconv.AppendUint(line[:0], a, 10)
		line = append(line, ' ')
		line = strconv.AppendUint(line, b, 10)
		line = appendWeight(line, field, wt)
		line = append(line, '\n')
		_, err := out.Write(line)
		return err
	})
}
