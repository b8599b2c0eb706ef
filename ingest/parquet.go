package ingest

import (
	"errors"
	"io"
	"math"
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

// fileFromParquet ingests a Parquet edge list (one row per edge, two integer id columns,
// Options.Columns or src and dst; further columns not read) through FromEdges, row group
// by row group on all cores, and says whether the input was one.
func fileFromParquet(r io.Reader, name string, size int64, opt Options) (*Report, bool, error) {
	if !isParquet(r, name, opt) {
		if opt.Columns != [2]string{} {
			return nil, true, &parse.ParseError{Path: inputName(name), Offset: -1, Msg: "--columns names Parquet columns, and this input is not Parquet"}
		}
		return nil, false, nil
	}
	if opt.Weights {
		return fileFromParquetWeighted(r, name, size, opt)
	}
	ra, ok := r.(io.ReaderAt)
	if name == "-" || !ok || size < 0 {
		return nil, true, &parse.ParseError{Path: inputName(name), Offset: -1,
			Msg: "a Parquet file is read from its end (the footer): name the file, not standard input or a pipe"}
	}
	e, err := parquetio.OpenEdges(ra, size, name, opt.Columns[0], opt.Columns[1])
	if err != nil {
		return nil, true, parquetError(name, err)
	}
	w := defaultWorkers(opt.Workers)
	ro := parquetio.ReadOptions{Workers: w, MaxID: MaxVertexID, Hint: "; ids must be below 2^32-1 (use --relabel)",
		PageMem: parquetPageMem(w)}
	if opt.Relabel {
		ro.MaxID, ro.Hint = math.MaxUint64, ""
	}
	var pool sync.Pool
	produce := func(emit func([]parse.Edge) error) error {
		err := e.Read(ro, func(src, dst []uint64) error {
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
		return parquetError(name, err)
	}
	input := store.InputInfo{Name: filepath.Base(name), Bytes: size, Format: string(parse.FormatParquet)}
	rep, err := FromEdges(opt, input, parse.Header{Entries: uint64(e.NumRows())}, produce)
	return rep, true, err
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

// fileFromParquetWeighted ingests a Parquet edge list with its weight column
// (Options.WeightColumn, "" meaning weight) through the weighted ingest.
func fileFromParquetWeighted(r io.Reader, name string, size int64, opt Options) (*Report, bool, error) {
	ra, ok := r.(io.ReaderAt)
	if name == "-" || !ok || size < 0 {
		return nil, true, &parse.ParseError{Path: inputName(name), Offset: -1,
			Msg: "a Parquet file is read from its end (the footer): name the file, not standard input or a pipe"}
	}
	e, err := parquetio.OpenEdges(ra, size, name, opt.Columns[0], opt.Columns[1])
	if err == nil {
		err = e.WithWeights(opt.WeightColumn)
	}
	if err != nil {
		return nil, true, parquetError(name, err)
	}
	input := store.InputInfo{Name: filepath.Base(name), Bytes: size, Format: string(parse.FormatParquet)}
	w := defaultWorkers(opt.Workers)
	ro := parquetio.ReadOptions{Workers: w, MaxID: MaxVertexID, Hint: "; ids must be below 2^32-1 (use --relabel)", PageMem: parquetPageMem(w)}
	if opt.Relabel {
		ro.MaxID, ro.Hint = math.MaxUint64, ""
	}
	rep, err := FromWeightedEdges(opt, input, parse.Header{}, func(emit func(parse.WEdge) error) error {
		var mu sync.Mutex // row groups are read on several goroutines
		err := e.ReadWeighted(ro, func(src, dst, ws []uint64) error {
			mu.Lock()
			defer mu.Unlock()
			for i := range src {
				if err := emit(parse.WEdge{U: src[i], V: dst[i], W: uint32(ws[i])}); err != nil {
					return err
				}
			}
			return nil
		})
		return parquetError(name, err)
	})
	return rep, true, err
}
