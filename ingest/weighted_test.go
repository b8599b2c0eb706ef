package ingest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/gen"
	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/store"
)

// weightRef is the weight a weighted ingest must store for each directed pair: the
// smallest of the input edges that stand for it.
func weightRef(edges []parse.WEdge, directed bool) map[[2]uint32]uint32 {
	ref := map[[2]uint32]uint32{}
	put := func(u, v uint32, w uint32) {
		if old, ok := ref[[2]uint32{u, v}]; !ok || w < old {
			ref[[2]uint32{u, v}] = w
		}
	}
	for _, e := range edges {
		u, v := uint32(e.U), uint32(e.V)
		put(u, v, e.W)
		if !directed {
			put(v, u, e.W)
		}
	}
	return ref
}

// checkWeights compares every stored weight of both directions with ref.
func checkWeights(t *testing.T, dir string, ref map[[2]uint32]uint32) {
	t.Helper()
	g, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if want := map[bool]uint32{false: store.Version, true: store.FloatVersion}[g.M.FloatWeights()]; !g.M.Weighted || g.M.FormatVersion != want {
		t.Fatalf("manifest weighted %v, version %d", g.M.Weighted, g.M.FormatVersion)
	}
	for _, c := range []*store.CSR{g.Out(), g.In()} {
		for _, s := range c.Shards {
			for v := s.Lo; v < s.Hi(); v++ {
				nb, err := s.Neighbors(nil, v)
				if err != nil {
					t.Fatal(err)
				}
				ws := s.WeightsOf(v)
				if len(ws) != len(nb) {
					t.Fatalf("%s vertex %d: %d weights for %d neighbours", c.Dir, v, len(ws), len(nb))
				}
				for k, u := range nb {
					from, to := v, u
					if c.Dir == store.In {
						from, to = u, v
					}
					if want := ref[[2]uint32{from, to}]; ws[k] != want {
						t.Fatalf("%s-list of %d: edge %d->%d weighs %d, want %d", c.Dir, v, from, to, ws[k], want)
					}
				}
			}
		}
	}
}

// randomWEdges draws edges (randomEdges' mix of hubs, loops and repeats) with weights
// that differ between the copies of a repeated edge.
func randomWEdges(t *testing.T, n uint64, m int) ([]parse.WEdge, []parse.Edge) {
	rng, _ := seededRand(t, 20)
	plain := randomEdges(rng, n, m)
	var w []parse.WEdge
	for _, e := range plain {
		w = append(w, parse.WEdge{U: e.U, V: e.V, W: rng.Uint32N(1000)})
	}
	return w, plain
}

func TestWeightedRoundTrip(t *testing.T) {
	edges, plain := randomWEdges(t, 500, 6000)
	for _, directed := range []bool{false, true} {
		for _, shard := range []int64{0, 4096} {
			t.Run(fmt.Sprintf("directed=%v/shard=%d", directed, shard), func(t *testing.T) {
				opt := Options{Dest: filepath.Join(t.TempDir(), "w.ooc"), Directed: directed, ShardBytes: shard}
				_, err := fromWEdges(opt, edges)
				if err != nil {
					t.Fatal(err)
				}
				m := checkGraph(t, opt.Dest, reference(plain, opt), opt)
				if shard > 0 && len(m.Out) < 2 {
					t.Errorf("%d out-shards, want several", len(m.Out))
				}
				checkWeights(t, opt.Dest, weightRef(edges, directed))
			})
		}
	}
}

// TestWeightedDIMACS reads a road-network file with repeated arcs: the smallest weight
// stays, the transpose carries it, and ids stay 1-based.
func TestWeightedDIMACS(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "road.gr")
	os.WriteFile(in, []byte("c tiny\np sp 5 7\na 1 2 7\na 1 2 3\na 2 3 5\na 1 2 9\na 3 4 1\na 4 1 10\na 5 5 2\n"), 0o644)
	opt := Options{Dest: filepath.Join(dir, "road.ooc"), Directed: true, Weights: true}
	rep, err := File(in, opt)
	if err != nil {
		t.Fatal(err)
	}
	m := rep.Manifest
	if m.IDBase != 1 || m.Vertices != 5 || m.Edges != 4 || m.DuplicatesDropped != 2 || m.SelfLoopsDropped != 1 || m.InputEdges != 7 {
		t.Fatalf("manifest: base %d, %d vertices, %d edges, %d duplicates, %d loops, %d input edges",
			m.IDBase, m.Vertices, m.Edges, m.DuplicatesDropped, m.SelfLoopsDropped, m.InputEdges)
	}
	if _, err := store.Verify(opt.Dest); err != nil {
		t.Fatal(err)
	}
	checkWeights(t, opt.Dest, map[[2]uint32]uint32{{0, 1}: 3, {1, 2}: 5, {2, 3}: 1, {3, 0}: 10})
}

