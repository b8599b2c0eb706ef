package main

import (
	"bufio"
	"path/filepath"
	"strings"

	"github.com/oocgraph/ooc/internal/parquetio"
	"github.com/oocgraph/ooc/store"
)

// Per-vertex results as Parquet tables: a command whose -o names a .parquet file writes
// one row per vertex, the column id (the file's own id) first and then its result
// columns, so that a DataFrame engine joins them with the graph's edges or other
// results on id (docs/scale-out.md).

// parquetHelp is the paragraph the help of every result command quotes, after naming
// its columns.
const parquetHelp = `one row per vertex, ids as the input file numbered them (INT64, or UINT64 when an
id is 2^63 or more), for Spark, cuDF, DuckDB or pandas to join on id.`

// isParquetName reports whether an output name asks for Parquet.
func isParquetName(name string) bool { return strings.EqualFold(filepath.Ext(name), ".parquet") }

// resultColumn is one result column of a table and how a vertex's cell is read.
type resultColumn struct {
	parquetio.Column
	cell func(v uint32) parquetio.Cell
}

// idsUnsigned reports whether some file id is 2^63 or more, which a signed INT64
// column cannot hold.
func idsUnsigned(g *store.Graph) bool {
	if g.M.IDs == nil {
		return false // at most 2^32-2 plus the id base
	}
	for v := range g.NumVertices() {
		if g.External(v) >= 1<<63 {
			return true
		}
	}
	return false
}

// idColumn is a column of file ids (id, parent, component): INT64 unless unsigned.
func idColumn(name string, unsigned, nullable bool) parquetio.Column {
	return parquetio.Column{Name: name, Unsigned: unsigned, Nullable: nullable}
}

// writeResultTable writes one row per vertex to dest: id, then cols.
func writeResultTable(dest *output, g *store.Graph, unsigned bool, cols []resultColumn) error {
	pc := []parquetio.Column{idColumn("id", unsigned, false)}
	for _, c := range cols {
		pc = append(pc, c.Column)
	}
	return dest.write(func(w *bufio.Writer) error {
		tw, err := parquetio.NewWriter(w, pc, 0)
		if err != nil {
			return err
		}
		row := make([]parquetio.Cell, len(pc))
		for v := range g.NumVertices() {
			row[0] = parquetio.Cell{V: g.External(v)}
			for i, c := range cols {
				row[i+1] = c.cell(v)
			}
			if err := tw.Write(row...); err != nil {
				return err
			}
		}
		return tw.Close()
	})
}
