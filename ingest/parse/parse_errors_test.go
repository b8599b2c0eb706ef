package parse

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/klauspost/compress/gzip"
)

// malformedInput is one bad input and the ParseError it must give. The
// robustness tests (issue 5) reuse this table through the CLI: each case is
// exit code 2 with a one-line message naming the file and the position.
type malformedInput struct {
	name    string
	file    string // the input's name as typed; also read from testdata/inputs when fixture is set
	fixture bool
	in      string // the content, unless fixture
	format  Format
	maxID   uint64 // 0 = 1<<32-2, the pipeline's default without --relabel
	line    int64  // expected ParseError.Line (0 = none)
	offset  int64  // expected ParseError.Offset (-1 = none)
	msg     string // a substring of the message
}

// bin32Pairs and bin64Pairs are ids as little-endian uint32 or uint64 words.
func bin32Pairs(ids ...uint32) string {
	var b []byte
	for _, id := range ids {
		b = binary.LittleEndian.AppendUint32(b, id)
	}
	return string(b)
}

func bin64Pairs(ids ...uint64) string {
	var b []byte
	for _, id := range ids {
		b = binary.LittleEndian.AppendUint64(b, id)
	}
	return string(b)
}

// manyLines is valid SNAP text longer than the 1 KiB that detection checks
// for NUL bytes.
var manyLines = strings.Repeat("1 2\n", 300) // lines 1..300

