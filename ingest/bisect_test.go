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
// cost model is for.
func TestBisectSeparates(t *testing.T) {
	rng, seed := seededRand(t, 72)
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
			t.Fatalf("seed %d: number %d goes to vertex %d: the communities are not apart (%v)", seed, i, v, inv)
		}
	}
	s, err := sampleLists(adj, math.MaxInt, nil)
	if err != nil {
		t.Fatal(err)
	}
	if in, bi := s.bytes(nil), s.bytes(perm); bi*10 > in*9 {
		t.Errorf("seed %d: lists of %d bytes in bisection order, %d in the file's", seed, bi, in)
	}
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

// TestBisectHubsFirst: the bisection numbers the hubs (degree of n/hubShare or more, and
// hubAvg times the mean) 0.., at most hubsMax of them, the highest degrees (ties to the
// earlier), in the bisection's order; the other vertices keep the bisection's order
// (hubsFirst on random numberings); a graph without outliers (a dense community, every
// vertex of degree n/hubShare or more) gets none.
func TestBisectHubsFirst(t *testing.T) {
	rng, seed := seededRand(t, 74)
	for _, c := range []struct {
		name       string
		edges      []parse.Edge
		hubs, most int // the vertices that qualify, and those numbered first
	}{
		{"egos", egoNetworks(rng, 6, 300, 8), 6, 6},
		{"many-hubs", sharedHubs(rng, hubsMax+8, 800, 4), hubsMax + 8, hubsMax},
		{"dense", randomEdges(rng, 100, 3000), 0, 0},
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
			// want is inv with its hubs first: the most highest degrees, ties to the
			// earlier, each part in inv's order
			want := func(inv []uint32) []uint32 {
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
				first := map[uint32]bool{}
				for _, v := range hubs[:c.most] {
					first[v] = true
				}
				var head, rest []uint32
				for _, v := range inv {
					if first[v] {
						head = append(head, v)
					} else {
						rest = append(rest, v)
					}
				}
				return append(head, rest...)
			}
			perm, inv, err := bisectOrder(adj, 2, 1<<30, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkBisectOrder(t, nbrs, perm, inv)
			if w := want(inv); !slices.Equal(inv[:c.most], w[:c.most]) {
				t.Fatalf("seed %d: numbers 0..%d go to %v, want the hubs %v", seed, c.most-1, inv[:c.most], w[:c.most])
			}
			for range 5 {
				p := rng.Perm(n)
				inv := make([]uint32, n)
				for i, v := range p {
					inv[i] = uint32(v)
				}
				w := want(inv)
				hubsFirst(adj, inv, nil)
				if !slices.Equal(inv, w) {
					t.Fatalf("seed %d: hubsFirst gives %v, want %v", seed, inv, w)
				}
			}
		})
	}
}
