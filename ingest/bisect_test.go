package ingest

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/store"
)

// checkBisectOrder checks that perm is a bijection with inverse inv and that the
// vertices without neighbours come last, in ascending id.
func checkBisectOrder(t *testing.T, nbrs [][]uint32, perm, inv []uint32) {
	t.Helper()
	n := len(nbrs)
	checkBijection(t, n, perm, inv)
	var isolated []uint32
	for v, l := range nbrs {
		if len(l) == 0 {
			isolated = append(isolated, uint32(v))
		}
	}
	if got := inv[n-len(isolated):]; !slices.Equal(got, isolated) {
		t.Fatalf("last numbers go to %v, want the vertices without neighbours %v", got, isolated)
	}
}

// TestBisectOrder: the bisection numbering of random, disconnected, directed and
// degenerate graphs is a bijection with the isolated vertices last, the same whatever
// the workers and whether the lists are cached.
func TestBisectOrder(t *testing.T) {
	rng, seed := seededRand(t, 71)
	loops := []parse.Edge{{U: 0, V: 0}, {U: 3, V: 3}}
	cases := []struct {
		name  string
		edges []parse.Edge
		hdr   parse.Header
		opt   Options
	}{
		{"empty", nil, parse.Header{}, Options{}},
		{"one-vertex", nil, parse.Header{Vertices: 1}, Options{}},
		{"isolated-only", nil, parse.Header{Vertices: 40}, Options{}},
		{"one-edge", []parse.Edge{{U: 5, V: 2}}, parse.Header{Vertices: 9}, Options{}},
		{"loops-only", loops, parse.Header{Vertices: 5}, Options{KeepSelfLoops: true}},
		{"random", randomEdges(rng, 3000, 12000), parse.Header{Vertices: 3100}, Options{}},
		{"random-directed", randomEdges(rng, 2000, 9000), parse.Header{}, Options{Directed: true}},
		{"dense", randomEdges(rng, 60, 1500), parse.Header{}, Options{KeepSelfLoops: true}},
		{"disconnected", append(randomEdges(rng, 500, 2000), shift(randomEdges(rng, 500, 2000), 700)...), parse.Header{}, Options{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			adj := store.NewCompressed(openBuilt(t, c.edges, c.opt, c.hdr))
			nbrs := undirectedLists(t, adj)
			var ref []uint32
			for _, run := range []struct {
				workers int
				cache   int64
			}{{1, 1 << 30}, {2, 0}, {3, 1 << 10}, {5, 1 << 30}} {
				perm, inv, err := bisectOrder(adj, run.workers, run.cache, nil)
				if err != nil {
					t.Fatal(err)
				}
				checkBisectOrder(t, nbrs, perm, inv)
				if ref == nil {
					ref = perm
				} else if !slices.Equal(perm, ref) {
					t.Fatalf("seed %d: %d workers, cache %d: another numbering", seed, run.workers, run.cache)
				}
			}
		})
	}
}

// shift adds d to every id of edges.
func shift(edges []parse.Edge, d uint64) []parse.Edge {
	for i := range edges {
		edges[i].U += d
		edges[i].V += d
	}
	return edges
}

// TestBisectSeparates: two dense communities whose file ids interleave (one even, one
// odd) get a half of the numbers each, and their lists shrink to a fraction: what the
// cost model is for. The file's order is the worst start the swaps can have (each half
// holds half of each community), and from it about one graph in 150 ends in a split of
// both communities, which further rounds do not leave: the swaps find a local optimum
// of the cost. So of eight graphs at least all but two must come apart (a broken
// bisection splits none; chance ends three of eight about once in 50,000 runs).
func TestBisectSeparates(t *testing.T) {
	rng, seed := seededRand(t, 72)
	const trials = 8
	apart := 0
	for trial := range trials {
		if bisectSeparates(t, rng, seed, trial) {
			apart++
		}
	}
	if apart < trials-2 {
		t.Errorf("seed %d: %d of %d graphs of two communities came apart", seed, apart, trials)
	}
}

