package kcore

import (
	"testing"

	"github.com/oocgraph/ooc/internal/realgraph"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

// TestKCoreRealGraphs compares the core numbers of the four real graphs, undirected and
// directed, with Batagelj-Zaversnik's.
func TestKCoreRealGraphs(t *testing.T) {
	realgraph.Each(t, func(t *testing.T, file string, long bool) {
		for _, directed := range []bool{false, true} {
			g := realgraph.Open(t, file, directed)
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
