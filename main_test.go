package ooc_test

import (
	"testing"

	"github.com/oocgraph/ooc/internal/testgraph"
)

// TestMain lists the real-graph tests that found no graph.
func TestMain(m *testing.M) { testgraph.Main(m) }