// bisectSeparates reports whether the bisection order of a graph of two interleaved
// communities joined by one edge numbers each community apart, and where it does, that
// their lists shrink by a tenth at least.
func bisectSeparates(t *testing.T, rng *rand.Rand, seed uint64, trial int) bool {
	t.Helper()
	const half = 64
	var edges []parse.Edge
	for k := range 2 {
		for range 1200 {
			u, v := 2*rng.Uint64N(half)+uint64(k), 2*rng.Uint64N(half)+uint64(k)
			if u != v {
				edges = append(edges, parse.Edge{U: u, V: v})
			}
		}
	}
	edges = append(edges, parse.Edge{U: 0, V: 1}) // one bridge
	adj := store.NewCompressed(openBuilt(t, edges, Options{}, parse.Header{}))
	perm, inv, err := bisectOrder(adj, 2, 1<<30, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkBisectOrder(t, undirectedLists(t, adj), perm, inv)
	for i, v := range inv {
		if v%2 != inv[0]%2 && i < half || v%2 == inv[0]%2 && i >= half {
			t.Logf("seed %d, graph %d: number %d goes to vertex %d: the communities are not apart", seed, trial, i, v)
			return false
		}
	}
	s, err := sampleLists(adj, math.MaxInt, nil)
	if err != nil {
		t.Fatal(err)
	}
	if in, bi := s.bytes(nil), s.bytes(perm); bi*10 > in*9 {
		t.Errorf("seed %d, graph %d: lists of %d bytes in bisection order, %d in the file's", seed, trial, bi, in)
	}
	return true
}

// TestOrderBisectIngest: --order bisect stores the input's graph (through ids.bin),
// counts as the file's order does, writes the same bytes whatever the workers and
// budgets, and refuses a budget its arrays do not fit.
func TestOrderBisectIngest(t *testing.T) {
	rng, seed := seededRand(t, 73)
	edges := randomEdges(rng, 5000, 20000)
	edges = append(edges, randomEdges(rng, 300, 3000)...)
	checkOrderIngest(t, edges, seed, store.OrderBisect)
}

// TestBisectPlan: the workers shrink to fit the budget, none when one does not fit, and
// the caches take at most what is left.
func TestBisectPlan(t *testing.T) {
	for _, c := range []struct {
		n, mem  int64
		workers int
		want    int
	}{
		{1000, 1 << 30, 4, 4},
		{1 << 20, bisectNeed(1<<20, 2), 8, 2},
		{1 << 20, bisectNeed(1<<20, 1) - 1, 8, 0},
		{0, 0, 2, 2},
	} {
		w, cache := bisectPlan(c.n, c.mem, c.workers)
		if w != c.want || w > 0 && bisectNeed(c.n, w)+int64(w)*cache > c.mem {
			t.Errorf("%d vertices in %d bytes, %d workers: %d workers with %d bytes of cache each, want %d workers within the budget", c.n, c.mem, c.workers, w, cache, c.want)
		}
	}
}

// egoNetworks is k ego networks of size members each, their ids interleaved (member j of
// network i is k+j*k+i): each centre i (ids 0..k-1, numbered last in the file's order by
// the shift) is joined to all its members, each member to deg others of its network.
func egoNetworks(rng *rand.Rand, k, size, deg int) []parse.Edge {
	var e []parse.Edge
	member := func(i, j int) uint64 { return uint64(k + j*k + i) }
	for i := range k {
		for j := range size {
			e = append(e, parse.Edge{U: uint64(i), V: member(i, j)})
			for range deg / 2 {
				if o := rng.IntN(size); o != j {
					e = append(e, parse.Edge{U: member(i, j), V: member(i, o)})
				}
			}
		}
	}
	return e
}

// sharedHubs is k hubs (ids members..members+k-1) over members vertices, hub i joined to
// 100+i/2 of them at random (pairs of hubs of one degree), each member to deg others.
func sharedHubs(rng *rand.Rand, k, members, deg int) []parse.Edge {
	var e []parse.Edge
	for i := range k {
		for _, m := range rng.Perm(members)[:100+i/2] {
			e = append(e, parse.Edge{U: uint64(members + i), V: uint64(m)})
		}
	}
	for m := range members {
		for range deg / 2 {
			if o := rng.IntN(members); o != m {
				e = append(e, parse.Edge{U: uint64(m), V: uint64(o)})
			}
		}
	}
	return e
}

// chainedEgos is egoNetworks with each centre i > 0 joined to a member of network i-1:
// centres two steps apart, each pair through a member.
func chainedEgos(rng *rand.Rand, k, size, deg int) []parse.Edge {
	e := egoNetworks(rng, k, size, deg)
	for i := 1; i < k; i++ {
		e = append(e, parse.Edge{U: uint64(i), V: uint64(k + rng.IntN(size)*k + i - 1)})
	}
	return e
}

// TestBisectHubsFirst: the bisection numbers the hubs (degree of n/hubShare or more, and
// hubAvg times the mean, at most hubsMax of them, the highest degrees, ties to the
// earlier) first, joined: the highest degree first, then each hub after a neighbour of
// it or a common neighbour with the hubs before it, the hubs that have neither in the
// numbering's order last; the other vertices keep the numbering's order (hubsFirst on
// random numberings; bisectOrder's front, whose rest joinOrder reorders). A graph
// without outliers (a dense community, every vertex of degree n/hubShare or more) gets
// none.
func TestBisectHubsFirst(t *testing.T) {
	rng, seed := seededRand(t, 74)
	for _, c := range []struct {
		name       string
		edges      []parse.Edge
		hubs, most int // the vertices that qualify, and those numbered first
		leftover   int // the hubs neither joined nor two steps from the others
	}{
		{"egos", egoNetworks(rng, 6, 300, 8), 6, 6, 5},
		{"chained-egos", chainedEgos(rng, 6, 300, 8), 6, 6, 0},
		{"many-hubs", sharedHubs(rng, hubsMax+8, 800, 4), hubsMax + 8, hubsMax, 0},
		{"dense", randomEdges(rng, 100, 3000), 0, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			adj := store.NewCompressed(openBuilt(t, c.edges, Options{}, parse.Header{}))
			nbrs := undirectedLists(t, adj)
			n := len(nbrs)
			var total int
			for _, l := range nbrs {
				total += len(l)
			}
			qualify := func(v uint32) bool { l := len(nbrs[v]); return l*hubShare >= n && l*n >= hubAvg*total }
			// hubsOf is the hubs that go first: the most highest degrees of inv's
			// qualifying vertices, ties to the earlier, by descending degree
			hubsOf := func(inv []uint32) []uint32 {
				var hubs []uint32
				for _, v := range inv {
					if qualify(v) {
						hubs = append(hubs, v)
					}
				}
				if len(hubs) != c.hubs {
					t.Fatalf("seed %d: %d vertices qualify as hubs, want %d: the test graph is not what it says", seed, len(hubs), c.hubs)
				}
				slices.SortStableFunc(hubs, func(a, b uint32) int { return cmp.Compare(len(nbrs[b]), len(nbrs[a])) })
				return hubs[:c.most]
			}
			perm, inv, err := bisectOrder(adj, 2, 1<<30, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkBisectOrder(t, nbrs, perm, inv)
			checkFront(t, seed, nbrs, inv, hubsOf(inv), c.leftover)
			for range 5 {
				p := rng.Perm(n)
				before := make([]uint32, n)
				for i, v := range p {
					before[i] = uint32(v)
				}
				inv := slices.Clone(before)
				if err := hubsFirst(adj, inv, nil, nil); err != nil {
					t.Fatal(err)
				}
				hubs := hubsOf(before)
				f := checkFront(t, seed, nbrs, inv, hubs, c.leftover)
				if len(hubs) > 0 && inv[0] != hubs[0] {
					t.Fatalf("seed %d: number 0 goes to %d, want the highest degree %d", seed, inv[0], hubs[0])
				}
				// the leftover hubs in before's order, and the rest
				var left, rest []uint32
				for _, v := range before {
					if slices.Contains(inv[f-c.leftover:f], v) {
						left = append(left, v)
					} else if !slices.Contains(inv[:f], v) {
						rest = append(rest, v)
					}
				}
				if !slices.Equal(inv[f-c.leftover:f], left) || !slices.Equal(inv[f:], rest) {
					t.Fatalf("seed %d: hubsFirst gives %v from %v: the leftover hubs or the rest out of order", seed, inv, before)
				}
			}
		})
	}
}

// checkFront checks that inv starts with a front of hubs joined as hubsFirst joins them
// and returns its length: the hubs, each after a neighbour of it among the numbers before
// it or after one common neighbour with them (numbered just before it), but for the
// leftover last ones, which have neither and none between them.
func checkFront(t *testing.T, seed uint64, nbrs [][]uint32, inv, hubs []uint32, leftover int) int {
	t.Helper()
	if len(hubs) == 0 {
		return 0
	}
	f := 0 // the front ends with its last hub
	for i, v := range inv {
		if slices.Contains(hubs, v) {
			f = i + 1
		}
	}
	front := inv[:f]
	if f > 2*len(hubs)-1 {
		t.Fatalf("seed %d: the front %v holds %d vertices for %d hubs", seed, front, f, len(hubs))
	}
	if front[0] != hubs[0] {
		t.Fatalf("seed %d: the front %v starts with %d, want the highest degree %d", seed, front, front[0], hubs[0])
	}
	adjacent := func(u, v uint32) bool { return slices.Contains(nbrs[u], v) }
	joined := func(v uint32, before []uint32) bool {
		return slices.ContainsFunc(before, func(u uint32) bool { return adjacent(u, v) })
	}
	joins := f - leftover
	for i := 1; i < joins; i++ {
		v := front[i]
		if !joined(v, front[:i]) {
			t.Fatalf("seed %d: front %v: %d (number %d) has no neighbour before it", seed, front, v, i)
		}
		if !slices.Contains(hubs, v) && (i+1 >= joins || !slices.Contains(hubs, front[i+1]) || !adjacent(v, front[i+1]) || joined(front[i+1], front[:i])) {
			t.Fatalf("seed %d: front %v: %d (number %d) is no hub and no common neighbour of the next hub alone", seed, front, v, i)
		}
	}
	for _, h := range front[joins:] {
		if !slices.Contains(hubs, h) || joined(h, front[:joins]) {
			t.Fatalf("seed %d: front %v: %d among the %d leftover hubs", seed, front, h, leftover)
		}
		for _, x := range nbrs[h] {
			if joined(x, front[:joins]) {
				t.Fatalf("seed %d: front %v: leftover hub %d has a common neighbour %d with the joined ones", seed, front, h, x)
			}
		}
	}
	return f
}

// TestBisectOrient: orient puts first the half of each part the bisection split that
// holds its highest degree (the first half on ties) and the highest degree of each leaf
// first (the first of equal degrees), against slices concatenated.
func TestBisectOrient(t *testing.T) {
	rng, seed := seededRand(t, 76)
	for _, n := range []int{1, 16, 17, 40, 1000} {
		adj := store.NewCompressed(openBuilt(t, randomEdges(rng, uint64(n), 3*n), Options{}, parse.Header{}))
		nv := int(adj.NumVertices())
		deg := func(v uint32) uint32 { return undirectedDegree(adj, v) }
		var ref func(vs []uint32) ([]uint32, uint32)
		ref = func(vs []uint32) ([]uint32, uint32) {
			if len(vs) <= bisectLeaf {
				at := 0
				for i, v := range vs {
					if deg(v) > deg(vs[at]) {
						at = i
					}
				}
				return append(append([]uint32{vs[at]}, vs[:at]...), vs[at+1:]...), deg(vs[at])
			}
			a, d1 := ref(vs[:len(vs)/2])
			b, d2 := ref(vs[len(vs)/2:])
			if d2 > d1 {
				return append(b, a...), d2
			}
			return append(a, b...), d1
		}
		for range 3 {
			inv := make([]uint32, nv)
			for i, v := range rng.Perm(nv) {
				inv[i] = uint32(v)
			}
			want, _ := ref(inv)
			b := &bisector{adj: adj, inv: slices.Clone(inv)}
			b.orient(0, nv)
			if !slices.Equal(b.inv, want) {
				t.Fatalf("seed %d, %d vertices: orient gives %v from %v, want %v", seed, nv, b.inv, inv, want)
			}
		}
	}
	b := &bisector{}
	b.orient(0, 0) // no vertices
}

// TestJoinOrder: joinOrder moves before each vertex without a neighbour before it the
// first of its neighbours that has one, against maps and slices; every vertex left
// without a neighbour before it has no neighbour with one (nor, in the bisection's order,
// of a vertex with neighbours: where one has, a search of it would have been pulled).
func TestJoinOrder(t *testing.T) {
	rng, seed := seededRand(t, 77)
	var path []parse.Edge
	for v := range uint64(200) {
		path = append(path, parse.Edge{U: v, V: v + 1})
	}
	for _, c := range []struct {
		name  string
		edges []parse.Edge
		opt   Options
	}{
		{"sparse", randomEdges(rng, 2000, 2500), Options{}},
		{"random", randomEdges(rng, 500, 4000), Options{}},
		{"egos", chainedEgos(rng, 5, 100, 6), Options{}},
		{"path", path, Options{}},
		{"directed", randomEdges(rng, 800, 1600), Options{Directed: true}},
		{"loops", append(randomEdges(rng, 300, 400), parse.Edge{U: 7, V: 7}), Options{KeepSelfLoops: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			adj := store.NewCompressed(openBuilt(t, c.edges, c.opt, parse.Header{}))
			nbrs := undirectedLists(t, adj)
			var vs []uint32 // the vertices with neighbours
			budget := 0
			for v, l := range nbrs {
				if len(l) > 0 {
					vs = append(vs, uint32(v))
					budget += len(l)
				}
			}
			orders := [][]uint32{slices.Clone(vs), reversed(vs)}
			for range 3 {
				p := slices.Clone(vs)
				rng.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
				orders = append(orders, p)
			}
			for _, before := range orders {
				want, spent := joinRef(nbrs, before)
				got := slices.Clone(before)
				if err := joinOrder(adj, got, nil); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("seed %d: joinOrder gives %v from %v, want %v", seed, got, before, want)
				}
				if spent > budget {
					continue // the rule below holds only while the budget lasts
				}
				at := make(map[uint32]int, len(got))
				for i, v := range got {
					at[v] = i
				}
				earlier := func(v uint32, i int) bool {
					return slices.ContainsFunc(nbrs[v], func(x uint32) bool { return at[x] < i })
				}
				for i, v := range got {
					if i == 0 || earlier(v, i) {
						continue
					}
					for _, w := range nbrs[v] {
						if earlier(w, i) {
							t.Fatalf("seed %d: %d (number %d) has no neighbour before it, but its neighbour %d has", seed, v, i, w)
						}
					}
				}
			}
		})
	}
}

// reversed is vs backwards, a new slice.
func reversed(vs []uint32) []uint32 {
	r := slices.Clone(vs)
	slices.Reverse(r)
	return r
}

// joinRef is joinOrder over lists in memory, and the entries of neighbours' lists it
// read.
func joinRef(nbrs [][]uint32, inv []uint32) ([]uint32, int) {
	placed := map[uint32]bool{}
	var out []uint32
	budget, spent := 0, 0
	for _, v := range inv {
		budget += len(nbrs[v])
	}
	hasPlaced := func(l []uint32) bool {
		for _, x := range l {
			if placed[x] {
				return true
			}
		}
		return false
	}
	for _, v := range inv {
		if placed[v] {
			continue
		}
		if len(out) > 0 && !hasPlaced(nbrs[v]) {
			for _, w := range nbrs[v] {
				if spent >= budget {
					break
				}
				spent += len(nbrs[w])
				if hasPlaced(nbrs[w]) {
					placed[w] = true
					out = append(out, w)
					break
				}
			}
		}
		placed[v] = true
		out = append(out, v)
	}
	return out, spent
}
