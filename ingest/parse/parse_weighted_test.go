package parse

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

func parseWeightedAll(in []byte, format Format, name string) ([]WEdge, *ParseResult, error) {
	return parseWeightedOpt(in, ParseOptions{Format: format, Name: name, MaxID: fuzzMaxID})
}

func parseWeightedOpt(in []byte, opt ParseOptions) ([]WEdge, *ParseResult, error) {
	var got []WEdge
	res, err := ParseWeighted(bytes.NewReader(in), opt, func(e WEdge) error {
		got = append(got, e)
		return nil
	})
	return got, res, err
}

// FuzzParseWeighted holds ParseWeighted to: no panic; a failure is a *ParseError matching
// ErrBadInput whose line lies in the input; accepted edges have ids within MaxID (and
// the header's range), and printed back as "u v w" text they parse to the same edges.
func FuzzParseWeighted(f *testing.F) {
	for _, s := range []string{
		"0 1 5\n1 2 7\n", "# c\n0,1,5\r\n", "1 2\n", "0 1 -3\n", "0 1 2.5\n", "3 4 4294967295\n",
		"p sp 3 2\na 1 2 3\na 2 3 4\n", "c x\np sp 2 1\na 1 2 0\n", "p sp 2 1\na 1 3 1\n",
		"%%MatrixMarket matrix coordinate integer symmetric\n2 2 1\n2 1 9\n",
		"%%MatrixMarket matrix coordinate real general\n% c\n3 3 2\n1 2 4.0\n3 1 1e2\n",
		"%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n",
		"%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n2 1 0.1\n3 1 -0\n3 2 1e-45\n",
		"%%MatrixMarket matrix coordinate double general\n2 2 2\n1 2 3.4028235e38\n2 1 nan\n",
		"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 -1e-50\n",
		"\ufeff0 1 5\n", "\ufeff%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 4.0\n", "\ufeffp sp 2 1\na 1 2 3\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		got, res, err := parseWeightedAll(in, "", "fuzz")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, ErrBadInput) {
				t.Fatalf("error %v (%T) is not a ParseError", err, err)
			}
			if lines := int64(bytes.Count(in, []byte("\n")) + 1); pe.Line > lines {
				t.Fatalf("error at line %d of %d: %v", pe.Line, lines, err)
			}
			return
		}
		var text strings.Builder
		for _, e := range got {
			if max(e.U, e.V) > fuzzMaxID || (res.Header.Vertices > 0 && res.Header.IDBase == 1 && max(e.U, e.V) >= res.Header.Vertices) {
				t.Fatalf("edge %v outside the ids allowed (header %+v)", e, res.Header)
			}
			w := strconv.FormatUint(uint64(e.W), 10)
			if res.FloatWeights {
				if e.W >= 0x7F800000 {
					t.Fatalf("edge %v: weight bits %#x are not a non-negative finite float32", e, e.W)
				}
				w = strconv.FormatFloat(float64(math.Float32frombits(e.W)), 'g', -1, 32)
			}
			fmt.Fprintf(&text, "%d %d %s\n", e.U, e.V, w)
		}
		if len(got) == 0 {
			return
		}
		again, _, err := parseWeightedOpt([]byte(text.String()), ParseOptions{Format: FormatSNAP, Name: "again", MaxID: fuzzMaxID, FloatWeights: res.FloatWeights})
		if err != nil || !slices.Equal(again, got) {
			t.Fatalf("round trip: %v; %d edges back of %d", err, len(again), len(got))
		}
	})
}

func TestParseWeightedCompressed(t *testing.T) {
	// gzip of "0 1 5\n1 2 6\n"
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte("0 1 5\n1 2 6\n"))
	zw.Close()
	got, res, err := parseWeightedAll(buf.Bytes(), "", "g.txt.gz")
	if err != nil || res.Compression != "gzip" || !slices.Equal(got, []WEdge{{0, 1, 5}, {1, 2, 6}}) {
		t.Fatalf("%v %v %v", got, res, err)
	}
	if _, _, err := parseWeightedAll([]byte("0 1 5\n"), FormatBin32, "g.bin"); err == nil || !strings.Contains(err.Error(), "carries no weights") {
		t.Fatalf("bin32: %v", err)
	}
}

