package ingest

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/internal/testseed"
	"github.com/oocgraph/ooc/store"
)

// seededRand returns a generator of the given stream seeded by testseed (OOC_SEED, or a
// fresh seed, logged), and the seed.
func seededRand(t testing.TB, stream uint64) (*rand.Rand, uint64) {
	t.Helper()
	seed := testseed.Seed(t)
	return rand.New(rand.NewPCG(seed, stream)), seed
}

// randomEdges draws m edges over ids below n, with hubs, self-loops and repeated edges
// mixed in so that every code path (split partitions, drops) is exercised.
func randomEdges(rng *rand.Rand, n uint64, m int) []parse.Edge {
	edges := make([]parse.Edge, 0, m)
	for len(edges) < m {
		u, v := rng.Uint64N(n), rng.Uint64N(n)
		switch rng.IntN(20) {
		case 0:
			v = u // self-loop
		case 1, 2:
			u = rng.Uint64N(4) // hub
		case 3:
			if len(edges) > 0 {
				e := edges[rng.IntN(len(edges))]
				u, v = e.V, e.U // the reverse of an earlier edge (a duplicate when undirected)
			}
		case 4:
			if len(edges) > 0 {
				e := edges[rng.IntN(len(edges))]
				u, v = e.U, e.V // a repeated edge
			}
		}
		edges = append(edges, parse.Edge{U: u, V: v})
	}
	return edges
}

// want is the graph an ingest must produce, computed the plain way.
type want struct {
	n        uint64
	out, in  map[uint32][]uint32
	loops    uint64 // input self-loops dropped
	dups     uint64 // input edges dropped as repeats of an edge in the same orientation
	recip    uint64 // undirected: reciprocal pairs (u v, then v u) merged
	oriented bool   // the ingest counts recip apart from dups
}

func reference(edges []parse.Edge, opt Options) want {
	w := want{out: map[uint32][]uint32{}, in: map[uint32][]uint32{}, oriented: wantsOrientation(opt)}
	type pair struct{ u, v uint64 }
	seen, lines := map[pair]bool{}, map[pair]bool{}
	for _, e := range edges {
		w.n = max(w.n, e.U+1, e.V+1)
		if e.U == e.V && !opt.KeepSelfLoops {
			w.loops++
			continue
		}
		k, line := pair{e.U, e.V}, pair{e.U, e.V}
		if !opt.Directed && k.u > k.v {
			k = pair{e.V, e.U}
		}
		if seen[k] && !opt.KeepDuplicates {
			if lines[line] || opt.Directed {
				w.dups++
			} else {
				w.recip++ // the first v u after u v
			}
			lines[line] = true
			continue
		}
		seen[k], lines[line] = true, true
		u, v := uint32(e.U), uint32(e.V)
		w.out[u] = append(w.out[u], v)
		switch {
		case opt.Directed:
			w.in[v] = append(w.in[v], u)
		case u != v:
			w.out[v] = append(w.out[v], u)
		}
	}
	for _, l := range []map[uint32][]uint32{w.out, w.in} {
		for _, x := range l {
			slices.Sort(x)
		}
	}
	return w
}

// lists decodes every list of one direction of the graph at dir.
func lists(t *testing.T, g *store.Graph, c *store.CSR) map[uint32][]uint32 {
	t.Helper()
	got := map[uint32][]uint32{}
	for _, s := range c.Shards {
		for v := s.Lo; v < s.Hi(); v++ {
			l, err := s.Neighbors(nil, v)
			if err != nil {
				t.Fatal(err)
			}
			if len(l) > 0 {
				got[v] = l
			}
		}
	}
	return got
}

func checkGraph(t *testing.T, dir string, w want, opt Options) *store.Manifest {
	t.Helper()
	m, err := store.Verify(dir)
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	// Nothing but the graph's own files: the spills lived in its temporary directory.
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if n := e.Name(); n != store.ManifestName && n != "ids.bin" && !strings.HasSuffix(n, ".shard") {
			t.Errorf("the graph directory holds %s", n)
		}
	}
	g, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if uint64(m.Vertices) != w.n {
		t.Errorf("%d vertices, want %d", m.Vertices, w.n)
	}
	dups, recip := w.dups, &w.recip
	oriented := w.oriented
	if m.Weighted { // the weighted build tells pairs apart whatever the ids
		oriented = !m.Directed && !m.Options.KeepDuplicates
	}
	if !oriented {
		dups, recip = dups+w.recip, nil
	}
	if m.SelfLoopsDropped != w.loops || m.DuplicatesDropped != dups || (m.ReciprocalPairs == nil) != (recip == nil) ||
		recip != nil && *m.ReciprocalPairs != *recip {
		t.Errorf("dropped %d self-loops and %d duplicates, %s reciprocal pairs merged; want %d, %d and %s", m.SelfLoopsDropped, m.DuplicatesDropped,
			countOrNil(m.ReciprocalPairs), w.loops, dups, countOrNil(recip))
	}
	if got := external(g, lists(t, g, g.Out())); !equalLists(got, w.out) {
		t.Errorf("out-lists differ from the reference: %s", diffLists(got, w.out))
	}
	if opt.Directed {
		if got := external(g, lists(t, g, g.In())); !equalLists(got, w.in) {
			t.Errorf("in-lists differ from the reference: %s", diffLists(got, w.in))
		}
	}
	return m
}

// countOrNil prints a count that may be absent.
func countOrNil(x *uint64) string {
	if x == nil {
		return "nil"
	}
	return fmt.Sprint(*x)
}

// external renumbers the lists of a graph numbered in another order than the file's
// with the file's ids (which the tests keep below 2^32).
func external(g *store.Graph, l map[uint32][]uint32) map[uint32][]uint32 {
	if g.M.VertexOrder == store.OrderInput {
		return l
	}
	return fileIDs(g, l)
}

func equalLists(a, b map[uint32][]uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for v, l := range a {
		if !slices.Equal(l, b[v]) {
			return false
		}
	}
	return true
}

func diffLists(got, want map[uint32][]uint32) string {
	for v, l := range want {
		if !slices.Equal(l, got[v]) {
			return fmt.Sprintf("vertex %d: got %d neighbours %v..., want %d %v...", v, len(got[v]), head(got[v]), len(l), head(l))
		}
	}
	for v, l := range got {
		if _, ok := want[v]; !ok {
			return fmt.Sprintf("vertex %d: got %v, want nothing", v, head(l))
		}
	}
	return "?"
}

func head(l []uint32) []uint32 { return l[:min(len(l), 8)] }

func fromEdges(t *testing.T, edges []parse.Edge, opt Options, hdr parse.Header) (*Report, error) {
	t.Helper()
	return FromEdges(opt, store.InputInfo{Name: "test", Format: "test"}, hdr, func(emit func([]parse.Edge) error) error {
		for b := edges; len(b) > 0; {
			n := min(len(b), 777)
			if err := emit(b[:n]); err != nil {
				return err
			}
			b = b[n:]
		}
		return nil
	})
}

