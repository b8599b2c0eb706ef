package ingest

import (
	"path/filepath"
	"testing"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/store"
)

// communities is k dense communities of size vertices each whose file ids interleave
// (vertex v belongs to community v mod k), with a few edges between them: lists that
// the file's numbering spreads over all ids and the bisection order gathers.
func communities(t *testing.T, seed uint64, k, size, degree int) []parse.Edge {
	rng, _ := seededRand(t, seed)
	var edges []parse.Edge
	n := k * size
	for v := range n {
		for range degree / 2 {
			w := (v%k + k*rng.IntN(size)) % n
			if rng.IntN(50) == 0 {
				w = rng.IntN(n)
			}
			if w != v {
				edges = append(edges, parse.Edge{U: uint64(v), V: uint64(w)})
			}
		}
	}
	return edges
}

// TestAutoBisect: the automatic order predicts from a ball that interleaved communities
// shrink in bisection order (64 of 64 vertices: their lists' gaps of about 128 in the
// file's numbering, 2 in a community's, so the prediction lands 23-28% under the file's
// order, far from the 5% the choice asks for), computes it and stores the graph in it; a random graph,
// where the ball finds nothing, keeps the degree estimate's choice without computing
// the bisection; a grid in row order (its lists 55% of a random numbering's: locality,
// not strong) is predicted larger in bisection order and kept.
func TestAutoBisect(t *testing.T) {
	grid := func(side int) []parse.Edge {
		var e []parse.Edge
		for v := range side * side {
			if (v+1)%side != 0 {
				e = append(e, parse.Edge{U: uint64(v), V: uint64(v + 1)})
			}
			if v+side < side*side {
				e = append(e, parse.Edge{U: uint64(v), V: uint64(v + side)})
			}
		}
		return e
	}
	rng, seed := seededRand(t, 75)
	for _, c := range []struct {
		name      string
		edges     []parse.Edge
		chosen    string
		computed  bool // the bisection order computed
		predicted bool
	}{
		{"communities", communities(t, seed, 64, 64, 32), store.OrderBisect, true, true},
		{"random", randomEdges(rng, 20000, 200000), "", false, true},
		{"grid", grid(200), store.OrderInput, false, true},
	} {
		opt := Options{Order: OrderAuto, Dest: filepath.Join(t.TempDir(), "g.ooc"), Workers: 2}
		rep, err := fromEdges(t, c.edges, opt, parse.Header{})
		if err != nil {
			t.Fatal(err)
		}
		e := rep.Order
		if e == nil || c.chosen != "" && e.Chosen != c.chosen || rep.Manifest.VertexOrder != e.Chosen ||
			(e.BisectBytes > 0) != c.computed || (e.BisectPredicted > 0) != c.predicted {
			t.Fatalf("seed %d, %s: estimate %+v, vertex order %q; want %q, bisection computed %v, predicted %v", seed, c.name, e, rep.Manifest.VertexOrder, c.chosen, c.computed, c.predicted)
		}
		if c.computed && (e.BisectBytes >= e.InputBytes || e.BisectPredicted >= e.InputBytes) {
			t.Errorf("seed %d, %s: bisection %d bytes (predicted %d), the file's order %d", seed, c.name, e.BisectBytes, e.BisectPredicted, e.InputBytes)
		}
		t.Logf("%s: chose %s; input %d, predicted bisection %d, bisection %d bytes", c.name, e.Chosen, e.InputBytes, e.BisectPredicted, e.BisectBytes)
		checkGraph(t, opt.Dest, reference(c.edges, opt), opt)
	}
}
