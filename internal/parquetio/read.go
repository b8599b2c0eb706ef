// Package parquetio reads edge lists from Parquet files and writes edge lists and
// per-vertex result tables to them, so that graphs and answers pass to and from
// DataFrame engines (Spark, cuDF, DuckDB, pandas) without a conversion step.
//
// Reading streams: each row group's two id columns are read page by page, so memory
// holds one page per column per reading goroutine, whatever the file's size, and
// ReadOptions.PageMem bounds them all together.
// Writing buffers one row group (at most its row count times 8 bytes a column, before
// compression) and nothing more.
package parquetio

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/oocgraph/ooc/internal/plural"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// Magic opens (and closes) every Parquet file.
const Magic = "PAR1"

// BatchRows is the most pairs one call of Read's callback receives.
const BatchRows = 64 << 10

// Error is bad input, positioned by row group, column and row (each -1 or "" when it
// does not apply). Error() is one line.
type Error struct {
	Path     string
	RowGroup int    // 0-based; -1 = the file as a whole
	Groups   int    // row groups in the file
	Column   string // "" = none
	Row      int64  // 0-based within the row group; -1 = none
	Msg      string
	Err      error
}

// Where is the position part of the message: "row group 3 of 10, column "dst", row 17".
func (e *Error) Where() string {
	var parts []string
	if e.RowGroup >= 0 {
		parts = append(parts, fmt.Sprintf("row group %d of %d", e.RowGroup, e.Groups))
	}
	if e.Column != "" {
		parts = append(parts, fmt.Sprintf("column %q", e.Column))
	}
	if e.Row >= 0 {
		parts = append(parts, fmt.Sprintf("row %d", e.Row))
	}
	return strings.Join(parts, ", ")
}

