package parse

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/oocgraph/ooc/internal/plural"
)

// WEdge is one input edge with its weight, ids 0-based as in Edge. W is an unsigned
// integer, or with float weights (ParseResult.FloatWeights) the IEEE-754 bits of a
// non-negative finite float32, which order as the numbers do.
type WEdge struct {
	U, V uint64
	W    uint32
}

// ParseWeighted reads a weighted edge list from r, line by line on one core, and calls
// emit with each edge in input order. The weight is the third column of a text edge
// list ("u v w"), the arc weight of a DIMACS file ("a u v w"), or the value of a
// MatrixMarket entry ("i j value"), written in decimal ("7", "7.0", "7e0"). Weights are
// integers in [0, 2^32-1], except in a real (or double) MatrixMarket file and with
// opt.FloatWeights, where they are float32 (the value rounded to the nearest float32; -0
// read as 0): a negative, fractional (for integers), non-finite, out-of-range, missing or
// not decimal one ("1_000", "0x10") is a ParseError naming the line.
// gzip and zstd input is decompressed; binary formats carry no weights and are refused.
func ParseWeighted(r io.Reader, opt ParseOptions, emit func(WEdge) error) (*ParseResult, error) {
	if err := opt.checkWindow(); err != nil {
		return nil, err
	}
	p := &wparser{path: displayName(opt.Name), opt: opt, maxID: opt.MaxID, float: opt.FloatWeights}
	if p.maxID == 0 {
		p.maxID = math.MaxUint64
	}
	cr := &countingReader{r: r}
	p.raw = cr
	br := bufio.NewReaderSize(cr, 1<<20)
	in, closeIn, err := p.decompress(br)
	if err != nil {
		if cr.err != nil {
			return nil, readFailure(p.path, cr.err)
		}
		return nil, err
	}
	defer closeIn()
	p.br = bufio.NewReaderSize(in, 1<<20)
	head, _ := p.br.Peek(4096)
	if err := utf16Error(p.path, opt.Name, p.res.Compression, opt.Format, head); err != nil {
		return nil, err
	}
	if opt.Format != FormatBin32 && opt.Format != FormatBin64 && bytes.HasPrefix(head, utf8BOM) {
		p.br.Discard(len(utf8BOM)) // text, or refused below: weights are read from text alone
		head = head[len(utf8BOM):]
	}
	p.res.Format = opt.Format
	if p.res.Format == "" {
		if gapbsName(opt.Name) && bytes.IndexByte(head, 0) >= 0 {
			return nil, gapbsError(p.path)
		}
		p.res.Format = formatFromExt(opt.Name)
		switch {
		case bytes.HasPrefix(head, []byte("%%MatrixMarket")):
			p.res.Format = FormatMTX
		case p.res.Format == "" && looksDIMACS(head):
			p.res.Format = FormatDIMACS
		case p.res.Format == "":
			p.res.Format = FormatSNAP
		}
	} else if err := mtxAsSNAP(p.path, p.res.Format, head); err != nil {
		return nil, err
	}
	if !p.res.Format.text() {
		return nil, &ParseError{Path: p.path, Offset: -1, Msg: fmt.Sprintf("--weights reads text edge lists (snap, mtx, gr) and Parquet; format %s carries no weights", p.res.Format)}
	}
	if err := p.run(emit); err != nil {
		return nil, err
	}
	p.res.InBytes = cr.n
	p.res.FloatWeights = p.float
	return &p.res, nil
}

// FloatWeightsIn says whether ParseWeighted gives the input of r float32 weights: with
// opt.FloatWeights, or when it is a real (or double) MatrixMarket file. It reads only
// the start of r (decompressed), so that a reader of several passes knows the weight
// type before its first.
func FloatWeightsIn(r io.Reader, opt ParseOptions) (bool, error) {
	if opt.FloatWeights {
		return true, nil
	}
	p := &wparser{path: displayName(opt.Name), opt: opt}
	in, closeIn, err := p.decompress(bufio.NewReaderSize(r, 1<<16))
	if err != nil {
		return false, err
	}
	defer closeIn()
	line, _ := bufio.NewReaderSize(in, 1<<12).ReadSlice('\n')
	f := strings.Fields(strings.ToLower(string(bytes.TrimPrefix(line, utf8BOM))))
	mtx := opt.Format == FormatMTX || (opt.Format == "" && len(f) > 0 && f[0] == "%%matrixmarket")
	return mtx && len(f) == 5 && (f[3] == "real" || f[3] == "double"), nil
}