func TestWeightedFormats(t *testing.T) {
	cases := []struct {
		name, text string
		directed   bool
		want       map[[2]uint32]uint32 // nil: an error containing bad
		bad        string
	}{
		{"text.txt", "# c\n0 1 5\n1 2 4\n2 0 6\n0 1 2\n", false,
			map[[2]uint32]uint32{{0, 1}: 2, {1, 0}: 2, {1, 2}: 4, {2, 1}: 4, {2, 0}: 6, {0, 2}: 6}, ""},
		{"sym.mtx", "%%MatrixMarket matrix coordinate integer symmetric\n% c\n3 3 2\n2 1 7\n3 2 8\n", true,
			map[[2]uint32]uint32{{1, 0}: 7, {0, 1}: 7, {2, 1}: 8, {1, 2}: 8}, ""},
		{"real.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 3.0\n", true,
			map[[2]uint32]uint32{{0, 1}: math.Float32bits(3)}, ""}, // a real file: float32 weights
		{"frac.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 3.5\n2 1 1e-3\n", true,
			map[[2]uint32]uint32{{0, 1}: math.Float32bits(3.5), {1, 0}: math.Float32bits(1e-3)}, ""},
		{"frac.txt", "0 1 3.5\n", false, nil, "frac.txt:1: weight 3.5 is not an integer"},
		{"nan.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 nan\n", true, nil, "nan.mtx:3: weight nan is not a finite number"},
		{"pattern.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n", true, nil, "pattern.mtx:1: a pattern matrix has no values"},
		{"neg.txt", "0 1 -4\n", false, nil, "neg.txt:1: negative weight -4"},
		{"missing.txt", "0 1 4\n1 2\n", false, nil, `missing.txt:2: expected "u v weight"`},
		{"big.txt", "0 1 4294967296\n", false, nil, "big.txt:1: weight 4294967296 is larger than"},
		{"count.gr", "p sp 3 2\na 1 2 3\n", true, nil, "count.gr:1: p line announces 2 arcs, the file has 1"},
		{"one.gr", "p sp 3 1\na 1 2 3\na 2 3 4\n", true, nil, "one.gr:1: p line announces 1 arc, the file has 2"},
		{"one.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 3\n2 3 4\n", true, nil, "one.mtx:2: size line announces 1 entry, the file has 2"},
		{"range.gr", "p sp 3 1\na 1 4 3\n", true, nil, "range.gr:2: vertex id 4 is outside 1..3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, c.name)
			os.WriteFile(in, []byte(c.text), 0o644)
			opt := Options{Dest: filepath.Join(dir, "g.ooc"), Directed: c.directed, Weights: true}
			_, err := File(in, opt)
			if c.want == nil {
				if err == nil || !errors.Is(err, parse.ErrBadInput) || !strings.Contains(err.Error(), c.bad) {
					t.Fatalf("error %v, want one containing %q", err, c.bad)
				}
				if _, serr := os.Stat(opt.Dest); serr == nil {
					t.Fatal("a graph was written for bad input")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := store.Verify(opt.Dest); err != nil {
				t.Fatal(err)
			}
			checkWeights(t, opt.Dest, c.want)
		})
	}
}

func TestWeightedKeepDuplicates(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "d.txt")
	os.WriteFile(in, []byte("0 1 9\n0 1 4\n1 2 1\n"), 0o644)
	opt := Options{Dest: filepath.Join(dir, "d.ooc"), Weights: true, KeepDuplicates: true}
	if _, err := File(in, opt); err != nil {
		t.Fatal(err)
	}
	g, err := store.Open(opt.Dest)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	s := g.Out().Shards[0]
	if got := s.WeightsOf(0); !slices.Equal(got, []uint32{4, 9}) {
		t.Errorf("weights of 0 = %v, want both copies [4 9]", got)
	}
	if got := s.WeightsOf(1); !slices.Equal(got, []uint32{4, 9, 1}) {
		t.Errorf("weights of 1 = %v, want [4 9 1]", got)
	}
}

