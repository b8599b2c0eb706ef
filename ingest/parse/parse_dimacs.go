package parse

import (
	"bytes"
	"strconv"
	"strings"
)

// DIMACS shortest-path files (9th DIMACS Implementation Challenge):
//
//	c comment
//	p sp N M
//	a u v w          (M lines, 1-based; the weight is ignored)
//
// Comments may appear anywhere; the p line must come before the first arc.

// readDIMACSHeader reads up to and including the p line.
func (p *parser) readDIMACSHeader() error {
	for {
		line, err := p.headerLine()
		if err != nil {
			return p.headerEOF(err, `missing "p sp N M" line`)
		}
		t := bytes.TrimSpace(line)
		switch {
		case len(t) == 0 || t[0] == 'c':
			continue
		case t[0] == 'p':
			return p.dimacsProblem(t)
		case t[0] == 'a':
			return p.lineError(p.lineBase, `arc before the "p sp N M" line`)
		}
		return p.lineError(p.lineBase, `expected "p sp N M", got %s`, lineText(line, 0))
	}
}

// dimacsProblem parses "p sp N M".
func (p *parser) dimacsProblem(line []byte) error {
	f := strings.Fields(string(line))
	var n, m uint64
	ok := len(f) == 4 && f[0] == "p" && f[1] == "sp"
	if ok {
		var err1, err2 error
		n, err1 = strconv.ParseUint(f[2], 10, 64)
		m, err2 = strconv.ParseUint(f[3], 10, 64)
		ok = err1 == nil && err2 == nil
	}
	if !ok {
		return p.lineError(p.lineBase, `expected "p sp N M", got %s`, lineText(line, 0))
	}
	p.hdrLine = p.lineBase
	p.rows, p.cols = n, n
	p.res.Header.Vertices, p.res.Header.Entries = n, m
	return p.checkVertices("p line")
}

// parseDIMACSBlock parses arcs "a u v w", c comments and blank lines.
func parseDIMACSBlock(w *worker, b *block) error {
	end, z := withoutNUL(b.data)
	data := b.data[:end]
	n := w.p.rows
	start := 0 // where the current line begins
	for i := 0; i < len(data); {
		switch data[i] {
		case 'c':
			i = skipLine(data, i)
		case '\n':
			i++
		case ' ', '\t', '\r':
			i++
			continue
		case 'a':
			next, err := w.arc(b, i, n)
			if err != nil {
				return err
			}
			i = next
		case 'p':
			return w.errorAt(b, i, "second p line (the first is line %d)", w.p.hdrLine)
		default:
			return w.errorAt(b, i, `expected an arc "a u v w", got %s`, lineText(data, i))
		}
		if err := w.checkLen(b, start, i); err != nil {
			return err
		}
		start = i
	}
	if z >= 0 {
		return w.nulError(b, z)
	}
	return nil
}

// arc parses "a u v [w]" at b.data[i:] for n vertices, returning the index
// after the line.
func (w *worker) arc(b *block, i int, n uint64) (int, error) {
	data := b.data
	j := i + 1
	for j < len(data) && (data[j] == ' ' || data[j] == '\t') {
		j++
	}
	if j == i+1 || j == len(data) || data[j]-'0' > 9 {
		if j < len(data) && data[j] == '-' {
			return 0, w.pairError(b, pairNegative, j, "")
		}
		return 0, w.errorAt(b, i, `expected an arc "a u v w", got %s`, lineText(data, i))
	}
	u, v, next, fail, at := scanPair(data, j)
	if fail != pairOK {
		return 0, w.pairError(b, fail, at, `an arc "a u v w"`)
	}
	if bad := u; u == 0 || u > n || v == 0 || v > n {
		if u >= 1 && u <= n {
			bad = v
		}
		return 0, w.errorAt(b, i, "vertex id %d is outside 1..%d", bad, n)
	}
	return next, w.add(b, i, u-1, v-1, 1)
}