type wparser struct {
	path  string
	opt   ParseOptions
	raw   *countingReader // the input before decompression: its read errors are the machine's
	maxID uint64
	br    *bufio.Reader
	res   ParseResult
	line  int64
	float bool // weights are float32 (ParseOptions.FloatWeights, or a real MatrixMarket file)
	// MatrixMarket
	sized   bool  // the MTX size line or DIMACS p line was read
	hdrLine int64 // its line
}

func (p *wparser) decompress(br *bufio.Reader) (io.Reader, func(), error) {
	magic, _ := br.Peek(10)
	if err := otherCompression(p.path, p.opt.Name, magic); err != nil {
		return nil, nil, err
	}
	switch {
	case gzipHeader(magic):
		p.res.Compression = "gzip"
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, &ParseError{Path: p.path, Offset: 0, Msg: "bad gzip stream", Err: err}
		}
		return zr, func() { zr.Close() }, nil
	case bytes.HasPrefix(magic, zstdMagic):
		p.res.Compression = "zstd"
		win := p.opt.MaxWindow
		if win <= 0 {
			win = DefaultMaxWindow
		}
		zr, err := zstd.NewReader(br, zstd.WithDecoderMaxWindow(uint64(win)), zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, nil, &ParseError{Path: p.path, Offset: 0, Msg: "bad zstd stream", Err: err}
		}
		return zr, zr.Close, nil
	}
	return br, func() {}, nil
}

func (p *wparser) errorf(format string, args ...any) error {
	return &ParseError{Path: p.path, Line: p.line, Offset: -1, Msg: fmt.Sprintf(format, args...)}
}

// run reads every line.
func (p *wparser) run(emit func(WEdge) error) error {
	for {
		raw, err := p.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			p.line++
			return p.errorf("line is longer than %d bytes", p.br.Size())
		}
		if err != nil && err != io.EOF && p.raw != nil && p.raw.err != nil {
			return readFailure(p.path, p.raw.err)
		}
		if err != nil && err != io.EOF {
			return &ParseError{Path: p.path, Line: p.line + 1, Offset: -1, Msg: "cannot read the input", Err: err}
		}
		if len(raw) > 0 {
			p.line++
			p.res.RawBytes += int64(len(raw))
			if e := p.parseLine(bytes.TrimSpace(raw), emit); e != nil {
				return e
			}
		}
		if err == io.EOF {
			break
		}
	}
	p.res.Lines = uint64(p.line)
	h, n := p.res.Header, p.res.Edges
	switch {
	case p.res.Format == FormatMTX && !p.sized:
		return p.errorf("missing the size line \"rows cols entries\"")
	case p.res.Format == FormatDIMACS && !p.sized:
		return p.errorf(`missing "p sp N M" line`)
	case p.res.Format == FormatMTX && n != h.Entries:
		return &ParseError{Path: p.path, Line: p.hdrLine, Offset: -1, Msg: fmt.Sprintf("size line announces %s, the file has %d", plural.Of(h.Entries, "entry"), n)}
	case p.res.Format == FormatDIMACS && n != h.Entries:
		return &ParseError{Path: p.path, Line: p.hdrLine, Offset: -1, Msg: fmt.Sprintf("p line announces %s, the file has %d", plural.Of(h.Entries, "arc"), n)}
	case n == 0 && h.Vertices == 0:
		return &ParseError{Path: p.path, Offset: -1, Msg: "no edges (the input is empty or holds only comments)"}
	}
	return nil
}

func (p *wparser) parseLine(t []byte, emit func(WEdge) error) error {
	if bytes.IndexByte(t, 0) >= 0 {
		return p.errorf("NUL byte in text input")
	}
	switch p.res.Format {
	case FormatMTX:
		return p.mtxLine(t, emit)
	case FormatDIMACS:
		return p.dimacsLine(t, emit)
	}
	if len(t) == 0 || t[0] == '#' || t[0] == '%' {
		return nil
	}
	f, n := fields(t)
	if n != 3 {
		return p.errorf(`expected "u v weight" (three columns with --weights), got %q`, t)
	}
	return p.edge(f[0], f[1], f[2], 0, emit)
}

