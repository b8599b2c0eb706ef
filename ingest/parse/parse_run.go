package parse

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"sync"
	"sync/atomic"

	"github.com/oocgraph/ooc/internal/plural"
)

// blockSize is the size of the blocks the reader hands to the workers: big
// enough that the per-block cost (a channel send, a buffer) vanishes, small
// enough that 16 workers share a 50 MB input evenly. Tests shrink it so that
// many blocks, and lines across block boundaries, are exercised.
var blockSize = 1 << 20

// maxLineLen bounds a text line: a 10 MB line is an error, not a 10 MB buffer.
var maxLineLen = 1 << 20

// parser is the state of one Parse call. One goroutine (the caller's) reads
// and decompresses the input and cuts it into blocks; opt.Workers goroutines
// parse the blocks and call emit.
type parser struct {
	opt  ParseOptions
	path string
	in   *countingReader // raw input
	at   *fileInput      // the input, if it can be read at any offset
	raw  *countingReader // decompressed
	br   *bufio.Reader   // decompressed; detection peeks and header parsers read here
	res  *ParseResult

	// The header parsers fill these.
	lineBase   int64  // lines consumed by the header
	hdrBytes   int64  // bytes consumed by the header
	hdrLine    int64  // line of the MTX size line or the DIMACS p line
	hdr        []byte // the current header line
	rows, cols uint64 // MTX dimensions, DIMACS N (both)

	lineCounts  []int64 // newlines per block, by seq (guarded by mu)
	partialLine bool    // the input ends without a newline

	body  bodyParser
	free  chan []byte
	nbufs int

	// The first error in input order wins, whatever the worker count, so the
	// message is deterministic: blocks carry a sequence number and workers
	// skip blocks after the earliest failed one.
	mu       sync.Mutex
	firstErr error
	errSeq   atomic.Int64 // seq of firstErr; math.MaxInt64 = none
	edges    atomic.Uint64

	// headSeen: a bin32 pair whose second id is not 0 was read (checkCounts).
	headSeen atomic.Bool
}

// block is a piece of decompressed input: whole lines for text formats,
// whole pairs for binary ones.
type block struct {
	data []byte
	buf  []byte // recycled once parsed
	seq  int64
	off  int64 // offset of data[0] in the decompressed stream
}

// bodyParser parses one block, adding edges through w.
type bodyParser func(w *worker, b *block) error

// emitError carries an error returned by the caller's emit.
type emitError struct{ err error }

func (e *emitError) Error() string { return e.err.Error() }

// run parses the header, then the body with opt.Workers workers.
func (p *parser) run(emit func([]Edge) error) error {
	p.errSeq.Store(math.MaxInt64)
	read := p.readText
	switch p.res.Format {
	case FormatSNAP:
		p.body = parseSNAPBlock
	case FormatMTX:
		if err := p.readMTXHeader(); err != nil {
			return err
		}
		p.body = parseMTXBlock
	case FormatDIMACS:
		if err := p.readDIMACSHeader(); err != nil {
			return err
		}
		p.body = parseDIMACSBlock
	case FormatBin32:
		p.body, read = parseBin32Block, p.readBinary(8)
	case FormatBin64:
		p.body, read = parseBin64Block, p.readBinary(16)
	}
	if p.at != nil && p.res.Compression == "" {
		pair := map[Format]int{FormatBin32: 8, FormatBin64: 16}[p.res.Format]
		if err := p.runAt(emit, pair); err != nil {
			return err
		}
		return p.finishRun()
	}
	p.free = make(chan []byte, p.opt.Workers+2)
	work := make(chan *block, p.opt.Workers)
	var wg sync.WaitGroup
	for range p.opt.Workers {
		wg.Add(1)
		go p.work(work, emit, &wg)
	}
	// The workers are waited for on every way out of the reader, a panic of the input's
	// Read included (read closes work on its way out): none may call emit or hold a
	// buffer once Parse has returned.
	seq, err := func() (int64, error) {
		defer wg.Wait()
		return read(work)
	}()
	p.releaseBufs()
	if err != nil {
		p.fail(seq, err)
	}
	return p.finishRun()
}

// finishRun reports the first error, else checks the counts.
func (p *parser) finishRun() error {
	p.res.Edges = p.edges.Load()
	if p.firstErr != nil {
		p.fixLine(p.errSeq.Load(), p.firstErr)
		return p.firstErr
	}
	if p.res.Format.text() {
		p.res.Lines = p.totalLines()
	}
	return p.checkCounts()
}

