package parse

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The fuzz targets hold Parse to three properties: it never panics; it is
// deterministic (one worker with big blocks and three workers with tiny
// blocks give the same edges or the same error); and it accepts exactly what
// a plain reference parser, written from the format rules with regexp and
// strconv, accepts, with the same edges.

const fuzzMaxID = 1<<32 - 2

// A data line: two ids, a separator of blanks and at most one comma, then
// the end of the line or a separator and anything.
var (
	refPair = regexp.MustCompile(`^([0-9]+)(?:[ \t]+,?[ \t]*|,[ \t]*)([0-9]+)(?:[ \t,\r].*)?$`)
	refArc  = regexp.MustCompile(`^a[ \t]+([0-9]+)(?:[ \t]+,?[ \t]*|,[ \t]*)([0-9]+)(?:[ \t,\r].*)?$`)
)

// refIDs parses the two ids a regexp matched, or fails.
func refIDs(re *regexp.Regexp, line string) (u, v uint64, ok bool) {
	m := re.FindStringSubmatch(line)
	if m == nil {
		return 0, 0, false
	}
	u, err1 := strconv.ParseUint(m[1], 10, 64)
	v, err2 := strconv.ParseUint(m[2], 10, 64)
	return u, v, err1 == nil && err2 == nil
}

// refBody is the content of a body line, or "" for a blank one.
func refBody(line string) string { return strings.TrimLeft(line, " \t\r") }

// refBareCR says whether the first sniffLen bytes of text hold a carriage return that a
// line feed does not follow (within them), which detection refuses.
func refBareCR(in string) bool {
	head := in[:min(len(in), sniffLen)]
	for i := 0; i+1 < len(head); i++ {
		if head[i] == '\r' && head[i+1] != '\n' {
			return true
		}
	}
	return false
}

// refSNAP parses SNAP text; ok is false where Parse must fail.
func refSNAP(in string) (e []Edge, ok bool) {
	in = strings.TrimPrefix(in, "\ufeff") // a UTF-8 byte-order mark before the first line
	if strings.IndexByte(in, 0) >= 0 || refBareCR(in) {
		return nil, false
	}
	for _, line := range strings.Split(in, "\n") {
		line = refBody(line)
		if line == "" || line[0] == '#' || line[0] == '%' {
			continue
		}
		u, v, ok := refIDs(refPair, line)
		if !ok || u > fuzzMaxID || v > fuzzMaxID {
			return nil, false
		}
		e = append(e, Edge{u, v})
	}
	return e, len(e) > 0
}

// refHeader splits off the header lines that skip says to skip, returning
// the first other line and the rest.
func refHeader(lines []string, skip func(string) bool) (string, []string, bool) {
	for i, l := range lines {
		if t := strings.TrimSpace(l); !skip(t) {
			return t, lines[i+1:], true
		}
	}
	return "", nil, false
}

// refUints parses fields[from:] as uint64s.
func refUints(fields []string, from int) ([]uint64, bool) {
	var n []uint64
	for _, f := range fields[from:] {
		x, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			return nil, false
		}
		n = append(n, x)
	}
	return n, true
}

// refMTX parses MatrixMarket coordinate text.
func refMTX(in string) (e []Edge, h Header, ok bool) {
	in = strings.TrimPrefix(in, "\ufeff")
	lines := strings.Split(in, "\n")
	if strings.IndexByte(in, 0) >= 0 || in == "" || refBareCR(in) {
		return nil, h, false
	}
	b := strings.Fields(strings.ToLower(strings.TrimRight(lines[0], "\r")))
	if len(b) != 5 || b[0] != "%%matrixmarket" || b[1] != "matrix" || b[2] != "coordinate" ||
		!slices.Contains([]string{"pattern", "integer", "real", "complex"}, b[3]) ||
		!slices.Contains([]string{"general", "symmetric", "skew-symmetric", "hermitian"}, b[4]) {
		return nil, h, false
	}
	size, body, ok := refHeader(lines[1:], func(t string) bool { return t == "" || t[0] == '%' })
	f := strings.Fields(size)
	n, numeric := refUints(f, 0)
	if !ok || len(f) != 3 || !numeric {
		return nil, h, false
	}
	h = Header{Vertices: max(n[0], n[1]), Entries: n[2], Symmetric: b[4] != "general", IDBase: 1}
	if h.Vertices > fuzzMaxID+1 {
		return nil, h, false
	}
	for _, line := range body {
		line = refBody(line)
		if line == "" || line[0] == '%' {
			continue
		}
		u, v, ok := refIDs(refPair, line)
		if !ok || u == 0 || u > n[0] || v == 0 || v > n[1] {
			return nil, h, false
		}
		e = append(e, Edge{u - 1, v - 1})
	}
	return e, h, uint64(len(e)) == n[2] && (len(e) > 0 || h.Vertices > 0)
}

// refDIMACS parses DIMACS shortest-path text.
func refDIMACS(in string) (e []Edge, h Header, ok bool) {
	in = strings.TrimPrefix(in, "\ufeff")
	if strings.IndexByte(in, 0) >= 0 || refBareCR(in) {
		return nil, h, false
	}
	p, body, ok := refHeader(strings.Split(in, "\n"), func(t string) bool { return t == "" || t[0] == 'c' })
	f := strings.Fields(p)
	if !ok || len(f) != 4 || f[0] != "p" || f[1] != "sp" {
		return nil, h, false
	}
	n, numeric := refUints(f, 2)
	if !numeric || n[0] > fuzzMaxID+1 {
		return nil, h, false
	}
	h = Header{Vertices: n[0], Entries: n[1], IDBase: 1}
	for _, line := range body {
		line = refBody(line)
		if line == "" || line[0] == 'c' {
			continue
		}
		u, v, ok := refIDs(refArc, line)
		if !ok || u == 0 || u > n[0] || v == 0 || v > n[0] {
			return nil, h, false
		}
		e = append(e, Edge{u - 1, v - 1})
	}
	return e, h, uint64(len(e)) == n[1] && (len(e) > 0 || h.Vertices > 0)
}

