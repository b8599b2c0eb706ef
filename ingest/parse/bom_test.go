package parse

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"testing"
)

// TestUTF8BOM: a text input that starts with UTF-8's byte-order mark (as Windows editors
// and spreadsheets save CSV and text) parses as the same input without it, in every
// text format, detected or given, with or without weights, from memory and from a file
// (collect), gzip-compressed too; its lines keep their numbers. A binary input reads
// those three bytes as data, and a second mark is not skipped.
func TestUTF8BOM(t *testing.T) {
	bom := string(utf8BOM)
	for _, c := range []struct {
		name, file string
		format     Format
		in         string
		weighted   bool
	}{
		{name: "snap detected", file: "e.txt", in: "# c\n0 1\n1 2\n"},
		{name: "snap given", file: "e.txt", format: FormatSNAP, in: "0 1\n1 2\n"},
		{name: "csv", file: "e.csv", in: "0,1\n1,2\n"},
		{name: "mtx detected", file: "m.txt", in: "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n"},
		{name: "mtx given", file: "m", format: FormatMTX, in: "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 1\n2 1\n"},
		{name: "dimacs detected", file: "d", in: "c x\np sp 3 2\na 1 2 7\na 2 3 9\n"},
		{name: "weighted snap", file: "w.txt", in: "0 1 5\n1 2 6\n", weighted: true},
		{name: "weighted mtx real", file: "w.mtx", in: "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 1.5\n", weighted: true},
		{name: "weighted dimacs", file: "w.gr", in: "p sp 3 1\na 1 2 7\n", weighted: true},
	} {
		for _, gz := range []bool{false, true} {
			enc := func(s string) []byte {
				if gz {
					return []byte(gzipped(s))
				}
				return []byte(s)
			}
			name := fmt.Sprintf("%s gzip %v", c.name, gz)
			opt := ParseOptions{Format: c.format, Name: c.file, Workers: 2}
			if c.weighted {
				want, wres, werr := parseWeightedOpt(enc(c.in), opt)
				got, gres, gerr := parseWeightedOpt(enc(bom+c.in), opt)
				if werr != nil || gerr != nil || !slices.Equal(got, want) || gres.Format != wres.Format || gres.FloatWeights != wres.FloatWeights {
					t.Errorf("%s: with the mark %v %+v (%v), without %v %+v (%v)", name, got, gres, gerr, want, wres, werr)
				}
				fw, err := FloatWeightsIn(bytes.NewReader(enc(bom+c.in)), opt)
				if err != nil || fw != wres.FloatWeights {
					t.Errorf("%s: FloatWeightsIn %v (%v), want %v", name, fw, err, wres.FloatWeights)
				}
				continue
			}
			want, wres, werr := collect(bytes.NewReader(enc(c.in)), opt)
			got, gres, gerr := collect(bytes.NewReader(enc(bom+c.in)), opt)
			if werr != nil || gerr != nil || !slices.Equal(got, want) || gres.Format != wres.Format || gres.Lines != wres.Lines || gres.Header != wres.Header {
				t.Errorf("%s: with the mark %v %+v (%v), without %v %+v (%v)", name, got, gres, gerr, want, wres, werr)
			}
		}
	}
	// a bad line after the mark keeps its number
	if _, _, err := collect(bytes.NewReader([]byte(bom+"0 1\nx y\n")), ParseOptions{Name: "e.txt"}); err == nil || err.(*ParseError).Line != 2 {
		t.Errorf("a bad second line after the mark: %v, want line 2", err)
	}
	if _, _, err := collect(bytes.NewReader([]byte(bom+bom+"0 1\n")), ParseOptions{Name: "e.txt"}); err == nil {
		t.Error("two marks: parsed, want the second refused")
	}
	// bin32: the mark's bytes and the next are the first id
	in := binary.LittleEndian.AppendUint32(nil, 0x01bfbbef)
	in = binary.LittleEndian.AppendUint32(in, 7)
	got, _, err := collect(bytes.NewReader(in), ParseOptions{Format: FormatBin32, Name: "e.bin32"})
	if err != nil || !slices.Equal(got, []Edge{{U: 0x01bfbbef, V: 7}}) {
		t.Errorf("bin32 starting with the mark's bytes: %v (%v), want one edge from 0x01bfbbef", got, err)
	}
}