var malformedInputs = []malformedInput{
	// SNAP text.
	{name: "non-numeric id", file: "g.txt", in: "1 2\n3 x\n", line: 2, offset: -1, msg: `expected two vertex ids, got "3 x"`},
	{name: "non-numeric first column", file: "g.txt", in: "1 2\nx1 2\n", line: 2, offset: -1, msg: `expected two vertex ids, got "x1 2"`},
	{name: "negative first id", file: "g.txt", in: "1 2\n-3 4\n", line: 2, offset: -1, msg: "negative vertex id"},
	{name: "negative second id", file: "g.txt", in: "1 -2\n", line: 1, offset: -1, msg: "negative vertex id"},
	{name: "id overflows 64 bits", file: "g.txt", in: "18446744073709551616 1\n", line: 1, offset: -1, msg: "vertex id 18446744073709551616 overflows 64 bits"},
	{name: "second id overflows 64 bits", file: "g.txt", in: "0 1\n1 99999999999999999999999\n", line: 2, offset: -1, msg: "overflows 64 bits"},
	{name: "id 2^32-1 without relabel", file: "g.txt", in: "0 1\n4294967295 0\n", line: 2, offset: -1, msg: "vertex id 4294967295 is >= 2^32-1; use --relabel"},
	{name: "id above a custom maximum", file: "g.txt", in: "0 1\n1 11\n", maxID: 10, line: 2, offset: -1, msg: "vertex id 11 is above the largest allowed id 10"},
	{name: "single id", file: "g.txt", in: "1 2\n3\n", line: 2, offset: -1, msg: `expected two vertex ids, got "3"`},
	{name: "single id then blank", file: "g.txt", in: "3 \t\n", line: 1, offset: -1, msg: `expected two vertex ids`},
	{name: "junk after the second id", file: "g.txt", in: "1 2x\n", line: 1, offset: -1, msg: `got "1 2x"`},
	{name: "decimal id", file: "g.txt", in: "1.5 2\n", line: 1, offset: -1, msg: `got "1.5 2"`},
	{name: "two commas", file: "g.txt", in: "1,,2\n", line: 1, offset: -1, msg: `got "1,,2"`},
	{name: "NUL byte after the first KiB", file: "g.txt", in: manyLines + "1\x002\n", line: 301, offset: -1, msg: "NUL byte"},
	{name: "NUL bytes at the start", file: "g.txt", in: "\x01\x00\x00\x00\x02\x00\x00\x00", offset: 1, msg: "pass --format bin32 or --format bin64"},
	{name: "binary forced as snap", file: "g.bin", in: "1 2\n\x00\x00\x00\x00", format: FormatSNAP, line: 2, offset: -1, msg: "NUL byte"},
	{name: "line of 10 MB", file: "g.txt", in: "1 2\n" + strings.Repeat("7", 10<<20) + "\n", line: 2, offset: -1, msg: "line is longer than 1048576 bytes"},
	{name: "CR line endings", file: "g.txt", in: "0 1\r1 2\r2 3\r", line: 1, offset: -1, msg: "a carriage return not followed by a line feed"},
	{name: "CR inside a line", file: "g.txt", in: "# CRLF is fine\r\n0 1\r\n5 6\rjunk\n", line: 3, offset: -1, msg: "lines must end in LF or CRLF"},
	{name: "empty file", file: "g.txt", in: "", offset: -1, msg: "no edges"},
	{name: "comments only", file: "g.txt", in: "# one\n% two\n\n", offset: -1, msg: "no edges"},
	{name: "wrong --format", file: "g.txt", in: "1 2\n", format: "csv", offset: -1, msg: `unknown format "csv"`},
	{name: "snap forced as mtx", file: "g.txt", in: "1 2\n", format: FormatMTX, line: 1, offset: -1, msg: "expected \"%%MatrixMarket"},
	// MatrixMarket.
	{name: "mtx without size line", file: "m.mtx", in: "%%MatrixMarket matrix coordinate pattern general\n% only comments\n", offset: -1, msg: `missing size line "rows cols nnz"`},
	{name: "mtx size line of two numbers", file: "m.mtx", in: "%%MatrixMarket matrix coordinate pattern general\n2 2\n1 1\n", line: 2, offset: -1, msg: `expected size line "rows cols nnz", got "2 2"`},
	{name: "mtx fewer entries than nnz", file: "m.mtx", in: "%%MatrixMarket matrix coordinate pattern general\n%\n3 3 3\n1 2\n2 3\n", line: 3, offset: -1, msg: "size line announces 3 entries, the file has 2"},
	{name: "mtx more entries than nnz", file: "m.mtx", in: "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n2 3\n", line: 2, offset: -1, msg: "size line announces 1 entry, the file has 2"},
	{name: "mtx row index 0", file: "m.mtx", in: "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n0 3\n", line: 4, offset: -1, msg: "row index 0 is outside 1..3"},
	{name: "mtx row above rows", file: "m.mtx", in: "%%MatrixMarket matrix coordinate pattern general\n3 4 1\n4 1\n", line: 3, offset: -1, msg: "row index 4 is outside 1..3"},
	{name: "mtx column above cols", file: "m.mtx", in: "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 9 1.0\n", line: 3, offset: -1, msg: "column index 9 is outside 1..3"},
	{name: "mtx array format", file: "m.mtx", in: "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", line: 1, offset: -1, msg: "array (dense) format is unsupported"},
	{name: "mtx short banner", file: "m.mtx", in: "%%MatrixMarket matrix coordinate\n1 1 1\n1 1\n", line: 1, offset: -1, msg: `expected "%%MatrixMarket matrix coordinate <field> <symmetry>"`},
	{name: "mtx unknown symmetry", file: "m.mtx", in: "%%MatrixMarket matrix coordinate pattern diagonal\n1 1 1\n1 1\n", line: 1, offset: -1, msg: `unknown MatrixMarket symmetry "diagonal"`},
	{name: "mtx size needs relabel", file: "m.mtx", in: "%%MatrixMarket matrix coordinate pattern general\n4294967296 1 1\n1 1\n", line: 2, offset: -1, msg: "use --relabel"},
	{name: "mtx non-numeric entry", file: "m.mtx", in: "%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 2\n2 b\n", line: 4, offset: -1, msg: `expected an entry "row col [value]", got "2 b"`},
	// DIMACS.
	{name: "gr arc before p line", file: "g.gr", in: "c no problem line\na 1 2 3\n", line: 2, offset: -1, msg: `arc before the "p sp N M" line`},
	{name: "gr without p line", file: "g.gr", in: "c comments only\n", offset: -1, msg: `missing "p sp N M" line`},
	{name: "gr short p line", file: "g.gr", in: "p sp 3\na 1 2 1\n", line: 1, offset: -1, msg: `expected "p sp N M", got "p sp 3"`},
	{name: "gr fewer arcs than M", file: "g.gr", in: "c x\np sp 3 2\na 1 2 1\n", line: 2, offset: -1, msg: "p line announces 2 arcs, the file has 1"},
	{name: "gr more arcs than M", file: "g.gr", in: "p sp 3 1\na 1 2 1\na 2 3 1\n", line: 1, offset: -1, msg: "p line announces 1 arc, the file has 2"},
	{name: "gr id above N", file: "g.gr", in: "p sp 3 1\na 1 4 1\n", line: 2, offset: -1, msg: "vertex id 4 is outside 1..3"},
	{name: "gr id 0", file: "g.gr", in: "p sp 3 1\na 0 1 1\n", line: 2, offset: -1, msg: "vertex id 0 is outside 1..3"},
	{name: "gr second p line", file: "g.gr", in: "p sp 3 1\na 1 2 1\np sp 3 1\n", line: 3, offset: -1, msg: "second p line"},
	{name: "gr unknown line", file: "g.gr", in: "p sp 3 1\nx 1 2 1\n", line: 2, offset: -1, msg: `expected an arc "a u v w", got "x 1 2 1"`},
	{name: "gr arc without ids", file: "g.gr", in: "p sp 3 1\na\n", line: 2, offset: -1, msg: `expected an arc "a u v w", got "a"`},
	// Binary.
	{name: "bin32 length not a multiple of 8", file: "g.bin32", in: "\x01\x00\x00\x00\x02\x00\x00\x00\x03\x00\x00\x00", offset: 8, msg: "input length 12 is not a multiple of 8 (bin32 pairs)"},
	{name: "bin32 one byte past whole pairs", file: "g.bin32", in: "\x01\x00\x00\x00\x02\x00\x00\x00\x03", offset: 8, msg: "input length 9 is not a multiple of 8 (bin32 pairs): 1 trailing byte"},
	{name: "bin64 length not a multiple of 16", file: "g", format: FormatBin64, in: strings.Repeat("\x00", 20), offset: 16, msg: "not a multiple of 16"},
	{name: "bin32 id 2^32-1 without relabel", file: "g.bin32", in: "\x01\x00\x00\x00\x02\x00\x00\x00\xff\xff\xff\xff\x00\x00\x00\x00", offset: 8, msg: "vertex id 4294967295 is >= 2^32-1; use --relabel"},
	{name: "bin64 64-bit id without relabel", file: "g.bin64", in: "\x00\x00\x00\x00\x00\x00\x00\x01" + strings.Repeat("\x00", 8), offset: 0, msg: "vertex id 72057594037927936 is >= 2^32-1"},
	{name: "bin32 empty", file: "g.bin32", in: "", offset: -1, msg: "no edges"},
	{name: "bin64 named, read as bin32", file: "g.bin64", format: FormatBin32, in: strings.Repeat("\x01\x00\x00\x00\x00\x00\x00\x00", 2), offset: -1, msg: "--format bin32 for a name ending .bin64: drop --format to read it as bin64"},
	{name: "bin32 named, read as bin64", file: "g.bin32.zst", format: FormatBin64, in: strings.Repeat("\x01\x00\x00\x00\x00\x00\x00\x00", 2), offset: -1, msg: "--format bin64 for a name ending .bin32: drop --format to read it as bin32"},
	{name: "bin64 content read as bin32", file: "g.dat", format: FormatBin32, in: bin64Pairs(0, 1, 1, 2, 2, 0), offset: -1, msg: "every pair's second id is 0 (6 pairs), as in a bin64 file"},
	{name: "bin64 content as bin32 on stdin", file: "-", format: FormatBin32, in: bin64Pairs(5, 3), offset: -1, msg: "pass --format bin64"},
	{name: "bin32 content read as bin64", file: "g.dat", format: FormatBin64, in: bin32Pairs(0, 1, 2, 3), offset: 0, msg: "--format bin32: this id is ids 2 and 3 side by side"},
	{name: "bin32 content of odd pairs as bin64", file: "g.dat", format: FormatBin64, in: bin32Pairs(1, 0, 2, 0, 3, 0), offset: 16, msg: "8 trailing bytes (a length of whole bin32 pairs: pass --format bin32"},
	{name: "text named bin32", file: "g.bin32", in: "0 1\n1 2\n2 3\n3 4\n", offset: 0, msg: "text content (no NUL byte, only printable characters and line breaks) under a .bin32 name; pass --format snap"},
	{name: "text named bin64.gz", file: "g.bin64.gz", in: gzipped("# a comment\r\n0\t1\r\n"), offset: 0, msg: "under a .bin64 name; pass --format snap to read it as text, or --format bin64"},
	// Compressed streams.
	{name: "truncated gzip", file: "truncated.txt.gz", fixture: true, offset: -2, msg: "truncated gzip stream"},
	{name: "truncated zstd", file: "truncated.txt.zst", fixture: true, offset: -2, msg: "truncated zstd stream"},
	{name: "gzip with a bad checksum", file: "g.txt.gz", in: badChecksumGzip(), offset: -2, msg: "corrupt gzip stream"},
	{name: "gzip magic only", file: "g.txt.gz", in: "\x1f\x8b", offset: -2, msg: "gzip stream"},
	{name: "bytes after the gzip stream", file: "g.txt.gz", in: gzipped("1 2\n") + "junk after it", offset: int64(len(gzipped("1 2\n"))), msg: "bytes after the end of the gzip stream"},
	{name: "a truncated second gzip member", file: "g.txt.gz", in: gzipped("1 2\n") + gzipped("3 4\n")[:12], offset: -2, msg: "truncated gzip stream"},
}