// TestRoundTrip ingests seeded random edge lists under many shapes of the pipeline
// (tiny chunks force many spill blocks; tiny tasks force split partitions; tiny shards
// force many shards) and compares the decoded lists with the reference.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	rng, seed := seededRand(t, 1)
	cases := []struct {
		name string
		opt  Options
	}{
		{"default", Options{}},
		{"directed", Options{Directed: true}},
		{"tiny-chunks", Options{Workers: 3, chunkKeys: 1000}},
		{"tiny-tasks-directed", Options{Directed: true, Workers: 2, chunkKeys: 3000, taskKeys: 700}},
		{"keep-all", Options{KeepSelfLoops: true, KeepDuplicates: true, chunkKeys: 2000, taskKeys: 900}},
		{"keep-all-directed", Options{Directed: true, KeepSelfLoops: true, KeepDuplicates: true, Workers: 1}},
		{"small-shards", Options{ShardBytes: 8192, Workers: 4, taskKeys: 5000}},
		{"small-mem", Options{Mem: 48 << 20, Workers: 2}},
		{"degree", Options{Order: store.OrderDegree}},
		{"degree-directed-tiny", Options{Order: store.OrderDegree, Directed: true, Workers: 3, chunkKeys: 1000, taskKeys: 700}},
		{"degree-keep-all-shards", Options{Order: store.OrderDegree, KeepSelfLoops: true, KeepDuplicates: true, ShardBytes: 8192}},
		{"bfs", Options{Order: store.OrderBFS}},
		{"bfs-directed-keep-all-tiny", Options{Order: store.OrderBFS, Directed: true, KeepSelfLoops: true, KeepDuplicates: true, Workers: 3, chunkKeys: 1000, taskKeys: 700}},
		{"bisect", Options{Order: store.OrderBisect}},
		{"bisect-directed-keep-all-tiny", Options{Order: store.OrderBisect, Directed: true, KeepSelfLoops: true, KeepDuplicates: true, Workers: 3, chunkKeys: 1000, taskKeys: 700}},
		{"auto-small-mem", Options{Order: OrderAuto, Mem: 48 << 20, Workers: 2}},
		// the spills on disk, and partly in memory (small slabs, blocks across them)
		{"spill-disk", Options{Directed: true, Workers: 3, chunkKeys: 2000, taskKeys: 900, spillMem: -1}},
		// split partitions whose headers are not kept, or only the first few
		{"spill-disk-no-heads", Options{Order: store.OrderDegree, Workers: 3, chunkKeys: 2000, taskKeys: 900, spillMem: -1, headsMem: -1}},
		{"tiny-tasks-few-heads", Options{Workers: 2, chunkKeys: 3000, taskKeys: 700, headsMem: 4 << 10}},
		{"spill-mixed", Options{Order: store.OrderDegree, Workers: 3, chunkKeys: 2000, taskKeys: 900, spillMem: 96 << 10, spillSlab: 4 << 10}},
		{"spill-mixed-directed", Options{Order: store.OrderDegree, Directed: true, Workers: 2, chunkKeys: 1000, spillMem: 200 << 10, spillSlab: 3000}},
		// groups wider than the graph's size picks (groupsFor)
		{"wide-groups", Options{Workers: 3, chunkKeys: 2000, taskKeys: 900, groupBits: maxGroupBits}},
		{"wide-groups-directed-disk", Options{Directed: true, Workers: 2, chunkKeys: 3000, taskKeys: 700, spillMem: -1, groupBits: 12}},
		{"wide-groups-degree-disk", Options{Order: store.OrderDegree, Workers: 3, chunkKeys: 2000, taskKeys: 900, spillMem: -1, groupBits: maxGroupBits}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Ids spread over 3 partitions of 2^20, and a dense corner.
			n := uint64(3<<partShift + 1000)
			edges := randomEdges(rng, n, 20000)
			edges = append(edges, randomEdges(rng, 300, 10000)...)
			opt := c.opt
			opt.Dest = filepath.Join(t.TempDir(), "g.ooc")
			if _, err := fromEdges(t, edges, opt, parse.Header{}); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			m := checkGraph(t, opt.Dest, reference(edges, opt), opt)
			if opt.ShardBytes > 0 && len(m.Out) < 3 {
				t.Errorf("%d shards with ShardBytes %d", len(m.Out), opt.ShardBytes)
			}
			if t.Failed() {
				t.Logf("seed %d", seed)
			}
		})
	}
}

// TestDeterministic: the same input gives byte-identical shards whatever the workers,
// chunk and task sizes and the memory budget.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	rng, seed := seededRand(t, 2)
	edges := randomEdges(rng, 2<<partShift, 30000)
	for _, c := range []struct {
		directed bool
		order    string
	}{{false, ""}, {true, ""}, {false, store.OrderDegree}, {true, store.OrderDegree}, {false, OrderAuto}, {true, OrderAuto}, {false, store.OrderBFS}, {true, store.OrderBFS}, {false, store.OrderBisect}, {true, store.OrderBisect}} {
		directed := c.directed
		var ref map[string][]byte
		for i, opt := range []Options{
			{Workers: 1},
			{Workers: 4, chunkKeys: 1500},
			{Workers: 3, chunkKeys: 4000, taskKeys: 1000},
			{Workers: 2, Mem: 48 << 20},
			{Workers: 3, chunkKeys: 2000, spillMem: -1},
			{Workers: 2, chunkKeys: 3000, spillMem: 100 << 10, spillSlab: 5000},
			{Workers: 3, chunkKeys: 2500, taskKeys: 1200, groupBits: 11},
			{Workers: 2, chunkKeys: 4000, spillMem: -1, groupBits: maxGroupBits},
		} {
			opt.Directed, opt.Order = directed, c.order
			opt.Dest = filepath.Join(t.TempDir(), "g.ooc")
			// Shuffle the input too: order must not matter either.
			in := slices.Clone(edges)
			rng.Shuffle(len(in), func(i, j int) { in[i], in[j] = in[j], in[i] })
			if _, err := fromEdges(t, in, opt, parse.Header{}); err != nil {
				t.Fatal(err)
			}
			files := shardFiles(t, opt.Dest)
			if b, err := os.ReadFile(filepath.Join(opt.Dest, "ids.bin")); err == nil {
				files["ids.bin"] = b
			}
			if i == 0 {
				ref = files
				continue
			}
			if len(files) != len(ref) {
				t.Fatalf("seed %d, options %d: %d shard files, want %d", seed, i, len(files), len(ref))
			}
			for name, b := range ref {
				if !bytes.Equal(files[name], b) {
					t.Errorf("seed %d, options %d (directed %v): %s differs", seed, i, directed, name)
				}
			}
		}
	}
}

func shardFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "*.shard"))
	files := map[string][]byte{}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(n)] = b
	}
	return files
}

// TestCounts checks the drop counters on a hand-made list.
func TestCounts(t *testing.T) {
	edges := []parse.Edge{{U: 0, V: 1}, {U: 1, V: 0}, {U: 0, V: 1}, {U: 2, V: 2}, {U: 2, V: 2}, {U: 3, V: 4}, {U: 4, V: 3}, {U: 4, V: 3}, {U: 5, V: 5}}
	for _, tc := range []struct {
		opt                      Options
		edges, loops, dups, nvtx uint64
		pairs                    int // reciprocal pairs merged; -1: not counted apart
	}{
		{Options{}, 4, 3, 2, 6, 2},                    // {0,1} {3,4} both ways; 3 loops; 0 1 and 4 3 repeated
		{Options{Directed: true}, 4, 3, 2, 6, -1},     // 0->1 1->0 3->4 4->3
		{Options{KeepSelfLoops: true}, 6, 0, 3, 6, 2}, // + (2,2) (5,5) once each
		{Options{KeepDuplicates: true}, 12, 3, 0, 6, -1},
		{Options{Directed: true, KeepDuplicates: true, KeepSelfLoops: true}, 9, 0, 0, 6, -1},
	} {
		tc.opt.Dest = filepath.Join(t.TempDir(), "g.ooc")
		rep, err := fromEdges(t, edges, tc.opt, parse.Header{})
		if err != nil {
			t.Fatal(err)
		}
		m := rep.Manifest
		if m.Edges != tc.edges || m.SelfLoopsDropped != tc.loops || m.DuplicatesDropped != tc.dups || uint64(m.Vertices) != tc.nvtx || m.InputEdges != 9 {
			t.Errorf("%+v: edges %d loops %d dups %d vertices %d input %d; want %d %d %d %d 9", tc.opt, m.Edges,
				m.SelfLoopsDropped, m.DuplicatesDropped, m.Vertices, m.InputEdges, tc.edges, tc.loops, tc.dups, tc.nvtx)
		}
		if got := countOrNil(m.ReciprocalPairs); (tc.pairs < 0) != (got == "nil") || tc.pairs >= 0 && got != fmt.Sprint(tc.pairs) {
			t.Errorf("%+v: %s reciprocal pairs merged, want %d (-1: nil)", tc.opt, got, tc.pairs)
		}
		checkGraph(t, tc.opt.Dest, reference(edges, tc.opt), tc.opt)
	}
}

