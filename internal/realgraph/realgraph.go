// Package realgraph gives tests the real graphs of testgraph.Real as open graph
// directories, ingested into the test's temporary directory. It sits above ingest, which
// testgraph cannot import: ingest's own tests import testgraph.
package realgraph

import (
	"path/filepath"
	"testing"

	"github.com/oocgraph/ooc/ingest"
	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
)

// Open ingests the real graph file (the test skips where testgraph.Real finds none),
// directed or not, opens it, checks it (store.Graph.Check) and closes it when the test
// ends.
func Open(t testing.TB, file string, directed bool) *store.Graph {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "g.ooc")
	if _, err := ingest.File(testgraph.Real(t, file), ingest.Options{Dest: dir, Directed: directed}); err != nil {
		t.Fatal(err)
	}
	g := testgraph.Open(t, dir)
	if err := g.Check(); err != nil {
		t.Fatal(err)
	}
	return g
}

// Files is the real graph files the kernels' tests check; Long marks the one that
// -short skips (cnr-2000, 3.2M edges).
var Files = []struct {
	File string
	Long bool
}{
	{"facebook_combined.txt.gz", false},
	{"luxembourg_osm.mtx.gz", false},
	{"soc-Slashdot0902.txt.gz", false},
	{"cnr-2000.txt.gz", true},
}

// Each runs check as a subtest, named for the file, on each of Files, the long one
// skipped under -short.
func Each(t *testing.T, check func(t *testing.T, file string, long bool)) {
	for _, c := range Files {
		t.Run(c.File, func(t *testing.T) {
			if c.Long && testing.Short() {
				t.Skip("long; run without -short")
			}
			check(t, c.File, c.Long)
		})
	}
}