// TestParseWeightedFloat reads float32 weights from a real MatrixMarket file and, with
// FloatWeights, from text and DIMACS: each value rounded to the nearest float32, -0 read
// as 0; an integer MatrixMarket file keeps integer weights; negative, NaN, infinite and
// too large values are refused naming their line, as is a fraction without float weights.
func TestParseWeightedFloat(t *testing.T) {
	f := func(x float32) uint32 { return math.Float32bits(x) }
	for _, c := range []struct {
		name, in string
		float    bool
		want     []WEdge
	}{
		{"g.mtx", "%%MatrixMarket matrix coordinate real general\n% c\n3 3 4\n1 2 0.1\n3 1 1e2\n2 3 -0.0\n1 3 1.5e-45\n", false,
			[]WEdge{{0, 1, f(0.1)}, {2, 0, f(100)}, {1, 2, 0}, {0, 2, 1}}},
		{"g.mtx", "%%MatrixMarket matrix coordinate double symmetric\n2 2 1\n2 1 16777217\n", false,
			[]WEdge{{1, 0, f(16777216)}}},
		{"g.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 7\n", false, []WEdge{{0, 1, 7}}},
		{"g.txt", "0 1 2.75\n1 2 3\n", true, []WEdge{{0, 1, f(2.75)}, {1, 2, f(3)}}},
		{"g.gr", "p sp 2 1\na 1 2 0.333\n", true, []WEdge{{0, 1, f(0.333)}}},
		{"g.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 7\n", true, []WEdge{{0, 1, f(7)}}},
		{"g.txt", "0 1 1e3\n1 2 +4.0\n2 0 .5e1\n", false, []WEdge{{0, 1, 1000}, {1, 2, 4}, {2, 0, 5}}},
		{"g.txt", "0 1 +2.5e+0\n1 2 .5E1\n2 0 5.\n", true, []WEdge{{0, 1, f(2.5)}, {1, 2, f(5)}, {2, 0, f(5)}}},
	} {
		got, res, err := parseWeightedOpt([]byte(c.in), ParseOptions{Name: c.name, MaxID: fuzzMaxID, FloatWeights: c.float})
		wantFloat := c.float || strings.Contains(c.in, "real") || strings.Contains(c.in, "double")
		if err != nil || res.FloatWeights != wantFloat || !slices.Equal(got, c.want) {
			t.Errorf("%q: %v %v %v, want %v float %v", c.in, got, res, err, c.want, wantFloat)
		}
		peek, err := FloatWeightsIn(strings.NewReader(c.in), ParseOptions{Name: c.name, FloatWeights: c.float})
		if err != nil || peek != wantFloat {
			t.Errorf("%q: FloatWeightsIn = %v %v, want %v", c.in, peek, err, wantFloat)
		}
	}
	const real = "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 1\n"
	for _, c := range []struct {
		in, want string
		float    bool
	}{
		{real + "2 1 -0.5\n", `g.mtx:4: negative weight -0.5`, false},
		{real + "2 1 -1e-60\n", `g.mtx:4: negative weight -1e-60`, false},
		{real + "2 1 NaN\n", `g.mtx:4: weight NaN is not a finite number`, false},
		{real + "2 1 inf\n", `g.mtx:4: weight inf is not a finite number`, false},
		{real + "2 1 1e39\n", `g.mtx:4: weight 1e39 is beyond the largest float32`, false},
		{real + "2 1 x\n", `g.mtx:4: weight "x" is not a number`, false},
		{"0 1 1\n1 2 0.5\n", `g.mtx:2: weight 0.5 is not an integer`, false},
		{"0 1 1\n1 2 -Inf\n", `g.mtx:2: weight -Inf is not a finite number`, true},
		{"0 1 1\n1 2 1_000\n", `g.mtx:2: weight "1_000" is not a number`, false},
		{"0 1 1\n1 2 1_000\n", `g.mtx:2: weight "1_000" is not a number`, true},
		{"0 1 1\n1 2 0x1p4\n", `g.mtx:2: weight "0x1p4" is not a number`, false},
		{"0 1 1\n1 2 0x1p4\n", `g.mtx:2: weight "0x1p4" is not a number`, true},
		{"0 1 1\n1 2 Infinity\n", `g.mtx:2: weight Infinity is not a finite number`, false},
		{"0 1 1\n1 2 +-1\n", `g.mtx:2: weight "+-1" is not a number`, true},
		{"0 1 1\n1 2 -+1\n", `g.mtx:2: weight "-+1" is not a number`, false},
		{"0 1 1\n1 2 -nan\n", `g.mtx:2: weight -nan is not a finite number`, false},
		{"0 1 1\n1 2 1e\n", `g.mtx:2: weight "1e" is not a number`, true},
		{"0 1 1\n1 2 1.2.3\n", `g.mtx:2: weight "1.2.3" is not a number`, true},
		{"0 1 1\n1 2 .\n", `g.mtx:2: weight "." is not a number`, false},
		{real + "2 1 1e1_0\n", `g.mtx:4: weight "1e1_0" is not a number`, false},
	} {
		format := Format("")
		if !strings.HasPrefix(c.in, "%%") {
			format = FormatSNAP
		}
		_, _, err := parseWeightedOpt([]byte(c.in), ParseOptions{Format: format, Name: "g.mtx", MaxID: fuzzMaxID, FloatWeights: c.float})
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrBadInput) {
			t.Errorf("%q: %v, want an error containing %q", c.in, err, c.want)
		}
	}
}

