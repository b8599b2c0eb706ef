package ooc_test

import (
	"path/filepath"
	"testing"

	"github.com/oocgraph/ooc"
	"github.com/oocgraph/ooc/ingest"
	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

// TestRealGraphs checks the reference answers of shared/data/MANIFEST.md (the graphs
// found by testgraph.Real): every edge taken as undirected, self-loops dropped, BFS from
// the smallest vertex id; and that the directed versions have the same weakly connected
// components.
func TestRealGraphs(t *testing.T) {
	cases := []struct {
		file                string
		vertices            uint32
		components, largest uint64
		reached             uint64
		depth               uint32
		long                bool
	}{
		{"facebook_combined.txt.gz", 4039, 1, 4039, 4039, 6, false},
		{"luxembourg_osm.mtx.gz", 114599, 1, 114599, 114599, 1034, false},
		{"soc-Slashdot0902.txt.gz", 82168, 1, 82168, 82168, 8, false},
		{"cnr-2000.txt.gz", 325557, 1, 325557, 325557, 25, true},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			if c.long && testing.Short() {
				t.Skip("long; run without -short")
			}
			path := testgraph.Real(t, c.file)
			for _, directed := range []bool{false, true} {
				dir := filepath.Join(t.TempDir(), "g.ooc")
				if _, err := ingest.File(path, ingest.Options{Dest: dir, Directed: directed}); err != nil {
					t.Fatal(err)
				}
				g, err := store.Open(dir)
				if err != nil {
					t.Fatal(err)
				}
				defer g.Close()
				if g.NumVertices() != c.vertices {
					t.Fatalf("%d vertices, want %d", g.NumVertices(), c.vertices)
				}
				e, err := ooc.Open(g, "cpu", ooc.Options{})
				if err != nil {
					t.Fatal(err)
				}
				cc, err := e.CC()
				if err != nil {
					t.Fatal(err)
				}
				if cc.Components != c.components || cc.Largest != c.largest {
					t.Errorf("directed=%v: %d components, largest %d; want %d, %d", directed, cc.Components, cc.Largest, c.components, c.largest)
				}
				if _, err := validate.CC(g, cc.Labels); err != nil {
					t.Error(err)
				}
				r, err := e.BFS(0) // the smallest id (vertex 1 of a 1-based MatrixMarket file)
				if err != nil {
					t.Fatal(err)
				}
				if err := validate.BFS(g, 0, r.Parent, r.Level); err != nil {
					t.Error(err)
				}
				if !directed && (r.Reached != c.reached || r.Depth != c.depth) {
					t.Errorf("bfs: reached %d depth %d; want %d, %d", r.Reached, r.Depth, c.reached, c.depth)
				}
			}
		})
	}
}
