package bfs

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/ingest"
	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/internal/testseed"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

// refLevels is a plain sequential queue BFS over adjacency lists: the oracle.
func refLevels(out [][]uint32, src uint32) []uint32 {
	level := make([]uint32, len(out))
	for i := range level {
		level[i] = Unreached
	}
	level[src] = 0
	q := []uint32{src}
	for len(q) > 0 {
		u := q[0]
		q = q[1:]
		for _, v := range out[u] {
			if level[v] == Unreached {
				level[v] = level[u] + 1
				q = append(q, v)
			}
		}
	}
	return level
}

// levelsFromParents derives each vertex's level from the parent tree, as Graph500's
// validation does: the source's is 0, and a reached vertex's its parent's plus one. It
// fails on a parent out of range and on a chain of parents that does not end at src.
func levelsFromParents(parent []uint32, src uint32) ([]uint32, error) {
	n := uint32(len(parent))
	level := make([]uint32, n)
	for i := range level {
		level[i] = Unreached
	}
	if src >= n || parent[src] != src {
		return nil, fmt.Errorf("source %d is not its own parent", src)
	}
	level[src] = 0
	var chain []uint32
	for v := range n {
		chain = chain[:0]
		x := v
		for parent[x] != Unreached && level[x] == Unreached {
			if parent[x] >= n || uint32(len(chain)) >= n {
				return nil, fmt.Errorf("vertex %d: its chain of parents leaves the graph or does not end at the source", v)
			}
			chain = append(chain, x)
			x = parent[x]
		}
		if parent[x] == Unreached && len(chain) > 0 {
			return nil, fmt.Errorf("vertex %d: an ancestor of it, %d, has no parent", v, x)
		}
		for i := len(chain) - 1; i >= 0; i-- {
			level[chain[i]] = level[parent[chain[i]]] + 1
		}
	}
	return level, nil
}

// resultLevels is r.Level, or where the search ran with NoLevels (and left it nil, as
// it must) the levels derived from its parents.
func resultLevels(t *testing.T, where string, r *Result, opt Options, src uint32) []uint32 {
	t.Helper()
	if !opt.NoLevels {
		return r.Level
	}
	if r.Level != nil {
		t.Fatalf("%s: NoLevels, yet %d levels", where, len(r.Level))
	}
	lev, err := levelsFromParents(r.Parent, src)
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	return lev
}

// variants are the option sets every graph is searched with: the default switching;
// bottom-up from the first level on and to the end (a huge alpha makes the threshold 0,
// a huge beta keeps it bottom-up while anything wakes, and no cost estimate switches
// back); never bottom-up (with alpha 1 the frontier's edges never exceed the unchecked
// ones); and bottom-up from the first level with a switch back top-down as soon as the
// frontier shrinks (beta 1) on directed graphs, by the estimate alone on undirected ones.
var variants = []Options{
	{},
	{Alpha: 1 << 30, Beta: 1 << 30, StrictSwitch: true},
	{Alpha: 1},
	{Alpha: 1 << 30, Beta: 1},
}