// TestParseWeightedLongLine: a line past the reader's 1 MiB is refused naming its line in
// the words of the unweighted parser ("line longer than" before).
func TestParseWeightedLongLine(t *testing.T) {
	in := "0 1 5\n1 2 " + strings.Repeat("7", 2<<20) + "\n"
	_, _, err := parseWeightedAll([]byte(in), FormatSNAP, "w.txt")
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || !strings.Contains(err.Error(), "line is longer than 1048576 bytes") {
		t.Errorf("%v, want w.txt line 2: line is longer than 1048576 bytes", err)
	}
}

// TestGAPBSSerializedRefused: binary content named .sg or .wsg (GAPBS's serialized
// graph, which ooc export writes) is refused by both parsers saying what it is and how
// to make an edge list of it, not as binary pairs (under which it never ingests). A
// text edge list so named reads as text.
func TestGAPBSSerializedRefused(t *testing.T) {
	sg := make([]byte, 17+8*3+4*2) // directed flag, m, n; offsets; neighbours
	sg[1], sg[9] = 2, 2
	for _, name := range []string{"g.sg", "G.WSG", "g.sg.gz"} {
		in := sg
		if strings.HasSuffix(name, ".gz") {
			var b bytes.Buffer
			zw := gzip.NewWriter(&b)
			zw.Write(sg)
			zw.Close()
			in = b.Bytes()
		}
		_, _, err := parseWeightedAll(in, "", name)
		_, uerr := Parse(bytes.NewReader(in), ParseOptions{Name: name}, func([]Edge) error { return nil })
		for _, e := range []error{err, uerr} {
			if !errors.Is(e, ErrBadInput) || !strings.Contains(e.Error(), name+": a GAPBS serialized graph") || !strings.Contains(e.Error(), "converter -f FILE -e FILE.el") {
				t.Errorf("%s: %v", name, e)
			}
		}
	}
	got, _, err := parseWeightedAll([]byte("0 1 5\n1 2 3\n"), "", "t.sg")
	if err != nil || len(got) != 2 {
		t.Errorf("text named t.sg, weighted: %v, %d edges", err, len(got))
	}
	n := 0
	if _, err := Parse(strings.NewReader("0 1\n1 2\n"), ParseOptions{Name: "t.wsg"}, func(b []Edge) error { n += len(b); return nil }); err != nil || n != 2 {
		t.Errorf("text named t.wsg: %v, %d edges", err, n)
	}
}

// TestOtherCompressionsRefused: xz, bzip2, lz4, zip, 7-Zip, compress and lzip input is
// refused by both parsers naming the format and the command that gives its content
// (the file's own name in it); the NUL bytes' refusal pointed at --format bin32 and
// bin64. Text that starts as one of the magics does not count.
func TestOtherCompressionsRefused(t *testing.T) {
	for _, c := range []struct {
		head, name, want string
	}{
		{"\xfd7zXZ\x00\x00\x04\xe6\xd6", "e.xz", "xz-compressed input: ooc ingest decompresses gzip and zstd alone; give it the content on standard input: xz -dc e.xz | ooc ingest -o NAME.ooc -"},
		{"BZh91AY&SY\x00\x01", "e.bz2", "bzip2-compressed input"},
		{"BZh9\x17\x72\x45\x38\x50\x90\x00", "e.bz2", "bzip2 -dc e.bz2 |"},
		{"\x04\x22\x4d\x18\x64\x40\xa7", "e.lz4", "lz4-compressed input"},
		{"PK\x03\x04\x14\x00", "e.zip", "a zip archive: ooc ingest"},
		{"7z\xbc\xaf\x27\x1c\x00\x04", "e.7z", "7z x -so e.7z"},
		{"\x1f\x9d\x90\x30", "e.Z", "uncompress -c e.Z"},
		{"LZIP\x01\x0c\x00", "e.lz", "lzip -dc e.lz"},
		{"\xfd7zXZ\x00\x00", "", "xz -dc FILE | ooc ingest -o NAME.ooc -"},
	} {
		in := []byte(c.head + strings.Repeat("\x00", 64))
		_, _, err := parseWeightedAll(in, "", c.name)
		_, uerr := Parse(bytes.NewReader(in), ParseOptions{Name: c.name}, func([]Edge) error { return nil })
		for _, e := range []error{err, uerr} {
			var pe *ParseError
			if !errors.As(e, &pe) || pe.Offset != 0 || !strings.Contains(e.Error(), c.want) {
				t.Errorf("%q named %q: %v, want %q at offset 0", c.head, c.name, e, c.want)
			}
		}
	}
	for _, text := range []string{"BZh 1\n", "BZh9 7\n", "PK 3\n", "LZIP 2\n"} {
		_, uerr := Parse(strings.NewReader(text), ParseOptions{Name: "t.txt"}, func([]Edge) error { return nil })
		if uerr == nil || strings.Contains(uerr.Error(), "compress") || strings.Contains(uerr.Error(), "archive") {
			t.Errorf("text %q: %v, want the line's own error", text, uerr)
		}
	}
}