// fields splits a line at blanks and commas into at most 4 fields (without allocating)
// and returns how many it found (4 meaning 4 or more).
func fields(t []byte) (f [4][]byte, n int) {
	for i := 0; i < len(t) && n < 4; {
		for i < len(t) && (t[i] == ' ' || t[i] == '\t' || t[i] == ',') {
			i++
		}
		j := i
		for j < len(t) && t[j] != ' ' && t[j] != '\t' && t[j] != ',' {
			j++
		}
		if j > i {
			f[n] = t[i:j]
			n++
		}
		i = j
	}
	return f, n
}

// parseUint parses decimal digits as strconv.ParseUint(s, 10, 64) does, without
// converting to a string.
func parseUint(s []byte) (uint64, bool) {
	if len(s) == 0 || len(s) > 20 {
		return 0, false
	}
	var x uint64
	for _, c := range s {
		d := uint64(c - '0')
		if d > 9 || x > (math.MaxUint64-d)/10 {
			return 0, false
		}
		x = x*10 + d
	}
	return x, true
}

// edge parses and emits one edge; base is 1 for 1-based formats.
func (p *wparser) edge(us, vs, ws []byte, base uint64, emit func(WEdge) error) error {
	u, ok1 := parseUint(us)
	v, ok2 := parseUint(vs)
	if !ok1 || !ok2 {
		return p.errorf("expected two non-negative integer vertex ids, got %q %q", us, vs)
	}
	if u < base || v < base {
		return p.errorf("vertex id 0 in a 1-based format")
	}
	u, v = u-base, v-base
	if n := p.res.Header.Vertices; base == 1 && (u >= n || v >= n) {
		return p.errorf("vertex id %d is outside 1..%d", max(u, v)+1, n)
	}
	if max(u, v) > p.maxID {
		return p.errorf("vertex id %d is larger than %d", max(u, v)+base, p.maxID+base)
	}
	w, err := p.weight(ws)
	if err != nil {
		return err
	}
	p.res.Edges++
	return emit(WEdge{U: u, V: v, W: w})
}

// weight parses a weight: an unsigned 32-bit integer, or with float weights the bits of
// a non-negative finite float32.
func (p *wparser) weight(b []byte) (uint32, error) {
	if p.float {
		return p.floatWeight(b)
	}
	if w, ok := parseUint(b); ok && w <= math.MaxUint32 {
		return uint32(w), nil
	}
	s := string(b)
	if err := p.decimal(s); err != nil {
		return 0, err
	}
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil && !strings.Contains(err.Error(), "range"):
		return 0, p.errorf("weight %q is not a number", s)
	case strings.HasPrefix(s, "-"):
		return 0, p.errorf("negative weight %s: weights are integers from 0 to %d", s, uint32(math.MaxUint32))
	case f > math.MaxUint32:
		return 0, p.errorf("weight %s is larger than %d", s, uint32(math.MaxUint32))
	case f != math.Trunc(f):
		return 0, p.errorf("weight %s is not an integer: integer weights run from 0 to %d (ingest with --float-weights to keep fractional ones)", s, uint32(math.MaxUint32))
	}
	return uint32(f), nil
}

// decimal refuses the weights that strconv.ParseFloat reads but no text format writes:
// Go's other spellings of a number ("1_000", "0x1p4", "Infinity"). A weight holds only
// decimal digits, a point, an exponent's e and signs; ParseFloat checks their order.
func (p *wparser) decimal(s string) error {
	switch t := strings.ToLower(strings.TrimLeft(s, "+-")); {
	case t == "inf" || t == "infinity" || t == "nan":
		return p.errorf("weight %s is not a finite number", s)
	case strings.Trim(s, "0123456789.eE+-") != "":
		return p.errorf("weight %q is not a number: weights are written in decimal", s)
	}
	return nil
}

