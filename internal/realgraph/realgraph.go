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
