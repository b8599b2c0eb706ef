package parquetio

import (
	"bufio"
	"fmt"
	"io"
	"sync"

	"github.com/oocgraph/ooc/internal/plural"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// MaxPageBytes bounds a page, compressed or not: the library allocates a page at the
// size its header claims before reading it, so a header is checked first. Writers cut
// pages at about 1 MiB (Arrow, Spark, DuckDB, parquet-go: less).
const MaxPageBytes = 64 << 20

// checkPages walks the page headers of a column chunk, before the library reads the
// pages, and refuses a chunk that lies outside the file or a page larger than
// MaxPageBytes or than what is left of its chunk. It returns the most memory reading
// one page takes: its compressed and its decoded bytes.
func (s *columnStream) checkPages(r io.ReaderAt, size int64, md *format.ColumnMetaData) (int64, error) {
	start := md.DataPageOffset
	if md.DictionaryPageOffset > 0 && md.DictionaryPageOffset < start {
		start = md.DictionaryPageOffset
	}
	end := start + md.TotalCompressedSize
	if start < 4 || md.TotalCompressedSize < 0 || end > size-8 || end < start {
		return 0, s.error(-1, fmt.Sprintf("the column chunk claims bytes %d to %d, outside the file's %d", start, end, size), nil)
	}
	var proto thrift.CompactProtocol
	var most int64
	for off := start; off < end; {
		cr := &countReader{r: bufio.NewReaderSize(io.NewSectionReader(r, off, end-off), 256)}
		var h format.PageHeader
		if err := thrift.NewDecoder(proto.NewReader(cr)).Decode(&h); err != nil {
			return 0, s.error(-1, fmt.Sprintf("unreadable page header at offset %d", off), err)
		}
		off += cr.n
		switch c, u := int64(h.CompressedPageSize), int64(h.UncompressedPageSize); {
		case c < 0 || u < 0:
			return 0, s.error(-1, fmt.Sprintf("the page at offset %d claims a negative size", off), nil)
		case c > end-off:
			return 0, s.error(-1, fmt.Sprintf("the page at offset %d claims %s, past its column chunk's end", off, plural.Of(c, "byte")), nil)
		case u > MaxPageBytes || c > MaxPageBytes:
			return 0, s.error(-1, fmt.Sprintf("the page at offset %d holds %d bytes uncompressed, more than the %d MiB ooc reads at once (rewrite the file with smaller pages)",
				off, u, MaxPageBytes>>20), nil)
		default:
			off += c
			most = max(most, c+u)
		}
	}
	return most, nil
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

// pageBudget bounds the page memory that Read's goroutines hold at once: a row group
// takes what its largest pages need before it is read, and gives it back after.
type pageBudget struct {
	mu    sync.Mutex
	cond  sync.Cond
	limit int64
	free  int64
}

func newPageBudget(limit int64) *pageBudget {
	b := &pageBudget{limit: limit, free: limit}
	b.cond.L = &b.mu
	return b
}

// acquire waits for n bytes (at most the whole budget, so that a row group larger than
// it still runs, alone) and returns what it took.
func (b *pageBudget) acquire(n int64) int64 {
	if b == nil {
		return 0
	}
	n = min(n, b.limit)
	b.mu.Lock()
	for b.free < n {
		b.cond.Wait()
	}
	b.free -= n
	b.mu.Unlock()
	return n
}

func (b *pageBudget) release(n int64) {
	if b == nil || n == 0 {
		return
	}
	b.mu.Lock()
	b.free += n
	b.mu.Unlock()
	b.cond.Broadcast()
}
