package gen

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"
)

func TestWriteFormats(t *testing.T) {
	s := Spec{Kind: "kron", Scale: 9, EdgeFactor: 16, Seed: 4}
	want := sequential(t, s)
	for _, f := range []Format{Text, Bin32, Bin64} {
		var buf bytes.Buffer
		n, err := Write(&buf, s, f, 3)
		if err != nil || n != int64(buf.Len()) {
			t.Fatalf("%v: wrote %d bytes, have %d, err %v", f, n, buf.Len(), err)
		}
		got := decode(t, f, buf.Bytes())
		if len(got) != len(want) {
			t.Fatalf("%v: %d edges back, want %d", f, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%v: edge %d is %v, want %v", f, i, got[i], want[i])
			}
		}
	}
}

func decode(t *testing.T, f Format, b []byte) []Edge {
	var edges []Edge
	switch f {
	case Text:
		sc := bufio.NewScanner(bytes.NewReader(b))
		for line := 1; sc.Scan(); line++ {
			var e Edge
			if _, err := fmt.Sscanf(sc.Text(), "%d %d", &e.U, &e.V); err != nil {
				t.Fatalf("line %d %q: %v", line, sc.Text(), err)
			}
			edges = append(edges, e)
		}
	case Bin32:
		for i := 0; i+8 <= len(b); i += 8 {
			edges = append(edges, Edge{uint64(binary.LittleEndian.Uint32(b[i:])), uint64(binary.LittleEndian.Uint32(b[i+4:]))})
		}
	case Bin64:
		for i := 0; i+16 <= len(b); i += 16 {
			edges = append(edges, Edge{binary.LittleEndian.Uint64(b[i:]), binary.LittleEndian.Uint64(b[i+8:])})
		}
	}
	return edges
}

func TestParseFormat(t *testing.T) {
	for _, f := range []Format{Text, Bin32, Bin64} {
		if g, err := ParseFormat(f.String()); err != nil || g != f {
			t.Errorf("ParseFormat(%q) = %v, %v", f.String(), g, err)
		}
	}
	if _, err := ParseFormat("csv"); err == nil {
		t.Error("csv accepted")
	}
}

type failWriter struct{ left int }

func (w *failWriter) Write(p []byte) (int, error) {
	if w.left <= 0 {
		return 0, errors.New("disk full")
	}
	w.left--
	return len(p), nil
}

func TestWriteErrorStops(t *testing.T) {
	s := Spec{Kind: "urand", Scale: 18, EdgeFactor: 16}
	_, err := Write(&failWriter{left: 2}, s, Bin32, 4)
	if err == nil || err.Error() != "gen: writing edge list: disk full" {
		t.Fatalf("got %v", err)
	}
}
