package ingest

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/parquetio"
	"github.com/oocgraph/ooc/store"
)

// isParquet says whether the input is Parquet: --format parquet, or no --format and
// either a .parquet name or the magic PAR1 at the start of a file.
func isParquet(r io.Reader, name string, opt Options) bool {
	switch opt.Format {
	case parse.FormatParquet:
		return true
	case "":
	default:
		return false
	}
	if strings.EqualFold(filepath.Ext(name), ".parquet") {
		return true
	}
	var head [4]byte
	ra, ok := r.(io.ReaderAt)
	if !ok {
		return false
	}
	n, _ := ra.ReadAt(head[:], 0)
	return n == 4 && string(head[:]) == parquetio.Magic
}

// notParquetColumns refuses Columns or WeightColumn for an input that is not Parquet,
// weighted or not.
func notParquetColumns(name string, opt Options) error {
	if opt.Columns != [2]string{} || opt.WeightColumn != "" {
		return &parse.ParseError{Path: inputName(name), Offset: -1, Msg: "--columns names Parquet columns, and this input is not Parquet"}
	}
	return nil
}

// fileFromParquet ingests a Parquet edge list (one row per edge, two integer id columns,
// Options.Columns or src and dst; further columns not read) and says whether the input
// was one.
func fileFromParquet(r io.Reader, name string, size int64, opt Options) (*Report, bool, error) {
	if !isParquet(r, name, opt) {
		if err := notParquetColumns(name, opt); err != nil {
			return nil, true, err
		}
		return nil, false, nil
	}
	ra, ok := r.(io.ReaderAt)
	if name == "-" || !ok || size < 0 {
		return nil, true, &parse.ParseError{Path: inputName(name), Offset: -1,
			Msg: "a Parquet file is read from its end (the footer): name the file, not standard input or a pipe"}
	}
	rep, err := fromParquet(name, []parquetPart{{name: name, size: size, r: ra}}, opt)
	return rep, true, err
}

// parquetPart is one Parquet file of an input: the input itself, or one part file of a
// dataset directory.
type parquetPart struct {
	name string
	size int64
	r    io.ReaderAt // nil: opened by name when read
}

// fromParquet ingests the rows of parts, in order, as one edge list named name: through
// FromEdges, row group by row group on all cores, or the weighted ingest with
// Options.Weights. Every part's footer and columns are checked before any row is read.
func fromParquet(name string, parts []parquetPart, opt Options) (*Report, error) {
	var rows, size int64
	var floatCol, typed bool // the weight column is floating-point (in every part)
	err := eachPart(parts, opt, func(e *parquetio.Edges) error {
		rows += e.NumRows()
		if opt.Weights && typed && e.FloatWeights() != floatCol {
			return &parse.ParseError{Path: inputName(name), Offset: -1, Msg: "the weight column is floating-point in some parts and integer in others"}
		}
		floatCol, typed = e.FloatWeights(), true
		return nil
	})
	if err != nil {
		return nil, err
	}
	if rows == 0 { // as a text file without edges: no header gives a vertex count
		return nil, &parse.ParseError{Path: inputName(name), Offset: -1, Msg: "no edges (the table has no rows)"}
	}
	for _, pt := range parts {
		size += pt.size
	}
	input := store.InputInfo{Name: filepath.Base(name), Bytes: size, Format: string(parse.FormatParquet)}
	w := defaultWorkers(opt.Workers)
	ro := parquetio.ReadOptions{Workers: w, MaxID: MaxVertexID, Hint: "; ids must be below 2^32-1 (use --relabel)",
		PageMem: parquetPageMem(w)}
	if opt.Relabel {
		ro.MaxID, ro.Hint = math.MaxUint64, ""
	}
	if opt.Weights {
		// a floating-point weight column gives float32 weights (its values come as their
		// bits); with FloatWeights an integer one does too
		toFloat := opt.FloatWeights && !floatCol
		opt.FloatWeights = opt.FloatWeights || floatCol
		return FromWeightedEdges(opt, input, parse.Header{}, func(emit func(parse.WEdge) error) error {
			var mu sync.Mutex // row groups are read on several goroutines
			return eachPart(parts, opt, func(e *parquetio.Edges) error {
				return e.ReadWeighted(ro, func(src, dst, ws []uint64) error {
					mu.Lock()
					defer mu.Unlock()
					for i := range src {
						w := uint32(ws[i])
						if toFloat {
							w = math.Float32bits(float32(ws[i]))
						}
						if err := emit(parse.WEdge{U: src[i], V: dst[i], W: w}); err != nil {
							return err
						}
					}
					return nil
				})
			})
		})
	}
	var pool sync.Pool
	produce := func(emit func([]parse.Edge) error) error {
		return eachPart(parts, opt, func(e *parquetio.Edges) error {
			return e.Read(ro, func(src, dst []uint64) error {
				bp, _ := pool.Get().(*[]parse.Edge)
				if bp == nil {
					bp = new([]parse.Edge)
				}
				b := (*bp)[:0]
				for i := range src {
					b = append(b, parse.Edge{U: src[i], V: dst[i]})
				}
				err := emit(b)
				*bp = b
				pool.Put(bp)
				return err
			})
		})
	}
	return FromEdges(opt, input, parse.Header{Entries: uint64(rows)}, produce)
}