// checkCounts compares the edges found with what the header announced.
func (p *parser) checkCounts() error {
	h, n := p.res.Header, p.res.Edges
	switch {
	case p.res.Format == FormatMTX && n != h.Entries:
		return p.lineError(p.hdrLine, "size line announces %s, the file has %d", plural.Of(h.Entries, "entry"), n)
	case p.res.Format == FormatDIMACS && n != h.Entries:
		return p.lineError(p.hdrLine, "p line announces %s, the file has %d", plural.Of(h.Entries, "arc"), n)
	case n == 0 && h.Vertices == 0:
		return &ParseError{Path: p.path, Offset: -1, Msg: "no edges (the input is empty or holds only comments)"}
	case p.res.Format == FormatBin32 && n >= 2 && n%2 == 0 && !p.headSeen.Load() && formatFromExt(p.opt.Name) != FormatBin32 && !p.opt.WidthMeant:
		// A bin64 file of ids below 2^32 read as bin32: every second word is 0, so
		// every edge's head. A bin32 file like it is a star on vertex 0, and its
		// .bin32 name or WidthMeant (--width-meant) says so.
		return &ParseError{Path: p.path, Offset: -1, Msg: fmt.Sprintf("every pair's second id is 0 (%d pairs), as in a bin64 file of ids below 2^32 read as bin32: "+
			"pass --format bin64, or, for a star on vertex 0 in bin32, pass --width-meant too (or name the file *.bin32)", n)}
	}
	return nil
}

// fail records err for block seq if it is the earliest so far.
func (p *parser) fail(seq int64, err error) {
	if ee, ok := err.(*emitError); ok {
		seq, err = -1, ee.err
	}
	p.mu.Lock()
	if seq < p.errSeq.Load() {
		p.errSeq.Store(seq)
		p.firstErr = err
	}
	p.mu.Unlock()
}

// stopped reports whether an error makes further reading useless.
func (p *parser) stopped() bool { return p.errSeq.Load() != math.MaxInt64 }

// work parses blocks until the channel closes. Blocks after the earliest
// failed one are skipped; earlier ones are still parsed, since one of them
// may hold an earlier error.
func (p *parser) work(blocks <-chan *block, emit func([]Edge) error, wg *sync.WaitGroup) {
	defer wg.Done()
	p.withWorker(emit, func(w *worker) {
		for b := range blocks {
			p.parseBlock(w, b)
			if b.buf != nil {
				p.putBuf(b.buf)
			}
		}
	})
}

// withWorker runs one parsing goroutine's loop with a worker, then hands on its last
// batch unless parsing stopped.
func (p *parser) withWorker(emit func([]Edge) error, loop func(w *worker)) {
	w := &worker{emit: emit, batch: newBatch(), maxID: p.opt.MaxID, p: p}
	defer func() { batchPool.Put(&w.batch) }()
	loop(w)
	if len(w.batch) > 0 && !p.stopped() {
		if err := w.flush(); err != nil {
			p.fail(-1, err)
		}
	}
}

// getBuf returns a block buffer, allocating at most Workers+2 of them so that
// a slow emit holds the reader back instead of growing memory.
func (p *parser) getBuf() []byte {
	select {
	case b := <-p.free:
		return b
	default:
	}
	if p.nbufs < cap(p.free) {
		p.nbufs++
		if b, ok := blockPool.Get().(*[]byte); ok && cap(*b) == blockSize {
			return *b
		}
		return make([]byte, blockSize)
	}
	return <-p.free
}

// Buffers outlive one Parse call in these pools, so that repeated calls
// (tests, fuzzing, several inputs) do not allocate ~20 MB each.
var (
	blockPool sync.Pool // *[]byte of blockSize
	batchPool sync.Pool // *[]Edge of BatchSize
)

// releaseBufs hands the block buffers back to blockPool once all workers are done.
func (p *parser) releaseBufs() {
	for {
		select {
		case b := <-p.free:
			blockPool.Put(&b)
		default:
			return
		}
	}
}

func newBatch() []Edge {
	if b, ok := batchPool.Get().(*[]Edge); ok {
		return (*b)[:0]
	}
	return make([]Edge, 0, BatchSize)
}

func (p *parser) putBuf(b []byte) { p.free <- b }