// gzipped is s compressed as one gzip member.
func gzipped(s string) string {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write([]byte(s))
	w.Close()
	return buf.String()
}

// badChecksumGzip is a gzip stream whose CRC32 trailer is wrong.
func badChecksumGzip() string {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write([]byte("1 2\n"))
	w.Close()
	b := buf.Bytes()
	b[len(b)-8] ^= 0xff
	return string(b)
}

func TestMalformedInputs(t *testing.T) {
	if len(malformedInputs) < 20 {
		t.Fatalf("only %d malformed cases", len(malformedInputs))
	}
	for _, tc := range malformedInputs {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(tc.in)
			if tc.fixture {
				var err error
				if in, err = os.ReadFile(filepath.Join("testdata/inputs", tc.file)); err != nil {
					t.Fatal(err)
				}
			}
			for _, file := range []bool{false, true} {
				t.Run(map[bool]string{false: "reader", true: "file"}[file], func(t *testing.T) {
					for _, workers := range []int{1, 4} {
						checkMalformed(t, tc, in, workers, file)
					}
				})
			}
		})
	}
}

// checkMalformed parses in from a reader, or from a file,
// and checks the error.
func checkMalformed(t *testing.T, tc malformedInput, in []byte, workers int, file bool) {
	t.Helper()
	maxID := tc.maxID
	if maxID == 0 {
		maxID = 1<<32 - 2
	}
	opt := ParseOptions{Name: tc.file, Format: tc.format, MaxID: maxID, Workers: workers}
	var r io.Reader = bytes.NewReader(in)
	if file {
		path := filepath.Join(t.TempDir(), "in")
		if err := os.WriteFile(path, in, 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		r = f
	}
	_, _, err := collect(r, opt)
	if err == nil {
		t.Fatalf("workers %d: no error", workers)
	}
	msg := err.Error()
	if !errors.Is(err, ErrBadInput) || strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "ingest: ") {
		t.Fatalf("workers %d: %q is not a one-line bad-input error", workers, msg)
	}
	if !saysWords(msg, tc.msg) || !strings.Contains(msg, tc.file) {
		t.Errorf("workers %d: %q does not name %q and say %q", workers, msg, tc.file, tc.msg)
	}
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("workers %d: %T is not a *ParseError", workers, err)
	}
	// offset -2: some offset, which depends on the decompressor's buffering.
	if pe.Line != tc.line || (tc.offset == -2 && pe.Offset < 0) || (tc.offset != -2 && pe.Offset != tc.offset) {
		t.Errorf("workers %d: line %d offset %d, want %d %d (%s)", workers, pe.Line, pe.Offset, tc.line, tc.offset, msg)
	}
}