// checkAll runs BFS from every source in srcs on the graph built with each shard size,
// on the compressed shards and on the flat CSR, with 1 and 3 workers, and compares the
// levels with the oracle and the whole result with the validator.
func checkAll(t *testing.T, name string, n uint32, edges []testgraph.Edge, directed bool, srcs []uint32) {
	t.Helper()
	defer func(p uint32, s, w uint64, k int, c, cp uint32, f, bs uint64, pp uint32) {
		pieceSize, serialEdges, serialWork, scoutSample, claimAllMax, cachedParents, buFirst, buScan, prefetchParentsMin = p, s, w, k, c, cp, f, bs, pp
	}(pieceSize, serialEdges, serialWork, scoutSample, claimAllMax, cachedParents, buFirst, buScan, prefetchParentsMin)
	out, _ := testgraph.Lists(n, edges, directed)
	for si, shardBytes := range []int64{1, 64, 0} {
		// serial top-down claims short lists with and without a branch (claimAllMax)
		claimAllMax = [3]uint32{^uint32(0), 0, ^uint32(0)}[si]
		// and with their lists of one varint decoded first (oneVarints), or not
		prefetchParentsMin = [3]uint32{0, 0, ^uint32(0)}[si]
		// bottom-up entries weighed as in a cached graph's search and as in a larger one's
		cachedParents = [3]uint32{^uint32(0), ^uint32(0), 0}[si]
		g := testgraph.Build(t, n, edges, directed, shardBytes)
		if err := g.Check(); err != nil {
			t.Fatal(err)
		}
		flat, err := store.NewFlat(g)
		if err != nil {
			t.Fatal(err)
		}
		for i, src := range srcs {
			want := refLevels(out, src)
			// every other source splits lists into one-block pieces (see topDown),
			// estimates the degrees of frontiers of more than 8 vertices (frontierScout)
			// and lets two draws decide a direction (buFirst: these graphs' estimates
			// draw 32); every third weighs bottom-up without its fixed cost (buScan), so
			// that small frontiers of these small graphs go bottom-up too
			pieceSize = [2]uint32{64 * store.BlockSize, store.BlockSize}[i%2]
			scoutSample = [2]int{4096, 2}[i%2]
			buFirst = [2]uint64{32, 2}[i%2]
			buScan = [3]uint64{16, 16, 0}[i%3]
			for _, a := range []store.Adjacency{store.NewCompressed(g), flat} {
				// three workers, then one goroutine because the graph is small
				// (serialWork ^0) or one worker was asked for
				for wi, workers := range []int{3, 3, 1} {
					serialWork = [3]uint64{0, ^uint64(0), 0}[wi]
					for vi, opt := range variants {
						opt.Workers = workers
						// every other run writes parents alone
						opt.NoLevels = (i+wi+vi)%2 == 1
						// every other run expands small frontiers on one goroutine (topDown)
						serialEdges = [2]uint64{0, ^uint64(0)}[(vi+workers)%2]
						where := fmt.Sprintf("%s shardBytes=%d src=%d %T workers=%d serialWork=%d variant=%d serial=%d claimAllMax=%d noLevels=%v", name, shardBytes, src, a, workers, serialWork, vi, serialEdges, claimAllMax, opt.NoLevels)
						r, err := Run(a, src, opt)
						if err != nil {
							t.Fatalf("%s: %v", where, err)
						}
						level := resultLevels(t, where, r, opt, src)
						if !slices.Equal(level, want) {
							t.Fatalf("%s: levels\n got %v\nwant %v", where, level, want)
						}
						if err := validate.BFS(g, src, r.Parent, level); err != nil {
							t.Fatalf("%s: %v", where, err)
						}
						checkSummary(t, where, r, level, out, directed)
						checkDirections(t, where, vi, r, n, directed)
						if vi == 0 {
							checkWholeScout(t, where, a, src, opt, r)
						}
					}
				}
			}
		}
	}
}

// checkWholeScout runs the search again with frontier degrees summed whole before each
// direction decision (scoutChunk past any frontier), and again with the draws of each
// decision to go bottom-up taken whole (drawsStop off), and wants the same levels:
// sizes, directions and entries examined.
func checkWholeScout(t *testing.T, where string, a store.Adjacency, src uint32, opt Options, r *Result) {
	t.Helper()
	type level struct {
		dir             string
		frontier, edges uint64
	}
	levels := func(r *Result) (ls []level) {
		for _, l := range r.Levels {
			ls = append(ls, level{l.Direction, l.Frontier, l.EdgesExamined})
		}
		return ls
	}
	for _, c := range []struct {
		name string
		set  func() (undo func())
	}{
		{"whole degree sums", func() func() {
			c := scoutChunk
			scoutChunk = 1 << 30
			return func() { scoutChunk = c }
		}},
		{"whole draws", func() func() {
			drawsStop = false
			return func() { drawsStop = true }
		}},
	} {
		undo := c.set()
		whole, err := Run(a, src, opt)
		undo()
		if err != nil {
			t.Fatalf("%s: %s: %v", where, c.name, err)
		}
		if got, want := levels(r), levels(whole); !slices.Equal(got, want) {
			t.Fatalf("%s: levels\n got %v\nwith %s %v", where, got, c.name, want)
		}
	}
}

