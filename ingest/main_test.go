package ingest

import (
	"testing"

	"github.com/oocgraph/ooc/internal/testgraph"
)

// The tests that take seconds and set no package variable call t.Parallel: they run
// after the others, as many at once as -parallel allows (GOMAXPROCS by default), so
// that this package, the longest of the module's, keeps every core busy.

// TestMain lists the real-graph tests that found no graph.
func TestMain(m *testing.M) { testgraph.Main(m) }