func (e *Error) Error() string {
	s := "parquet: " + e.Path + ": "
	if w := e.Where(); w != "" {
		s += w + ": "
	}
	s += e.Msg
	if e.Err != nil {
		s += ": " + strings.ReplaceAll(e.Err.Error(), "\n", " ")
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// column is one id column of an edge list.
type column struct {
	name     string
	index    int  // leaf column index in the file
	unsigned bool // UINT_8..UINT_64: the bits are an unsigned number
	weight   bool // the weight column: values up to 2^32-1, whatever ReadOptions.MaxID
	float    bool // a FLOAT or DOUBLE weight column: its values come as float32 bits
}

// Edges is an open Parquet edge list.
type Edges struct {
	r    io.ReaderAt
	f    *parquet.File
	path string
	cols [2]column
	wcol *column // the weight column (WithWeights), else nil
}

// OpenEdges reads the footer of the Parquet file r (size bytes; path names it in errors)
// and finds the id columns: src and dst name them, "" meaning "src" and "dst". An id
// column is a top-level, non-repeated INT32 or INT64 column, signed or unsigned, of any
// bit width; further columns (a weight, say) are not read.
func OpenEdges(r io.ReaderAt, size int64, path, src, dst string) (e *Edges, err error) {
	defer recoverCorrupt(&err, path, -1, 0)
	if src == "" {
		src = "src"
	}
	if dst == "" {
		dst = "dst"
	}
	if err := checkFrame(r, size, path); err != nil {
		return nil, err
	}
	f, err := parquet.OpenFile(r, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, &Error{Path: path, RowGroup: -1, Row: -1, Msg: "not a readable Parquet file", Err: err}
	}
	e = &Edges{r: r, f: f, path: path}
	for k, name := range []string{src, dst} {
		if e.cols[k], err = e.lookup(name); err != nil {
			return nil, err
		}
	}
	if e.cols[0].index == e.cols[1].index {
		return nil, e.fileError(src, "names both the source and the destination column")
	}
	return e, nil
}

// WithWeights makes Read pass the column name ("" meaning "weight") too: one weight per
// row, an integer from 0 to 2^32-1, or for a FLOAT or DOUBLE column (FloatWeights) the
// bits of the value rounded to float32, non-negative and finite (-0 passed as 0).
func (e *Edges) WithWeights(name string) (err error) {
	defer recoverCorrupt(&err, e.path, -1, 0)
	if name == "" {
		name = "weight"
	}
	c, err := e.lookupAs(name, true)
	if err != nil {
		return err
	}
	if c.index == e.cols[0].index || c.index == e.cols[1].index {
		return e.fileError(name, "names an id column as the weight column")
	}
	c.weight = true
	e.wcol = &c
	return nil
}

// checkFrame checks the magic at both ends and that the footer's length stays inside
// the file, before the library allocates the footer at the length the file claims.
func checkFrame(r io.ReaderAt, size int64, path string) error {
	bad := func(msg string) error {
		return &Error{Path: path, RowGroup: -1, Row: -1, Msg: "not a Parquet file: " + msg}
	}
	if size < 12 {
		return bad(plural.Of(size, "byte") + ", fewer than the 12 of magic and footer length")
	}
	var head [4]byte
	var tail [8]byte
	if _, err := r.ReadAt(head[:], 0); err != nil {
		return &Error{Path: path, RowGroup: -1, Row: -1, Msg: "cannot read the file", Err: err}
	}
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return &Error{Path: path, RowGroup: -1, Row: -1, Msg: "cannot read the file", Err: err}
	}
	switch {
	case string(head[:]) != Magic:
		return bad(fmt.Sprintf("it starts with %q, not %q", head[:], Magic))
	case string(tail[4:]) != Magic:
		return bad(fmt.Sprintf("it ends with %q, not %q (truncated?)", tail[4:], Magic))
	}
	if n := int64(binary.LittleEndian.Uint32(tail[:4])); n > size-12 {
		return bad(fmt.Sprintf("the footer claims %s, more than the file's %d (truncated?)", plural.Of(n, "byte"), size))
	}
	return nil
}

// lookup finds the id column name and checks its type.
func (e *Edges) lookup(name string) (column, error) { return e.lookupAs(name, false) }

// FloatWeights says whether the weight column (WithWeights) holds floating-point values,
// which ReadWeighted passes as float32 bits.
func (e *Edges) FloatWeights() bool { return e.wcol != nil && e.wcol.float }

// lookupAs finds an integer column, or with weight also a floating-point one.
func (e *Edges) lookupAs(name string, weight bool) (column, error) {
	leaf, ok := e.f.Schema().Lookup(name)
	if !ok {
		var names []string
		for _, p := range e.f.Schema().Columns() {
			names = append(names, strings.Join(p, "."))
			if p[0] == name {
				return column{}, e.fileError(name, fmt.Sprintf("is a nested column (%s); expected one integer id per row", names[len(names)-1]))
			}
		}
		return column{}, e.fileError("", fmt.Sprintf("no column %q; the file has %s (name the id columns with --columns SRC,DST)",
			name, strings.Join(names, ", ")))
	}
	if leaf.MaxRepetitionLevel > 0 {
		return column{}, e.fileError(name, "is a repeated (list) column; expected one integer id per row")
	}
	typ := leaf.Node.Type()
	c := column{name: name, index: leaf.ColumnIndex}
	if kind := typ.Kind(); weight && (kind == parquet.Float || kind == parquet.Double) {
		c.float = true
		return c, nil
	}
	if kind := typ.Kind(); kind != parquet.Int32 && kind != parquet.Int64 {
		return column{}, e.fileError(name, fmt.Sprintf("holds %s values; expected integer ids (INT32 or INT64)", kind))
	}
	if lt := typ.LogicalType(); lt != nil && lt.Value != nil {
		it, ok := lt.Value.(*format.IntType)
		if !ok {
			return column{}, e.fileError(name, fmt.Sprintf("holds %s values; expected integer ids", lt))
		}
		c.unsigned = !it.IsSigned
	}
	return c, nil
}

func (e *Edges) fileError(col, msg string) *Error {
	return &Error{Path: e.path, RowGroup: -1, Column: col, Row: -1, Msg: msg}
}

// NumRows is the edge count the footer announces.
func (e *Edges) NumRows() int64 { return e.f.NumRows() }

// NumRowGroups is the number of row groups.
func (e *Edges) NumRowGroups() int { return len(e.f.RowGroups()) }

// ReadOptions shape Read.
type ReadOptions struct {
	Workers int    // goroutines, each reading one row group at a time (at least 1)
	MaxID   uint64 // the largest id accepted; a larger one is an *Error naming its row
	Hint    string // appended to the message for an id above MaxID
	// PageMem bounds the memory of the pages being read at once, compressed and decoded
	// (0: no bound): a row group waits until its largest pages fit, or runs alone.
	PageMem int64
}

// callbackError carries an error returned by Read's callback, which Read returns as is.
type callbackError struct{ err error }

func (e *callbackError) Error() string { return e.err.Error() }

// Read passes every row's ids to each, in batches of at most BatchRows equal-length
// slices, calling it from up to opt.Workers goroutines; each must not retain the slices.
// Bad input gives an *Error, for the first bad row group in file order whatever the
// worker count; an error from each is returned unchanged.
func (e *Edges) Read(opt ReadOptions, each func(src, dst []uint64) error) error {
	return e.ReadWeighted(opt, func(src, dst, _ []uint64) error { return each(src, dst) })
}

// ReadWeighted is Read that also passes the weights of the rows (WithWeights), or nil.
func (e *Edges) ReadWeighted(opt ReadOptions, each func(src, dst, w []uint64) error) error {
	groups := e.f.RowGroups()
	workers := max(min(opt.Workers, len(groups)), 1)
	errs := make([]error, len(groups))
	var budget *pageBudget
	if opt.PageMem > 0 {
		budget = newPageBudget(opt.PageMem)
	}
	var next atomic.Int64
	stop := atomic.Int64{} // row groups at or after stop are not started
	stop.Store(math.MaxInt64)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := &groupReader{e: e, opt: opt, budget: budget, src: make([]uint64, BatchRows), dst: make([]uint64, BatchRows)}
			if e.wcol != nil {
				r.w = make([]uint64, BatchRows)
			}
			for {
				g := next.Add(1) - 1
				if g >= int64(len(groups)) || g >= stop.Load() {
					return
				}
				if err := r.read(int(g), groups[g], each); err != nil {
					errs[g] = err
					for s := stop.Load(); g < s && !stop.CompareAndSwap(s, g); s = stop.Load() {
					}
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if cb, ok := err.(*callbackError); ok {
			return cb.err
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// groupReader reads row groups, one at a time, into its two batch buffers.
type groupReader struct {
	e        *Edges
	opt      ReadOptions
	budget   *pageBudget
	src, dst []uint64
	w        []uint64 // the weights, with a weight column
}

// read passes row group g to each.
func (r *groupReader) read(g int, rg parquet.RowGroup, each func(src, dst, w []uint64) error) (err error) {
	groups := len(r.e.f.RowGroups())
	defer recoverCorrupt(&err, r.e.path, g, groups)
	chunks := rg.ColumnChunks()
	cols := []*column{&r.e.cols[0], &r.e.cols[1]}
	if r.e.wcol != nil {
		cols = append(cols, r.e.wcol)
	}
	cs := make([]*columnStream, len(cols))
	var need int64
	for k := range cs {
		c := cols[k]
		if c.index >= len(chunks) {
			return &Error{Path: r.e.path, RowGroup: g, Groups: groups, Column: c.name, Row: -1, Msg: "the row group has no such column chunk"}
		}
		cs[k] = &columnStream{col: c, group: g, groups: groups, path: r.e.path, opt: &r.opt}
		md := &r.e.f.Metadata().RowGroups[g].Columns[c.index].MetaData
		most, err := cs[k].checkPages(r.e.r, r.e.f.Size(), md)
		if err != nil {
			return err
		}
		need += most
	}
	took := r.budget.acquire(need)
	defer r.budget.release(took)
	for k, c := range cs {
		c.pages = chunks[c.col.index].Pages()
		defer cs[k].pages.Close()
		defer cs[k].release()
	}
	var rows int64
	for {
		n, srcErr := cs[0].fill(r.src)
		if srcErr != nil && srcErr != io.EOF {
			return srcErr
		}
		m, dstErr := cs[1].fill(r.dst[:n])
		if dstErr != nil && dstErr != io.EOF {
			return dstErr
		}
		if m < n {
			return r.e.countError(g, cs[0], cs[1])
		}
		var w []uint64
		if len(cs) == 3 {
			k, wErr := cs[2].fill(r.w[:n])
			if wErr != nil && wErr != io.EOF {
				return wErr
			}
			if k < n {
				return r.e.countError(g, cs[0], cs[2])
			}
			w = r.w[:n]
		}
		rows += int64(n)
		if n > 0 {
			if err := each(r.src[:n], r.dst[:n], w); err != nil {
				return &callbackError{err}
			}
		}
		if srcErr == io.EOF {
			break
		}
	}
	var one [1]uint64
	for _, c := range cs[1:] {
		if k, err := c.fill(one[:]); err != nil && err != io.EOF {
			return err
		} else if k > 0 {
			return r.e.countError(g, cs[0], c)
		}
	}
	if want := rg.NumRows(); rows != want {
		return &Error{Path: r.e.path, RowGroup: g, Groups: groups, Row: -1,
			Msg: fmt.Sprintf("the footer announces %d rows, the columns hold %d", want, rows)}
	}
	return nil
}

// countError is the error for columns of different lengths.
func (e *Edges) countError(g int, a, b *columnStream) error {
	return &Error{Path: e.path, RowGroup: g, Groups: len(e.f.RowGroups()), Row: -1,
		Msg: fmt.Sprintf("columns %q and %q hold different numbers of values (%d and %d read)",
			a.col.name, b.col.name, a.row, b.row)}
}

// recoverCorrupt turns a panic of the Parquet library on malformed bytes into an *Error.
func recoverCorrupt(err *error, path string, group, groups int) {
	if p := recover(); p != nil {
		*err = &Error{Path: path, RowGroup: group, Groups: groups, Row: -1, Msg: fmt.Sprintf("corrupt Parquet data (%v)", p)}
	}
}