// checkSummary checks r's Reached, Depth, EdgesTraversed and level records against
// level, its levels (r.Level or those its parents give).
func checkSummary(t *testing.T, where string, r *Result, level []uint32, out [][]uint32, directed bool) {
	t.Helper()
	var reached, edges uint64
	var depth uint32
	for v, l := range level {
		if l != Unreached {
			reached++
			depth = max(depth, l)
			edges += uint64(len(out[v]))
		}
	}
	if !directed {
		edges /= 2
	}
	if r.Reached != reached || r.Depth != depth || r.EdgesTraversed != edges {
		t.Fatalf("%s: reached %d depth %d edges %d, want %d %d %d", where, r.Reached, r.Depth, r.EdgesTraversed, reached, depth, edges)
	}
	var frontier uint64
	var secs float64
	for _, s := range r.Levels {
		frontier += s.Frontier
		if s.Seconds < 0 {
			t.Fatalf("%s: level %d took %g s", where, s.Level, s.Seconds)
		}
		secs += s.Seconds
	}
	if frontier != reached {
		t.Fatalf("%s: per-level frontiers sum to %d, reached %d", where, frontier, reached)
	}
	if secs > r.Seconds*(1+1e-9) {
		t.Fatalf("%s: levels took %g s together, the search %g s", where, secs, r.Seconds)
	}
}

func TestBFSCases(t *testing.T) {
	for _, c := range testgraph.Cases() {
		var srcs []uint32
		for v := uint32(0); v < c.N && v < 4; v++ {
			srcs = append(srcs, v)
		}
		if c.N > 4 {
			srcs = append(srcs, c.N-1)
		}
		checkAll(t, c.String(), c.N, c.Edges, c.Directed, srcs)
	}
}

func TestBFSRandom(t *testing.T) {
	seed := testseed.Seed(t)
	r := rand.New(rand.NewPCG(seed, 1))
	for i := 0; i < 6; i++ {
		n := uint32(1 + r.IntN(400))
		m := r.IntN(int(n) * 6)
		directed := i%2 == 1
		edges := testgraph.Random(r, n, m)
		// a hub makes lists span several blocks
		for v := uint32(0); v < n; v += 2 {
			edges = append(edges, testgraph.Edge{U: n / 2, V: v})
		}
		srcs := []uint32{uint32(r.IntN(int(n))), n / 2}
		checkAll(t, fmt.Sprintf("random#%d(n=%d,m=%d,directed=%v,seed=%d)", i, n, len(edges), directed, seed), n, edges, directed, srcs)
	}
}

// TestBFSHighDiameter searches graphs of thousands of small levels, where topDown
// expands most frontiers on one goroutine: a path of 10^5 vertices numbered in order and
// shuffled, and a long thin grid, with the default settings and with the serial path
// off and always on. The path's and the grid's lists are of one-byte values, which
// expandSerial decodes inline; the shuffled path's are not, and go through DecodeBlock.
func TestBFSHighDiameter(t *testing.T) {
	const n = 100000
	r := rand.New(rand.NewPCG(5, 5))
	perm := r.Perm(n)
	var path, shuffled, grid []testgraph.Edge
	for v := uint32(0); v+1 < n; v++ {
		path = append(path, testgraph.Edge{U: v, V: v + 1})
		shuffled = append(shuffled, testgraph.Edge{U: uint32(perm[v]), V: uint32(perm[v+1])})
	}
	const width = 4 // a 4 x 25000 grid: frontiers of a few vertices, depth about 25000
	for v := uint32(0); v < n; v++ {
		if v%width != width-1 {
			grid = append(grid, testgraph.Edge{U: v, V: v + 1})
		}
		if v+width < n {
			grid = append(grid, testgraph.Edge{U: v, V: v + width})
		}
	}
	for _, c := range []struct {
		name  string
		edges []testgraph.Edge
		srcs  []uint32
	}{
		{"path", path, []uint32{0, n / 2, n - 1}},
		{"shuffled path", shuffled, []uint32{uint32(perm[0]), uint32(perm[n/3])}},
		{"grid", grid, []uint32{0, n/2 + 1}},
	} {
		g := testgraph.Build(t, n, c.edges, false, 0)
		out, _ := testgraph.Lists(n, c.edges, false)
		checkLevels(t, c.name, g, out, c.srcs)
	}
}