// floatWeight parses a float weight, rounded to the nearest float32, and returns its
// bits: non-negative and finite, -0 read as +0 (so that the bits order as the numbers).
func (p *wparser) floatWeight(b []byte) (uint32, error) {
	if w, ok := parseUint(b); ok && w < 1<<24 {
		return math.Float32bits(float32(w)), nil // exact
	}
	s := string(b)
	if err := p.decimal(s); err != nil {
		return 0, err
	}
	f, err := strconv.ParseFloat(s, 32)
	mantissa := s[:len(s)-len(strings.TrimLeft(s, "+-0123456789."))]
	switch {
	case err != nil && errors.Is(err, strconv.ErrRange) && math.IsInf(f, 0) && !math.IsInf(f, -1):
		return 0, p.errorf("weight %s is beyond the largest float32 (%g)", s, math.MaxFloat32)
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return 0, p.errorf("weight %q is not a number", s)
	case math.IsNaN(f) || (math.IsInf(f, 0) && err == nil):
		return 0, p.errorf("weight %s is not a finite number", s)
	case f < 0 || (math.Signbit(f) && strings.ContainsAny(mantissa, "123456789")):
		return 0, p.errorf("negative weight %s: weights are non-negative", s)
	}
	if f == 0 {
		return 0, nil // -0 too
	}
	return math.Float32bits(float32(f)), nil
}

// mtxLine reads the banner, comments, the size line and the entries of a MatrixMarket
// file.
func (p *wparser) mtxLine(t []byte, emit func(WEdge) error) error {
	if p.line == 1 {
		f := strings.Fields(strings.ToLower(string(t)))
		if len(f) != 5 || f[0] != "%%matrixmarket" || f[1] != "matrix" || f[2] != "coordinate" {
			return p.errorf(`expected the banner "%%%%MatrixMarket matrix coordinate FIELD SYMMETRY", got %q`, t)
		}
		switch f[3] {
		case "integer":
		case "real", "double":
			p.float = true
		case "pattern":
			return p.errorf("a pattern matrix has no values to use as weights (drop --weights)")
		default:
			return p.errorf("field %q: --weights takes integer or real values", f[3])
		}
		switch f[4] {
		case "general":
		case "symmetric":
			p.res.Header.Symmetric = true
		default:
			return p.errorf("symmetry %q: --weights takes general or symmetric matrices", f[4])
		}
		return nil
	}
	if len(t) == 0 || t[0] == '%' {
		return nil
	}
	f, nf := fields(t)
	if !p.sized {
		var n [3]uint64
		ok := nf == 3
		for i := 0; ok && i < 3; i++ {
			n[i], ok = parseUint(f[i])
		}
		if !ok {
			return p.errorf(`expected the size line "rows cols entries", got %q`, t)
		}
		p.sized, p.hdrLine = true, p.line
		p.res.Header = Header{Vertices: max(n[0], n[1]), Entries: n[2], Symmetric: p.res.Header.Symmetric, IDBase: 1}
		return nil
	}
	if nf != 3 {
		return p.errorf(`expected an entry "i j value" (three columns with --weights), got %q`, t)
	}
	return p.edge(f[0], f[1], f[2], 1, emit)
}

// dimacsLine reads the p line, comments and arcs of a DIMACS shortest-path file.
func (p *wparser) dimacsLine(t []byte, emit func(WEdge) error) error {
	if len(t) == 0 || t[0] == 'c' {
		return nil
	}
	if bf, n := fields(t); n == 4 && len(bf[0]) == 1 && bf[0][0] == 'a' && p.sized {
		return p.edge(bf[1], bf[2], bf[3], 1, emit)
	}
	f := strings.Fields(string(t))
	switch {
	case f[0] == "p" && !p.sized:
		var n, m uint64
		var err1, err2 error
		if len(f) == 4 && f[1] == "sp" {
			n, err1 = strconv.ParseUint(f[2], 10, 64)
			m, err2 = strconv.ParseUint(f[3], 10, 64)
		}
		if len(f) != 4 || f[1] != "sp" || err1 != nil || err2 != nil {
			return p.errorf(`expected "p sp N M", got %q`, t)
		}
		p.sized, p.hdrLine = true, p.line
		p.res.Header = Header{Vertices: n, Entries: m, IDBase: 1}
		return nil
	case f[0] == "p":
		return p.errorf("second p line (the first is line %d)", p.hdrLine)
	case f[0] == "a" && !p.sized:
		return p.errorf(`arc before the "p sp N M" line`)
	}
	return p.errorf(`expected an arc "a u v w", got %q`, t)
}