// readFull reads until b is full, the input ends (io.EOF) or fails. Unlike
// io.ReadFull it keeps a decompressor's io.ErrUnexpectedEOF distinct from a
// short read.
func readFull(r io.Reader, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		m, err := r.Read(b[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// readText cuts the body into blocks of whole lines and sends them to work.
// It returns the sequence number an error of its own sorts under. It does
// not count lines: that would be serial work, so the workers count the lines
// of their blocks and an error's line is made absolute at the end (fixLine).
func (p *parser) readText(work chan<- *block) (int64, error) {
	defer close(work)
	off, seq := p.hdrBytes, int64(0)
	buf, n := p.getBuf(), 0
	for !p.stopped() {
		m, err := readFull(p.br, buf[n:cap(buf)])
		n += m
		eof := err == io.EOF
		if err != nil && !eof {
			return seq, p.readError(err)
		}
		data := buf[:n]
		last := bytes.LastIndexByte(data, '\n') // the cut: data[last+1:] goes to the next block
		if n-last-1 > maxLineLen {
			// Lines before the long one go first: one may hold an earlier
			// error. The long line is then line 1 of block seq.
			if last >= 0 {
				work <- &block{data: data[:last+1], seq: seq, off: off}
				seq++
			}
			return seq, p.longLineError(1)
		}
		if eof {
			p.partialLine = n > 0 && data[n-1] != '\n'
			last = n - 1
		} else if last < 0 {
			buf = append(buf[:n], make([]byte, max(cap(buf), 4096))...)
			continue
		}
		next := buf
		if !eof {
			next = p.getBuf()
		}
		if tail := n - last - 1; cap(next) < tail {
			next = make([]byte, 2*tail)
		}
		n = copy(next[:cap(next)], data[last+1:])
		if last >= 0 {
			work <- &block{data: data[:last+1], buf: buf, seq: seq, off: off}
			seq++
		} else if eof {
			p.putBuf(buf)
		}
		off, buf = off+int64(last+1), next
		if eof {
			break
		}
	}
	return seq, nil
}

// countLines records the number of newlines in block seq.
func (p *parser) countLines(seq int64, n int) {
	p.mu.Lock()
	for int64(len(p.lineCounts)) <= seq {
		p.lineCounts = append(p.lineCounts, 0)
	}
	p.lineCounts[seq] = int64(n)
	p.mu.Unlock()
}

// fixLine turns the block-relative line of the error of block seq into the
// file's line. Every block before seq was parsed whole, hence counted: it
// would hold the first error otherwise.
func (p *parser) fixLine(seq int64, err error) {
	pe, ok := err.(*ParseError)
	if !ok || pe.Line == 0 || seq < 0 {
		return
	}
	pe.Line += p.lineBase
	for _, n := range p.lineCounts[:min(seq, int64(len(p.lineCounts)))] {
		pe.Line += n
	}
}

// totalLines is the line count once every block was parsed.
func (p *parser) totalLines() uint64 {
	n := p.lineBase
	for _, c := range p.lineCounts {
		n += c
	}
	if p.partialLine {
		n++
	}
	return uint64(n)
}

// readBinary returns a reader that cuts the input into blocks of whole
// pairs of the given size.
func (p *parser) readBinary(pair int) func(chan<- *block) (int64, error) {
	return func(work chan<- *block) (int64, error) {
		defer close(work)
		var off, seq int64
		for !p.stopped() {
			buf := p.getBuf()
			size := max(pair, cap(buf)/pair*pair)
			if cap(buf) < size {
				buf = make([]byte, size)
			}
			n, err := readFull(p.br, buf[:size])
			eof := err == io.EOF
			if err != nil && !eof {
				p.putBuf(buf)
				return seq, p.readError(err)
			}
			whole := n - n%pair
			if whole > 0 {
				work <- &block{data: buf[:whole], buf: buf, seq: seq, off: off}
				seq++
			} else {
				p.putBuf(buf)
			}
			off += int64(whole)
			if !eof {
				continue
			}
			if rem := n - whole; rem > 0 {
				return seq, p.trailingError(off, rem, pair)
			}
			break
		}
		return seq, nil
	}
}

// worker holds one parsing goroutine's batch.
type worker struct {
	p     *parser
	emit  func([]Edge) error
	batch []Edge
	maxID uint64
}

// flush hands the batch to emit.
func (w *worker) flush() error {
	err := w.emit(w.batch)
	w.p.edges.Add(uint64(len(w.batch)))
	w.batch = w.batch[:0]
	if err != nil {
		return &emitError{err}
	}
	return nil
}

// errorAt is a ParseError for the line of b holding data[pos]. A line over
// maxLineLen is reported as such whatever else is wrong with it, as the
// reader does with a long line that crosses a block boundary, so that the
// message does not depend on where the blocks were cut.
func (w *worker) errorAt(b *block, pos int, format string, args ...any) error {
	line := 1 + int64(bytes.Count(b.data[:pos], newline)) // made absolute by fixLine
	msg := fmt.Sprintf(format, args...)
	if start := bytes.LastIndexByte(b.data[:pos], '\n') + 1; lineTooLong(b.data, start) {
		msg = fmt.Sprintf("line is longer than %d bytes", maxLineLen)
	}
	return &ParseError{Path: w.p.path, Line: line, Offset: -1, Msg: msg}
}

// lineTooLong reports whether the line starting at data[start] is longer
// than maxLineLen, its newline not counted.
func lineTooLong(data []byte, start int) bool {
	end := bytes.IndexByte(data[start:], '\n')
	if end < 0 {
		end = len(data) - start
	}
	return end > maxLineLen
}

// lineText is the line holding data[pos], cut short for error messages.
func lineText(data []byte, pos int) string {
	start := bytes.LastIndexByte(data[:pos], '\n') + 1
	end := bytes.IndexByte(data[pos:], '\n')
	if end < 0 {
		end = len(data)
	} else {
		end += pos
	}
	s := bytes.TrimRight(data[start:end], "\r")
	if len(s) > 64 {
		return fmt.Sprintf("%q...", s[:64])
	}
	return fmt.Sprintf("%q", s)
}

// idError says that the file's own id is above opt.MaxID.
func (w *worker) idError(b *block, pos int, id uint64, base uint64) error {
	if w.maxID == 1<<32-2 {
		rel := ">="
		if base == 1 {
			rel = ">"
		}
		return w.errorAt(b, pos, "vertex id %d is %s 2^32-1; use --relabel", id, rel)
	}
	return w.errorAt(b, pos, "vertex id %d is above the largest allowed id %d; use --relabel", id, w.maxID+base)
}

var newline = []byte{'\n'}