// TestUTF16Refused: UTF-16 text, with a byte-order mark or without (little- or
// big-endian), plain or gzipped, is refused by both parsers at offset 0 with the iconv
// command that converts it; its NUL bytes were refused as "binary content" with
// --format bin32 or bin64 suggested. Binary pairs of small ids are not taken for it, and
// --format bin32 is not checked.
func TestUTF16Refused(t *testing.T) {
	utf16 := func(s string, be, bom bool) []byte {
		var b []byte
		if bom {
			b = append(b, 0xff, 0xfe)
			if be {
				b[0], b[1] = 0xfe, 0xff
			}
		}
		for _, c := range []byte(s) {
			if be {
				b = append(b, 0, c)
			} else {
				b = append(b, c, 0)
			}
		}
		return b
	}
	gz := func(b []byte) []byte {
		var out bytes.Buffer
		zw := gzip.NewWriter(&out)
		zw.Write(b)
		zw.Close()
		return out.Bytes()
	}
	text := "0 1\n1 2\n2 3\n3 4\n4 5\n"
	for _, c := range []struct {
		in   []byte
		name string
		want string
	}{
		{utf16(text, false, true), "u.txt", "iconv -f UTF-16 -t UTF-8 u.txt | ooc ingest -o NAME.ooc -"},
		{utf16(text, true, true), "u.txt", "iconv -f UTF-16 -t UTF-8 u.txt"},
		{utf16(text, false, false), "u.txt", "iconv -f UTF-16LE -t UTF-8 u.txt"},
		{utf16(text, true, false), "", "iconv -f UTF-16BE -t UTF-8 FILE"},
		{utf16("0 1\n", false, false), "-", "iconv -f UTF-16LE -t UTF-8 FILE"},
		{gz(utf16(text, false, false)), "u.txt.gz", "gzip -dc u.txt.gz | iconv -f UTF-16LE -t UTF-8 | ooc ingest"},
	} {
		_, _, err := parseWeightedAll(c.in, "", c.name)
		_, uerr := Parse(bytes.NewReader(c.in), ParseOptions{Name: c.name}, func([]Edge) error { return nil })
		_, serr := Parse(bytes.NewReader(c.in), ParseOptions{Name: c.name, Format: FormatSNAP}, func([]Edge) error { return nil })
		for _, e := range []error{err, uerr, serr} {
			var pe *ParseError
			if !errors.As(e, &pe) || pe.Offset != 0 || !strings.Contains(e.Error(), "UTF-16 text") || !strings.Contains(e.Error(), c.want) {
				t.Errorf("%q named %q: %v, want %q", c.in, c.name, e, c.want)
			}
		}
	}
	pairs := []byte{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0}
	n := 0
	if _, err := Parse(bytes.NewReader(pairs), ParseOptions{Name: "p.bin32"}, func(b []Edge) error { n += len(b); return nil }); err != nil || n != 2 {
		t.Errorf("bin32 pairs: %v, %d edges", err, n)
	}
	in := utf16("0 1\n1 2\n", false, false) // 16 bytes: two bin32 pairs of large ids
	if _, err := Parse(bytes.NewReader(in), ParseOptions{Name: "-", Format: FormatBin32, MaxID: math.MaxUint64}, func([]Edge) error { return nil }); err != nil && strings.Contains(err.Error(), "UTF-16") {
		t.Errorf("--format bin32: %v", err)
	}
}
