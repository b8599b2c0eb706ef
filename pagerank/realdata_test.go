package pagerank

import (
	"testing"

	"github.com/oocgraph/ooc/internal/realgraph"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

// TestPageRankRealGraphs checks the four real graphs, undirected and directed, against
// the float64 reference of package validate (computed once per graph): within 1e-4 in L1 at tolerance 1e-5, and
// within the result's own ErrorBound at the default tolerance. Undirected, these graphs
// have no isolated vertex, so no mass leaves and the scores must sum to one.
func TestPageRankRealGraphs(t *testing.T) {
	realgraph.Each(t, func(t *testing.T, file string, long bool) {
		for _, directed := range []bool{false, true} {
			if long && !directed {
				continue // the web crawl is checked as it was crawled: directed
			}
			g := realgraph.Open(t, file, directed)
			ref, err := validate.PageRankScores(g)
			if err != nil {
				t.Fatal(err)
			}
			for _, tol := range []float64{DefaultTolerance, 1e-5} {
				r, err := Run(store.NewCompressed(g), Options{Tolerance: tol})
				if err != nil {
					t.Fatal(err)
				}
				if !r.Converged {
					t.Fatalf("directed=%v tol=%g: not converged after %d iterations", directed, tol, r.Iterations)
				}
				bound := r.ErrorBound()
				if tol == 1e-5 {
					bound = 1e-4
				}
				d := l1(r.Scores, ref)
				if d > bound {
					t.Fatalf("directed=%v tol=%g: L1 %.3g from the reference, want at most %.3g", directed, tol, d, bound)
				}
				t.Logf("directed=%v tol=%g: %d iterations, L1 %.2e from the reference (bound %.2e)", directed, tol, r.Iterations, d, bound)
				if !directed {
					var sum float64
					for _, s := range r.Scores {
						sum += float64(s)
					}
					if sum < 1-1e-3 || sum > 1+1e-3 {
						t.Errorf("undirected scores sum to %g, want 1", sum)
					}
				}
			}
		}
	})
}