// TestHeaderVertices: a header's N adds isolated vertices, and its id base is kept.
func TestHeaderVertices(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "g.ooc")
	rep, err := fromEdges(t, []parse.Edge{{U: 0, V: 1}}, Options{Dest: dest}, parse.Header{Vertices: 10, IDBase: 1})
	if err != nil {
		t.Fatal(err)
	}
	if m := rep.Manifest; m.Vertices != 10 || m.IDBase != 1 || m.Edges != 2 {
		t.Fatalf("vertices %d, id base %d, edges %d", m.Vertices, m.IDBase, m.Edges)
	}
}

// TestSymmetricDirected: a symmetric MatrixMarket file read --directed stores each entry
// both ways, in both directions.
func TestSymmetricDirected(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "s.mtx")
	mtx := "%%MatrixMarket matrix coordinate pattern symmetric\n5 5 5\n2 1\n3 1\n3 3\n5 4\n3 1\n"
	if err := os.WriteFile(src, []byte(mtx), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, directed := range []bool{false, true} {
		opt := Options{Dest: filepath.Join(dir, fmt.Sprint(directed)+".ooc"), Directed: directed}
		rep, err := File(src, opt)
		if err != nil {
			t.Fatal(err)
		}
		m := rep.Manifest
		if m.Vertices != 5 || m.Edges != 6 || m.SelfLoopsDropped != 1 || m.DuplicatesDropped != 1 || m.IDBase != 1 {
			t.Errorf("directed %v: %+v", directed, m)
		}
		edges := []parse.Edge{{U: 1, V: 0}, {U: 0, V: 1}, {U: 2, V: 0}, {U: 0, V: 2}, {U: 4, V: 3}, {U: 3, V: 4}, {U: 2, V: 2}}
		w := reference(edges, Options{Directed: true})
		w.loops, w.dups, w.oriented = 1, 1, !directed // no entry is given both ways
		checkGraph(t, opt.Dest, w, opt)
	}
}

// TestRelabel: sparse 64-bit ids come back through Graph.External.
func TestRelabel(t *testing.T) {
	rng, seed := seededRand(t, 3)
	pool := make([]uint64, 500)
	for i := range pool {
		pool[i] = rng.Uint64() >> rng.IntN(60)
	}
	var edges []parse.Edge
	for range 5000 {
		edges = append(edges, parse.Edge{U: pool[rng.IntN(len(pool))], V: pool[rng.IntN(len(pool))]})
	}
	for _, c := range []struct {
		directed bool
		order    string
	}{{false, ""}, {true, ""}, {false, store.OrderDegree}, {true, store.OrderDegree}} {
		directed := c.directed
		opt := Options{Dest: filepath.Join(t.TempDir(), "g.ooc"), Relabel: true, Directed: directed, Order: c.order, chunkKeys: 999}
		if _, err := fromEdges(t, edges, opt, parse.Header{}); err != nil {
			t.Fatal(err)
		}
		g, err := store.Open(opt.Dest)
		if err != nil {
			t.Fatal(err)
		}
		got := map[[2]uint64]int{}
		for _, s := range g.Out().Shards {
			for v := s.Lo; v < s.Hi(); v++ {
				l, err := s.Neighbors(nil, v)
				if err != nil {
					t.Fatal(err)
				}
				for _, u := range l {
					got[[2]uint64{g.External(v), g.External(u)}]++
				}
			}
		}
		wantE := map[[2]uint64]int{}
		for _, e := range edges {
			if e.U != e.V {
				wantE[[2]uint64{e.U, e.V}] = 1
				if !directed {
					wantE[[2]uint64{e.V, e.U}] = 1
				}
			}
		}
		if len(got) != len(wantE) {
			t.Errorf("seed %d: %d distinct edges, want %d", seed, len(got), len(wantE))
		}
		for e := range wantE {
			if got[e] != 1 {
				t.Fatalf("seed %d: edge %v stored %d times", seed, e, got[e])
			}
		}
		g.Close()
	}
}

func TestTooLargeID(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "g.ooc")
	_, err := fromEdges(t, []parse.Edge{{U: 0, V: 1 << 32}}, Options{Dest: dest}, parse.Header{})
	if !errors.Is(err, parse.ErrBadInput) || !strings.Contains(err.Error(), "--relabel") {
		t.Fatalf("err = %v", err)
	}
	if _, serr := os.Stat(dest); !os.IsNotExist(serr) {
		t.Fatalf("%s left behind", dest)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(dest), ".g.ooc.tmp-*")); len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

func TestExistingOutput(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "g.ooc")
	e := []parse.Edge{{U: 0, V: 1}}
	if _, err := fromEdges(t, e, Options{Dest: dest}, parse.Header{}); err != nil {
		t.Fatal(err)
	}
	if _, err := fromEdges(t, e, Options{Dest: dest}, parse.Header{}); !errors.Is(err, store.ErrExists) {
		t.Fatalf("second ingest: %v, want ErrExists", err)
	}
	if _, err := fromEdges(t, e, Options{Dest: dest, Force: true}, parse.Header{}); err != nil {
		t.Fatalf("with Force: %v", err)
	}
}

// TestRadixSort: -short (CI's race run) leaves out the MSD size, a million keys sorted
// six times on one goroutine in code without unsafe: nothing for the race detector or
// checkptr to see; the plain run sorts it.
func TestRadixSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	sizes := []int{0, 1, 100, 255, 256, 5000, 100000, msdThreshold + 12345}
	if testing.Short() {
		sizes = sizes[:len(sizes)-1]
	}
	for _, n := range sizes {
		// The last masks have the varying bits of a phase 2 task (a few of the source,
		// 21 of the destination) and constant bits above them, which lsdSort packs away.
		for _, mask := range []uint64{^uint64(0), 0xFFFF, 0xFFF0_0000_0FFF_0000, 0, 0x3FFF_001F_FFFF, 0xFFF_000F_FFF0} {
			const shared = 0x0123_4000_8020_0000
			a := make([]uint64, n)
			for i := range a {
				a[i] = rng.Uint64() & mask
				if mask&shared == 0 {
					a[i] |= shared
				}
			}
			want := slices.Clone(a)
			slices.Sort(want)
			if got := radixSort(a, make([]uint64, n)); !slices.Equal(got, want) {
				t.Fatalf("n %d mask %x: not sorted", n, mask)
			}
		}
	}
}

func TestBlockRoundTrip(t *testing.T) {
	for _, gb := range []groupBits{minGroupBits, 11, maxGroupBits} {
		testBlockRoundTrip(t, gb)
	}
}

// testBlockRoundTrip runs TestBlockRoundTrip on groups gb wide.
func testBlockRoundTrip(t *testing.T, gb groupBits) {
	const part = 3
	base := uint32(part << partShift)
	for _, keys := range [][]uint64{
		{key(base, 0)},
		{key(base, 1), key(base+5, 0), key(base+5, 0), key(base+1, 1<<32-1), key(base+1024, 7), key(base+1<<partShift-1, 2)},
		{key(base+2000, 300), key(base+1030, 1<<20), key(base+3000, 0), key(base+9000, 5)},
	} {
		keys := slices.SortedFunc(slices.Values(keys), func(a, b uint64) int { return cmp.Compare(gb.of(a), gb.of(b)) })
		buf := appendBlock(nil, keys, gb)
		b, err := openBlock(buf, part, uint32(len(keys)), nil, gb)
		if err != nil {
			t.Fatalf("%x: %v", keys, err)
		}
		var got []uint64
		for gi := range b.groups {
			for i := b.groups[gi].start; i < b.groups[gi].end; i++ {
				got = append(got, b.key(&b.groups[gi], i))
			}
		}
		if !slices.Equal(got, keys) {
			t.Fatalf("decoded %x, want %x", got, keys)
		}
		if _, err := openBlock(buf[:len(buf)-1], part, uint32(len(keys)), nil, gb); !errors.Is(err, errBlock) {
			t.Fatalf("truncated block: %v", err)
		}
		if _, err := openBlock(buf, part, uint32(len(keys))+1, nil, gb); !errors.Is(err, errBlock) {
			t.Fatalf("wrong count: %v", err)
		}
	}
}

