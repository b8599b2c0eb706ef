package parse

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"

	"github.com/oocgraph/ooc/internal/plural"
)

// Format names an input format, as --format spells it.
type Format string

// The input formats. Text formats are detected from content; binary ones need
// --format or their extension, since any bytes are a valid binary edge list.
const (
	FormatSNAP   Format = "snap"
	FormatMTX    Format = "mtx"
	FormatDIMACS Format = "gr"
	FormatBin32  Format = "bin32"
	FormatBin64  Format = "bin64"
	// FormatParquet is a Parquet edge list; its index is at its end, so the ingest reads
	// it from a file (ingest/parquet.go) and Parse refuses it.
	FormatParquet Format = "parquet"
)

// Edge is one input edge in 0-based ids (1-based formats already shifted down by one).
type Edge struct{ U, V uint64 }

// Header is what a format's header says; zero values when absent.
type Header struct {
	Vertices  uint64 // N from the MTX size line or DIMACS p line (0 = unknown)
	Entries   uint64 // entries (MTX nnz / DIMACS M) announced by the header
	Symmetric bool   // MTX "symmetric" (or skew/hermitian): each entry stands for both directions
	IDBase    uint32 // 1 for mtx and gr, else 0
}

// ParseOptions configures Parse.
type ParseOptions struct {
	Format  Format // "" = detect from content (after decompression) and the name's extension
	Name    string // the input's path as the user typed it ("-" = stdin), used in errors and for detection
	Workers int    // parsing goroutines; 0 means GOMAXPROCS, below 0 or past 4096 is refused
	// MaxID is the largest allowed 0-based id; a larger one is a ParseError
	// naming the line. The pipeline passes 1<<32-2, or math.MaxUint64 with
	// --relabel. Zero means math.MaxUint64.
	MaxID uint64
	// Progress, if set, is called (from any goroutine) with increments of
	// input bytes consumed (compressed bytes for compressed input).
	Progress func(n int64)
	// MaxWindow bounds the window of a zstd frame (what zstd --long sets), which the
	// decoder holds in memory; zero means DefaultMaxWindow, below zero is refused. A
	// frame asking for more is an error matching ErrWindow, not a corrupt stream.
	MaxWindow int64
	// FloatWeights makes ParseWeighted read every weight as a float32 (WEdge.W holds its
	// bits) whatever the format; a real MatrixMarket file has float32 weights without it.
	FloatWeights bool
	// WidthMeant, with Format bin32, reads the pairs as bin32 even where every second id
	// is 0 (a star on vertex 0), which is otherwise refused as a bin64 file of ids below
	// 2^32 read at the wrong width, unless Name ends .bin32.
	WidthMeant bool
}

// checkWindow refuses a negative MaxWindow, as every count and budget of ooc's options
// is refused below zero (0 asks for the default): a window computed below zero is a
// slip, not a request for the default.
func (o ParseOptions) checkWindow() error {
	if o.MaxWindow < 0 {
		return fmt.Errorf("parse: ParseOptions.MaxWindow %d: want 0 (DefaultMaxWindow) or a window in bytes: %w", o.MaxWindow, ErrBadInput)
	}
	return nil
}

// ParseResult reports what Parse read.
type ParseResult struct {
	Format      Format
	Compression string // "", "gzip", "zstd"
	Header      Header
	Edges       uint64 // edges emitted
	Lines       uint64 // lines read (text formats)
	InBytes     int64  // bytes read from r
	RawBytes    int64  // bytes after decompression
	// FloatWeights says that ParseWeighted gave float32 weights (WEdge.W holds their
	// bits): with ParseOptions.FloatWeights, or from a real MatrixMarket file.
	FloatWeights bool
}

// BatchSize is the most edges one call of emit receives.
const BatchSize = 64 << 10

// maxWorkers is internal/parallel's MaxWorkers (parse sits below it), whose CheckWorkers
// states the rule of every worker count: 0 asks for GOMAXPROCS, below 0 or past it is
// refused. A run holds a block of 1 MiB and two channel slots a worker.
const maxWorkers = 4096