func TestWeightedRefusals(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "e.txt")
	os.WriteFile(in, []byte("0 1 9\n"), 0o644)
	for _, opt := range []Options{{Backend: BackendGPU}, {Mem: 30}, {Mem: 30, Relabel: true}} {
		opt.Dest, opt.Weights = filepath.Join(dir, "e.ooc"), true
		// edges beyond the budget: refused from a pipe, read twice from a regular file
		// (whose first pass refuses a budget this small)
		_, err := FileFrom(strings.NewReader("0 1 9\n"), "-", -1, opt)
		if err == nil || !errors.Is(err, parse.ErrBadInput) {
			t.Errorf("%+v: error %v, want ErrBadInput", opt, err)
		}
		_, err = File(in, opt)
		if opt.Mem > 0 && !errors.Is(err, ErrMemTooSmall) || opt.Mem == 0 && !errors.Is(err, parse.ErrBadInput) {
			t.Errorf("%+v: error %v, want ErrMemTooSmall or ErrBadInput", opt, err)
		}
	}
}

// TestWeightedParquet: a Parquet edge list with a weight column gives the shards its
// rows give as "u v w" text (writeParquet's weight is the row number), and a missing
// weight column is named.
func TestWeightedParquet(t *testing.T) {
	rng, _ := seededRand(t, 21)
	edges := randomEdges(rng, 3000, 20_000)
	dir := t.TempDir()
	var text strings.Builder
	for i, e := range edges {
		fmt.Fprintf(&text, "%d %d %d\n", e.U, e.V, i)
	}
	txt := filepath.Join(dir, "g.txt")
	os.WriteFile(txt, []byte(text.String()), 0o644)
	pq := filepath.Join(dir, "g.parquet")
	writeParquet(t, pq, edges, [2]string{"a", "b"}, 3_000)
	for _, directed := range []bool{false, true} {
		opt := Options{Directed: directed, Weights: true, ShardBytes: 8192, Workers: 3}
		opt.Dest = filepath.Join(dir, fmt.Sprintf("t%v.ooc", directed))
		if _, err := File(txt, opt); err != nil {
			t.Fatal(err)
		}
		want := shardFiles(t, opt.Dest)
		opt.Dest, opt.Columns, opt.WeightColumn = filepath.Join(dir, fmt.Sprintf("p%v.ooc", directed)), [2]string{"a", "b"}, "weight"
		if _, err := File(pq, opt); err != nil {
			t.Fatal(err)
		}
		if _, err := store.Verify(opt.Dest); err != nil {
			t.Fatal(err)
		}
		got := shardFiles(t, opt.Dest)
		if len(got) != len(want) || len(got) < 2 {
			t.Fatalf("directed=%v: %d shards from Parquet, %d from text", directed, len(got), len(want))
		}
		for name, b := range want {
			if !slices.Equal(got[name], b) {
				t.Fatalf("directed=%v: %s differs between Parquet and text", directed, name)
			}
		}
	}
	opt := Options{Dest: filepath.Join(dir, "x.ooc"), Weights: true, Columns: [2]string{"a", "b"}, WeightColumn: "w"}
	if _, err := File(pq, opt); err == nil || !errors.Is(err, parse.ErrBadInput) || !strings.Contains(err.Error(), `no column "w"`) {
		t.Fatalf("missing weight column: %v", err)
	}
}

// TestWeightedCanceled: a canceled context stops a weighted ingest and publishes nothing.
func TestWeightedCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	in := filepath.Join(dir, "e.txt")
	os.WriteFile(in, []byte("0 1 9\n"), 0o644)
	opt := Options{Dest: filepath.Join(dir, "e.ooc"), Weights: true, Context: ctx}
	if _, err := File(in, opt); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.ooc*")); len(left) != 0 {
		t.Fatalf("left behind: %v", left)
	}
}

