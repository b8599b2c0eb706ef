package ingest

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/edsrzf/mmap-go"
)

// An uncompressed regular file is parsed from a read-only mapping: the workers read
// their blocks in place, in parallel, where the reader goroutine otherwise copied every
// byte out of the page cache alone, and only cut the blocks. Each parsed block's pages
// are dropped from the mapping (they stay in the page cache), so a 30 GB input does not
// count 30 GB against the process.

// mapping is a parser's mapped input.
type mapping struct {
	m     mmap.MMap
	start int64 // the stream's first byte in m: the file's offset when Parse began
	// body bytes from here on have not been reported to the progress bar: the bufio
	// reader that detection and the header read from reported the first ones
	unreported int64

	mu       sync.Mutex
	ends     map[int64]int64 // parsed blocks after the prefix: their ends, by seq
	next     int64           // the first block not parsed
	released int64           // the stream's bytes before this are dropped
}

// openMapping maps f when it is a regular file and the stream is not compressed;
// nil otherwise (or when mapping fails: the read path still works).
func (p *parser) openMapping() *mapping {
	if !mapInputs || p.file == nil || p.res.Compression != "" || p.fileStart < 0 {
		return nil
	}
	st, err := p.file.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() <= p.fileStart {
		return nil
	}
	m, err := mmap.Map(p.file, mmap.RDONLY, 0)
	if err != nil || int64(len(m)) != st.Size() {
		if m != nil {
			m.Unmap()
		}
		return nil
	}
	mappedParses.Add(1)
	if afterMap != nil {
		afterMap()
	}
	return &mapping{m: m, start: p.fileStart, unreported: p.in.n, ends: map[int64]int64{}, released: p.hdrBytes}
}

// Test hooks: how many parses mapped their input, and a call right after mapping;
// mapInputs off reads every input (benchmarks compare the two).
var (
	mapInputs    = true
	mappedParses atomic.Int64
	afterMap     func()
)

// data is the stream: the mapping from the file's starting offset on.
func (mp *mapping) data() []byte { return mp.m[mp.start:] }

// faultError is what a fault on the mapping (the file shrank under the parser) becomes.
func (p *parser) faultError() error {
	return &ParseError{Path: p.path, Offset: -1, Msg: "the file changed while it was read (it shrank)", Err: io.ErrUnexpectedEOF}
}

// guardFault makes a fault on the mapping in the calling goroutine a panic that the
// returned function, deferred, turns into *err:
//
//	defer p.guardFault(&err)()
func (p *parser) guardFault(err *error) func() {
	old := debug.SetPanicOnFault(true)
	return func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			if _, ok := r.(interface{ Addr() uintptr }); ok {
				*err = p.faultError()
				return
			}
			panic(r)
		}
	}
}

// readMapped cuts the mapped body into blocks: whole lines of at most
// min(blockSize, maxLineLen) bytes for text (longer lines are as the read path
// reports them), whole pairs for binary formats (pair > 0).
func (p *parser) readMapped(pair int) func(chan<- *block) (int64, error) {
	return func(work chan<- *block) (seq int64, err error) {
		defer close(work)
		defer p.guardFault(&err)()
		data := p.mapped.data()
		off := p.hdrBytes
		n := int64(len(data))
		if pair > 0 {
			size := int64(max(pair, blockSize/pair*pair))
			for ; off < n && !p.stopped(); off += size {
				end := min(off+size, n)
				if whole := (end - off) / int64(pair) * int64(pair); whole < end-off {
					if whole > 0 {
						work <- &block{data: data[off : off+whole], seq: seq, off: off}
						seq++
					}
					rem := end - off - whole
					return seq, p.offsetError(off+whole, "input length %d is not a multiple of %d (%s pairs): %d trailing bytes",
						n, pair, p.res.Format, rem)
				}
				work <- &block{data: data[off:end], seq: seq, off: off}
				seq++
			}
			return seq, nil
		}
		// Every line of a block is at most the window long, and so within maxLineLen.
		window := int64(min(blockSize, maxLineLen))
		for off < n && !p.stopped() {
			end := n
			if off+window < n {
				cut := bytes.LastIndexByte(data[off:off+window], '\n')
				if cut < 0 { // the line at off is longer than the window
					nl := bytes.IndexByte(data[off:min(n, off+int64(maxLineLen)+1)], '\n')
					if nl < 0 && n-off > int64(maxLineLen) {
						return seq, &ParseError{Path: p.path, Line: 1, Offset: -1, Msg: fmt.Sprintf("line is longer than %d bytes", maxLineLen)}
					}
					if nl >= 0 {
						end = off + int64(nl) + 1
					}
				} else {
					end = off + int64(cut) + 1
				}
			}
			work <- &block{data: data[off:end], seq: seq, off: off}
			seq++
			off = end
		}
		p.partialLine = n > 0 && data[n-1] != '\n'
		return seq, nil
	}
}

// doneMapped reports a parsed block's new bytes to the progress bar and drops the pages
// of every block before the first one not yet parsed. Blocks finish out of order, and a
// fault maps the whole folio around the page (up to 2 MiB: on the 6.18 kernel of the
// development VM a worker touching its block's first page mapped most of the block
// before it, which had been dropped already; 7% of a 478 MiB input stayed mapped). So
// the drop follows the parsed prefix and reaches maxFolio back behind it.
func (p *parser) doneMapped(b *block) {
	mp := p.mapped
	start, end := b.off, b.off+int64(len(b.data))
	if from := max(start, mp.unreported); end > from && p.opt.Progress != nil {
		p.opt.Progress(end - from)
	}
	mp.mu.Lock()
	defer mp.mu.Unlock()
	mp.ends[b.seq] = end
	to := int64(-1)
	for {
		e, ok := mp.ends[mp.next]
		if !ok {
			break
		}
		delete(mp.ends, mp.next)
		mp.next++
		to = e
	}
	if to >= 0 {
		releasePages(mp.m, mp.start+max(mp.released-maxFolio, 0), mp.start+to)
		mp.released = to
	}
}

// maxFolio is the largest page-cache folio a fault maps at once.
const maxFolio = 2 << 20

// closeMapping unmaps the input and accounts its bytes as read.
func (p *parser) closeMapping() {
	if p.mapped == nil {
		return
	}
	total := int64(len(p.mapped.data()))
	p.in.n, p.raw.n = total, total
	p.mapped.m.Unmap()
	p.mapped = nil
}

// fileStart is the offset of f when parsing starts, or -1 when f cannot seek.
func fileStart(f *os.File) int64 {
	off, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return -1
	}
	return off
}