// TestBFSRealHighDiameter is TestBFSHighDiameter on a road network (luxembourg_osm, depth
// about 1,000 from vertex 1).
func TestBFSRealHighDiameter(t *testing.T) {
	path := testgraph.Real(t, "luxembourg_osm.mtx.gz")
	dir := filepath.Join(t.TempDir(), "g.ooc")
	if _, err := ingest.File(path, ingest.Options{Dest: dir}); err != nil {
		t.Fatal(err)
	}
	g := testgraph.Open(t, dir)
	if err := g.Check(); err != nil {
		t.Fatal(err)
	}
	out := make([][]uint32, g.NumVertices())
	a := store.NewCompressed(g)
	for v := range out {
		l, err := a.List(store.Out, uint32(v), ^uint32(0), nil)
		if err != nil {
			t.Fatal(err)
		}
		out[v] = l
	}
	checkLevels(t, "luxembourg_osm", g, out, []uint32{0, g.NumVertices() / 2, g.NumVertices() - 1})
}

// checkLevels runs BFS on g's compressed shards from each source with 2 workers, with
// serialEdges at its default, 0 and ^0 (serialWork 0), then with both at their defaults,
// and compares the levels with the oracle's and the result with the validator.
func checkLevels(t *testing.T, name string, g *store.Graph, out [][]uint32, srcs []uint32) {
	t.Helper()
	defer func(s, w uint64) { serialEdges, serialWork = s, w }(serialEdges, serialWork)
	work := serialWork
	for i, serial := range []uint64{serialEdges, 0, ^uint64(0), serialEdges} {
		serialEdges = serial
		serialWork = [4]uint64{0, 0, 0, work}[i]
		for k, src := range srcs {
			want := refLevels(out, src)
			opt := Options{Workers: 2, NoLevels: (i+k)%2 == 1} // every other search writes parents alone
			r, err := Run(store.NewCompressed(g), src, opt)
			if err != nil {
				t.Fatal(err)
			}
			where := fmt.Sprintf("%s src=%d serial=%d serialWork=%d noLevels=%v", name, src, serial, serialWork, opt.NoLevels)
			level := resultLevels(t, where, r, opt, src)
			if !slices.Equal(level, want) {
				t.Fatalf("%s: levels differ from the oracle's", where)
			}
			if r.Depth != slices.Max(want) {
				t.Fatalf("%s: depth %d, want %d", where, r.Depth, slices.Max(want))
			}
			if err := validate.BFS(g, src, r.Parent, level); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if len(r.Levels) < 500 {
				t.Fatalf("%s: %d levels, want a high-diameter graph", where, len(r.Levels))
			}
		}
	}
}

func TestSlice(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	n := uint32(1000)
	edges := testgraph.Random(r, n, 4000)
	for v := uint32(0); v < n; v += 3 {
		edges = append(edges, testgraph.Edge{U: 7, V: v}) // a list of several blocks
	}
	out, _ := testgraph.Lists(n, edges, false)
	g := testgraph.Build(t, n, edges, false, 256)
	flat, err := store.NewFlat(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []store.Adjacency{store.NewCompressed(g), flat} {
		for _, v := range []uint32{7, 0, 500, 999} {
			for lo := uint32(0); lo < 400; lo += store.BlockSize {
				for _, hi := range []uint32{lo, lo + 1, lo + 64, lo + 130, 1 << 20} {
					got, err := a.Slice(store.Out, v, lo, hi, nil)
					if err != nil {
						t.Fatal(err)
					}
					l := out[v]
					want := l[min(int(lo), len(l)):min(int(hi), len(l))]
					if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
						t.Fatalf("%T Slice(%d, %d, %d) = %v, want %v", a, v, lo, hi, got, want)
					}
				}
			}
		}
	}
}