// TestWeightedSameLists: a weighted ingest stores the lists, degrees, offsets and ids.bin
// that the unweighted pipeline stores for the same edges, in the input and the degree
// order, directed or not: the weights are a section beside them and change nothing else.
func TestWeightedSameLists(t *testing.T) {
	for _, relabel := range []bool{false, true} {
		for _, order := range []string{store.OrderInput, store.OrderDegree, OrderAuto} {
			for _, directed := range []bool{false, true} {
				testWeightedSameLists(t, relabel, order, directed)
			}
		}
	}
}

// sparse spreads ids over 64 bits (an odd multiplier is a bijection), for --relabel.
func sparse(x uint64) uint64 { return x * 0x9e3779b97f4a7c15 }

func testWeightedSameLists(t *testing.T, relabel bool, order string, directed bool) {
	edges, plain := randomWEdges(t, 2000, 30_000)
	if relabel {
		for i := range edges {
			edges[i].U, edges[i].V = sparse(edges[i].U), sparse(edges[i].V)
			plain[i].U, plain[i].V = sparse(plain[i].U), sparse(plain[i].V)
		}
	}
	dir := t.TempDir()
	opt := Options{Directed: directed, Order: order, ShardBytes: 16 << 10, Workers: 2, Relabel: relabel}
	opt.Dest = filepath.Join(dir, "w.ooc")
	wrep, err := fromWEdges(opt, edges)
	if err != nil {
		t.Fatal(err)
	}
	// The weighted ingest's automatic choice is between the file's and the degree order,
	// from its own sample: the lists must be those of the order it chose.
	popt := opt
	popt.Dest = filepath.Join(dir, "plain.ooc")
	if order == OrderAuto {
		popt.Order = wrep.Manifest.VertexOrder
	}
	if _, err := fromEdges(t, plain, popt, parse.Header{}); err != nil {
		t.Fatal(err)
	}
	a, err := store.Open(filepath.Join(dir, "plain.ooc"))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := store.Open(opt.Dest)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	where := fmt.Sprintf("relabel %v order %s directed %v", relabel, order, directed)
	if a.M.VertexOrder != b.M.VertexOrder || (order != OrderAuto && a.M.VertexOrder != order) || a.M.MergedEdges() != b.M.MergedEdges() ||
		a.M.SelfLoopsDropped != b.M.SelfLoopsDropped || len(a.Shards()) != len(b.Shards()) || len(a.Shards()) < 3 {
		t.Fatalf("%s: manifests differ: order %s/%s, duplicates %d/%d, loops %d/%d, %d/%d shards", where, a.M.VertexOrder, b.M.VertexOrder,
			a.M.MergedEdges(), b.M.MergedEdges(), a.M.SelfLoopsDropped, b.M.SelfLoopsDropped, len(a.Shards()), len(b.Shards()))
	}
	sameShards(t, where, a, b, store.SecAdj, store.SecDirectory)
	if _, err := store.Verify(opt.Dest); err != nil {
		t.Fatal(err)
	}
	// the weights, in the file's ids
	ref := map[[2]uint64]uint32{}
	for _, e := range edges {
		for _, k := range [][2]uint64{{e.U, e.V}, {e.V, e.U}} {
			if old, ok := ref[k]; !ok || e.W < old {
				ref[k] = e.W
			}
			if directed {
				break
			}
		}
	}
	if a.M.Relabeled != relabel || b.M.Relabeled != relabel {
		t.Fatalf("%s: relabeled %v/%v", where, a.M.Relabeled, b.M.Relabeled)
	}
	for _, s := range b.Out().Shards {
		for v := s.Lo; v < s.Hi(); v++ {
			nb, _ := s.Neighbors(nil, v)
			for k, u := range nb {
				key := [2]uint64{b.External(v), b.External(u)}
				if got := s.WeightsOf(v)[k]; got != ref[key] {
					t.Fatalf("%s: edge %v weighs %d, want %d", where, key, got, ref[key])
				}
			}
		}
	}
}

