package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/oocgraph/ooc/gen"
	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/store"
)

// earlyMax is the bisection bound the tests set (Options.bisectMax) so that graphs of
// a few hundred thousand entries take the path of large ones: the automatic order
// decides degree against input in its first pass.
const earlyMax = 1 << 12

// kronEdges is a Graph500 Kronecker graph: skewed degrees, ids permuted at random.
func kronEdges(t *testing.T, scale int, seed uint64) []parse.Edge {
	var edges []parse.Edge
	var mu sync.Mutex
	spec := gen.Spec{Kind: "kron", Scale: scale, EdgeFactor: 16, Seed: seed}
	if err := gen.Generate(spec, 2, func(b []gen.Edge) error {
		mu.Lock()
		defer mu.Unlock()
		for _, e := range b {
			edges = append(edges, parse.Edge{U: e.U, V: e.V})
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return edges
}

// gridEdges is a rows x cols grid numbered by rows, each vertex linked to its right and
// lower neighbours.
func gridEdges(rows, cols uint64) []parse.Edge {
	var edges []parse.Edge
	for v := range rows * cols {
		if v%cols+1 < cols {
			edges = append(edges, parse.Edge{U: v, V: v + 1})
		}
		if v+cols < rows*cols {
			edges = append(edges, parse.Edge{U: v, V: v + cols})
		}
	}
	return edges
}

// meshEdges is a side x side grid with its diagonals, ids through relabel (nil: row
// order).
func meshEdges(side int, relabel []int) []parse.Edge {
	id := func(v int) uint64 {
		if relabel != nil {
			return uint64(relabel[v])
		}
		return uint64(v)
	}
	var edges []parse.Edge
	for v := range side * side {
		c := v % side
		for _, w := range []int{v + 1, v + side - 1, v + side, v + side + 1} {
			if c+1 == side && (w == v+1 || w == v+side+1) || c == 0 && w == v+side-1 || w >= side*side {
				continue
			}
			edges = append(edges, parse.Edge{U: id(v), V: id(w)})
		}
	}
	return edges
}

// TestAutoFirstPass: on graphs past the bisection's bound the automatic order decides
// in its first pass, before a graph is built, what the full measurement decides. A
// skewed graph numbered at random gets the degree order, read again from the input, and
// is byte for byte what --order degree stores; a mesh in row order keeps the file's
// order (strong locality) without an estimate after the build; a uniform random graph
// and the mesh numbered at random (flat degrees: the degree order not tried) keep the
// file's order past the first pass, the latter then getting the BFS order from the
// graph built; a random graph with two hubs has its degree order estimated, larger
// with its ids.bin, and keeps the file's order. With self-loops (and repeats) kept the
// degrees counted from the spills still number the vertices as --order degree does.
// The estimates do not depend on the workers or the chunk sizes.
func TestAutoFirstPass(t *testing.T) {
	t.Parallel()
	rng, seed := seededRand(t, 91)
	hubs := randomFlat(rng, 1<<13, 1<<16)
	for i := range hubs {
		if i%25 == 0 {
			hubs[i].U = uint64(i % 2)
		}
	}
	for _, c := range []struct {
		name     string
		edges    []parse.Edge
		directed bool
		chosen   string
		degree   string // the degree order in the first pass: estimated, flat (not tried) or local (not tried)
		keep     Options
	}{
		{"kron", kronEdges(t, 15, seed), false, store.OrderDegree, "estimated", Options{}},
		{"kron-directed", kronEdges(t, 15, seed+1), true, store.OrderDegree, "estimated", Options{}},
		{"mesh", meshEdges(128, nil), false, store.OrderInput, "local", Options{}},
		{"random", randomFlat(rng, 1<<13, 1<<16), false, store.OrderInput, "flat", Options{}},
		{"random-directed", randomFlat(rng, 1<<13, 1<<16), true, store.OrderInput, "flat", Options{}},
		{"mesh-permuted", meshEdges(256, rng.Perm(256*256)), false, store.OrderBFS, "flat", Options{}},
		{"random-hubs", hubs, false, store.OrderInput, "estimated", Options{}},
		// kept self-loops count twice in an undirected degree, as --order degree counts them
		{"kron-loops", kronEdges(t, 15, seed+2), false, store.OrderDegree, "estimated", Options{KeepSelfLoops: true}},
		{"kron-loops-dups", kronEdges(t, 15, seed+3), false, store.OrderDegree, "estimated", Options{KeepSelfLoops: true, KeepDuplicates: true}},
		{"kron-loops-directed", kronEdges(t, 15, seed+4), true, store.OrderDegree, "estimated", Options{KeepSelfLoops: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var first *OrderEstimate
			for i, opt := range []Options{{Workers: 1}, {Workers: 3, chunkKeys: 5000}} {
				opt.Order, opt.Directed, opt.bisectMax = OrderAuto, c.directed, earlyMax
				opt.KeepSelfLoops, opt.KeepDuplicates = c.keep.KeepSelfLoops, c.keep.KeepDuplicates
				opt.Dest = filepath.Join(t.TempDir(), "auto.ooc")
				rep, err := fromEdges(t, c.edges, opt, parse.Header{})
				if err != nil {
					t.Fatal(err)
				}
				e := rep.Order
				degree := "estimated"
				switch {
				case e == nil:
					t.Fatalf("seed %d: no estimate", seed)
				case strings.Contains(e.DegreeSkipped, "flat"):
					degree = "flat"
				case strings.Contains(e.DegreeSkipped, "locality"):
					degree = "local"
				case e.DegreeBytes == 0:
					degree = "none"
				}
				if e.Chosen != c.chosen || rep.Manifest.VertexOrder != c.chosen || degree != c.degree {
					t.Fatalf("seed %d: estimate %+v, vertex order %q; want %s, the degree order %s", seed, e, rep.Manifest.VertexOrder, c.chosen, c.degree)
				}
				if e.BisectBytes > 0 || e.BisectPredicted > 0 {
					t.Errorf("seed %d: the bisection order weighed past its bound: %+v", seed, e)
				}
				if c.chosen == store.OrderDegree && !strings.Contains(e.BFSSkipped, "first pass") {
					t.Errorf("seed %d: the degree order chosen after the build: %+v", seed, e)
				}
				checkGraph(t, opt.Dest, reference(c.edges, opt), opt)
				if i == 0 {
					first = e
					// the same graph as the order chosen, asked for
					ask := opt
					ask.Order, ask.Dest = c.chosen, filepath.Join(t.TempDir(), "asked.ooc")
					if _, err := fromEdges(t, c.edges, ask, parse.Header{}); err != nil {
						t.Fatal(err)
					}
					sameGraphFiles(t, c.name, opt.Dest, ask.Dest)
				} else if *e != *first {
					t.Errorf("seed %d: estimate %+v with other workers, %+v before", seed, e, first)
				}
			}
		})
	}
}

// randomFlat is m edges between ids drawn uniformly below n: no locality, no skew.
func randomFlat(rng *rand.Rand, n uint64, m int) []parse.Edge {
	edges := make([]parse.Edge, m)
	for i := range edges {
		edges[i] = parse.Edge{U: rng.Uint64N(n), V: rng.Uint64N(n)}
	}
	return edges
}

// TestAutoFirstPassFile: from a file the input is read again in the degree order (the
// same graph as --order degree's); from a reader that cannot be read again (a pipe) the
// first pass's choice waits for the graph built in the file's order, which is then
// numbered in the degree order of its stored degrees.
func TestAutoFirstPassFile(t *testing.T) {
	t.Parallel()
	_, seed := seededRand(t, 92)
	edges := kronEdges(t, 15, seed)
	var text bytes.Buffer
	w := bufio.NewWriter(&text)
	for _, e := range edges {
		fmt.Fprintf(w, "%d %d\n", e.U, e.V)
	}
	w.Flush()
	dir := t.TempDir()
	in := filepath.Join(dir, "kron.txt")
	if err := os.WriteFile(in, text.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	opt := Options{Order: OrderAuto, bisectMax: earlyMax, Workers: 2, Dest: filepath.Join(dir, "auto.ooc")}
	rep, err := File(in, opt)
	if err != nil {
		t.Fatal(err)
	}
	if e := rep.Order; e == nil || !e.ChoseDegree || !strings.Contains(e.BFSSkipped, "first pass") || rep.Phases[0].Name != "parse" || rep.Phases[1].Name != "choose" {
		t.Fatalf("seed %d: estimate %+v, phases %+v; want the degree order chosen in the first pass", seed, e, rep.Phases)
	}
	ask := opt
	ask.Order, ask.Dest = store.OrderDegree, filepath.Join(dir, "degree.ooc")
	if _, err := File(in, ask); err != nil {
		t.Fatal(err)
	}
	sameGraphFiles(t, "file", opt.Dest, ask.Dest)
	checkGraph(t, opt.Dest, reference(edges, opt), opt)

	opt.Dest = filepath.Join(dir, "pipe.ooc")
	rep, err = FileFrom(bytes.NewReader(text.Bytes()), "-", -1, opt)
	if err != nil {
		t.Fatal(err)
	}
	if e := rep.Order; e == nil || !e.ChoseDegree || strings.Contains(e.BFSSkipped, "first pass") || rep.Manifest.VertexOrder != store.OrderDegree {
		t.Fatalf("seed %d: from a pipe, estimate %+v, vertex order %q; want the degree order chosen after the build", seed, e, rep.Manifest.VertexOrder)
	}
	checkGraph(t, opt.Dest, reference(edges, opt), opt)
}

// TestAutoReadAgainChanged: an input that holds other ids when read again, in the order
// the first reading chose, is refused, and nothing is left at the destination.
func TestAutoReadAgainChanged(t *testing.T) {
	_, seed := seededRand(t, 93)
	edges := kronEdges(t, 15, seed)
	calls := 0
	opt := Options{Order: OrderAuto, bisectMax: earlyMax, Workers: 2, Dest: filepath.Join(t.TempDir(), "g.ooc")}
	_, err := FromEdges(opt, store.InputInfo{Name: "test"}, parse.Header{}, func(emit func([]parse.Edge) error) error {
		calls++
		b := edges
		if calls > 1 {
			b = append(slices.Clone(edges), parse.Edge{U: 1 << 20, V: 0})
		}
		return emit(b)
	})
	if !errors.Is(err, parse.ErrBadInput) || !strings.Contains(err.Error(), "changed") {
		t.Fatalf("seed %d: %d readings: %v, want ErrBadInput naming the change", seed, calls, err)
	}
	if _, err := os.Stat(opt.Dest); !os.IsNotExist(err) {
		t.Errorf("a failed ingest left %s", opt.Dest)
	}
}

// TestAutoStarCentreZero: --order auto samples whole lists, doubling its rate until the
// sample fits; vertex 0's list is in the sample at every rate (its hash is 0), so a star
// round vertex 0 with more leaves than the sample's cap once doubled the rate past 2^63 to
// 0 and spun forever (a hang no signal ended). The ingest must finish and store the star.
func TestAutoStarCentreZero(t *testing.T) {
	const leaves = 5000
	var star []parse.Edge
	for v := uint64(1); v <= leaves; v++ {
		star = append(star, parse.Edge{U: 0, V: v})
	}
	for _, directed := range []bool{false, true} {
		opt := Options{Workers: 2, sampleCap: 1 << 10, Order: OrderAuto, Directed: directed,
			Dest: filepath.Join(t.TempDir(), "g.ooc")}
		done := make(chan error, 1)
		go func() {
			_, err := fromEdges(t, star, opt, parse.Header{})
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(60 * time.Second):
			t.Fatalf("directed %v: the ingest of a star round vertex 0 did not finish in 60 s", directed)
		}
		g, err := store.Open(opt.Dest)
		if err != nil {
			t.Fatal(err)
		}
		if g.NumVertices() != leaves+1 || g.NumEdges() != map[bool]uint64{false: 2 * leaves, true: leaves}[directed] {
			t.Errorf("directed %v: %d vertices, %d out-edges", directed, g.NumVertices(), g.NumEdges())
		}
		g.Close()
	}
}
