package ingest

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
)

// TestIngestRealGraphs ingests the four real graphs (testgraph.Real) and checks the counts of
// its MANIFEST.md: vertices, edge lines and self-loops; no file repeats an edge line, so
// a directed ingest stores exactly the lines that are not self-loops, and an undirected
// one stores each remaining edge both ways once reciprocal pairs are merged.
func TestIngestRealGraphs(t *testing.T) {
	t.Parallel()
	for _, g := range []struct {
		file            string
		vertices, lines uint64
		loops           uint64
		idBase          uint32
		symmetric       bool // each pair listed once: undirected edges = 2 * lines
	}{
		{"facebook_combined.txt.gz", 4039, 88234, 0, 0, true},
		{"soc-Slashdot0902.txt.gz", 82168, 948464, 78303, 0, false},
		{"cnr-2000.txt.gz", 325557, 3216152, 87442, 0, false},
		{"luxembourg_osm.mtx.gz", 114599, 119666, 0, 1, true},
	} {
		t.Run(g.file, func(t *testing.T) {
			if testing.Short() && g.lines > 1e6 {
				t.Skip("large graph in -short")
			}
			path := testgraph.Real(t, g.file)
			for _, directed := range []bool{false, true} {
				opt := Options{Dest: filepath.Join(t.TempDir(), "g.ooc"), Directed: directed}
				rep, err := File(path, opt)
				if err != nil {
					t.Fatal(err)
				}
				m := rep.Manifest
				if uint64(m.Vertices) != g.vertices || m.InputEdges != g.lines || m.SelfLoopsDropped != g.loops || m.IDBase != g.idBase {
					t.Errorf("directed %v: %d vertices, %d lines, %d self-loops, id base %d; want %d %d %d %d", directed,
						m.Vertices, m.InputEdges, m.SelfLoopsDropped, m.IDBase, g.vertices, g.lines, g.loops, g.idBase)
				}
				kept := g.lines - g.loops
				switch {
				case directed && g.symmetric && g.file == "luxembourg_osm.mtx.gz":
					// A symmetric MatrixMarket file stands for both directions.
					if m.Edges != 2*kept || m.DuplicatesDropped != 0 {
						t.Errorf("directed symmetric: %d edges, %d duplicates; want %d, 0", m.Edges, m.DuplicatesDropped, 2*kept)
					}
				case directed:
					if m.Edges != kept || m.DuplicatesDropped != 0 {
						t.Errorf("directed: %d edges, %d duplicates; want %d, 0", m.Edges, m.DuplicatesDropped, kept)
					}
				case g.symmetric:
					if m.Edges != 2*kept || m.DuplicatesDropped != 0 {
						t.Errorf("undirected: %d edges, %d duplicates; want %d, 0", m.Edges, m.DuplicatesDropped, 2*kept)
					}
				default:
					// no line repeats: all that merges is reciprocal pairs
					if m.DuplicatesDropped != 0 || m.ReciprocalPairs == nil || m.Edges+2**m.ReciprocalPairs != 2*kept {
						t.Errorf("undirected: %d edges, %d duplicates, %s reciprocal pairs; want 0 duplicates and edges + 2 * pairs = 2 * %d kept lines",
							m.Edges, m.DuplicatesDropped, countOrNil(m.ReciprocalPairs), kept)
					}
				}
				if _, err := store.Verify(opt.Dest); err != nil {
					t.Fatal(err)
				}
				t.Logf("directed %v: %d edges, %.2f bits per directed edge, %.2fs", directed, m.Edges,
					8*float64(m.Bytes)/float64(m.Edges)/float64(1+btoi(directed)), rep.Seconds)
			}
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestReciprocalPairsReal counts the reciprocal pairs and repeated lines of soc-Slashdot0902
// (a directed file) the plain way, from a set of its lines, and checks what an undirected
// ingest reports, in the input order and in the degree order (whose replay renumbers the
// ids), and on one worker with tiny chunks and tasks. -short (CI's race run) leaves it to
// the plain run: its reference, a set of 900,000 lines on one goroutine, is most of its
// time under the race detector, and the merge it checks runs under the detector in every
// checkGraph of a random graph (TestRoundTrip, TestDeterministic's options), which counts
// the reciprocal pairs of its reference.
func TestReciprocalPairsReal(t *testing.T) {
	if testing.Short() {
		t.Skip("the plain run checks it (see above)")
	}
	t.Parallel()
	path := testgraph.Real(t, "soc-Slashdot0902.txt.gz")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	lines := map[[2]uint64]bool{}
	var repeats, pairs uint64
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		var u, v uint64
		if n, _ := fmt.Sscan(sc.Text(), &u, &v); n != 2 || u == v { // comments, self-loops
			continue
		}
		switch {
		case lines[[2]uint64{u, v}]:
			repeats++
		case lines[[2]uint64{v, u}]:
			pairs++
		}
		lines[[2]uint64{u, v}] = true
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d distinct lines, %d repeated, %d reciprocal pairs", len(lines), repeats, pairs)
	for _, opt := range []Options{{Order: store.OrderInput}, {Order: store.OrderDegree}, {Order: store.OrderInput, Workers: 1, chunkKeys: 1 << 16, taskKeys: 1 << 14}} {
		opt.Dest = filepath.Join(t.TempDir(), "g.ooc")
		rep, err := File(path, opt)
		if err != nil {
			t.Fatal(err)
		}
		m := rep.Manifest
		if m.DuplicatesDropped != repeats || m.ReciprocalPairs == nil || *m.ReciprocalPairs != pairs {
			t.Errorf("order %s, %d workers: %d duplicates, %s reciprocal pairs; want %d and %d", opt.Order, opt.Workers,
				m.DuplicatesDropped, countOrNil(m.ReciprocalPairs), repeats, pairs)
		}
	}
}
