package parquetio

import (
	"bufio"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// MaxPageBytes bounds a page, compressed or not: the library allocates a page at the
// size its header claims before reading it, so a header is checked first. Writers cut
// pages at about 1 MiB (Arrow, Spark, DuckDB, parquet-go: less).
const MaxPageBytes = 64 << 20

// checkPages walks the page headers of a column chunk, before the library reads the
// pages, and refuses a chunk that lies outside the file or a page larger than
// MaxPageBytes or than what is left of its chunk.
func (s *columnStream) checkPages(r io.ReaderAt, size int64, md *format.ColumnMetaData) error {
	start := md.DataPageOffset
	if md.DictionaryPageOffset > 0 && md.DictionaryPageOffset < start {
		start = md.DictionaryPageOffset
	}
	end := start + md.TotalCompressedSize
	if start < 4 || md.TotalCompressedSize < 0 || end > size-8 || end < start {
		return s.error(-1, fmt.Sprintf("the column chunk claims bytes %d to %d, outside the file's %d", start, end, size), nil)
	}
	var proto thrift.CompactProtocol
	for off := start; off < end; {
		cr := &countReader{r: bufio.NewReaderSize(io.NewSectionReader(r, off, end-off), 256)}
		var h format.PageHeader
		if err := thrift.NewDecoder(proto.NewReader(cr)).Decode(&h); err != nil {
			return s.error(-1, fmt.Sprintf("unreadable page header at offset %d", off), err)
		}
		off += cr.n
		switch c, u := int64(h.CompressedPageSize), int64(h.UncompressedPageSize); {
		case c < 0 || u < 0:
			return s.error(-1, fmt.Sprintf("the page at offset %d claims a negative size", off), nil)
		case c > end-off:
			return s.error(-1, fmt.Sprintf("the page at offset %d claims %d bytes, past its column chunk's end", off, c), nil)
		case u > MaxPageBytes || c > MaxPageBytes:
			return s.error(-1, fmt.Sprintf("the page at offset %d holds %d bytes uncompressed, more than the %d MiB ooc reads at once (rewrite the file with smaller pages)",
				off, u, MaxPageBytes>>20), nil)
		default:
			off += c
		}
	}
	return nil
}

// countReader counts the bytes a thrift decoder takes.
type countReader struct {
	r *bufio.Reader
	n int64
}

func (c *countReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}

func (c *countReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}
