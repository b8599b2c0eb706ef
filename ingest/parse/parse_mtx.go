package parse

import (
	"bufio"
	"bytes"
	"io"
	"strconv"
	"strings"
)

// MatrixMarket coordinate files (https://math.nist.gov/MatrixMarket/formats.html):
//
//	%%MatrixMarket matrix coordinate pattern symmetric
//	% comments
//	rows cols nnz
//	i j [value]      (nnz lines, 1-based)
//
// The banner and the size line are read here, serially; the entries go to
// the workers.

// headerLine reads one line of the header, without its line ending; io.EOF
// when the input ends before it.
func (p *parser) headerLine() ([]byte, error) {
	p.hdr = p.hdr[:0]
	for {
		frag, err := p.br.ReadSlice('\n')
		p.hdr = append(p.hdr, frag...)
		if len(p.hdr) > maxLineLen+1 {
			return nil, p.longLineError(p.lineBase + 1)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF && len(p.hdr) == 0 {
			return nil, io.EOF
		}
		if err != nil && err != io.EOF {
			return nil, p.readError(err)
		}
		break
	}
	p.lineBase++
	p.hdrBytes += int64(len(p.hdr))
	if bytes.IndexByte(p.hdr, 0) >= 0 {
		return nil, p.lineError(p.lineBase, "NUL byte in text input")
	}
	return bytes.TrimRight(p.hdr, "\r\n"), nil
}

// readMTXHeader reads the banner, comments and the size line.
func (p *parser) readMTXHeader() error {
	banner, err := p.headerLine()
	if err != nil {
		return p.headerEOF(err, "missing %%MatrixMarket banner")
	}
	if err := p.mtxBanner(banner); err != nil {
		return err
	}
	for {
		line, err := p.headerLine()
		if err != nil {
			return p.headerEOF(err, `missing size line "rows cols nnz"`)
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '%' {
			continue
		}
		return p.mtxSize(line)
	}
}

// headerEOF turns io.EOF while reading a header into a ParseError.
func (p *parser) headerEOF(err error, msg string) error {
	if err == io.EOF {
		return &ParseError{Path: p.path, Offset: -1, Msg: msg}
	}
	return err
}

// mtxBanner checks "%%MatrixMarket matrix coordinate <field> <symmetry>".
func (p *parser) mtxBanner(line []byte) error {
	f := strings.Fields(strings.ToLower(string(line)))
	if len(f) != 5 || f[0] != "%%matrixmarket" {
		return p.lineError(p.lineBase, `expected "%%%%MatrixMarket matrix coordinate <field> <symmetry>", got %s`, lineText(line, 0))
	}
	switch {
	case f[1] != "matrix":
		return p.lineError(p.lineBase, "unsupported MatrixMarket object %q (want matrix)", f[1])
	case f[2] == "array":
		return p.lineError(p.lineBase, "MatrixMarket array (dense) format is unsupported; want coordinate")
	case f[2] != "coordinate":
		return p.lineError(p.lineBase, "unknown MatrixMarket format %q (want coordinate)", f[2])
	}
	switch f[3] {
	case "pattern", "integer", "real", "complex":
	default:
		return p.lineError(p.lineBase, "unknown MatrixMarket field %q (want pattern, integer, real or complex)", f[3])
	}
	switch f[4] {
	case "general":
	case "symmetric", "skew-symmetric", "hermitian":
		p.res.Header.Symmetric = true
	default:
		return p.lineError(p.lineBase, "unknown MatrixMarket symmetry %q (want general, symmetric, skew-symmetric or hermitian)", f[4])
	}
	return nil
}

// mtxSize parses the size line "rows cols nnz".
func (p *parser) mtxSize(line []byte) error {
	f := strings.Fields(string(line))
	var n [3]uint64
	ok := len(f) == 3
	for i := 0; ok && i < 3; i++ {
		var err error
		n[i], err = strconv.ParseUint(f[i], 10, 64)
		ok = err == nil
	}
	if !ok {
		return p.lineError(p.lineBase, `expected size line "rows cols nnz", got %s`, lineText(line, 0))
	}
	p.hdrLine = p.lineBase
	p.rows, p.cols = n[0], n[1]
	p.res.Header.Vertices = max(n[0], n[1])
	p.res.Header.Entries = n[2]
	return p.checkVertices("size line")
}

// checkVertices rejects a header whose vertex count needs ids above MaxID.
func (p *parser) checkVertices(what string) error {
	if n := p.res.Header.Vertices; n > 0 && n-1 > p.opt.MaxID {
		return p.lineError(p.hdrLine, "%s announces %d vertices, above the limit of %d; use --relabel", what, n, p.opt.MaxID+1)
	}
	return nil
}

// parseMTXBlock parses entries "i j [value]" and '%' comments.
func parseMTXBlock(w *worker, b *block) error {
	end, z := withoutNUL(b.data)
	data := b.data[:end]
	rows, cols := w.p.rows, w.p.cols
	start := 0 // where the current line begins
	for i := 0; i < len(data); {
		c := data[i]
		if c-'0' > 9 {
			switch c {
			case '%':
				i = skipLine(data, i)
			case '\n':
				i++
			case ' ', '\t', '\r':
				i++
				continue
			case '-':
				return w.pairError(b, pairNegative, i, "")
			default:
				return w.pairError(b, pairNotTwo, i, `an entry "row col [value]"`)
			}
			if err := w.checkLen(b, start, i); err != nil {
				return err
			}
			start = i
			continue
		}
		u, v, next, fail, at := scanPair(data, i)
		if fail != pairOK {
			return w.pairError(b, fail, at, `an entry "row col [value]"`)
		}
		if u == 0 || u > rows {
			return w.errorAt(b, i, "row index %d is outside 1..%d", u, rows)
		}
		if v == 0 || v > cols {
			return w.errorAt(b, i, "column index %d is outside 1..%d", v, cols)
		}
		if err := w.checkLen(b, start, next); err != nil {
			return err
		}
		if err := w.add(b, i, u-1, v-1, 1); err != nil {
			return err
		}
		i, start = next, next
	}
	if z >= 0 {
		return w.nulError(b, z)
	}
	return nil
}

// checkLen fails if the line data[start:next] is longer than maxLineLen.
func (w *worker) checkLen(b *block, start, next int) error {
	if next-start > maxLineLen && lineTooLong(b.data, start) {
		return w.errorAt(b, start, "")
	}
	return nil
}

// add appends one edge of 0-based ids, checking them against MaxID; base is
// what the file's own ids add to them, for the message.
func (w *worker) add(b *block, pos int, u, v uint64, base uint64) error {
	if u > w.maxID || v > w.maxID {
		return w.idError(b, pos, max(u, v)+base, base)
	}
	w.batch = append(w.batch, Edge{u, v})
	if len(w.batch) == cap(w.batch) {
		return w.flush()
	}
	return nil
}
