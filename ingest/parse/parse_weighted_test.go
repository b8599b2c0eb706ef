package parse

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

func parseWeightedAll(in []byte, format Format, name string) ([]WEdge, *ParseResult, error) {
	var got []WEdge
	res, err := ParseWeighted(bytes.NewReader(in), ParseOptions{Format: format, Name: name, MaxID: fuzzMaxID}, func(e WEdge) error {
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
			fmt.Fprintf(&text, "%d %d %d\n", e.U, e.V, e.W)
		}
		if len(got) == 0 {
			return
		}
		again, _, err := parseWeightedAll([]byte(text.String()), FormatSNAP, "again")
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
