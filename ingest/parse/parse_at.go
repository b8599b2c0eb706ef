package parse

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"

	"github.com/oocgraph/ooc/internal/plural"
)

// An uncompressed regular file is read by the workers themselves, each block with one
// pread at its own offset: one goroutine reading for all of them copied every byte of
// the input through a single core, which capped a parse-only pass of kron23 text at about
// 6 GB/s on 16 cores (23.5M edges/s per worker from the file, 26.5M from memory through
// the same reader, 36M at 8 workers). Block k holds the lines that start in
// [k*blockSize, (k+1)*blockSize) of the body, found without any other block: a line
// starts at the body's start or after a newline. Binary blocks hold whole pairs.

// fileInput is an input that can be read at any offset.
type fileInput struct {
	r    io.ReaderAt
	base int64 // the file offset of the input's first byte
	size int64 // bytes from base to the end of the file
}

// Seekable reports whether r is a regular file whose size and current offset are known:
// an input Parse reads at offsets, and one a caller can read again.
func Seekable(r io.Reader) bool { return seekableFile(r) != nil }

// seekableFile returns r as a fileInput if it is a regular file whose size and current
// offset are known, else nil.
func seekableFile(r io.Reader) *fileInput {
	f, ok := r.(*os.File)
	if !ok {
		return nil
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	pos, err := f.Seek(0, io.SeekCurrent)
	if err != nil || pos > st.Size() {
		return nil
	}
	return &fileInput{r: f, base: pos, size: st.Size() - pos}
}

// readAhead is how far past its nominal end a text block is read at first, to find
// the end of its last line; a longer line is read to its end with a second pread.
const readAhead = 64 << 10

// runAt parses the body, from byte start of the input on, with every worker reading its
// own blocks. pair is the size of a binary format's pair (0 for text).
func (p *parser) runAt(emit func([]Edge) error, pair int) error {
	start := p.raw.n - int64(p.br.Buffered()) // the bytes the header and the detection consumed
	body := p.at.size - start
	bs := int64(max(blockSize, 1))
	if pair > 0 {
		bs = max(bs/int64(pair), 1) * int64(pair)
	}
	rem := 0 // a binary input's bytes after its last whole pair
	if pair > 0 {
		rem = int(body % int64(pair))
		body -= int64(rem)
	}
	nblocks := (body + bs - 1) / bs
	if rem > 0 {
		// After every whole pair, as the sequential reader reports it.
		p.fail(nblocks, p.trailingError(body, rem, pair))
	}
	if pair == 0 && body > 0 {
		var last [1]byte
		if _, err := p.at.r.ReadAt(last[:], p.at.base+start+body-1); err != nil {
			return p.atError(err, start+body-1)
		}
		p.partialLine = last[0] != '\n'
	}
	// The progress bar heard of the bytes the header's reader took already.
	reported := p.in.n
	var next atomic.Int64
	var wg sync.WaitGroup
	for range p.opt.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.withWorker(emit, func(w *worker) {
				var buf []byte
				for {
					k := next.Add(1) - 1
					if k >= nblocks || k > p.errSeq.Load() {
						return
					}
					lo, hi := start+k*bs, min(start+(k+1)*bs, start+body)
					var b *block
					var err error
					if pair > 0 {
						b, buf, err = p.readPairsAt(buf, lo, hi)
					} else {
						b, buf, err = p.readLinesAt(buf, k == 0, lo, hi, start+body)
					}
					if b != nil {
						b.seq = k
						p.parseBlock(w, b)
					}
					if err != nil {
						p.fail(k, err)
					}
					if p.opt.Progress != nil && hi > reported {
						p.opt.Progress(hi - max(lo, reported))
					}
				}
			})
		}()
	}
	wg.Wait()
	p.in.n, p.raw.n = p.at.size, p.at.size
	return nil
}

// atError is the error for a failed pread at offset at of the input. A file that ends
// sooner than its size said when it was opened changed under the reader: the input's
// fault, as a weighted ingest's file changed between its reads (ErrBadInput), not the
// machine's.
func (p *parser) atError(err error, at int64) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return &ParseError{Path: p.path, Offset: at, Msg: fmt.Sprintf("the file shrank while it was read (it was %s)", plural.Of(p.at.base+p.at.size, "byte"))}
	}
	return readFailure(p.path, err)
}

// readAt reads the n bytes at offset off of the input into buf, grown as needed.
func (p *parser) readAt(buf []byte, off, n int64) ([]byte, error) {
	if int64(cap(buf)) < n {
		buf = make([]byte, n, max(n, int64(blockSize+readAhead+1)))
	}
	buf = buf[:n]
	m, err := p.at.r.ReadAt(buf, p.at.base+off)
	if int64(m) == n {
		return buf, nil
	}
	if err == nil {
		err = io.ErrUnexpectedEOF
	}
	return buf, p.atError(err, off+int64(m))
}

// readPairsAt reads the pairs in [lo, hi).
func (p *parser) readPairsAt(buf []byte, lo, hi int64) (*block, []byte, error) {
	buf, err := p.readAt(buf, lo, hi-lo)
	if err != nil {
		return nil, buf, err
	}
	return &block{data: buf, off: lo}, buf, nil
}

// readLinesAt reads the lines that start in [lo, hi) of a body that ends at end (first:
// lo is the body's start). A line longer than maxLineLen that starts in the block but
// ends past it is an error after the block's earlier lines, as the sequential reader
// reports it.
func (p *parser) readLinesAt(buf []byte, first bool, lo, hi, end int64) (*block, []byte, error) {
	from := lo
	if !first {
		from-- // the byte before: a line starts at lo if it is a newline
	}
	buf, err := p.readAt(buf, from, min(hi+readAhead, end)-from)
	if err != nil {
		return nil, buf, err
	}
	hb := int(hi - from) // hi's index in buf
	s := 0               // the block's first line, in buf
	if !first {
		i := bytes.IndexByte(buf[:hb-1], '\n')
		if i < 0 {
			return nil, buf, nil // no line starts in [lo, hi)
		}
		s = i + 1
	}
	// The last line starting before hi ends at the first newline at or after hi-1.
	last := s + bytes.LastIndexByte(buf[s:hb-1], '\n') + 1 // its start
	nl := bytes.IndexByte(buf[hb-1:], '\n')
	if nl < 0 && from+int64(len(buf)) < end {
		// A long last line: read on to its end, or to where it is too long.
		if more := min(from+int64(last)+int64(maxLineLen)+1, end) - from; more > int64(len(buf)) {
			if buf, err = p.readAt(make([]byte, 0, more), from, more); err != nil {
				return nil, buf, err
			}
			nl = bytes.IndexByte(buf[hb-1:], '\n')
		}
	}
	e := len(buf) // the end of the last line, past its newline
	tooLong := true
	switch {
	case nl >= 0:
		e = hb + nl
		tooLong = e-1-last > maxLineLen
	case from+int64(len(buf)) == end:
		tooLong = e-last > maxLineLen
	}
	b := &block{data: buf[s:e], off: from + int64(s)}
	if tooLong {
		// The lines before it go first.
		b.data = buf[s:last]
		return b, buf, p.longLineError(1 + int64(bytes.Count(b.data, newline)))
	}
	return b, buf, nil
}

// parseBlock parses block b unless an earlier block failed, and counts its lines.
func (p *parser) parseBlock(w *worker, b *block) {
	if b.seq >= p.errSeq.Load() {
		return
	}
	if err := p.body(w, b); err != nil {
		p.fail(b.seq, err)
	}
	if p.res.Format.text() {
		p.countLines(b.seq, bytes.Count(b.data, newline))
	}
}
