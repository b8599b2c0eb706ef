package parquetio

import (
	"io"
	"testing"
)

func BenchmarkWriteEdges(b *testing.B) {
	const rows = 1 << 20
	b.SetBytes(16 * rows)
	for range b.N {
		w, _ := NewWriter(io.Discard, []Column{{Name: "src"}, {Name: "dst"}}, 0)
		for i := range uint64(rows) {
			w.Write(Cell{V: i >> 4}, Cell{V: i * 2654435761 % 1000003})
		}
		w.Close()
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