// refBin decodes little-endian pairs of the given width.
func refBin(in []byte, width int) (e []Edge, ok bool) {
	if len(in)%(2*width) != 0 || len(in) == 0 {
		return nil, false
	}
	word := func(b []byte) uint64 {
		if width == 4 {
			return uint64(binary.LittleEndian.Uint32(b))
		}
		return binary.LittleEndian.Uint64(b)
	}
	for i := 0; i < len(in); i += 2 * width {
		u, v := word(in[i:]), word(in[i+width:])
		if u > fuzzMaxID || v > fuzzMaxID {
			return nil, false
		}
		e = append(e, Edge{u, v})
	}
	// bin32 of an even count of pairs whose second ids are all 0 reads as bin64
	// content under the name "fuzz" (not *.bin32): refused
	if width == 4 && len(e) >= 2 && len(e)%2 == 0 && !slices.ContainsFunc(e, func(x Edge) bool { return x.V != 0 }) {
		return nil, false
	}
	return e, true
}

// fuzzParse parses in with format twice, one worker with big blocks and
// three with tiny ones, and checks that both agree.
func fuzzParse(t *testing.T, in []byte, format Format) ([]Edge, *ParseResult, error) {
	opt := ParseOptions{Format: format, Name: "fuzz", MaxID: fuzzMaxID, Workers: 1}
	e1, res, err1 := collect(bytes.NewReader(in), opt)
	old := blockSize
	blockSize = 7
	opt.Workers = 3
	e2, _, err2 := collect(bytes.NewReader(in), opt)
	blockSize = old
	if (err1 == nil) != (err2 == nil) || (err1 != nil && err1.Error() != err2.Error()) {
		t.Fatalf("not deterministic: %v / %v", err1, err2)
	}
	if err1 == nil && !slices.Equal(e1, e2) {
		t.Fatalf("not deterministic: %d / %d edges", len(e1), len(e2))
	}
	return e1, res, err1
}

// checkAgainstRef compares Parse's outcome with the reference's.
func checkAgainstRef(t *testing.T, in []byte, got []Edge, err error, want []Edge, ok bool) {
	if ok != (err == nil) {
		t.Fatalf("input %q: reference ok=%v, Parse error %v", in, ok, err)
	}
	sortEdges(want)
	if ok && !slices.Equal(got, want) {
		t.Fatalf("input %q: edges %v, reference %v", in, got, want)
	}
}

// addSeeds adds the fixtures and the malformed inputs as seeds.
func addSeeds(f *testing.F, exts ...string) {
	for _, fx := range fixtures {
		if slices.Contains(exts, filepath.Ext(fx.file)) {
			data, err := os.ReadFile(filepath.Join("testdata/inputs", fx.file))
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	for _, tc := range malformedInputs {
		if len(tc.in) < 4096 && slices.Contains(exts, filepath.Ext(tc.file)) {
			f.Add([]byte(tc.in))
		}
	}
}

func FuzzParseSNAP(f *testing.F) {
	addSeeds(f, ".txt")
	f.Add([]byte("1 2\r\n\r\n 3,4 x\n\t5\t6"))
	f.Add([]byte("\ufeff1 2\n\ufeff3 4\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		got, _, err := fuzzParse(t, in, FormatSNAP)
		want, ok := refSNAP(string(in))
		checkAgainstRef(t, in, got, err, want, ok)
	})
}

func FuzzParseMTX(f *testing.F) {
	addSeeds(f, ".mtx")
	f.Add([]byte("\ufeff%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		got, res, err := fuzzParse(t, in, FormatMTX)
		want, h, ok := refMTX(string(in))
		checkAgainstRef(t, in, got, err, want, ok)
		if ok && res.Header != h {
			t.Fatalf("input %q: header %+v, reference %+v", in, res.Header, h)
		}
	})
}

func FuzzParseDIMACS(f *testing.F) {
	addSeeds(f, ".gr")
	f.Add([]byte("\ufeffp sp 2 1\na 1 2 3\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		got, res, err := fuzzParse(t, in, FormatDIMACS)
		want, h, ok := refDIMACS(string(in))
		checkAgainstRef(t, in, got, err, want, ok)
		if ok && res.Header != h {
			t.Fatalf("input %q: header %+v, reference %+v", in, res.Header, h)
		}
	})
}

func FuzzParseBin(f *testing.F) {
	addSeeds(f, ".bin32", ".bin64")
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, c := range []struct {
			format Format
			width  int
		}{{FormatBin32, 4}, {FormatBin64, 8}} {
			got, _, err := fuzzParse(t, in, c.format)
			want, ok := refBin(in, c.width)
			checkAgainstRef(t, in, got, err, want, ok)
		}
	})
}

// FuzzParseDetect feeds arbitrary bytes, possibly compressed, through
// detection: whatever comes, Parse returns and is deterministic.
func FuzzParseDetect(f *testing.F) {
	addSeeds(f, ".txt", ".mtx", ".gr", ".bin32", ".gz", ".zst")
	f.Add([]byte("\ufeff%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n"))
	f.Add([]byte("\ufeffp sp 2 1\na 1 2 3\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		fuzzParse(t, in, "")
	})
}