// TestFileShrank: a regular file cut short while its blocks are read is a ParseError
// naming it and where it ended (ErrBadInput: the ingest exits 2, as when a weighted
// ingest's file changes between its reads), not a machine's read error (exit 1).
func TestFileShrank(t *testing.T) {
	var text bytes.Buffer
	for i := range 300_000 {
		fmt.Fprintf(&text, "%d %d\n", i, i+1)
	}
	path := filepath.Join(t.TempDir(), "g.txt")
	if err := os.WriteFile(path, text.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	old := blockSize
	blockSize = 4096
	defer func() { blockSize = old }()
	var once sync.Once
	_, err = Parse(f, ParseOptions{Name: path, Workers: 2}, func([]Edge) error {
		once.Do(func() { os.Truncate(path, 10_000) })
		return nil
	})
	var pe *ParseError
	if !errors.As(err, &pe) || !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "g.txt: offset ") ||
		!strings.Contains(err.Error(), fmt.Sprintf("shrank while it was read (it was %d bytes)", text.Len())) {
		t.Errorf("a file cut to 10,000 bytes under the parse: %v", err)
	}
}

// saysWords says whether msg holds want not followed by a letter: "1 trailing byte" is
// not said by "1 trailing bytes".
func saysWords(msg, want string) bool {
	for i := strings.Index(msg, want); i >= 0; {
		if end := i + len(want); end == len(msg) || !unicode.IsLetter(rune(msg[end])) {
			return true
		}
		j := strings.Index(msg[i+1:], want)
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}