// TestDecodeRange checks that a sub-range decodes the keys of a block that lie in it,
// whether the block is small enough to be read whole or large enough that only the
// header and the overlapping groups' entries are read.
func TestDecodeRange(t *testing.T) {
	rng, _ := seededRand(t, 16)
	widths := []groupBits{10, 11, 12, 13, 10, 11} // each width at least once
	for _, bySource := range []bool{false, true} {
		// on disk; in 4 KiB slabs, blocks across slabs, then on disk past 40 KiB; in memory
		for _, pool := range []*memPool{nil, newMemPool(40<<10, 4<<10), newMemPool(64<<20, 1<<20)} {
			testDecodeRange(t, rng, bySource, pool, widths[0])
			widths = widths[1:]
		}
	}
}

// testDecodeRange runs TestDecodeRange on groups gb wide.
func testDecodeRange(t *testing.T, rng *rand.Rand, bySource bool, pool *memPool, gb groupBits) {
	const part = 5
	base := uint32(part << partShift)
	s, err := newSpill(t.TempDir(), "spill", pool)
	if err != nil {
		t.Fatal(err)
	}
	s.bySource, s.gb = bySource, gb
	defer s.close()
	for _, n := range []int{10, 300, 20000} {
		keys := make([]uint64, n)
		for i := range keys {
			keys[i] = key(base+uint32(rng.IntN(1<<partShift)), uint32(rng.IntN(1<<21)))
			if i%2 == 0 { // half in the first group, as in a hub group: longer than narrow's window
				keys[i] = key(base+uint32(rng.IntN(rng.IntN(1<<gb)+1)), keyDst(keys[i]))
			}
			if rng.IntN(8) == 0 { // a self-loop, for skipLoops
				keys[i] = key(keySrc(keys[i]), keySrc(keys[i]))
			}
		}
		keys = slices.Clone(groupSort(keys, make([]uint64, n), bySource, gb)) // as phase 1 orders them
		buf := appendBlock(make([]byte, 3), keys, gb)                         // not at offset 0 of the spill
		if err := s.write(buf, []blockRef{{part: part, count: uint32(n), off: 3, len: int64(len(buf) - 3)}}); err != nil {
			t.Fatal(err)
		}
		ref := s.refs[len(s.refs)-1]
		for i := range 50 {
			lo := uint64(base) + uint64(rng.IntN(1<<partShift))
			hi := lo + uint64(rng.IntN(1<<(rng.IntN(partShift)+1)))
			if i%4 < 2 { // bounds inside the first group
				lo = uint64(base) + uint64(rng.IntN(1<<gb))
				hi = lo + uint64(rng.IntN(1<<gb))
			}
			skipLoops := i%2 == 1
			// The shares of the first group below lo and hi: as split computes them, or
			// wrong, which narrow must survive.
			r := srcRange{lo: lo, hi: hi}
			if i%3 == 0 {
				r.loAt, r.hiAt = rng.Float64(), rng.Float64()
			} else {
				var below [2]int
				total := 0
				for _, k := range keys {
					if v := uint64(keySrc(k)); v < uint64(base)+1<<gb {
						total++
						below[0] += b2i(v < lo)
						below[1] += b2i(v < hi)
					}
				}
				r.loAt, r.hiAt = float64(below[0])/float64(max(total, 1)), float64(below[1])/float64(max(total, 1))
			}
			var want []uint64
			for _, k := range keys {
				if v := uint64(keySrc(k)); v >= lo && v < hi && !(skipLoops && keySrc(k) == keyDst(k)) {
					want = append(want, k)
				}
			}
			var head *blockHead // as split keeps it, every other time
			if i%5 < 2 {
				b, hdr, err := s.head(&readBuf{}, nil, ref)
				if err != nil {
					t.Fatal(err)
				}
				head = &blockHead{groups: b.groups, hdr: int32(hdr), width: uint8(b.width)}
			}
			runs, _, err := s.appendRuns(nil, &readBuf{}, nil, ref, head, r, skipLoops)
			if err != nil {
				t.Fatalf("%d keys, by source %v, [%d, %d): %v", n, bySource, lo, hi, err)
			}
			var got []uint64
			for _, r := range runs {
				got = r.appendKeys(got, lo, hi)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%d keys, by source %v, [%d, %d): decoded %d keys, want %d", n, bySource, lo, hi, len(got), len(want))
			}
			if len(runs) == 0 {
				continue
			}
			// The same keys packed as sortUnit packs them, then sorted and unpacked.
			var count [1 << wideBits]uint32
			dstBits := runs[0].width - uint(gb)
			packed := uint(bits.Len32(runs[len(runs)-1].base-runs[0].base+uint32(gb.mask()))) + dstBits
			passes := (packed + wideBits - 1) / wideBits
			width := (packed + passes - 1) / passes
			pk := packing{dstBits: dstBits, srcLo: uint64(runs[0].base)}
			var p []uint64
			for _, r := range runs {
				p = r.appendPacked(p, lo, hi, uint64(r.base-runs[0].base), dstBits, &count, digit{mask: 1<<width - 1})
			}
			got = lsdSortPacked(p, make([]uint64, len(p)), &count, width, passes, pk)
			if want = slices.Sorted(slices.Values(want)); !slices.Equal(got, want) {
				t.Fatalf("%d keys, by source %v, [%d, %d): packed and sorted %d keys, not the %d wanted", n, bySource, lo, hi, len(got), len(want))
			}
			// And as sortUnit packs a unit too large for an LSD sort in cache: counting a
			// top digit of 1 to 11 bits for an MSD pass.
			nbits := min(uint(1+len(p)%radixBits), packed)
			d := digit{shift: packed - nbits, mask: 1<<nbits - 1}
			count = [1 << wideBits]uint32{}
			p = p[:0]
			for _, r := range runs {
				p = r.appendPacked(p, lo, hi, uint64(r.base-runs[0].base), dstBits, &count, d)
			}
			if got = msdSortPacked(p, make([]uint64, len(p)), &count, d, pk); !slices.Equal(got, want) {
				t.Fatalf("%d keys, by source %v, [%d, %d), top digit of %d bits: sorted %d keys, not the %d wanted", n, bySource, lo, hi, nbits, len(got), len(want))
			}
		}
	}
}

func TestIDIndex(t *testing.T) {
	for _, ids := range [][]uint64{{7}, {0, 1, 2}, {5, 1 << 40, 1<<40 + 1, ^uint64(0)}} {
		x := newIDIndex(ids)
		for i, id := range ids {
			if r := x.rank(id); r != uint64(i) {
				t.Fatalf("%v: rank(%d) = %d, want %d", ids, id, r, i)
			}
		}
	}
}

func TestDigitShifts(t *testing.T) {
	for _, tc := range []struct {
		varying uint64
		want    []uint
	}{
		{0, nil},
		{1, []uint{0}},
		{1<<19 - 1 | (1<<19-1)<<32, []uint{0, 11, 32, 43}},
		{1 << 63, []uint{63}},
		{^uint64(0), []uint{0, 11, 22, 33, 44, 55}},
	} {
		if got := digitShifts(tc.varying); !slices.Equal(got, tc.want) {
			t.Errorf("digitShifts(%#x) = %v, want %v", tc.varying, got, tc.want)
		}
	}
}

