package kcore

import (
	"path/filepath"
	"testing"

	"github.com/oocgraph/ooc/ingest"
	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

// openReal ingests a real graph (testgraph.Real) into a temporary directory and opens it.
func openReal(t *testing.T, file string, directed bool) *store.Graph {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "g.ooc")
	if _, err := ingest.File(testgraph.Real(t, file), ingest.Options{Dest: dir, Directed: directed}); err != nil {
		t.Fatal(err)
	}
	g, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	if err := g.Check(); err != nil {
		t.Fatal(err)
	}
	return g
}

// TestKCoreRealGraphs compares the core numbers of the four real graphs, undirected and
// directed, with Batagelj-Zaversnik's.
func TestKCoreRealGraphs(t *testing.T) {
	for _, c := range []struct {
		file string
		long bool
	}{
		{"facebook_combined.txt.gz", false},
		{"luxembourg_osm.mtx.gz", false},
		{"soc-Slashdot0902.txt.gz", false},
		{"cnr-2000.txt.gz", true},
	} {
		t.Run(c.file, func(t *testing.T) {
			if c.long && testing.Short() {
				t.Skip("long; run without -short")
			}
			for _, directed := range []bool{false, true} {
				g := openReal(t, c.file, directed)
				r, err := Run(store.NewCompressed(g), Options{})
				if err != nil {
					t.Fatal(err)
				}
				kmax, err := validate.KCore(g, r.Core)
				if err != nil {
					t.Fatalf("directed=%v: %v", directed, err)
				}
				if r.MaxCore != kmax {
					t.Fatalf("directed=%v: max core %d, want %d", directed, r.MaxCore, kmax)
				}
				t.Logf("directed=%v: max core %d, %d levels, %.3f s", directed, kmax, len(r.Levels), r.Seconds)
			}
		})
	}
}
