package parquetio

import (
	"bytes"
	"errors"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// FuzzEdges: arbitrary bytes never panic; the reader accepts them or says why in an
// *Error.
func FuzzEdges(f *testing.F) {
	type edge struct {
		Src int64  `parquet:"src"`
		Dst uint32 `parquet:"dst,dict"`
	}
	for _, opts := range [][]parquet.WriterOption{nil, {parquet.MaxRowsPerRowGroup(2)}, {parquet.Compression(&parquet.Snappy)}} {
		var buf bytes.Buffer
		w := parquet.NewGenericWriter[edge](&buf, opts...)
		w.Write([]edge{{0, 1}, {1, 2}, {2, 3}, {7, 1}, {5, 9}})
		w.Close()
		f.Add(buf.Bytes())
	}
	f.Add([]byte("PAR1"))
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := OpenEdges(bytes.NewReader(b), int64(len(b)), "fuzz", "", "")
		if err == nil {
			err = e.Read(ReadOptions{Workers: 2, MaxID: 1 << 40}, func(s, d []uint64) error {
				if len(s) != len(d) {
					t.Fatalf("batch of %d and %d ids", len(s), len(d))
				}
				return nil
			})
		}
		var pe *Error
		if err != nil && !errors.As(err, &pe) {
			t.Fatalf("error %v (%T) is not an *Error", err, err)
		}
	})
}