func BenchmarkRadixSort(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	keys := make([]uint64, 1<<20)
	for i := range keys {
		keys[i] = key(uint32(rng.IntN(1<<26)), uint32(rng.IntN(1<<26)))
	}
	a, tmp := make([]uint64, len(keys)), make([]uint64, len(keys))
	b.SetBytes(8 << 20)
	for range b.N {
		copy(a, keys)
		radixSort(a, tmp)
	}
	b.ReportMetric(float64(b.N)*float64(len(keys))/b.Elapsed().Seconds(), "keys/s")
}

func TestCheckDisk(t *testing.T) {
	dir := t.TempDir()
	if err := checkDisk(dir, 1<<10); err != nil {
		t.Fatalf("1 KiB: %v", err)
	}
	err := checkDisk(dir, 1<<62)
	if err == nil || !strings.Contains(err.Error(), "free") || !strings.Contains(err.Error(), dir) {
		t.Fatalf("4 EiB: %v", err)
	}
	if _, err := os.Stat("/proc/self"); err == nil { // a place where nothing can be created
		err := checkDisk("/proc", 1)
		if err == nil || !strings.Contains(err.Error(), "cannot create files in /proc") || strings.Contains(err.Error(), "free") {
			t.Errorf("/proc: %v, want the reason nothing can be created there", err)
		}
	}
	if need := diskNeed("x.txt.gz", 1<<30, 2); need < 4<<30 {
		t.Errorf("a 1 GiB gzip input needs only %s?", bytesize.Format(need))
	}
}

// TestEdgesDiskRefused: an input whose edge count is known before it is read (gen kron
// --scale 31: 2^35 edges) and whose graph cannot fit the disk is refused before an edge
// is produced; gen urand --scale 28 filled the disk with spill files instead. The error
// names the destination's directory in every order, also those whose first pass writes
// into a temporary directory there.
func TestEdgesDiskRefused(t *testing.T) {
	for _, order := range []string{store.OrderInput, store.OrderDegree, OrderAuto} {
		dir := t.TempDir()
		dest := filepath.Join(dir, "g.ooc")
		_, err := FromEdges(Options{Dest: dest, Order: order}, store.InputInfo{Name: "huge"}, parse.Header{Entries: 1 << 60},
			func(emit func([]parse.Edge) error) error {
				t.Error("edges produced for a graph the disk cannot hold")
				return nil
			})
		if err == nil || !strings.Contains(err.Error(), "free") || !strings.Contains(err.Error(), "1152921504606846976 input edges") {
			t.Errorf("--order %s, 2^60 edges: %v, want the disk's free space and the edge count", order, err)
		} else if !strings.HasPrefix(err.Error(), "ingest: "+dir+" has ") {
			t.Errorf("--order %s: %v, want the message to name %s", order, err, dir)
		}
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("--order %s: left behind: %v", order, left)
		}
	}
}

func TestMemTooSmall(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "g.ooc")
	_, err := fromEdges(t, []parse.Edge{{U: 0, V: 1}}, Options{Dest: dest, Mem: 1 << 20}, parse.Header{})
	if !errors.Is(err, ErrMemTooSmall) {
		t.Fatalf("1 MiB budget: %v", err)
	}
	// A budget too small for 16 workers runs fewer.
	rep, err := fromEdges(t, []parse.Edge{{U: 0, V: 1}}, Options{Dest: dest, Mem: 48 << 20, Workers: 16}, parse.Header{})
	if err != nil || rep.Workers >= 16 {
		t.Fatalf("48 MiB, 16 workers: %v", err)
	}
}

// TestMemTooSmallNamesEnough: the budget a "too small" error names passes the check that
// named it, as the message printed it (a tenth of a MiB): it said 32.6 MiB to a budget
// of 32.6 MiB, and each budget it named asked for more (26.1, 31.3, 32.4, 32.6 MiB).
func TestMemTooSmallNamesEnough(t *testing.T) {
	edges := []parse.Edge{{U: 0, V: 1}, {U: 1, V: 2}}
	for _, opt := range []Options{{}, {Directed: true}, {Workers: 1}, {Directed: true, Workers: 3}} {
		mem := int64(1)
		for step := 0; ; step++ {
			opt.Dest, opt.Mem, opt.Force = filepath.Join(t.TempDir(), "g.ooc"), mem, true
			_, err := fromEdges(t, edges, opt, parse.Header{})
			if err == nil {
				break
			}
			_, named, ok := strings.Cut(err.Error(), "allow at least ")
			named, _, _ = strings.Cut(named, ")")
			next, perr := bytesize.Parse(strings.ReplaceAll(named, " ", ""))
			if !errors.Is(err, ErrMemTooSmall) || !ok || perr != nil || step > 0 {
				t.Fatalf("directed %v, %d workers: step %d, --mem %d: %v", opt.Directed, opt.Workers, step, mem, err)
			}
			mem = next
		}
	}
}

// TestMemHuge: a budget far past the machine's memory (accepted: the budget is a bound,
// not a reservation) ingests as a large one does. At 7 EiB the budget's long-lived part
// overflowed to "too small"; from about 100 PiB the spills' slab tables, sized for the
// budget, did not fit the address space (a fatal out-of-memory).
func TestMemHuge(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "g.txt")
	if err := os.WriteFile(src, []byte("0 1\n1 2\n2 0\n3 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, mem := range []int64{1 << 57, 7 << 60, math.MaxInt64} {
		for _, opt := range []Options{{}, {Order: store.OrderDegree, Directed: true}} {
			opt.Dest, opt.Mem = filepath.Join(dir, fmt.Sprintf("g%d%v.ooc", i, opt.Directed)), mem
			if _, err := File(src, opt); err != nil {
				t.Fatalf("--mem %d, order %q, directed %v: %v", mem, opt.Order, opt.Directed, err)
			}
			if _, err := store.Verify(opt.Dest); err != nil {
				t.Fatalf("--mem %d: %v", mem, err)
			}
		}
	}
}

// TestRelabelFile: with --relabel a 1-based file's ids come back as the file wrote them,
// and 64-bit ids are accepted.
func TestRelabelFile(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, content string
		ids           []uint64
		edges         uint64
	}{
		{"g.mtx", "%%MatrixMarket matrix coordinate pattern general\n10 10 3\n1 5\n5 10\n10 1\n", []uint64{1, 5, 10}, 6},
		{"g.txt", "18446744073709551614 7\n7 4294967296\n", []uint64{7, 1 << 32, 1<<64 - 2}, 4},
	} {
		src := filepath.Join(dir, tc.name)
		if err := os.WriteFile(src, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		dest := filepath.Join(dir, tc.name+".ooc")
		rep, err := File(src, Options{Dest: dest, Relabel: true})
		if err != nil {
			t.Fatal(err)
		}
		g, err := store.Open(dest)
		if err != nil {
			t.Fatal(err)
		}
		var ids []uint64
		for v := uint32(0); v < g.NumVertices(); v++ {
			ids = append(ids, g.External(v))
		}
		if !slices.Equal(ids, tc.ids) || rep.Manifest.Edges != tc.edges {
			t.Errorf("%s: ids %v (want %v), %d edges", tc.name, ids, tc.ids, rep.Manifest.Edges)
		}
		g.Close()
	}
}

// TestSymmetricSplit: a symmetric input read --directed, with partitions split into
// many sub-ranges, stores the undirected graph's lists in both directions.
func TestSymmetricSplit(t *testing.T) {
	rng, seed := seededRand(t, 4)
	edges := append(randomEdges(rng, 2<<partShift, 20000), randomEdges(rng, 500, 8000)...)
	dir := t.TempDir()
	und := Options{Dest: filepath.Join(dir, "u.ooc"), taskKeys: 3000, chunkKeys: 5000}
	sym := Options{Dest: filepath.Join(dir, "s.ooc"), Directed: true, taskKeys: 3000, chunkKeys: 5000}
	ru, err := fromEdges(t, edges, und, parse.Header{})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := fromEdges(t, edges, sym, parse.Header{Symmetric: true})
	if err != nil {
		t.Fatal(err)
	}
	// the undirected ingest tells reciprocal pairs from duplicates, the symmetric
	// directed one does not
	if mu, ms := ru.Manifest, rs.Manifest; mu.Edges != ms.Edges || mu.MergedEdges() != ms.DuplicatesDropped || mu.SelfLoopsDropped != ms.SelfLoopsDropped {
		t.Fatalf("seed %d: undirected %d edges %d merged %d loops, symmetric directed %d %d %d", seed,
			mu.Edges, mu.MergedEdges(), mu.SelfLoopsDropped, ms.Edges, ms.DuplicatesDropped, ms.SelfLoopsDropped)
	}
	w := reference(edges, und)
	w.in, w.oriented = w.out, false // a directed ingest counts reciprocal pairs with the duplicates
	checkGraph(t, sym.Dest, w, sym)
}

