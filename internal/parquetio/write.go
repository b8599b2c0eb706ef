package parquetio

import (
	"fmt"
	"io"
	"reflect"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// Column is one 64-bit column of a table that Writer writes: an integer unless Float.
type Column struct {
	Name string
	// Unsigned annotates the column UINT_64 (for ids at or above 2^63); otherwise it is a
	// plain INT64, which every DataFrame engine reads as a long.
	Unsigned bool
	// Float makes it a DOUBLE column, whose values Cell.F holds.
	Float bool
	// Nullable makes the column OPTIONAL, so that Cell.Null writes a null (an unreached
	// vertex's level, say); otherwise it is REQUIRED.
	Nullable bool
}

// Cell is one value of a row.
type Cell struct {
	V    uint64  // an integer column's value
	F    float64 // a Float column's value
	Null bool    // only in a Nullable column
}

// DefaultGroupRows is the row group size Writer uses unless told otherwise: 1M rows, 8
// MiB a column before compression; readers split work by row group, so a large graph
// gives every core of a cluster some.
const DefaultGroupRows = 1 << 20

// flushRows is how many rows Writer buffers as Values before handing them to the
// library's column writers.
const flushRows = 4 << 10

// Writer writes a Parquet file of integer columns row by row, in row groups of a
// bounded number of rows, compressed with zstd, in version 1 data pages (what every
// reader takes).
type Writer struct {
	pw        *parquet.GenericWriter[any]
	cols      []Column
	buf       [][]parquet.Value
	groupRows int64
	inGroup   int64 // rows written to the current row group
	rows      int64
}

// zstdFastest compresses at zstd's fastest level: on 2 cores writing an edge list took
// about half the time of the default level, which spent it compressing.
var zstdFastest = zstd.Codec{Level: zstd.SpeedFastest}

// NewWriter starts a table with the given columns on out; groupRows bounds the rows of
// a row group (0: DefaultGroupRows).
func NewWriter(out io.Writer, cols []Column, groupRows int) (*Writer, error) {
	if len(cols) == 0 {
		return nil, fmt.Errorf("parquetio: a table needs at least one column")
	}
	if groupRows <= 0 {
		groupRows = DefaultGroupRows
	}
	schema := parquet.SchemaOf(rowType(cols))
	pw := parquet.NewGenericWriter[any](out, schema, parquet.Compression(&zstdFastest),
		parquet.DataPageVersion(1), parquet.CreatedBy("ooc", "1", ""))
	w := &Writer{pw: pw, cols: cols, buf: make([][]parquet.Value, len(cols)), groupRows: int64(groupRows)}
	for c := range w.buf {
		w.buf[c] = make([]parquet.Value, 0, flushRows)
	}
	return w, nil
}

// rowType is a struct type whose fields are the columns, in order: the library orders
// a struct's columns by field, where a Group would sort them by name.
func rowType(cols []Column) any {
	fields := make([]reflect.StructField, len(cols))
	for i, c := range cols {
		typ := reflect.TypeFor[int64]()
		switch {
		case c.Float:
			typ = reflect.TypeFor[float64]()
		case c.Unsigned:
			typ = reflect.TypeFor[uint64]()
		}
		tag := c.Name
		if c.Nullable {
			tag += ",optional"
		}
		fields[i] = reflect.StructField{Name: fmt.Sprintf("C%d", i), Type: typ, Tag: reflect.StructTag(`parquet:"` + tag + `"`)}
	}
	return reflect.New(reflect.StructOf(fields)).Elem().Interface()
}

// Write appends one row: a cell for every column, in order.
func (w *Writer) Write(row ...Cell) error {
	if len(row) != len(w.cols) {
		return fmt.Errorf("parquetio: a row of %d cells for %d columns", len(row), len(w.cols))
	}
	for c, cell := range row {
		col := &w.cols[c]
		var v parquet.Value
		switch {
		case cell.Null && !col.Nullable:
			return fmt.Errorf("parquetio: a null in column %q, which is not nullable", col.Name)
		case cell.Null:
			v = parquet.NullValue().Level(0, 0, c)
		case col.Float:
			v = parquet.DoubleValue(cell.F).Level(0, b2i(col.Nullable), c)
		default:
			v = parquet.Int64Value(int64(cell.V)).Level(0, b2i(col.Nullable), c)
		}
		w.buf[c] = append(w.buf[c], v)
	}
	w.rows++
	if w.inGroup+int64(len(w.buf[0])) >= w.groupRows || len(w.buf[0]) == cap(w.buf[0]) {
		return w.flush()
	}
	return nil
}

// Rows is the number of rows written so far.
func (w *Writer) Rows() int64 { return w.rows }

// flush hands the buffered rows to the column writers, and ends the row group when it
// is full.
func (w *Writer) flush() error {
	n := len(w.buf[0])
	if n == 0 {
		return nil
	}
	for c, cw := range w.pw.ColumnWriters() {
		if _, err := cw.WriteRowValues(w.buf[c]); err != nil {
			return err
		}
		w.buf[c] = w.buf[c][:0]
	}
	w.inGroup += int64(n)
	if w.inGroup >= w.groupRows {
		w.inGroup = 0
		return w.pw.Flush()
	}
	return nil
}

// Close writes what is buffered and the footer; it does not close out.
func (w *Writer) Close() error {
	if err := w.flush(); err != nil {
		return err
	}
	return w.pw.Close()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