func TestRange(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	n := uint32(700)
	edges := testgraph.Random(r, n, 3000)
	for v := uint32(0); v < n; v += 2 {
		edges = append(edges, testgraph.Edge{U: 9, V: v})
	}
	out, in := testgraph.Lists(n, edges, true)
	g := testgraph.Build(t, n, edges, true, 128)
	flat, err := store.NewFlat(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []store.Adjacency{store.NewCompressed(g), flat} {
		for d, lists := range map[store.Direction][][]uint32{store.Out: out, store.In: in} {
			for _, limit := range []uint32{1, 2, 70, ^uint32(0)} {
				var scratch []uint32
				next := uint32(100)
				keep := func(v uint32) bool { return v%3 != 0 }
				err := a.Range(d, 100, 650, limit, &scratch, keep, func(v uint32, nbrs []uint32) {
					for ; next < v; next++ {
						if keep(next) && len(lists[next]) > 0 {
							t.Fatalf("%T %s limit %d: vertex %d skipped", a, d, limit, next)
						}
					}
					l := lists[v]
					if !keep(v) || !slices.Equal(nbrs, l[:min(uint32(len(l)), limit)]) {
						t.Fatalf("%T %s limit %d: vertex %d got %v", a, d, limit, v, nbrs)
					}
					next = v + 1
				})
				if err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

func TestBFSBadSource(t *testing.T) {
	g := testgraph.Build(t, 3, []testgraph.Edge{{U: 0, V: 1}}, false, 0)
	if _, err := Run(store.NewCompressed(g), 3, Options{}); !errors.Is(err, store.ErrNoVertex) {
		t.Fatalf("source beyond the graph: %v", err)
	}
}

// checkDirections makes sure the variants really exercise the directions they claim,
// and that an undirected search by ooc's rules (variants 0 and 3) runs no bottom-up
// level once every one of the graph's n vertices is reached.
func checkDirections(t *testing.T, where string, variant int, r *Result, n uint32, directed bool) {
	t.Helper()
	var reached uint64
	for i, s := range r.Levels {
		reached += s.Frontier
		switch {
		case (variant == 0 || variant == 3) && !directed && s.Direction == BottomUp && reached == uint64(n):
			t.Fatalf("%s: level %d ran bottom-up with every vertex reached", where, s.Level)
		case variant == 1 && s.Direction != BottomUp && !(i == 0 && r.Levels[0].EdgesExamined == 0):
			t.Fatalf("%s: level %d ran %s, expected bottom-up", where, s.Level, s.Direction)
		case variant == 2 && s.Direction != TopDown:
			t.Fatalf("%s: level %d ran %s, expected top-down", where, s.Level, s.Direction)
		}
	}
}

func TestMain(m *testing.M) { testgraph.Main(m) }

// TestBFSBadList searches store's fixture whose vertex 0 has a list of two neighbours
// (a block of varints), one of them out of range: every path of the top-down expansion
// (one worker, the batched serial one; two workers, serial and parallel levels) must
// fail naming the shard, not answer.
func TestBFSBadList(t *testing.T) {
	defer func(s, w uint64) { serialEdges, serialWork = s, w }(serialEdges, serialWork)
	serialWork = 0
	dir := filepath.Join("..", "store", "testdata", "broken", "bad-neighbour.ooc")
	g := testgraph.Open(t, dir)
	c := store.NewCompressed(g)
	for _, workers := range []int{1, 2} {
		for _, serial := range []uint64{0, ^uint64(0)} {
			serialEdges = serial
			r, err := Run(c, 0, Options{Workers: workers, Alpha: 1}) // top-down only
			if err == nil {
				t.Fatalf("workers=%d serialEdges=%d: answered %+v", workers, serial, r.Levels)
			}
			if !strings.Contains(err.Error(), "out-00000.shard") {
				t.Fatalf("workers=%d serialEdges=%d: %v names no shard", workers, serial, err)
			}
		}
	}
}

// TestBFSBadListBottomUp searches from the hub of a star whose vertex 150 has a list
// that does not decode (its first neighbour, or a later one after neighbours outside the
// frontier, past the graph's end), from the first level bottom-up: the sweep must fail
// naming the shard, both where it reads a directory group at once (one shard) and where
// a bitmap word straddles shards (shards of 37 vertices). So must a top-down search
// from vertex 150 (a list longer than expandSerial's inline decoding).
func TestBFSBadListBottomUp(t *testing.T) {
	const n, hub, bad = 200, 5, 150
	long := append(seq(7, 27), 300)
	for _, list := range [][]uint32{{300}, {7, 300}, long} {
		for _, per := range []uint32{0, 37} {
			lists := make([][]uint32, n)
			for v := uint32(0); v < n; v++ {
				switch v {
				case hub:
					for u := uint32(0); u < n; u++ {
						if u != hub && u != bad {
							lists[v] = append(lists[v], u)
						}
					}
				case bad:
					lists[v] = list
				default:
					lists[v] = []uint32{hub}
				}
			}
			g := testgraph.BuildLists(t, lists, store.CreateOptions{ShardVertices: per})
			c := store.NewCompressed(g)
			for _, src := range []uint32{hub, bad} {
				opt := Options{Workers: 1, Alpha: 1000, StrictSwitch: true}
				if src == bad {
					opt = Options{Workers: 1, Alpha: 1} // top-down only
				}
				r, err := Run(c, src, opt)
				if err == nil {
					t.Fatalf("list %v, %d vertices a shard, source %d: answered %+v", list, per, src, r.Levels)
				}
				if !strings.Contains(err.Error(), ".shard") {
					t.Fatalf("list %v, %d vertices a shard, source %d: %v names no shard", list, per, src, err)
				}
			}
		}
	}
}

// seq is the vertices lo to hi-1.
func seq(lo, hi uint32) []uint32 {
	var l []uint32
	for v := lo; v < hi; v++ {
		l = append(l, v)
	}
	return l
}

// randomLists is n sorted lists of distinct vertices below n drawn from r, vertex v's of
// fewer than 1+v%spread entries: short and long lists side by side.
func randomLists(r *rand.Rand, n, spread uint32) [][]uint32 {
	lists := make([][]uint32, n)
	for v := range n {
		for range r.IntN(1 + int(v%spread)) {
			lists[v] = append(lists[v], r.Uint32N(n))
		}
		slices.Sort(lists[v])
		lists[v] = slices.Compact(lists[v])
	}
	return lists
}

// TestFrontierScoutParallel holds frontierScout's sum on all workers (a frontier of more
// than scoutChunks vertices, at most 4*scoutSample, with two workers) to the frontier's
// out-degrees summed one by one, on a graph of several shards.
func TestFrontierScoutParallel(t *testing.T) {
	const n = 6000
	r := rand.New(rand.NewPCG(5, 6))
	lists := randomLists(r, n, 40)
	g := testgraph.BuildLists(t, lists, store.CreateOptions{ShardBytes: 4096})
	a := store.NewCompressed(g)
	if len(g.Out().Shards) < 2 {
		t.Fatalf("%d out-shards, want several", len(g.Out().Shards))
	}
	b := newBFS(a, 2, false)
	b.maxDeg = maxOutDegree(a)
	k := scoutChunks + 1000
	var want uint64
	for i := range k {
		v := r.Uint32N(n)
		b.queue[i] = v
		want += uint64(len(lists[v]))
	}
	b.head, b.tail = 0, k
	scout, edges, exact := b.frontierScout(0, int64(a.NumEdges()))
	if edges != want || scout != int64(want) || !exact {
		t.Fatalf("frontierScout of %d vertices: %d, %d edges (exact %v), want %d", k, scout, edges, exact, want)
	}
}

// TestFrontierScoutSample holds frontierScout's estimate of a frontier of more than
// 4*scoutSample vertices, in no order over several shards, to the degrees of its
// evenly spaced sample (vertices 0, stride, 2*stride, ...) summed one by one and scaled
// to the frontier, for several frontier lengths and sample sizes.
func TestFrontierScoutSample(t *testing.T) {
	defer func(k int) { scoutSample = k }(scoutSample)
	const n = 3000
	r := rand.New(rand.NewPCG(7, 8))
	lists := randomLists(r, n, 50)
	g := testgraph.BuildLists(t, lists, store.CreateOptions{ShardBytes: 4096})
	a := store.NewCompressed(g)
	if len(g.Out().Shards) < 3 {
		t.Fatalf("%d out-shards, want several", len(g.Out().Shards))
	}
	for _, k := range []int{1, 7, 64} {
		scoutSample = k
		for _, f := range []int{4*k + 1, 4*k + 3, 9*k + 5, n - 1} {
			b := newBFS(a, 1, false)
			b.maxDeg = maxOutDegree(a)
			for i := range f {
				b.queue[i] = r.Uint32N(n)
			}
			b.head, b.tail = 0, f
			stride := f / k
			var sum uint64
			for i := range k {
				sum += uint64(len(lists[b.queue[i*stride]]))
			}
			want := uint64(float64(sum) / float64(k) * float64(f))
			scout, edges, exact := b.frontierScout(0, 1<<40) // no cap
			if edges != want || scout != int64(want) || exact {
				t.Fatalf("frontierScout of %d vertices, a sample of %d: %d, %d edges (exact %v), want %d estimated", f, k, scout, edges, exact, want)
			}
		}
	}
}

// TestBFSBadRoadList: the source's list holds one-byte varints ([1, 2, 3]: 02 01 01),
// and its last byte is damaged to 0x81, a varint that runs past the list (the file's
// checksums are not checked: Run trusts no byte). The serial top-down expansion of such
// short lists (claimRoads) must leave the list to the checked decoders, which refuse it,
// instead of decoding 1, 2 and 131 from the bytes it holds.
func TestBFSBadRoadList(t *testing.T) {
	defer func(s, w uint64) { serialEdges, serialWork = s, w }(serialEdges, serialWork)
	serialWork, serialEdges = ^uint64(0), ^uint64(0) // one goroutine, serial top-down
	const n = 300
	lists := make([][]uint32, n)
	lists[0] = []uint32{1, 2, 3}
	for v := uint32(1); v < n; v++ {
		lists[v] = []uint32{0}
	}
	g := testgraph.BuildLists(t, lists, store.CreateOptions{})
	s := g.Out().Shards[0]
	var at int64 = -1
	for _, sec := range s.Sections {
		if sec.ID == store.SecAdj {
			at = sec.Offset + int64(s.ListOffset(0)) + 2
		}
	}
	path, dir := s.Path, g.Dir
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if at < 0 || b[at-2] != 0x02 || b[at-1] != 0x01 || b[at] != 0x01 {
		t.Fatalf("vertex 0's list is not 02 01 01 at offset %d of %s", at-2, path)
	}
	b[at] = 0x81
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	g = testgraph.Open(t, dir)
	r, err := Run(store.NewCompressed(g), 0, Options{Workers: 1, Alpha: 1}) // top-down only
	if err == nil {
		t.Fatalf("a list running past its end: answered %d reached, levels %+v", r.Reached, r.Levels)
	}
	if !strings.Contains(err.Error(), ".shard") {
		t.Fatalf("%v names no shard", err)
	}
}

// TestBFSShortRoadList: the source's list says 3 neighbours and holds 2 bytes (02 01,
// written pre-encoded, its checksums valid), the next list's byte 01 after it. The
// serial top-down expansion of short lists (claimRoads) reads the source's first word,
// which runs into that byte; it must take only a list of as many bytes as neighbours,
// leaving this one to the checked decoders, which refuse it, instead of decoding 1, 2
// and 3.
func TestBFSShortRoadList(t *testing.T) {
	defer func(s, w uint64) { serialEdges, serialWork = s, w }(serialEdges, serialWork)
	serialWork, serialEdges = ^uint64(0), ^uint64(0) // one goroutine, serial top-down
	const n = 300
	degrees, lists := []uint32{3}, [][]byte{{0x02, 0x01}}
	for v := uint32(1); v < n; v++ {
		degrees, lists = append(degrees, 1), append(lists, store.AppendList(nil, v, []uint32{0}))
	}
	g := testgraph.BuildEncoded(t, degrees, lists)
	if err := g.Check(); err != nil {
		t.Fatalf("the checksums and directory should pass: %v", err)
	}
	r, err := Run(store.NewCompressed(g), 0, Options{Workers: 1, Alpha: 1}) // top-down only
	if err == nil {
		t.Fatalf("a list of 2 bytes for 3 neighbours: answered %d reached, levels %+v", r.Reached, r.Levels)
	}
	if !strings.Contains(err.Error(), ".shard") {
		t.Fatalf("%v names no shard", err)
	}
}

// TestBFSBadOneByteRoadLists: a list of one-byte values (pre-encoded, its checksums and
// directory valid) that decodes to a neighbour below 0, in the source's list or in one
// after the first of a level's batch, or that holds fewer bytes than its degree, the next
// list's bytes after it, in one after the first of a batch. The serial top-down expansion
// of road lists (claimRoads, claimRoads1 on amd64, which takes a batch's lists from the
// first of d bytes on) must leave it to the checked decoders, which refuse it, instead of
// claiming parent[-1] or the next list's values.
func TestBFSBadOneByteRoadLists(t *testing.T) {
	defer func(s, w uint64) { serialEdges, serialWork = s, w }(serialEdges, serialWork)
	serialWork, serialEdges = ^uint64(0), ^uint64(0) // one goroutine, serial top-down
	const n = 300
	for _, c := range []struct {
		name string
		v    uint32 // the vertex of the bad list: 0 (the source) or 2 (after 1 in level 1)
		deg  uint32
		list []byte
	}{
		{"source's neighbour -1", 0, 1, []byte{0x01}},
		{"vertex 2's neighbour -1", 2, 1, []byte{0x05}},
		{"vertex 2's neighbours -1 and 0", 2, 2, []byte{0x05, 0x01}},
		{"vertex 2's 2 neighbours in 1 byte", 2, 2, []byte{0x03}},
		{"vertex 2's 3 neighbours in 2 bytes", 2, 3, []byte{0x03, 0x01}},
	} {
		degrees, lists := make([]uint32, n), make([][]byte, n)
		for v := uint32(0); v < n; v++ {
			switch {
			case v == c.v:
				degrees[v], lists[v] = c.deg, c.list
			case v == 0:
				degrees[v], lists[v] = 3, store.AppendList(nil, v, []uint32{1, 2, 3})
			default:
				degrees[v], lists[v] = 1, store.AppendList(nil, v, []uint32{0})
			}
		}
		g := testgraph.BuildEncoded(t, degrees, lists)
		if err := g.Check(); err != nil {
			t.Fatalf("%s: the checksums and directory should pass: %v", c.name, err)
		}
		r, err := Run(store.NewCompressed(g), 0, Options{Workers: 1, Alpha: 1}) // top-down only
		if err == nil {
			t.Fatalf("%s: answered %d reached, levels %+v", c.name, r.Reached, r.Levels)
		}
		if !strings.Contains(err.Error(), ".shard") {
			t.Fatalf("%s: %v names no shard", c.name, err)
		}
	}
}

// TestFinishedByBottomUp: a search whose bottom-up level reaches the last unvisited
// vertices and leaves a frontier small enough to come back top-down records that
// frontier as its last level, as it records every frontier. A directed star 0 -> 1..50
// with 1 -> 51, under GAPBS's rule (StrictSwitch): level 0 goes bottom-up, level 1 finds
// 51 alone (at most n/beta), and level 2 is that frontier of one.
func TestFinishedByBottomUp(t *testing.T) {
	var edges []testgraph.Edge
	for v := uint32(1); v <= 50; v++ {
		edges = append(edges, testgraph.Edge{U: 0, V: v})
	}
	edges = append(edges, testgraph.Edge{U: 1, V: 51})
	g := testgraph.Build(t, 52, edges, true, 0)
	for _, workers := range []int{1, 2} {
		r, err := Run(store.NewCompressed(g), 0, Options{Workers: workers, StrictSwitch: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := validate.BFS(g, 0, r.Parent, r.Level); err != nil {
			t.Fatalf("%d workers: %v", workers, err)
		}
		var got []string
		for _, s := range r.Levels {
			got = append(got, fmt.Sprintf("%d:%d:%s", s.Level, s.Frontier, s.Direction))
		}
		want := []string{"0:1:bottom-up", "1:50:bottom-up", "2:1:top-down"}
		if r.Depth != 2 || !slices.Equal(got, want) {
			t.Fatalf("%d workers: depth %d, levels %v; want 2, %v", workers, r.Depth, got, want)
		}
	}
}
