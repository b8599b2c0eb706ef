package parse

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
)

// The hot loop of text ingest: lines "u v" are parsed straight from the block
// bytes, digits accumulating into a uint64 with an overflow check, with no
// allocation and no per-token call into strconv (which would cost several
// times the whole budget of ~40 ns per edge).

// pairFail says why scanPair rejected a line.
type pairFail uint8

const (
	pairOK       pairFail = iota
	pairNotTwo            // not two ids, or junk right after one
	pairOverflow          // an id of more than 64 bits
	pairNegative          // a '-' where an id belongs
)

const (
	maxDiv10 = math.MaxUint64 / 10
	maxMod10 = math.MaxUint64 % 10
)

// scanUint reads the decimal digits at data[i:], returning the value and the
// index after the digits; ok is false on overflow, with j at the bad digit.
// Where 8 bytes remain it finds the digits among them and converts up to 8 at
// once without a branch on their number (swar8): ids of varying length made
// the digit loop's exit a mispredicted branch per id (kron23 text, 16 cores:
// the loop was 14% of the ingest's CPU time, the largest part of parsing).
func scanUint(data []byte, i int) (v uint64, j int, ok bool) {
	if i+8 <= len(data) {
		a := binary.LittleEndian.Uint64(data[i:]) ^ 0x3030303030303030 // digits become 0-9
		// The high bit of each byte that is not 0-9 (a carry out of a non-digit
		// byte only reaches bytes after it).
		nd := (a | (a + 0x7676767676767676)) & 0x8080808080808080
		if nd != 0 {
			n := uint(bits.TrailingZeros64(nd)) >> 3 // digits before the first non-digit
			if n == 0 {
				return 0, i, true
			}
			return swar8(a << (64 - 8*n)), i + int(n), true
		}
		v, i = swar8(a), i+8
	}
	for ; i < len(data); i++ {
		d := data[i] - '0'
		if d > 9 {
			break
		}
		if v >= maxDiv10 && (v > maxDiv10 || d > maxMod10) {
			return v, i, false
		}
		v = v*10 + uint64(d)
	}
	return v, i, true
}

// swar8 converts 8 digits of value 0-9, one a byte, the most significant in the
// lowest byte, to their number: pairs, then quads, then the eight, each step one
// multiplication that adds 10^k times one lane to the next.
func swar8(a uint64) uint64 {
	a = (a * (10<<8 + 1)) >> 8 & 0x00ff00ff00ff00ff
	a = (a * (100<<16 + 1)) >> 16 & 0x0000ffff0000ffff
	return (a * (10000<<32 + 1)) >> 32
}

// skipSep skips a separator: blanks, at most one comma, blanks.
func skipSep(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t') {
		i++
	}
	if i < len(data) && data[i] == ',' {
		i++
		for i < len(data) && (data[i] == ' ' || data[i] == '\t') {
			i++
		}
	}
	return i
}

// scanPair parses "u<sep>v[<sep>anything]" at data[i:], data[i] being a
// digit, and returns the index after the line's newline. On failure, at is
// where the line went wrong.
func scanPair(data []byte, i int) (u, v uint64, next int, fail pairFail, at int) {
	u, j, ok := scanUint(data, i)
	if !ok {
		return 0, 0, 0, pairOverflow, j
	}
	k := skipSep(data, j)
	if k == j || k == len(data) || data[k]-'0' > 9 {
		if k < len(data) && data[k] == '-' && k > j {
			return 0, 0, 0, pairNegative, k
		}
		return 0, 0, 0, pairNotTwo, j
	}
	v, j, ok = scanUint(data, k)
	if !ok {
		return 0, 0, 0, pairOverflow, j
	}
	if j == len(data) {
		return u, v, j, pairOK, 0
	}
	switch data[j] {
	case '\n':
		return u, v, j + 1, pairOK, 0
	case ' ', '\t', ',', '\r':
		// Further columns (weights, timestamps) are ignored.
		e := bytes.IndexByte(data[j:], '\n')
		if e < 0 {
			return u, v, len(data), pairOK, 0
		}
		return u, v, j + e + 1, pairOK, 0
	}
	return 0, 0, 0, pairNotTwo, j
}

// skipLine returns the index after the newline that ends the line at data[i:].
func skipLine(data []byte, i int) int {
	e := bytes.IndexByte(data[i:], '\n')
	if e < 0 {
		return len(data)
	}
	return i + e + 1
}

// pairError turns a scanPair failure into a ParseError.
func (w *worker) pairError(b *block, fail pairFail, at int, what string) error {
	switch fail {
	case pairOverflow:
		start, e := at, at
		for start > 0 && b.data[start-1]-'0' <= 9 {
			start--
		}
		for e < len(b.data) && b.data[e]-'0' <= 9 {
			e++
		}
		if e-start > 40 {
			return w.errorAt(b, at, "vertex id %s... (%d digits) overflows 64 bits", b.data[start:start+40], e-start)
		}
		return w.errorAt(b, at, "vertex id %s overflows 64 bits", b.data[start:e])
	case pairNegative:
		return w.errorAt(b, at, "negative vertex id in %s", lineText(b.data, at))
	}
	return w.errorAt(b, at, "expected %s, got %s", what, lineText(b.data, at))
}

// withoutNUL returns how much of b precedes the line holding its first NUL
// byte, and the NUL's position (-1 if none). Text never holds NUL bytes;
// binary input mistaken for text does.
func withoutNUL(data []byte) (int, int) {
	z := bytes.IndexByte(data, 0)
	if z < 0 {
		return len(data), -1
	}
	return bytes.LastIndexByte(data[:z], '\n') + 1, z
}

// nulError reports a NUL byte once the lines before it parsed.
func (w *worker) nulError(b *block, z int) error {
	return w.errorAt(b, z, "NUL byte in text input (for binary edge lists pass --format bin32 or bin64)")
}

// parseSNAPBlock parses lines "u v", '#' and '%' comments and blank lines.
func parseSNAPBlock(w *worker, b *block) error {
	end, z := withoutNUL(b.data)
	data := b.data[:end]
	maxID, maxLine := w.maxID, maxLineLen
	batch := w.batch
	start := 0 // where the current line begins
	for i := 0; i < len(data); {
		c := data[i]
		if c-'0' > 9 {
			switch c {
			case '#', '%':
				i = skipLine(data, i)
			case '\n':
				i++
			case ' ', '\t', '\r':
				// Leading blanks, CRLF endings.
				i++
				continue
			default:
				w.batch = batch
				if c == '-' {
					return w.pairError(b, pairNegative, i, "")
				}
				return w.pairError(b, pairNotTwo, i, "two vertex ids")
			}
			if i-start > maxLine && lineTooLong(data, start) {
				w.batch = batch
				return w.errorAt(b, start, "")
			}
			start = i
			continue
		}
		u, v, next, fail, at := scanPair(data, i)
		if fail != pairOK {
			w.batch = batch
			return w.pairError(b, fail, at, "two vertex ids")
		}
		if u > maxID || v > maxID {
			w.batch = batch
			return w.idError(b, i, max(u, v), 0)
		}
		if next-start > maxLine && lineTooLong(data, start) {
			w.batch = batch
			return w.errorAt(b, start, "")
		}
		i, start = next, next
		batch = append(batch, Edge{u, v})
		if len(batch) == cap(batch) {
			w.batch = batch
			if err := w.flush(); err != nil {
				return err
			}
			batch = w.batch
		}
	}
	w.batch = batch
	if z >= 0 {
		return w.nulError(b, z)
	}
	return nil
}