// eachPart opens the parts one at a time (a part named only is opened and closed
// again), finds their columns (and the weight column with Options.Weights), and calls
// fn with each; the reader's errors become ParseErrors naming the part.
func eachPart(parts []parquetPart, opt Options, fn func(*parquetio.Edges) error) error {
	for _, pt := range parts {
		if err := withPart(pt, opt, fn); err != nil {
			return err
		}
	}
	return nil
}

func withPart(pt parquetPart, opt Options, fn func(*parquetio.Edges) error) error {
	r := pt.r
	if r == nil {
		f, err := os.Open(pt.name)
		if err != nil {
			return &parse.ParseError{Path: pt.name, Offset: -1, Msg: "cannot open the input", Err: unwrapPath(err)}
		}
		defer f.Close()
		r = f
	}
	e, err := parquetio.OpenEdges(r, pt.size, pt.name, opt.Columns[0], opt.Columns[1])
	if err == nil && opt.Weights {
		err = e.WithWeights(opt.WeightColumn)
	}
	if err == nil {
		err = fn(e)
	}
	return parquetError(pt.name, err)
}

// dirFromParquet ingests a Parquet dataset directory, as Spark, DuckDB and Hive write
// one: its part files (parquetParts) read in name order as one edge list.
func dirFromParquet(dir string, opt Options) (*Report, error) {
	if opt.Format != "" && opt.Format != parse.FormatParquet {
		return nil, &parse.ParseError{Path: dir, Offset: -1, Msg: fmt.Sprintf("is a directory, read as a Parquet dataset of part files; --format %s does not apply", opt.Format)}
	}
	parts, err := parquetParts(dir)
	if err != nil {
		return nil, err
	}
	var pq int
	for _, pt := range parts {
		if isParquetFile(pt.name) {
			pq++
		}
	}
	if pq == 0 {
		return nil, &parse.ParseError{Path: dir, Offset: -1, Msg: "is a directory and holds no Parquet part files; expected an edge list file or a Parquet dataset directory"}
	}
	return fromParquet(dir, parts, opt)
}

// isParquetFile says whether the file at path starts with Parquet's magic.
func isParquetFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var head [4]byte
	n, _ := io.ReadFull(f, head[:])
	return n == 4 && string(head[:]) == parquetio.Magic
}

// parquetParts lists the part files of a Parquet dataset directory: every file under
// dir, in its subdirectories too (the key=value folders of a partitioned dataset), in
// name order, except those whose name or folder's name starts with "_" or "." (Spark's
// _SUCCESS and _temporary, Hadoop's .crc checksums, _metadata summaries), which hold no
// rows of their own. Every part must be Parquet: another file is an error naming it.
func parquetParts(dir string) ([]parquetPart, error) {
	var parts []parquetPart
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path != dir && (strings.HasPrefix(d.Name(), "_") || strings.HasPrefix(d.Name(), ".")) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		st, err := os.Stat(path) // a link to a file is read
		if err != nil {
			return err
		}
		if !st.Mode().IsRegular() {
			return &parse.ParseError{Path: path, Offset: -1, Msg: "is not a regular file, expected a Parquet part file of the dataset " + dir}
		}
		parts = append(parts, parquetPart{name: path, size: st.Size()})
		return nil
	})
	if err != nil {
		var pe *parse.ParseError
		if errors.As(err, &pe) {
			return nil, err
		}
		var pathErr *fs.PathError
		if errors.As(err, &pathErr) {
			return nil, &parse.ParseError{Path: pathErr.Path, Offset: -1, Msg: "cannot read the input", Err: pathErr.Err}
		}
		return nil, &parse.ParseError{Path: dir, Offset: -1, Msg: "cannot read the input", Err: err}
	}
	return parts, nil
}

// parquetError turns the reader's *parquetio.Error into a ParseError; other errors
// pass unchanged.
func parquetError(name string, err error) error {
	var pe *parquetio.Error
	if !errors.As(err, &pe) {
		return err
	}
	msg := pe.Msg
	if w := pe.Where(); w != "" {
		msg = w + ": " + msg
	}
	return &parse.ParseError{Path: inputName(name), Offset: -1, Msg: msg, Err: pe.Err}
}

// inputName is how errors name the input.
func inputName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}