// TestHub: a vertex of more edges than a task aims at gets a task of its own; one of
// more than the budget can sort fails with a clear message.
func TestHub(t *testing.T) {
	star := func(n int) []parse.Edge {
		e := make([]parse.Edge, n)
		for i := range e {
			e[i] = parse.Edge{U: 0, V: uint64(i + 1)}
		}
		return e
	}
	dest := filepath.Join(t.TempDir(), "g.ooc")
	edges := star(5000)
	opt := Options{Dest: dest, taskKeys: 1000}
	if _, err := fromEdges(t, edges, opt, parse.Header{}); err != nil {
		t.Fatal(err)
	}
	checkGraph(t, dest, reference(edges, opt), opt)
	if testing.Short() {
		return
	}
	_, err := fromEdges(t, star(900_000), Options{Dest: filepath.Join(t.TempDir(), "g.ooc"), Mem: 48 << 20}, parse.Header{})
	if err == nil || !strings.Contains(err.Error(), "raise --mem") {
		t.Fatalf("a hub of 900000 edges in 48 MiB: %v", err)
	}
}

// TestRelabelNoEdges: an input without edges, relabeled, gives a graph that verifies:
// no vertices, since --relabel numbers the distinct ids and none occurs (ids.bin is
// written while phase 2 runs and must agree with the manifest's count).
func TestRelabelNoEdges(t *testing.T) {
	src := filepath.Join(t.TempDir(), "g.mtx")
	if err := os.WriteFile(src, []byte("%%MatrixMarket matrix coordinate pattern general\n5 5 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(t.TempDir(), "g.ooc")
	if _, err := File(src, Options{Dest: dest, Relabel: true}); err != nil {
		t.Fatal(err)
	}
	m, err := store.Verify(dest)
	if err != nil {
		t.Fatal(err)
	}
	if m.Vertices != 0 || m.Edges != 0 {
		t.Errorf("%d vertices, %d edges; want 0, 0", m.Vertices, m.Edges)
	}
}

// TestRelabelDense: when every id below n occurs, relabeling is the identity, so the
// shards must be byte-identical to a plain ingest's, but for the graph's identity (the
// relabeled graph has an ids.bin) and the header checksum that covers it.
func TestRelabelDense(t *testing.T) {
	rng, seed := seededRand(t, 5)
	const n = 3000
	edges := randomEdges(rng, n, 20000)
	for i := uint64(0); i+1 < n; i++ {
		edges = append(edges, parse.Edge{U: i, V: i + 1})
	}
	dir := t.TempDir()
	for _, directed := range []bool{false, true} {
		plain := Options{Dest: filepath.Join(dir, fmt.Sprint("p", directed)), Directed: directed}
		relab := Options{Dest: filepath.Join(dir, fmt.Sprint("r", directed)), Directed: directed, Relabel: true, Workers: 3}
		for _, o := range []Options{plain, relab} {
			if _, err := fromEdges(t, edges, o, parse.Header{}); err != nil {
				t.Fatal(err)
			}
		}
		a, b := shardFiles(t, plain.Dest), shardFiles(t, relab.Dest)
		if len(a) != len(b) {
			t.Fatalf("%d and %d shards", len(a), len(b))
		}
		for name := range a {
			if !bytes.Equal(withoutIdentity(a[name]), withoutIdentity(b[name])) {
				t.Errorf("seed %d, directed %v: %s differs", seed, directed, name)
			}
		}
	}
}

// withoutIdentity is a shard's bytes with the graph identity, the header checksum and
// its copy in the footer zeroed (store/FORMAT.md, version 3).
func withoutIdentity(b []byte) []byte {
	b = bytes.Clone(b)
	if len(b) >= 4096+16 {
		clear(b[4084:4096])
		clear(b[len(b)-12 : len(b)-8])
	}
	return b
}

// TestDegreeOrder: internal ids follow descending input degree (ties by ascending id), the
// stored lists are the input's under that numbering, and ids.bin maps every vertex back,
// including the 1-based ids of a MatrixMarket file and isolated vertices from its header.
func TestDegreeOrder(t *testing.T) {
	rng, seed := seededRand(t, 8)
	// distinct edges, no self-loops: stored degrees then equal input degrees
	seen := map[[2]uint64]bool{}
	var edges []parse.Edge
	for len(edges) < 20000 {
		u, v := rng.Uint64N(5000), rng.Uint64N(5000)
		if rng.IntN(4) == 0 {
			u = rng.Uint64N(20) // hubs
		}
		if u == v || seen[[2]uint64{u, v}] || seen[[2]uint64{v, u}] {
			continue
		}
		seen[[2]uint64{u, v}] = true
		edges = append(edges, parse.Edge{U: u, V: v})
	}
	for _, directed := range []bool{false, true} {
		opt := Options{Dest: filepath.Join(t.TempDir(), "g.ooc"), Order: store.OrderDegree, Directed: directed,
			Workers: 3, chunkKeys: 2000, ShardBytes: 8192}
		if _, err := fromEdges(t, edges, opt, parse.Header{Vertices: 5100}); err != nil {
			t.Fatal(err)
		}
		w := reference(edges, opt)
		w.n = 5100
		m := checkGraph(t, opt.Dest, w, opt)
		if m.VertexOrder != store.OrderDegree || m.Relabeled || m.IDs == nil || m.IDBase != 0 {
			t.Fatalf("manifest: order %q, relabeled %v, ids %v, id base %d", m.VertexOrder, m.Relabeled, m.IDs, m.IDBase)
		}
		g, err := store.Open(opt.Dest)
		if err != nil {
			t.Fatal(err)
		}
		deg := func(v uint32) uint32 {
			d := g.Out().ShardOf(v).Degree(v)
			if directed {
				d += g.In().ShardOf(v).Degree(v)
			}
			return d
		}
		for v := uint32(0); v < g.NumVertices(); v++ {
			if u, err := g.Internal(g.External(v)); err != nil || u != v {
				t.Fatalf("Internal(External(%d)) = %d, %v", v, u, err)
			}
			if v == 0 {
				continue
			}
			a, b := deg(v-1), deg(v)
			if a < b || (a == b && g.External(v-1) >= g.External(v)) {
				t.Fatalf("seed %d, directed %v: vertex %d (id %d, degree %d) before vertex %d (id %d, degree %d)",
					seed, directed, v-1, g.External(v-1), a, v, g.External(v), b)
			}
		}
		if _, err := g.Internal(5100); !errors.Is(err, store.ErrNoVertex) {
			t.Errorf("Internal(5100) = %v, want ErrNoVertex", err)
		}
		g.Close()
	}

	src := filepath.Join(t.TempDir(), "g.mtx")
	mtx := "%%MatrixMarket matrix coordinate pattern general\n7 7 4\n1 5\n5 2\n5 6\n2 6\n"
	if err := os.WriteFile(src, []byte(mtx), 0o644); err != nil {
		t.Fatal(err)
	}
	dest := src + ".ooc"
	if _, err := File(src, Options{Dest: dest, Order: store.OrderDegree}); err != nil {
		t.Fatal(err)
	}
	g, err := store.Open(dest)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	var ids []uint64
	for v := uint32(0); v < g.NumVertices(); v++ {
		ids = append(ids, g.External(v))
	}
	// degrees: 5 has 3, 2 and 6 have 2, 1 has 1, 3, 4 and 7 none
	if want := []uint64{5, 2, 6, 1, 3, 4, 7}; !slices.Equal(ids, want) {
		t.Errorf("mtx ids in internal order %v, want %v", ids, want)
	}
}

// TestOrderAuto: the automatic order picks the degree order for a skewed graph numbered at
// random and the file's order for one whose numbering has locality (a grid), estimates
// the size it will get, and decides the same whatever the workers and chunk sizes (the
// sample's rate grows past its cap here).
func TestOrderAuto(t *testing.T) {
	seed := testseed.Seed(t)
	skewed := kronEdges(t, 15, seed)
	slices.SortFunc(skewed, func(a, b parse.Edge) int { return cmp.Or(cmp.Compare(a.U, b.U), cmp.Compare(a.V, b.V)) })
	grid := gridEdges(256, 256)
	for _, c := range []struct {
		name   string
		edges  []parse.Edge
		degree bool
	}{{"skewed", skewed, true}, {"grid", grid, false}} {
		var first *OrderEstimate
		for i, opt := range []Options{{Workers: 1, sampleCap: 1 << 18}, {Workers: 3, chunkKeys: 5000, sampleCap: 1 << 18}} {
			opt.Order, opt.Dest = OrderAuto, filepath.Join(t.TempDir(), "g.ooc")
			rep, err := fromEdges(t, c.edges, opt, parse.Header{})
			if err != nil {
				t.Fatal(err)
			}
			e := rep.Order
			if e == nil || e.ChoseDegree != c.degree || (rep.Manifest.VertexOrder == store.OrderDegree) != c.degree {
				t.Fatalf("seed %d, %s: estimate %+v, vertex order %q; want degree %v", seed, c.name, e, rep.Manifest.VertexOrder, c.degree)
			}
			if i == 0 {
				first = e
				if c.name == "skewed" && e.SampleRate < 2 {
					t.Errorf("%s: sample rate %d, the test means to outgrow the cap", c.name, e.SampleRate)
				}
				// the estimate is of the ADJ sections (and ids.bin): compare with them
				g, err := store.Open(opt.Dest)
				if err != nil {
					t.Fatal(err)
				}
				var adj int64
				for _, sh := range g.Shards() {
					adj += int64(len(sh.Adj))
				}
				if rep.Manifest.IDs != nil {
					adj += rep.Manifest.IDs.Bytes
				}
				g.Close()
				got := e.InputBytes
				if c.degree {
					got = e.DegreeBytes
				}
				if r := float64(got) / float64(adj); r < 0.8 || r > 1.25 {
					t.Errorf("seed %d, %s: estimated %d bytes, stored %d", seed, c.name, got, adj)
				}
			} else if *e != *first {
				t.Errorf("seed %d, %s: estimate %+v with other workers, %+v before", seed, c.name, e, first)
			}
			checkGraph(t, opt.Dest, reference(c.edges, opt), opt)
		}
	}
}

// TestLoopOnlyTopVertex: the largest id appears only in a dropped self-loop; it still
// sets the vertex count, in every order (the degree order's scan once missed it and
// replay indexed past its permutation: a 2.5% flake of TestRoundTrip/degree).
func TestLoopOnlyTopVertex(t *testing.T) {
	edges := []parse.Edge{{U: 0, V: 1}, {U: 2, V: 1}, {U: 9, V: 9}, {U: 3, V: 3}}
	for _, order := range []string{store.OrderInput, store.OrderDegree, OrderAuto} {
		for _, directed := range []bool{false, true} {
			opt := Options{Dest: filepath.Join(t.TempDir(), "g.ooc"), Order: order, Directed: directed}
			if _, err := fromEdges(t, edges, opt, parse.Header{}); err != nil {
				t.Fatalf("order %q directed %v: %v", order, directed, err)
			}
			if m := checkGraph(t, opt.Dest, reference(edges, opt), opt); m.Vertices != 10 {
				t.Errorf("order %q directed %v: %d vertices, want 10", order, directed, m.Vertices)
			}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestSparseIDs: ids far apart make a graph of many vertices without edges. The degree
// order's per-vertex arrays would not fit the budget: --order degree says so, and the
// automatic order keeps the file's order without trying.
func TestSparseIDs(t *testing.T) {
	t.Parallel()
	edges := []parse.Edge{{U: 0, V: 1}, {U: sparseID, V: 2}}
	opt := Options{Mem: 48 << 20, Workers: 2, Order: store.OrderDegree, SparseIDs: true}
	opt.Dest = filepath.Join(t.TempDir(), "degree.ooc")
	if _, err := fromEdges(t, edges, opt, parse.Header{}); !errors.Is(err, ErrMemTooSmall) {
		t.Fatalf("--order degree with %d vertices under 48 MiB: %v, want ErrMemTooSmall", sparseID+1, err)
	}
	if _, err := os.Stat(opt.Dest); !os.IsNotExist(err) {
		t.Fatalf("a failed ingest left %s", opt.Dest)
	}
	opt.Order = OrderAuto
	opt.Dest = filepath.Join(t.TempDir(), "auto.ooc")
	rep, err := fromEdges(t, edges, opt, parse.Header{})
	if err != nil {
		t.Fatal(err)
	}
	if m := rep.Manifest; m.VertexOrder != store.OrderInput || m.Vertices != sparseID+1 || m.Edges != 4 || rep.Order == nil || rep.Order.Skipped == "" {
		t.Fatalf("auto: order %q, %d vertices, %d edges, estimate %+v; want the input order, %d vertices, 4 edges, the estimate skipped",
			m.VertexOrder, m.Vertices, m.Edges, rep.Order, sparseID+1)
	}
	checkGraph(t, opt.Dest, reference(edges, opt), opt)
}

// TestSparseRefusedNamesInput: ids far apart without --relabel or --sparse-ids are
// refused as bad input naming the file as the parser's errors do, by its path as given
// (the message named no file: "4294967295 vertices ... for 1 input edges"; then its
// base name alone). An undirected stream's id past the orientation limit names
// standard input as the parser does, <stdin> (it said "-").
func TestSparseRefusedNamesInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "far.txt")
	if err := os.WriteFile(in, []byte("0 4294967294\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := File(in, Options{Dest: filepath.Join(dir, "g.ooc"), Workers: 1, Order: store.OrderInput})
	if !errors.Is(err, parse.ErrBadInput) || !strings.Contains(err.Error(), in+": 4294967295 vertices (the largest id + 1) for 1 input edge,") {
		t.Errorf("%v, want a bad input naming %s and its one edge", err, in)
	}
	_, err = FileFrom(strings.NewReader("0 1\n4000000000 1\n"), "-", -1, Options{Dest: filepath.Join(dir, "s.ooc"), Order: store.OrderInput})
	if !errors.Is(err, parse.ErrBadInput) || !strings.HasPrefix(err.Error(), "ingest: <stdin>: vertex id 4000000000 is") {
		t.Errorf("from standard input: %v, want it named <stdin>", err)
	}
}

// TestRelabelEmptyMatrix: --relabel numbers the distinct ids, so a MatrixMarket matrix
// of no entries relabels to a graph of no vertices in every order (the degree order gave
// 0, the others the size line's 5: vertexCount fell back to the header).
func TestRelabelEmptyMatrix(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "empty.mtx")
	if err := os.WriteFile(in, []byte("%%MatrixMarket matrix coordinate pattern general\n5 5 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, order := range []string{store.OrderInput, store.OrderDegree, "bfs", "bisect", OrderAuto} {
		rep, err := File(in, Options{Dest: filepath.Join(dir, order+".ooc"), Workers: 1, Order: order, Relabel: true})
		if err != nil || rep.Manifest.Vertices != 0 {
			t.Errorf("--order %s --relabel: %v, %+v; want 0 vertices", order, err, rep)
		}
	}
}

// TestMergeOriented: one source's oriented keys lose their bit and their repeats; a
// neighbour above the source in both orientations is a pair, one below it or the source
// itself never is.
func TestMergeOriented(t *testing.T) {
	const s = 7
	k := func(dst, o uint32) uint64 { return orientedKey(s, dst, o) }
	list := []uint64{k(2, 0), k(2, 1), k(5, 1), k(5, 1), k(7, 0), k(7, 0), k(9, 0), k(9, 0), k(9, 1), k(9, 1), k(11, 0), k(12, 1), k(1<<31-1, 0), k(1<<31-1, 1)}
	got, pairs := mergeOriented(list, s)
	want := []uint64{key(s, 2), key(s, 5), key(s, 7), key(s, 9), key(s, 11), key(s, 12), key(s, 1<<31-1)}
	if !slices.Equal(got, want) || pairs != 2 {
		t.Errorf("got %x and %d pairs, want %x and 2", got, pairs, want)
	}
}

// TestShardBytesRange: Options.ShardBytes below 0 meant the default, and above 4 GiB
// was taken by the weighted path until its first shard past 4 GiB was written; ooc
// ingest's --shard-size refuses both. Every path refuses them before reading.
func TestShardBytesRange(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "g.txt")
	if err := os.WriteFile(in, []byte("0 1 3\n1 2 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, weights := range []bool{false, true} {
		for _, sb := range []int64{-1, store.MaxShardBytes + 1, math.MaxInt64} {
			dest := filepath.Join(dir, "g.ooc")
			_, err := File(in, Options{Dest: dest, ShardBytes: sb, Weights: weights})
			if !errors.Is(err, store.ErrBadShardBytes) || !strings.Contains(err.Error(), fmt.Sprintf("ShardBytes %d", sb)) {
				t.Errorf("weights %v, ShardBytes %d: %v", weights, sb, err)
			}
			if _, err := os.Stat(dest); !os.IsNotExist(err) {
				t.Errorf("weights %v, ShardBytes %d: %s left behind (%v)", weights, sb, dest, err)
			}
		}
		if _, err := File(in, Options{Dest: filepath.Join(dir, "ok.ooc"), Force: true, ShardBytes: store.MaxShardBytes, Weights: weights}); err != nil {
			t.Errorf("weights %v, ShardBytes MaxShardBytes: %v", weights, err)
		}
	}
	// FromWeightedEdges (gen --weights through the API) refuses before it produces
	produced := false
	_, err := FromWeightedEdges(Options{Dest: filepath.Join(dir, "w.ooc"), ShardBytes: -1}, store.InputInfo{Name: "test"}, parse.Header{}, func(emit func(parse.WEdge) error) error {
		produced = true
		return emit(parse.WEdge{U: 0, V: 1, W: 1})
	})
	if !errors.Is(err, store.ErrBadShardBytes) || produced {
		t.Errorf("FromWeightedEdges, ShardBytes -1: %v, edges produced %v", err, produced)
	}
}

// TestWeightOptionsChecked: Columns or WeightColumn on a text input were refused
// without Weights and ignored with it (ooc ingest --weights --columns a,b,c w.txt
// exited 0); FloatWeights or WeightColumn without Weights were ignored, where ooc
// ingest refuses --float-weights alone. Each is refused, naming what was given.
func TestWeightOptionsChecked(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "w.txt")
	if err := os.WriteFile(in, []byte("0 1 3\n1 2 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		opt  Options
		want string
	}{
		{Options{Weights: true, Columns: [2]string{"a", "b"}}, "--columns names Parquet columns"},
		{Options{Weights: true, WeightColumn: "w"}, "--columns names Parquet columns"},
		{Options{Weights: true, Columns: [2]string{"a", "b"}, Order: "degree"}, "--columns names Parquet columns"},
		{Options{FloatWeights: true}, "Options.FloatWeights reads weights"},
		{Options{WeightColumn: "w"}, `Options.WeightColumn "w"`},
	} {
		c.opt.Dest = filepath.Join(dir, "g.ooc")
		_, err := File(in, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.opt, err, c.want)
		}
		if _, err := os.Stat(c.opt.Dest); !os.IsNotExist(err) {
			t.Errorf("%+v: %s left behind (%v)", c.opt, c.opt.Dest, err)
		}
	}
}

// TestWidthMeantChecked: WidthMeant reads a bin32 star on vertex 0 under a name that
// does not end .bin32 (refused without it), and without Format bin32 it is refused
// before the input is read.
func TestWidthMeantChecked(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "star.dat")
	if err := os.WriteFile(in, []byte{1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0}, 0o644); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(dir, "g.ooc")
	for _, opt := range []Options{{WidthMeant: true}, {WidthMeant: true, Format: parse.FormatBin64}, {Format: parse.FormatBin32}} {
		opt.Dest = dest
		if _, err := File(in, opt); err == nil || !errors.Is(err, parse.ErrBadInput) || !strings.Contains(err.Error(), "WidthMeant") && !strings.Contains(err.Error(), "--width-meant") {
			t.Errorf("%+v: %v, want a refusal naming WidthMeant or --width-meant", opt, err)
		}
		if _, err := os.Stat(dest); !os.IsNotExist(err) {
			t.Fatalf("%+v: %s left behind (%v)", opt, dest, err)
		}
	}
	rep, err := File(in, Options{Dest: dest, Format: parse.FormatBin32, WidthMeant: true, Order: store.OrderInput})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Manifest.Vertices != 3 || rep.Manifest.Edges != 4 {
		t.Errorf("%d vertices, %d edges; want the star 1-0, 2-0: 3 and 4", rep.Manifest.Vertices, rep.Manifest.Edges)
	}
}

// TestNegativeMemWorkersRefused: a negative Mem or Workers, or Workers past 4096, is
// refused naming the field, before any input is read or edge produced, as the CLI
// refuses --mem and --workers below 0 and --workers past 4096 (0 asks for the default in
// both).
func TestNegativeMemWorkersRefused(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "g.txt")
	if err := os.WriteFile(in, []byte("0 1 3\n1 2 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(dir, "g.ooc")
	for _, weights := range []bool{false, true} {
		for _, c := range []struct {
			opt  Options
			want string
		}{{Options{Mem: -1}, "Options.Mem -1"}, {Options{Workers: -1}, "Options.Workers -1"}, {Options{Mem: math.MinInt64}, "Options.Mem"},
			{Options{Workers: 4097}, "Options.Workers 4097"}} {
			c.opt.Dest, c.opt.Weights = dest, weights
			_, err := File(in, c.opt)
			if !errors.Is(err, parse.ErrBadInput) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("weights %v, %+v: %v, want a refusal naming %q", weights, c.opt, err, c.want)
			}
			if _, err := os.Stat(dest); !os.IsNotExist(err) {
				t.Fatalf("weights %v, %+v: %s left behind (%v)", weights, c.opt, dest, err)
			}
			produced := false
			produce := func(emit func(parse.WEdge) error) error { produced = true; return emit(parse.WEdge{U: 0, V: 1, W: 1}) }
			if _, err := FromWeightedEdges(c.opt, store.InputInfo{Name: "test"}, parse.Header{}, produce); !strings.Contains(fmt.Sprint(err), c.want) || produced {
				t.Errorf("FromWeightedEdges %+v: %v, edges produced %v", c.opt, err, produced)
			}
		}
	}
	if _, err := File(in, Options{Dest: dest, Mem: 0, Workers: 0}); err != nil {
		t.Errorf("Mem and Workers 0 (the defaults): %v", err)
	}
}

// TestEmptyInputName: File("") is refused as bad input naming the empty name, before a
// graph is made.
func TestEmptyInputName(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "g.ooc")
	_, err := File("", Options{Dest: dest})
	if !errors.Is(err, parse.ErrBadInput) || !strings.Contains(err.Error(), "an empty input name") {
		t.Errorf("File(\"\"): %v", err)
	}
	if _, err := os.Stat(dest); !os.IsNotExist(err) {
		t.Errorf("%s made (%v)", dest, err)
	}
}
