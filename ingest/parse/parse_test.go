package parse

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/iotest"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/oocgraph/ooc/internal/testgraph"
)

var update = flag.Bool("update", false, "rewrite the compressed fixtures in testdata/inputs from the plain ones")

// collect parses r and returns the edges sorted, so that results of
// different worker counts compare equal. An r in memory (strings.Reader,
// bytes.Reader) is parsed a second time from a file, which the workers read
// at their own offsets (runAt), and both outcomes must agree.
func collect(r io.Reader, opt ParseOptions) ([]Edge, *ParseResult, error) {
	switch r.(type) {
	case *strings.Reader, *bytes.Reader:
		data, err := io.ReadAll(r)
		if err != nil {
			return nil, nil, err
		}
		all, res, err := collectOnce(bytes.NewReader(data), opt)
		if ferr := sameFromFile(data, opt, all, res, err); ferr != nil {
			return nil, nil, ferr
		}
		return all, res, err
	}
	return collectOnce(r, opt)
}

// sameFromFile parses data from a file and compares the outcome with a parse from
// memory.
func sameFromFile(data []byte, opt ParseOptions, all []Edge, res *ParseResult, err error) error {
	f, ferr := os.CreateTemp("", "ooc-parse-*")
	if ferr != nil {
		return ferr
	}
	defer os.Remove(f.Name())
	defer f.Close()
	if _, ferr := f.Write(data); ferr != nil {
		return ferr
	}
	if _, ferr := f.Seek(0, io.SeekStart); ferr != nil {
		return ferr
	}
	fall, fres, ferr := collectOnce(f, opt)
	switch {
	case (err == nil) != (ferr == nil) || err != nil && err.Error() != ferr.Error():
		return fmt.Errorf("from a file, error %v; from memory %v", ferr, err)
	case err != nil: // the edges emitted before an error depend on the workers' timing
	case !slices.Equal(all, fall):
		return fmt.Errorf("from a file, %d edges; from memory %d", len(fall), len(all))
	case *res != *fres:
		return fmt.Errorf("from a file, result %+v; from memory %+v", *fres, *res)
	}
	return nil
}

func collectOnce(r io.Reader, opt ParseOptions) ([]Edge, *ParseResult, error) {
	var mu sync.Mutex
	var all []Edge
	res, err := Parse(r, opt, func(b []Edge) error {
		mu.Lock()
		all = append(all, b...)
		mu.Unlock()
		return nil
	})
	sortEdges(all)
	return all, res, err
}

func sortEdges(e []Edge) {
	slices.SortFunc(e, func(a, b Edge) int {
		if a.U != b.U {
			return cmpU64(a.U, b.U)
		}
		return cmpU64(a.V, b.V)
	})
}

func cmpU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// edges builds a sorted edge list from u, v pairs.
func edges(pairs ...uint64) []Edge {
	var e []Edge
	for i := 0; i+1 < len(pairs); i += 2 {
		e = append(e, Edge{pairs[i], pairs[i+1]})
	}
	sortEdges(e)
	return e
}

// withBlockSize shrinks the block size for one test.
func withBlockSize(t testing.TB, n int) {
	old := blockSize
	blockSize = n
	t.Cleanup(func() { blockSize = old })
}

var fixtures = []struct {
	file   string
	format Format
	edges  []Edge
	header Header
	lines  uint64
}{
	{"snap_basic.txt", FormatSNAP, edges(0, 1, 0, 2, 1, 3, 2, 4, 3, 4, 4, 5, 5, 0), Header{}, 11},
	{"snap_crlf.txt", FormatSNAP, edges(0, 1, 1, 2, 2, 3), Header{}, 5},
	{"mtx_general.mtx", FormatMTX, edges(0, 1, 1, 2, 2, 3, 3, 4, 0, 0), Header{Vertices: 5, Entries: 5, IDBase: 1}, 9},
	{"mtx_symmetric.mtx", FormatMTX, edges(1, 0, 2, 0, 2, 1), Header{Vertices: 3, Entries: 3, Symmetric: true, IDBase: 1}, 5},
	{"dimacs.gr", FormatDIMACS, edges(0, 1, 1, 2, 2, 3, 3, 0, 0, 2), Header{Vertices: 4, Entries: 5, IDBase: 1}, 10},
	{"edges.bin32", FormatBin32, edges(0, 1, 1, 2, 2, 3, 3, 0, 7, 2), Header{}, 0},
	{"edges.bin64", FormatBin64, edges(0, 1, 1, 2, 2, 3, 3, 0, 7, 2, 1<<40, 3), Header{}, 0},
}

