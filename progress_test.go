package ooc_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/oocgraph/ooc"
	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/progress"
)

// TestProgress runs PageRank, k-core and SSSP on every backend this build has, with a
// progress writer that draws every step, and checks that each run drew its steps on one
// line and erased it: the CPU a draw per iteration, level or bin, the GPU at least one
// (it reports per batch of steps).
func TestProgress(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	var edges []parse.WEdge
	for v := range uint64(2000) {
		for range 1 + r.IntN(6) {
			edges = append(edges, parse.WEdge{U: v, V: r.Uint64N(2000), W: 1 + r.Uint32N(50)})
		}
	}
	g := ingestWeighted(t, edges, false, 0)
	for _, backend := range []string{"cpu", "gpu"} {
		var b strings.Builder
		e, err := ooc.Open(g, backend, ooc.Options{Progress: progress.Immediate(&b)})
		if errors.Is(err, ooc.ErrNoBackend) {
			t.Logf("%s: %v", backend, err)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		// check takes the output of one run, which drew steps times on the CPU.
		check := func(name string, steps int) {
			t.Helper()
			s := b.String()
			b.Reset()
			draws := strings.Count(s, "\r"+name+": ")
			if (backend == "cpu" && draws != steps) || draws < 1 {
				t.Errorf("%s %s: %d draws for %d steps: %q", backend, name, draws, steps, s)
			}
			if !strings.HasSuffix(s, " \r") || strings.Count(s, "\r") != draws+2 {
				t.Errorf("%s %s: the line is not erased at the end: %q", backend, name, s)
			}
		}
		pr, err := e.PageRank(ooc.PageRankOptions{})
		if err != nil {
			t.Fatal(err)
		}
		check("pagerank", pr.Iterations)
		kc, err := e.KCore()
		if err != nil {
			t.Fatal(err)
		}
		levels := 0
		for _, l := range kc.Levels {
			if l.K > 0 { // the isolated vertices go before the loop that draws
				levels++
			}
		}
		check("kcore", levels)
		sp, err := e.SSSP(3, ooc.SSSPOptions{})
		if err != nil {
			t.Fatal(err)
		}
		check("sssp", len(sp.Steps))
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