// BenchmarkWeightedIngest ingests a weighted Kronecker text edge list ("u v w") beside
// the same edges without weights, and reports input edges/s of each: the ratio is the
// price of the weights' path (in memory, one parser core) against the spilling pipeline,
// and of the two-pass path (a file larger than the budget) against the in-memory one.
//
//	go test ./ingest -run '^$' -bench WeightedIngest -benchtime 3x -ingest.edges 16000000
func BenchmarkWeightedIngest(b *testing.B) {
	scale := max(bits.Len64(uint64(*ingestEdges/16))-1, 4)
	spec := gen.Spec{Kind: "kron", Scale: scale, EdgeFactor: 16, Seed: 1}
	dir := b.TempDir()
	plain, weighted := filepath.Join(dir, "k.txt"), filepath.Join(dir, "kw.txt")
	if err := writeSpec(plain, spec, gen.Text); err != nil {
		b.Fatal(err)
	}
	f, err := os.Create(weighted)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := gen.WriteWeighted(f, spec, gen.WeightSpec{Lo: 1, Hi: 255}, 0); err != nil {
		b.Fatal(err)
	}
	f.Close()
	// two-pass: the file read twice (weighfile.go), forced, at the default budget (one
	// window) and at a budget a third of the in-memory path's edges (windows)
	for _, c := range []struct {
		name, path string
		weights    bool
		window     int64
		mem        int64
	}{{"unweighted", plain, false, 0, 0}, {"weighted", weighted, true, 0, 0}, {"two-pass", weighted, true, -1, 0},
		{"two-pass-small-mem", weighted, true, 0, int64(spec.Edges()) * 2 * wedgeBytes / 3}} {
		b.Run(c.name, func(b *testing.B) {
			st, _ := os.Stat(c.path)
			b.SetBytes(st.Size())
			for i := range b.N {
				opt := Options{Dest: filepath.Join(b.TempDir(), fmt.Sprint(i, ".ooc")), Weights: c.weights, Order: store.OrderInput, Backend: BackendCPU,
					weighWindow: c.window, Mem: c.mem}
				if _, err := File(c.path, opt); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(spec.Edges())*float64(b.N)/b.Elapsed().Seconds(), "edges/s")
		})
	}
}

// sameShards fails the test unless graphs a and b, with as many shards, hold the same
// bytes in sections secs of every shard and give each vertex the same external id.
func sameShards(t *testing.T, where string, a, b *store.Graph, secs ...uint32) {
	t.Helper()
	for i, s := range a.Shards() {
		for _, sec := range secs {
			x, _ := s.SectionBytes(sec)
			y, _ := b.Shards()[i].SectionBytes(sec)
			if !slices.Equal(x, y) {
				t.Fatalf("%s: shard %d section %d differs", where, i, sec)
			}
		}
	}
	for v := range a.NumVertices() {
		if a.External(v) != b.External(v) {
			t.Fatalf("%s: vertex %d is %d in the first graph, %d in the second", where, v, a.External(v), b.External(v))
		}
	}
}

// TestWeightedAutoSummary: a weighted ingest held in memory estimates the file's order
// and the degree order alone, and its summary says why the BFS order was not tried; it
// printed "0 B in BFS order" (an estimate never made, smaller than the two it chose
// between) beside "the smallest wins".
func TestWeightedAutoSummary(t *testing.T) {
	edges, _ := randomWEdges(t, 500, 6000)
	opt := Options{Dest: filepath.Join(t.TempDir(), "w.ooc"), Order: OrderAuto}
	rep, err := fromWEdges(opt, edges)
	if err != nil {
		t.Fatal(err)
	}
	var sum strings.Builder
	rep.Summary(&sum)
	if rep.Order == nil || rep.Order.BFSSkipped == "" || strings.Contains(sum.String(), "0 B in BFS order") {
		t.Errorf("summary:\n%s", sum.String())
	}
}

// fromWEdges is FromWeightedEdges of edges, in their order, from an input named test.
func fromWEdges(opt Options, edges []parse.WEdge) (*Report, error) {
	return FromWeightedEdges(opt, store.InputInfo{Name: "test"}, parse.Header{}, func(emit func(parse.WEdge) error) error {
		for _, e := range edges {
			if err := emit(e); err != nil {
				return err
			}
		}
		return nil
	})
}