// compressions are the fixture variants: plain, and each compressor's
// output kept byte-exact in testdata (rewritten by -update).
var compressions = []struct{ ext, name string }{{"", ""}, {".gz", "gzip"}, {".zst", "zstd"}}

func TestFixtures(t *testing.T) {
	for _, fx := range fixtures {
		for _, c := range compressions {
			name := fx.file + c.ext
			t.Run(name, func(t *testing.T) {
				data, err := os.ReadFile(filepath.Join("testdata/inputs", name))
				if err != nil {
					t.Fatal(err)
				}
				// By name (extension helps), and as stdin: content only, a
				// reader returning one byte at a time like a slow pipe.
				f, err := os.Open(filepath.Join("testdata/inputs", name))
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				// And as the file itself.
				readers := map[string]io.Reader{
					name:               bytes.NewReader(data),
					"-":                iotest.OneByteReader(bytes.NewReader(data)),
					"testdata/" + name: f,
				}
				for as, r := range readers {
					opt := ParseOptions{Name: as, Workers: 3}
					if as == "-" && strings.HasPrefix(string(fx.format), "bin") {
						opt.Format = fx.format
					}
					got, res, err := collect(r, opt)
					if err != nil {
						t.Fatalf("as %q: %v", as, err)
					}
					if !slices.Equal(got, fx.edges) {
						t.Errorf("as %q: edges %v, want %v", as, got, fx.edges)
					}
					if res.Format != fx.format || res.Header != fx.header || res.Compression != c.name {
						t.Errorf("as %q: format %q header %+v compression %q, want %q %+v %q",
							as, res.Format, res.Header, res.Compression, fx.format, fx.header, c.name)
					}
					if res.Lines != fx.lines || res.Edges != uint64(len(fx.edges)) || res.InBytes != int64(len(data)) {
						t.Errorf("as %q: lines %d edges %d in %d, want %d %d %d",
							as, res.Lines, res.Edges, res.InBytes, fx.lines, len(fx.edges), len(data))
					}
				}
			})
		}
	}
}

