package main

import (
	"bufio"
	"encoding/binary"
	"flag"
	"io"
	"strconv"

	"github.com/oocgraph/ooc"
	"github.com/oocgraph/ooc/internal/parquetio"
	"github.com/oocgraph/ooc/store"
)

// resultOutput checks the output of a result (bfs, cc): -o FILE, or stdout for -o - and
// for --text without -o; nil when the result is not written.
func resultOutput(e *env, out string, text, asJSON, force bool) (*output, error) {
	if out == "" && !text {
		return nil, nil
	}
	if out == "" {
		out = "-"
	}
	if out == "-" && asJSON {
		return nil, usagef("--json and the result both want stdout; give -o FILE for the result")
	}
	if text && isParquetName(out) {
		return nil, usagef("-o %s writes Parquet; --text writes lines: drop one", out)
	}
	return checkOutput(e, out, force)
}

// resultRun is what a result command (bfs, cc, kcore, pagerank, sssp) runs on: where its
// result goes (nil: nowhere), the graph and the engine.
type resultRun struct {
	dest *output
	g    *store.Graph
	eng  ooc.Engine
}

// openRun opens a result command's run: it checks the output, opens the graph, checks
// the memory the command will take and opens the engine for algo. ready, when not nil,
// sees the output and the graph before the engine opens, and may refuse them (bfs and
// sssp check their sources there) or set a's noLevels. The caller closes the run.
func openRun(e *env, cmd string, pos []string, r resultFlags, a *engineArgs, algo ooc.Algo,
	ready func(dest *output, g *store.Graph) error) (*resultRun, error) {
	dest, err := resultOutput(e, r.out, r.text, r.json, r.force)
	if err != nil {
		return nil, err
	}
	g, _, err := openGraph(pos)
	if err != nil {
		return nil, err
	}
	err = checkMemory(cmd, g, r.validate)
	if err == nil && ready != nil {
		err = ready(dest, g)
	}
	var eng ooc.Engine
	if err == nil {
		eng, err = openEngine(e, cmd, g, *a, r.verbose, algo)
	}
	if err != nil {
		g.Close()
		return nil, err
	}
	return &resultRun{dest: dest, g: g, eng: eng}, nil
}

// close closes the engine, then the graph.
func (r *resultRun) close() {
	r.eng.Close()
	r.g.Close()
}

// resultFlags are the flags every result command (bfs, cc, kcore, pagerank, sssp)
// shares; resultHelp words them for the command's result.
type resultFlags struct {
	out                                  string
	text, force, validate, verbose, json bool
}

type resultHelp struct {
	result string // what -o writes: "the labels"
	lines  string // a --text line: "vertex label"
	check  string // --validate's help
	table  string // what -v prints on stderr
}

func (r *resultFlags) add(fs *flag.FlagSet, h resultHelp) {
	fs.StringVar(&r.out, "o", "", "write "+h.result+" to `FILE` (binary; see above), - for stdout")
	fs.BoolVar(&r.text, "text", false, "write \""+h.lines+"\" lines instead of binary")
	fs.BoolVar(&r.force, "force", false, "replace an existing -o file")
	fs.BoolVar(&r.validate, "validate", false, h.check)
	fs.BoolVar(&r.verbose, "v", false, "print "+h.table+" on stderr")
	fs.BoolVar(&r.json, "json", false, "print the result as one JSON object on stdout")
}

// putIDInfo writes the id base and flags words of a result header.
func putIDInfo(b []byte, g *store.Graph) {
	binary.LittleEndian.PutUint32(b, g.M.IDBase)
	var flags uint32
	if g.M.IDs != nil { // relabeled or numbered by degree
		flags |= 1
	}
	binary.LittleEndian.PutUint32(b[4:], flags)
}

// writeVertexValues writes a result of one uint32 a vertex (cc's labels, kcore's core
// numbers): a Parquet table of id and a column name, "vertex value" lines with --text,
// or magic's header and vals. value is what the table and the lines show for vertex v
// (a file id where ids is true: the column is then an id column); the binary file holds
// vals as they are.
func writeVertexValues(dest *output, g *store.Graph, magic string, vals []uint32, text bool, name string, ids bool, value func(v uint32) uint64) error {
	if isParquetName(dest.name) {
		unsigned := idsUnsigned(g)
		col := parquetio.Column{Name: name}
		if ids {
			col = idColumn(name, unsigned, false)
		}
		return writeResultTable(dest, g, unsigned, []resultColumn{
			{col, func(v uint32) parquetio.Cell { return parquetio.Cell{V: value(v)} }},
		})
	}
	return dest.write(func(w *bufio.Writer) error {
		if text {
			return writeRows(w, g, len(vals), func(b []byte, v uint32) []byte {
				return strconv.AppendUint(append(b, ' '), value(v), 10)
			})
		}
		writeHeader(w, g, magic, len(vals))
		return writeU32s(w, vals)
	})
}

func writeU32s(w *bufio.Writer, x []uint32) error {
	var b [4]byte
	for _, v := range x {
		binary.LittleEndian.PutUint32(b[:], v)
		if _, err := w.Write(b[:]); err != nil {
			return err
		}
	}
	return nil
}

// summaryTo is where a result command prints its summary line: stdout, unless stdout
// carries the JSON object or the result itself.
func (r resultFlags) summaryTo(e *env, dest *output) io.Writer {
	if r.json || (dest != nil && dest.kind == toStdout) {
		return e.stderr
	}
	return e.stdout
}

// finish writes the result to dest when there is one, then the JSON object js when
// --json asks for it.
func (r resultFlags) finish(e *env, dest *output, write func(*output) error, js any) error {
	if dest != nil {
		if err := write(dest); err != nil {
			return err
		}
	}
	if r.json {
		return printJSON(e.stdout, js)
	}
	return nil
}

// writeHeader writes a binary result's header: the magic (8 bytes), the vertex count n
// (uint64), the source (uint64) when the result has one, the id base and the flags.
func writeHeader(w *bufio.Writer, g *store.Graph, magic string, n int, source ...uint32) {
	writeHeaderFlags(w, g, magic, n, 0, source...)
}

// writeHeaderFlags is writeHeader with more flag bits (above bit 0, the ids.bin flag).
func writeHeaderFlags(w *bufio.Writer, g *store.Graph, magic string, n int, flags uint32, source ...uint32) {
	h := make([]byte, 16, 32)
	copy(h, magic)
	binary.LittleEndian.PutUint64(h[8:], uint64(n))
	for _, s := range source {
		h = binary.LittleEndian.AppendUint64(h, uint64(s))
	}
	h = h[:len(h)+8]
	putIDInfo(h[len(h)-8:], g)
	binary.LittleEndian.PutUint32(h[len(h)-4:], binary.LittleEndian.Uint32(h[len(h)-4:])|flags)
	w.Write(h)
}

// writeRows writes a --text result: one line a vertex, its id in the file's ids and then
// what row appends (a leading space included, the newline not).
func writeRows(w *bufio.Writer, g *store.Graph, n int, row func(b []byte, v uint32) []byte) error {
	var line []byte
	for v := range uint32(n) {
		line = strconv.AppendUint(line[:0], g.External(v), 10)
		line = append(row(line, v), '\n')
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return nil
}