// Parse reads an edge list from r, decompressing gzip or zstd detected from
// the magic bytes, detects the format, and calls emit concurrently from up to
// opt.Workers goroutines with batches of at most BatchSize edges. emit must
// not retain the slice; the order between batches is unspecified. If emit
// returns an error, Parse stops and returns it unchanged.
//
// Bad input gives a *ParseError for the first bad line or offset of the
// input, whatever the worker count. Memory is bounded: Workers+2 blocks of 1 MiB
// (a file read at the workers' own offsets takes one a worker), each grown by at
// most a line of 1 MiB, a batch a worker, and the decompressor's window
// (ZstdWindow; 32 KiB for gzip).
func Parse(r io.Reader, opt ParseOptions, emit func(batch []Edge) error) (*ParseResult, error) {
	if opt.Workers < 0 || opt.Workers > maxWorkers {
		return nil, fmt.Errorf("parse: ParseOptions.Workers %d: want 0 (GOMAXPROCS) to %d goroutines: %w", opt.Workers, maxWorkers, ErrBadInput)
	}
	if err := opt.checkWindow(); err != nil {
		return nil, err
	}
	if opt.Workers == 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.MaxID == 0 {
		opt.MaxID = math.MaxUint64
	}
	in := &countingReader{r: r, progress: opt.Progress}
	res := &ParseResult{}
	p := &parser{opt: opt, path: displayName(opt.Name), in: in, res: res, at: seekableFile(r)}
	defer func() {
		res.InBytes = in.n
		if p.raw != nil {
			res.RawBytes = p.raw.n
		}
	}()
	src, closeSrc, err := p.decompress(bufio.NewReaderSize(in, 64<<10))
	if err != nil {
		return res, err
	}
	defer closeSrc()
	p.raw = &countingReader{r: src}
	p.br = bufio.NewReaderSize(p.raw, 64<<10)
	if err := p.detect(); err != nil {
		return res, err
	}
	if err := p.run(emit); err != nil {
		return res, err
	}
	return res, nil
}

// ParseOnly parses r and discards the edges: the "parse-only pass" that
// ingest's speed is compared with.
func ParseOnly(r io.Reader, opt ParseOptions) (*ParseResult, error) {
	return Parse(r, opt, func([]Edge) error { return nil })
}

// ParseFormat checks a --format value. Names are lower case, as every enumerated value
// of ooc's flags and options is: "SNAP" is refused as "--order DEGREE" is.
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case FormatSNAP, FormatMTX, FormatDIMACS, FormatBin32, FormatBin64, FormatParquet:
		return f, nil
	case "dimacs":
		return FormatDIMACS, nil
	case "":
		return "", nil
	}
	return "", fmt.Errorf("ingest: unknown format %q (want %s): %w", s, formatNames, ErrBadInput)
}

const formatNames = "snap, mtx, gr, bin32, bin64 or parquet"

// ErrBadInput is matched by every error that blames the input.
var ErrBadInput = errors.New("bad input")

// ParseError is bad input, positioned by line (text) or byte offset (binary
// and compressed streams). Error() is one line.
type ParseError struct {
	Path   string
	Line   int64 // 1-based; 0 = none
	Offset int64 // -1 = none
	Msg    string
	Err    error
}

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString("ingest: ")
	b.WriteString(e.Path)
	switch {
	case e.Line > 0:
		fmt.Fprintf(&b, ":%d", e.Line)
	case e.Offset >= 0:
		fmt.Fprintf(&b, ": offset %d", e.Offset)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(strings.ReplaceAll(e.Err.Error(), "\n", " "))
	}
	return b.String()
}

// Is makes errors.Is(err, ErrBadInput) true.
func (e *ParseError) Is(target error) bool { return target == ErrBadInput }

func (e *ParseError) Unwrap() error { return e.Err }

// displayName is how errors name the input.
func displayName(name string) string {
	switch name {
	case "-":
		return "<stdin>"
	case "":
		return "<input>"
	}
	return name
}

// lineError is a ParseError at a text line.
func (p *parser) lineError(line int64, format string, args ...any) *ParseError {
	return &ParseError{Path: p.path, Line: line, Offset: -1, Msg: fmt.Sprintf(format, args...)}
}

// longLineError is the error for a line longer than maxLineLen.
func (p *parser) longLineError(line int64) *ParseError {
	return p.lineError(line, "line is longer than %d bytes", maxLineLen)
}

// trailingError is the error for a binary input of whole bytes of pairs and rem bytes
// more.
func (p *parser) trailingError(whole int64, rem, pair int) *ParseError {
	msg := "input length %d is not a multiple of %d (%s pairs): %s"
	if p.res.Format == FormatBin64 && rem == 8 {
		msg += " (a length of whole bin32 pairs: pass --format bin32 if the file holds uint32 pairs)"
	}
	return p.offsetError(whole, msg, whole+int64(rem), pair, p.res.Format, plural.Of(rem, "trailing byte"))
}

// offsetError is a ParseError at a byte offset.
func (p *parser) offsetError(off int64, format string, args ...any) *ParseError {
	return &ParseError{Path: p.path, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// countingReader counts the bytes read through it and reports them.
type countingReader struct {
	r        io.Reader
	n        int64
	err      error // the last error other than io.EOF
	progress func(int64)
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	if n > 0 && c.progress != nil {
		c.progress(int64(n))
	}
	if err != nil && err != io.EOF {
		c.err = err
	}
	return n, err
}