// TestFixturesCompressed checks that each .gz and .zst fixture holds its
// plain twin, or rewrites them with -update.
func TestFixturesCompressed(t *testing.T) {
	for _, fx := range fixtures {
		plain, err := os.ReadFile(filepath.Join("testdata/inputs", fx.file))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range compressions[1:] {
			path := filepath.Join("testdata/inputs", fx.file+c.ext)
			if *update {
				writeFile(t, path, compress(t, c.name, plain))
				continue
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := decompressAll(t, c.name, data); !bytes.Equal(got, plain) {
				t.Errorf("%s does not hold %s", path, fx.file)
			}
		}
	}
	if *update {
		// Truncated streams: the first half of each compressed fixture.
		for _, c := range compressions[1:] {
			whole := compress(t, c.name, bytes.Repeat([]byte("1 2\n3 4\n"), 1000))
			writeFile(t, filepath.Join("testdata/inputs", "truncated.txt"+c.ext), whole[:len(whole)/2])
		}
	}
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func compress(t testing.TB, how string, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w io.WriteCloser
	switch how {
	case "gzip":
		w = gzip.NewWriter(&buf)
	case "zstd":
		zw, err := zstd.NewWriter(&buf)
		if err != nil {
			t.Fatal(err)
		}
		w = zw
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func decompressAll(t *testing.T, how string, data []byte) []byte {
	t.Helper()
	var r io.Reader
	var err error
	switch how {
	case "gzip":
		r, err = gzip.NewReader(bytes.NewReader(data))
	case "zstd":
		r, err = zstd.NewReader(bytes.NewReader(data))
	}
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestParseFormatsInline(t *testing.T) {
	tests := []struct {
		name, in string
		opt      ParseOptions
		want     []Edge
	}{
		{"snap spaces", "1 2\n3   4\n", ParseOptions{}, edges(1, 2, 3, 4)},
		{"snap no final newline", "1 2\n3 4", ParseOptions{}, edges(1, 2, 3, 4)},
		{"snap comma no blanks", "10,20\n", ParseOptions{}, edges(10, 20)},
		{"snap tab comma tab", "10\t,\t20\n", ParseOptions{}, edges(10, 20)},
		{"snap extra columns", "1 2 3 4 5\n6 7,8\n", ParseOptions{}, edges(1, 2, 6, 7)},
		{"snap crlf no final newline", "1 2\r\n3 4\r", ParseOptions{}, edges(1, 2, 3, 4)},
		{"snap leading zeros", "007 0010\n", ParseOptions{}, edges(7, 10)},
		{"snap max uint64", "18446744073709551615 0\n", ParseOptions{}, edges(math.MaxUint64, 0)},
		{"snap at maxid", "4294967294 0\n", ParseOptions{MaxID: 1<<32 - 2}, edges(1<<32-2, 0)},
		{"snap blank and comment only lines between", "\n\n# c\n1 2\n   \n%x\n", ParseOptions{}, edges(1, 2)},
		{"mtx integer skew", "%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 -4\n", ParseOptions{}, edges(1, 0)},
		{"mtx uppercase banner", "%%MatrixMarket MATRIX Coordinate Pattern General\n2 3 1\n2 3\n", ParseOptions{}, edges(1, 2)},
		{"mtx crlf", "%%MatrixMarket matrix coordinate pattern general\r\n2 2 1\r\n1 2\r\n", ParseOptions{}, edges(0, 1)},
		{"mtx by extension", "%%MatrixMarket matrix coordinate pattern general\n1 1 1\n1 1\n", ParseOptions{Name: "m.MTX"}, edges(0, 0)},
		{"gr p first", "p sp 2 1\na 2 1 9\n", ParseOptions{}, edges(1, 0)},
		{"gr no weight", "p sp 2 1\na 1 2\n", ParseOptions{}, edges(0, 1)},
		{"gr by extension", "p sp 2 1\n\na\t1\t2\t3\n", ParseOptions{Name: "x.gr.gz"}, edges(0, 1)},
		{"gr at maxid", "p sp 4294967295 1\na 4294967295 1 1\n", ParseOptions{MaxID: 1<<32 - 2}, edges(1<<32-2, 0)},
		{"forced snap", "5 6\n", ParseOptions{Format: FormatSNAP, Name: "x.mtx"}, edges(5, 6)},
		{"bin32 max relabel", "\xff\xff\xff\xff\x01\x00\x00\x00", ParseOptions{Format: FormatBin32}, edges(math.MaxUint32, 1)},
		// a star on vertex 0 in bin32: every second id 0, which a .bin32 name or an odd
		// count of pairs tells from bin64 content read as bin32
		{"bin32 star named", "\x01\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00", ParseOptions{Format: FormatBin32, Name: "star.bin32.gz"}, edges(1, 0, 2, 0)},
		{"bin32 star by extension", "\x01\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00", ParseOptions{Name: "star.bin32"}, edges(1, 0, 2, 0)},
		{"bin32 star of odd pairs", "\x01\x00\x00\x00\x00\x00\x00\x00", ParseOptions{Format: FormatBin32}, edges(1, 0)},
		{"bin32 star width meant", "\x01\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00", ParseOptions{Format: FormatBin32, Name: "-", WidthMeant: true}, edges(1, 0, 2, 0)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _, err := collect(strings.NewReader(tc.in), tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("edges %v, want %v", got, tc.want)
			}
		})
	}
}

// genSNAP writes n pseudo-random edges as SNAP text with comments, blank
// lines and mixed separators scattered in, and returns the expected edges.
func genSNAP(seed uint64, n int, maxID uint64) ([]byte, []Edge) {
	var buf bytes.Buffer
	want := make([]Edge, 0, n)
	x := seed | 1
	next := func() uint64 { // xorshift64: deterministic, no dependency
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return x
	}
	seps := []string{" ", "\t", ",", " , ", "  "}
	ends := []string{"\n", "\r\n", " 1.0\n", "\t7\n"}
	for len(want) < n {
		r := next()
		switch r % 16 {
		case 0:
			buf.WriteString("# comment line\n")
			continue
		case 1:
			buf.WriteString("\n")
			continue
		}
		u, v := next()%maxID, next()%maxID
		fmt.Fprintf(&buf, "%d%s%d%s", u, seps[r>>8%5], v, ends[r>>16%4])
		want = append(want, Edge{u, v})
	}
	sortEdges(want)
	return buf.Bytes(), want
}

// TestWorkersAndBlocks is metamorphic: the same input gives the same edge
// multiset whatever the worker count and block size, plain or compressed. Under
// -short (CI's race run, where a block of one byte costs 40 times as much) the input
// is a tenth as long: still about 2,000 blocks at the smallest sizes.
func TestWorkersAndBlocks(t *testing.T) {
	const seed = 42
	n := 20000
	if testing.Short() {
		n = 2000
	}
	data, want := genSNAP(seed, n, 1<<40)
	gz := compress(t, "gzip", data)
	for _, bs := range []int{1, 7, 64, 4096, 4 << 20} {
		for _, workers := range []int{1, 2, 8} {
			for _, in := range [][]byte{data, gz} {
				withBlockSize(t, bs)
				got, res, err := collect(bytes.NewReader(in), ParseOptions{Workers: workers})
				if err != nil {
					t.Fatalf("seed %d block %d workers %d: %v", seed, bs, workers, err)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("seed %d block %d workers %d: %d edges differ from the %d expected", seed, bs, workers, len(got), len(want))
				}
				if res.RawBytes != int64(len(data)) || res.Lines != uint64(bytes.Count(data, []byte("\n"))) {
					t.Fatalf("seed %d block %d workers %d: raw %d lines %d", seed, bs, workers, res.RawBytes, res.Lines)
				}
			}
		}
	}
}

// TestErrorLineAcrossBlocks puts one bad line at each position of a file and
// checks the reported line for tiny blocks and many workers, in each text
// format (whose headers shift the body's line numbers).
func TestErrorLineAcrossBlocks(t *testing.T) {
	formats := []struct {
		header []string
		line   func(i int) string
	}{
		{nil, func(i int) string { return fmt.Sprintf("%d %d", i, i+1) }},
		{[]string{"%%MatrixMarket matrix coordinate pattern general", "% c", "100 100 60"},
			func(i int) string { return fmt.Sprintf("%d %d", i+1, i+2) }},
		{[]string{"c x", "p sp 100 60"}, func(i int) string { return fmt.Sprintf("a %d %d 1", i+1, i+2) }},
	}
	for _, f := range formats {
		lines := make([]string, 60)
		for i := range lines {
			lines[i] = f.line(i)
		}
		for bad := range lines {
			in := slices.Clone(lines)
			in[bad] = "1 x"
			in[len(in)-1] = "2 y" // a later error must never win
			text := strings.Join(append(slices.Clone(f.header), in...), "\n")
			want := int64(len(f.header) + bad + 1)
			for _, bs := range []int{3, 16, 100} {
				withBlockSize(t, bs)
				_, _, err := collect(strings.NewReader(text), ParseOptions{Workers: 4, Name: "f"})
				var pe *ParseError
				if !errors.As(err, &pe) || pe.Line != want {
					t.Fatalf("%s: bad line %d, block %d: got %v", f.header, want, bs, err)
				}
			}
		}
	}
}

// TestLongLineAcrossBlocks checks the line of a too long line wherever the
// block boundaries fall, and that shorter lines pass.
func TestLongLineAcrossBlocks(t *testing.T) {
	old := maxLineLen
	maxLineLen = 40
	defer func() { maxLineLen = old }()
	long := "1 2 " + strings.Repeat("9", 40)
	for pos := range 12 {
		lines := slices.Repeat([]string{"1 2 " + strings.Repeat("9", 30)}, 12)
		lines[pos] = long
		for _, bs := range []int{1, 5, 64, 1 << 20} {
			withBlockSize(t, bs)
			_, _, err := collect(strings.NewReader(strings.Join(lines, "\n")), ParseOptions{Workers: 3})
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != int64(pos+1) || !strings.Contains(pe.Msg, "longer than 40") {
				t.Fatalf("long line %d, block %d: got %v", pos+1, bs, err)
			}
		}
	}
}

func TestProgressAndCounts(t *testing.T) {
	data, want := genSNAP(7, 5000, 1000)
	for _, in := range [][]byte{data, compress(t, "zstd", data)} {
		var mu sync.Mutex
		var total int64
		res, err := ParseOnly(bytes.NewReader(in), ParseOptions{Progress: func(n int64) {
			mu.Lock()
			total += n
			mu.Unlock()
		}})
		if err != nil {
			t.Fatal(err)
		}
		if total != int64(len(in)) || res.InBytes != total || res.RawBytes != int64(len(data)) || res.Edges != uint64(len(want)) {
			t.Errorf("progress %d in %d raw %d edges %d; want %d %d %d %d",
				total, res.InBytes, res.RawBytes, res.Edges, len(in), len(in), len(data), len(want))
		}
	}
}

// TestFileAtOffset parses a file from its current offset, as the workers that read it
// at their own offsets must, with the progress bar hearing of every byte once.
func TestFileAtOffset(t *testing.T) {
	data, want := genSNAP(11, 20000, 5000)
	junk := []byte("not an edge list\x00\x01\n")
	path := filepath.Join(t.TempDir(), "in.txt")
	if err := os.WriteFile(path, append(slices.Clone(junk), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, bs := range []int{5, 4096, 1 << 20} {
		withBlockSize(t, bs)
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Seek(int64(len(junk)), io.SeekStart); err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var total int64
		got, res, err := collectOnce(f, ParseOptions{Workers: 4, Progress: func(n int64) {
			mu.Lock()
			total += n
			mu.Unlock()
		}})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		sortEdges(want)
		if !slices.Equal(got, want) || total != int64(len(data)) || res.InBytes != total || res.RawBytes != total {
			t.Fatalf("block %d: %d edges (want %d), progress %d in %d raw %d (want %d)",
				bs, len(got), len(want), total, res.InBytes, res.RawBytes, len(data))
		}
	}
}

func TestEmitError(t *testing.T) {
	data, _ := genSNAP(3, 300000, 1000)
	stop := errors.New("disk full")
	var calls sync.Map
	_, err := Parse(bytes.NewReader(data), ParseOptions{Workers: 4}, func(b []Edge) error {
		calls.Store(len(b), true)
		return stop
	})
	if err != stop {
		t.Fatalf("got %v, want the emit error itself", err)
	}
}

func TestIOErrorIsNotBadInput(t *testing.T) {
	broken := errors.New("device gone")
	r := io.MultiReader(strings.NewReader("1 2\n"), iotest.ErrReader(broken))
	_, _, err := collect(r, ParseOptions{})
	if !errors.Is(err, broken) || errors.Is(err, ErrBadInput) {
		t.Fatalf("got %v, want the read error, not bad input", err)
	}
}

// TestRealGraphs parses the real graphs (testgraph.Real) and checks the counts that
// shared/data/MANIFEST.md publishes.
func TestRealGraphs(t *testing.T) {
	tests := []struct {
		file     string
		format   Format
		edges    uint64
		vertices uint64 // the largest 0-based id + 1
	}{
		{"facebook_combined.txt.gz", FormatSNAP, 88234, 4039},
		{"soc-Slashdot0902.txt.gz", FormatSNAP, 948464, 82168},
		{"cnr-2000.txt.gz", FormatSNAP, 3216152, 325557},
		{"luxembourg_osm.mtx.gz", FormatMTX, 119666, 114599},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			if testing.Short() && tc.edges > 1e6 {
				t.Skip("large in -short")
			}
			f, err := os.Open(testgraph.Real(t, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var mu sync.Mutex
			var top uint64
			res, err := Parse(f, ParseOptions{Name: tc.file, MaxID: 1<<32 - 2}, func(b []Edge) error {
				m := uint64(0)
				for _, e := range b {
					m = max(m, e.U, e.V)
				}
				mu.Lock()
				top = max(top, m)
				mu.Unlock()
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Format != tc.format || res.Edges != tc.edges || res.Compression != "gzip" || top+1 != tc.vertices {
				t.Errorf("format %s, %d edges, %s, largest id %d; want %s, %d, gzip, %d",
					res.Format, res.Edges, res.Compression, top, tc.format, tc.edges, tc.vertices-1)
			}
			if tc.format == FormatMTX && (res.Header.Vertices != tc.vertices || !res.Header.Symmetric) {
				t.Errorf("header %+v", res.Header)
			}
		})
	}
}

func TestGzipMembersAndEmptyStreams(t *testing.T) {
	two := append(compress(t, "gzip", []byte("1 2\n")), compress(t, "gzip", []byte("3 4\n"))...)
	got, _, err := collect(bytes.NewReader(two), ParseOptions{})
	if err != nil || !slices.Equal(got, edges(1, 2, 3, 4)) {
		t.Errorf("concatenated gzip members: %v %v", got, err)
	}
	for _, how := range []string{"gzip", "zstd"} {
		_, _, err := collect(bytes.NewReader(compress(t, how, nil)), ParseOptions{Name: "e"})
		if !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "no edges") {
			t.Errorf("empty %s stream: %v", how, err)
		}
	}
}

func TestBatchSizeBound(t *testing.T) {
	data, want := genSNAP(11, 3*BatchSize+5, 1<<20)
	var mu sync.Mutex
	n := 0
	_, err := Parse(bytes.NewReader(data), ParseOptions{Workers: 2}, func(b []Edge) error {
		if len(b) == 0 || len(b) > BatchSize {
			t.Errorf("batch of %d edges", len(b))
		}
		mu.Lock()
		n += len(b)
		mu.Unlock()
		return nil
	})
	if err != nil || n != len(want) {
		t.Fatalf("%d edges, want %d: %v", n, len(want), err)
	}
}

func TestParseFormat(t *testing.T) {
	for in, want := range map[string]Format{"snap": FormatSNAP, "mtx": FormatMTX, "gr": FormatDIMACS,
		"dimacs": FormatDIMACS, "bin32": FormatBin32, "bin64": FormatBin64, "parquet": FormatParquet, "": ""} {
		if got, err := ParseFormat(in); err != nil || got != want {
			t.Errorf("ParseFormat(%q) = %q, %v", in, got, err)
		}
	}
	// Names are lower case, as every enumerated flag value is (--order, --backend).
	for _, in := range []string{"csv", "SNAP", "Mtx", "GR", "DIMACS", "Bin32", "BIN64"} {
		if _, err := ParseFormat(in); !errors.Is(err, ErrBadInput) {
			t.Errorf("ParseFormat(%q): %v, want ErrBadInput", in, err)
		}
		// Parse is refused up front, not left to workers without a line parser.
		_, err := ParseOnly(strings.NewReader("1 2\n3 4\n"), ParseOptions{Format: Format(in), Workers: 2})
		if !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "unknown format") {
			t.Errorf("Parse with Format %q: %v, want unknown format", in, err)
		}
	}
}

func TestLinesCount(t *testing.T) {
	for in, want := range map[string]uint64{"1 2": 1, "1 2\n": 1, "1 2\n\n3 4": 3, "#c\r\n1 2\r\n": 2,
		"%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2": 3} {
		for _, bs := range []int{2, 1 << 20} {
			withBlockSize(t, bs)
			_, res, err := collect(strings.NewReader(in), ParseOptions{Workers: 2})
			if err != nil || res.Lines != want {
				t.Errorf("%q, block %d: %d lines, want %d (%v)", in, bs, res.Lines, want, err)
			}
		}
	}
}

// TestNegativeWorkersRefused: Parse refuses ParseOptions.Workers below 0 or past
// maxWorkers (0 is GOMAXPROCS) before reading (a run holds a channel slot a worker), and
// takes maxWorkers.
func TestNegativeWorkersRefused(t *testing.T) {
	for _, workers := range []int{-1, maxWorkers + 1, math.MaxInt} {
		_, _, err := collect(strings.NewReader("0 1\n"), ParseOptions{Workers: workers})
		if !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), fmt.Sprintf("Workers %d", workers)) {
			t.Errorf("%v, want a refusal naming Workers %d", err, workers)
		}
	}
	if edges, _, err := collect(strings.NewReader("0 1\n1 2\n"), ParseOptions{Workers: maxWorkers}); err != nil || len(edges) != 2 {
		t.Errorf("%d workers: %d edges, %v", maxWorkers, len(edges), err)
	}
	// a negative zstd window is refused by both parsers (it took the default)
	_, err := Parse(strings.NewReader("0 1\n"), ParseOptions{MaxWindow: -1}, func([]Edge) error { return nil })
	_, werr := ParseWeighted(strings.NewReader("0 1 2\n"), ParseOptions{MaxWindow: -1}, func(WEdge) error { return nil })
	for _, e := range []error{err, werr} {
		if !errors.Is(e, ErrBadInput) || !strings.Contains(e.Error(), "MaxWindow -1") {
			t.Errorf("MaxWindow -1: %v", e)
		}
	}
}

// TestBinaryNotTakenForCompressed: binary pairs whose first id's bytes begin as a
// compressed format's magic does read as pairs, by name and by --format, in both
// widths: the detection wants the bytes a compressor writes after the magic too. gzip's
// 1f 8b (35615; with method 8 and a reserved flag, 0xe0088b1f), compress's 1f 9d
// (40223; with bits 5-6 set, 0x709d1f; with 17 bits, 0x119d1f), lz4's 04 22 4d 18
// (407708164, the next byte 1: no frame version).
func TestBinaryNotTakenForCompressed(t *testing.T) {
	for _, first := range []uint64{35615, 0xe0088b1f, 40223, 0x709d1f, 0x119d1f, 407708164} {
		want := []Edge{{U: first, V: 1}, {U: 1, V: 2}, {U: 2, V: first}}
		for _, f := range []Format{FormatBin32, FormatBin64} {
			var b []byte
			for _, e := range want {
				if f == FormatBin32 {
					b = binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(b, uint32(e.U)), uint32(e.V))
				} else {
					b = binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(b, e.U), e.V)
				}
			}
			for _, opt := range []ParseOptions{{Name: "p." + string(f)}, {Name: "-", Format: f}} {
				got, _, err := collect(bytes.NewReader(b), opt)
				w := slices.Clone(want)
				sortEdges(w)
				if err != nil || !slices.Equal(got, w) {
					t.Errorf("first id %d, %s, %+v: %v, %v; want %v", first, f, opt, got, err, w)
				}
			}
		}
	}
}
