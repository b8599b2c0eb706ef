package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/store"
)

// TestAgainUnoriented: an undirected ingest in the input's numbering whose ids reach
// orientLimit (lowered here to 1024) ingests a file, or generated edges, again without
// orientation, so that the pairs count with the duplicates; from a stream, which cannot
// be read again, it fails with one line that says what to do.
func TestAgainUnoriented(t *testing.T) {
	defer func(l uint64) { orientLimit = l }(orientLimit)
	orientLimit = 1 << 10
	// A path over 0..1999, a repeated edge, a reciprocal pair, and a pair below the limit.
	var text strings.Builder
	var edges []parse.Edge
	for v := uint64(0); v+1 < 2000; v++ {
		edges = append(edges, parse.Edge{U: v, V: v + 1})
	}
	edges = append(edges, parse.Edge{U: 5, V: 6}, parse.Edge{U: 1500, V: 1499}, parse.Edge{U: 3, V: 2})
	for _, e := range edges {
		fmt.Fprintf(&text, "%d %d\n", e.U, e.V)
	}
	path := filepath.Join(t.TempDir(), "path.txt")
	if err := os.WriteFile(path, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	check := func(what, dest string, rep *Report, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		m := rep.Manifest
		if m.ReciprocalPairs != nil || m.DuplicatesDropped != 3 || m.Edges != 2*1999 || m.Vertices != 2000 {
			t.Errorf("%s: %d edges, %d vertices, %d duplicates, %s pairs; want 3998, 2000, 3 and none counted apart",
				what, m.Edges, m.Vertices, m.DuplicatesDropped, countOrNil(m.ReciprocalPairs))
		}
		if g, err := store.Open(dest); err != nil {
			t.Errorf("%s: %v", what, err)
		} else {
			g.Close()
		}
	}
	for _, order := range []string{store.OrderInput, OrderAuto} {
		dir := t.TempDir()
		f, e := filepath.Join(dir, "f.ooc"), filepath.Join(dir, "e.ooc")
		rep, err := File(path, Options{Dest: f, Order: order})
		check("file, order "+order, f, rep, err)
		rep, err = FromEdges(Options{Dest: e, Order: order}, store.InputInfo{Name: "edges"}, parse.Header{},
			func(emit func([]parse.Edge) error) error { return emit(edges) })
		check("edges, order "+order, e, rep, err)
	}
	dest := filepath.Join(t.TempDir(), "s.ooc")
	_, err := FileFrom(bytes.NewReader([]byte(text.String())), "-", -1, Options{Dest: dest, Order: store.OrderInput})
	var oe *orientIDError
	if !errors.As(err, &oe) || !errors.Is(err, parse.ErrBadInput) || !strings.Contains(err.Error(), "--relabel") {
		t.Errorf("from a stream: %v, want the orientation limit's error", err)
	}
	if _, serr := os.Stat(dest); !os.IsNotExist(serr) {
		t.Errorf("from a stream: %s exists after the error (%v)", dest, serr)
	}
}
