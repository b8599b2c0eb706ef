package afforest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/internal/testseed"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

// refComponents labels each vertex with the smallest vertex of its weakly connected
// component, by union-find over plain edge lists: the oracle.
func refComponents(n uint32, edges []testgraph.Edge) []uint32 {
	p := make([]uint32, n)
	for i := range p {
		p[i] = uint32(i)
	}
	for _, e := range edges {
		validate.Union(p, e.U, e.V)
	}
	for v := range p {
		p[v] = validate.Find(p, uint32(v))
	}
	return p
}

// samePartition reports whether two labellings group the vertices identically.
func samePartition(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	ab, ba := map[uint32]uint32{}, map[uint32]uint32{}
	for i := range a {
		if x, ok := ab[a[i]]; ok && x != b[i] {
			return false
		}
		if x, ok := ba[b[i]]; ok && x != a[i] {
			return false
		}
		ab[a[i]], ba[b[i]] = b[i], a[i]
	}
	return true
}

func checkAll(t *testing.T, name string, n uint32, edges []testgraph.Edge, directed bool) {
	t.Helper()
	defer func(m, mb int, w uint64, b, d uint32) {
		maxClimb, maxBack, serialWork, touchBytes, touchDistance = m, mb, w, b, d
	}(maxClimb, maxBack, serialWork, touchBytes, touchDistance)
	want := refComponents(n, edges)
	for _, shardBytes := range []int64{1, 64, 0} {
		g := testgraph.Build(t, n, edges, directed, shardBytes)
		if err := g.Check(); err != nil {
			t.Fatal(err)
		}
		flat, err := store.NewFlat(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range []store.Adjacency{store.NewCompressed(g), flat} {
			// three workers on the parallel path (serialWork 0), then on one goroutine
			// because the graph is small (serialWork ^0) or one worker was asked for
			for wi, workers := range []int{3, 3, 1} {
				serialWork = [3]uint64{0, ^uint64(0), 0}[wi]
				for ri, rounds := range []int{NoSampling, 1, 2, 5, 70} {
					// every other run compresses one step per pass (compress) and
					// loads every group's labels ahead of its links (linkHeads)
					maxClimb = [2]int{64, 1}[(ri+workers)%2]
					maxBack = [2]int{256, 0}[wi%2] // 0: the first mode on every group
					touchBytes, touchDistance = [2]uint32{2 << 20, 0}[(ri+workers)%2], [2]uint32{1 << 16, 0}[(ri+workers)%2]
					where := fmt.Sprintf("%s shardBytes=%d %T workers=%d serialWork=%d rounds=%d maxClimb=%d touchBytes=%d", name, shardBytes, a, workers, serialWork, rounds, maxClimb, touchBytes)
					r, err := Run(a, Options{Workers: workers, Rounds: rounds, Samples: 16, Seed: uint64(rounds)})
					if err != nil {
						t.Fatalf("%s: %v", where, err)
					}
					if !samePartition(r.Labels, want) {
						t.Fatalf("%s: partition\n got %v\nwant %v", where, r.Labels, want)
					}
					p, err := validate.CC(g, r.Labels)
					if err != nil {
						t.Fatalf("%s: %v", where, err)
					}
					if p.Components != r.Components || p.Largest != r.Largest {
						t.Fatalf("%s: %d components, largest %d; validator counts %d, %d", where, r.Components, r.Largest, p.Components, p.Largest)
					}
				}
			}
		}
	}
}

// TestCCFirstAlone: vertex 200's list [0, 50, 201, 202] gives its first neighbour alone
// in the sampling (0 is the anchor, in its tree already), and its second is the only
// link of the anchor's component {0, 200, 201, 202} to the cycle 1..199, which the
// finish skips and whose vertex 50 holds 200 past its sampled positions: the finish
// must link 200's list from its second neighbour on.
func TestCCFirstAlone(t *testing.T) {
	edges := []testgraph.Edge{{U: 0, V: 200}, {U: 200, V: 201}, {U: 200, V: 202}, {U: 200, V: 50}, {U: 1, V: 199}}
	for v := uint32(1); v < 199; v++ {
		edges = append(edges, testgraph.Edge{U: v, V: v + 1})
	}
	checkAll(t, "first-alone", 203, edges, false)
}

// TestCCFirstAloneLast: vertex 200's list [5, 50, 201, 202] gives its first neighbour
// alone in the sampling, kept so because 5 is in the tree of hub 4, whose list [5, 6,
// 7, 8] was the last to need its second neighbour (second's r.last), not in the
// anchor's; its second is the only link of {4, ..., 8, 200, 201, 202} to the cycle
// 10..199, which the finish skips and whose vertex 50 holds 200 past its sampled
// positions: the finish must link 200's list from its second neighbour on.
func TestCCFirstAloneLast(t *testing.T) {
	edges := []testgraph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}, {U: 3, V: 0}, {U: 200, V: 5},
		{U: 200, V: 50}, {U: 200, V: 201}, {U: 200, V: 202}, {U: 10, V: 199}}
	for v := uint32(5); v <= 8; v++ {
		edges = append(edges, testgraph.Edge{U: 4, V: v})
	}
	for v := uint32(10); v < 199; v++ {
		edges = append(edges, testgraph.Edge{U: v, V: v + 1})
	}
	checkAll(t, "first-alone-last", 203, edges, false)
}

// TestCCFirstAloneGroup is TestCCFirstAlone for a whole group kept at one neighbour:
// vertices 192-255 (a ring with edges to the next two, and all to the anchor 0) give
// their first neighbour 0 alone and are all found in the anchor's tree as they are
// linked (linkFirsts); vertex 200's list [0, 50, 198, ...] holds the only link of that
// component to the cycle 1-150, which the finish skips and whose vertex 50 holds 200
// past its sampled positions: the finish must link 200's list from its second
// neighbour on.
func TestCCFirstAloneGroup(t *testing.T) {
	edges := []testgraph.Edge{{U: 200, V: 50}, {U: 1, V: 150}}
	for v := uint32(1); v < 150; v++ {
		edges = append(edges, testgraph.Edge{U: v, V: v + 1})
	}
	for i := uint32(0); i < 64; i++ {
		edges = append(edges, testgraph.Edge{U: 0, V: 192 + i},
			testgraph.Edge{U: 192 + i, V: 192 + (i+1)%64}, testgraph.Edge{U: 192 + i, V: 192 + (i+2)%64})
	}
	checkAll(t, "first-alone-group", 256, edges, false)
}

// TestCCMixedGroup: in the group of vertices 192-255 every list but vertex 201's has
// PackedMin or more neighbours (anchor 0 and a ring) and gives its first neighbour
// alone; the sampling links the group without their second neighbours (linkMixed)
// and must still link vertex 201's second neighbour, 50: its list [0, 50, 200] holds
// the only link of the group's component to the skipped cycle 1-150, whose vertex 50
// holds 201 past its sampled positions.
func TestCCMixedGroup(t *testing.T) {
	n, edges := mixedGroupGraph(t)
	checkAll(t, "mixed-group", n, edges, false)
}

func mixedGroupGraph(*testing.T) (uint32, []testgraph.Edge) {
	edges := []testgraph.Edge{{U: 201, V: 0}, {U: 201, V: 50}, {U: 201, V: 200}, {U: 1, V: 150}}
	for v := uint32(1); v < 150; v++ {
		edges = append(edges, testgraph.Edge{U: v, V: v + 1})
	}
	for i := uint32(0); i < 64; i++ {
		if v := 192 + i; v != 201 {
			edges = append(edges, testgraph.Edge{U: 0, V: v})
			for _, u := range []uint32{192 + (i+1)%64, 192 + (i+2)%64} {
				if u != 201 {
					edges = append(edges, testgraph.Edge{U: v, V: u})
				}
			}
		}
	}
	return 256, edges
}

// TestCCSampleSplit runs the sampling on one goroutine over ranges that end inside
// directory groups (steps of 1, 7, 37 and 100 vertices instead of Run's 2048), so
// that linkHeads starts groups at other positions than 0 (linkFirsts' and linkMixed's
// masks shifted), then the finish and the final compress as Run does, on the graphs
// of the tests above whose groups give their first neighbours alone.
func TestCCSampleSplit(t *testing.T) {
	graphs := map[string]func(t *testing.T) (uint32, []testgraph.Edge){
		"mixed-group": mixedGroupGraph, "settled": settledGraph,
	}
	for name, build := range graphs {
		n, edges := build(t)
		want := refComponents(n, edges)
		g := testgraph.Build(t, n, edges, false, 0)
		c := store.NewCompressed(g)
		for _, step := range []uint32{1, 7, 37, 100} {
			r := &run{a: c, n: n, workers: 1, serial: true, comp: make([]uint32, n)}
			for v := range r.comp {
				r.comp[v] = uint32(v)
			}
			r.anchor = anchor(c)
			r.last = r.anchor
			for lo := uint32(0); lo < n; lo += step {
				if err := r.linkHeads(c, lo, min(lo+step, n)); err != nil {
					t.Fatal(err)
				}
			}
			skip := r.mostFrequent(DefaultSamples, 1)
			if err := r.finish(2, skip); err != nil {
				t.Fatal(err)
			}
			r.compressFinished(skip)
			if !samePartition(r.comp, want) {
				t.Fatalf("%s, sampled %d vertices a call: partition\n got %v\nwant %v", name, step, r.comp, want)
			}
		}
	}
}

// TestCCSettled: a 16 x 16 torus (vertices 0-255, the anchor's tree, skipped) whose
// groups the sampling finds settled (every vertex labelled with the anchor as it is
// linked), the cycle 256-295, and vertex 300, whose list [0, 260, 301, 302] gives its
// first neighbour 0 alone and holds the only link of the torus to the cycle. The
// finish passes the settled groups without a scan (linkOut) and must still link the
// cycle's vertex 260, whose list holds 300 past its sampled positions.
func TestCCSettled(t *testing.T) {
	n, edges := settledGraph(t)
	checkAll(t, "settled", n, edges, false)
}

func settledGraph(*testing.T) (uint32, []testgraph.Edge) {
	const k = 16
	var edges []testgraph.Edge
	for v := uint32(0); v < k*k; v++ {
		edges = append(edges, testgraph.Edge{U: v, V: v/k*k + (v+1)%k}, testgraph.Edge{U: v, V: (v + k) % (k * k)})
	}
	for v := uint32(256); v < 296; v++ {
		edges = append(edges, testgraph.Edge{U: v, V: 256 + (v+1-256)%40})
	}
	edges = append(edges, testgraph.Edge{U: 300, V: 0}, testgraph.Edge{U: 300, V: 260},
		testgraph.Edge{U: 300, V: 301}, testgraph.Edge{U: 300, V: 302})
	return 320, edges
}

// TestCCFirstGroups: a 12 x 12 torus (vertices 0-143) and, after it, complete graphs on
// five vertices each followed by an isolated one: every list holds PackedMin
// neighbours, so the sampling on one goroutine gives every list of a group its first
// neighbour alone and links whole groups without second neighbours (linkFirsts), the
// torus in the anchor's tree and each K5 outside it; a link to a wrong vertex joins
// two K5s.
func TestCCFirstGroups(t *testing.T) {
	const k, blocks = 12, 40
	var edges []testgraph.Edge
	for v := uint32(0); v < k*k; v++ {
		edges = append(edges, testgraph.Edge{U: v, V: v/k*k + (v+1)%k}, testgraph.Edge{U: v, V: (v + k) % (k * k)})
	}
	for b := uint32(0); b < blocks; b++ {
		for i := uint32(0); i < 5; i++ {
			for j := i + 1; j < 5; j++ {
				edges = append(edges, testgraph.Edge{U: k*k + 6*b + i, V: k*k + 6*b + j})
			}
		}
	}
	checkAll(t, "first-groups", k*k+6*blocks, edges, false)
}

// TestCCDirectedReached: on a directed graph, vertex 200 has no out-neighbours, so the
// finish's scan of the out-lists passes its group; its tree {170, 171, 200, 290} joins
// the skipped cycle 0-159 only in the scan of the in-lists, at 290 (the cycle's vertex
// 5 holds it past its sampled positions), after that scan reached 200. The final
// compress must take 200's block of 64 (compressFinished), reached in the in-lists'
// scan alone.
func TestCCDirectedReached(t *testing.T) {
	var edges []testgraph.Edge
	for v := uint32(0); v < 160; v++ {
		edges = append(edges, testgraph.Edge{U: v, V: (v + 1) % 160})
	}
	edges = append(edges, testgraph.Edge{U: 5, V: 7}, testgraph.Edge{U: 5, V: 290},
		testgraph.Edge{U: 170, V: 171}, testgraph.Edge{U: 170, V: 200},
		testgraph.Edge{U: 171, V: 170}, testgraph.Edge{U: 290, V: 170})
	checkAll(t, "directed-reached", 320, edges, true)
}

// TestCCBadList runs CC on graphs with one list of PackedMin neighbours whose first
// neighbour is in range and whose second is past the graph's end, where the sampling on
// one goroutine gives the first alone (HeadGroup's first mode): vertex 150's list [4,
// 300, ...] outside the anchor's tree and the hub's makes the sampling read the second
// (HeadSecond), and vertex 2's list [0, 1, 3, 300] in the anchor's small component {0,
// 1, 2, 3} (the star of hub 10 is skipped) makes the finish read the list from its
// second on. Each run must fail naming the shard, not answer. maxBack is 0, so that the
// hub's list, which needs its second, leaves the first mode on for the groups after it.
func TestCCBadList(t *testing.T) {
	defer func(mb int) { maxBack = mb }(maxBack)
	maxBack = 0
	const n, hub = 200, 10
	for _, c := range []struct {
		bad  uint32
		list []uint32
	}{{150, []uint32{4, 300, 301, 302}}, {2, []uint32{0, 1, 3, 300}}} {
		lists := make([][]uint32, n)
		for v := uint32(0); v < n; v++ {
			switch {
			case v == c.bad:
				lists[v] = c.list
			case v < 4:
				lists[v] = []uint32{(v + 1) % 4}
			case v == hub:
				for u := uint32(hub + 1); u < n; u++ {
					if u != c.bad {
						lists[v] = append(lists[v], u)
					}
				}
			case v > hub:
				lists[v] = []uint32{hub}
			}
		}
		g := testgraph.BuildLists(t, lists, store.CreateOptions{})
		for _, workers := range []int{1, 2} {
			r, err := Run(store.NewCompressed(g), Options{Workers: workers})
			if err == nil {
				t.Fatalf("vertex %d's list %v, %d workers: answered %d components", c.bad, c.list, workers, r.Components)
			}
			if !strings.Contains(err.Error(), ".shard") {
				t.Fatalf("vertex %d's list %v, %d workers: %v names no shard", c.bad, c.list, workers, err)
			}
		}
	}
}

func TestCCCases(t *testing.T) {
	for _, c := range testgraph.Cases() {
		checkAll(t, c.String(), c.N, c.Edges, c.Directed)
	}
}

// TestCCHubs gives some vertices lists of several blocks, so that sampling (70 rounds)
// and the finish start decoding past a list's first block.
func TestCCHubs(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	n := uint32(400)
	edges := testgraph.Random(r, n, 150)
	for v := uint32(3); v < n/2; v += 2 {
		edges = append(edges, testgraph.Edge{U: 1, V: v})
	}
	for v := n / 2; v < n; v += 3 {
		edges = append(edges, testgraph.Edge{U: v, V: n - 2})
	}
	for _, directed := range []bool{false, true} {
		checkAll(t, fmt.Sprintf("hubs(directed=%v)", directed), n, edges, directed)
	}
}

func TestCCRandom(t *testing.T) {
	seed := testseed.Seed(t)
	r := rand.New(rand.NewPCG(seed, 2))
	for i := 0; i < 8; i++ {
		n := uint32(1 + r.IntN(500))
		// around the connectivity threshold, so there are several sizeable components
		m := r.IntN(int(n) + 1)
		edges := testgraph.Random(r, n, m)
		checkAll(t, fmt.Sprintf("random#%d(n=%d,m=%d,directed=%v,seed=%d)", i, n, m, i%2 == 1, seed), n, edges, i%2 == 1)
	}
}

// TestMostFrequent compares mostFrequent with a count of the same seeded draws, on
// labellings with a majority label (the vote's path) and without one (the table's).
// The labels are not compressed (chains of smaller vertices lead to the roots), as after
// the sampling rounds on one goroutine.
func TestMostFrequent(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const trials = 200
	unanimousTrials := 0
	for trial := 0; trial < trials; trial++ {
		n := uint32(1 + r.IntN(2000))
		comp := make([]uint32, n)
		labels := 1 + r.IntN(6)
		share := r.Float64() // the first label's share; the others split the rest
		for v := range comp {
			switch {
			case v <= labels:
				comp[v] = uint32(v) // the roots
			case r.Float64() < share:
				comp[v] = 0
			case r.IntN(2) == 0:
				comp[v] = uint32(1 + r.IntN(labels))
			default:
				comp[v] = uint32(r.IntN(v)) // a smaller vertex: chains, as links leave
			}
		}
		root := func(v uint32) uint32 {
			for comp[v] != v {
				v = comp[v]
			}
			return v
		}
		samples, seed := 1+r.IntN(300), r.Uint64()
		if trial%4 == 0 { // beyond the draws whose roots are kept
			samples = DefaultSamples - 2 + r.IntN(5)
		}
		got := (&run{n: n, comp: comp}).mostFrequent(samples, seed)
		// the count: the label drawn most often, the first to reach that count on ties;
		// or the first unanimous draws' label where they all found one
		rng := rand.New(rand.NewPCG(seed, 0x5eed))
		count := map[uint32]int{}
		best, bestN := uint32(0), 0
		for i := range samples {
			c := root(rng.Uint32N(n))
			if count[c]++; count[c] > bestN {
				best, bestN = c, count[c]
			}
			if i+1 == unanimous && bestN == unanimous {
				unanimousTrials++
				break
			}
		}
		if got != best {
			t.Fatalf("trial %d (n=%d, samples=%d, seed=%d): mostFrequent %d, the count's %d", trial, n, samples, seed, got, best)
		}
	}
	if unanimousTrials == 0 || unanimousTrials == trials {
		t.Errorf("%d of %d trials had unanimous first draws: both cases wanted", unanimousTrials, trials)
	}
}

// TestMostFrequentUnanimous builds labels around mostFrequent's own draws: the first
// unanimous draws in a small component, every other vertex in a large one. The small
// component is taken where those draws are all in it, and the large one where one of
// them is not.
func TestMostFrequentUnanimous(t *testing.T) {
	const n, seed = 1 << 16, 7
	for _, agree := range []int{unanimous, unanimous - 1} {
		rng := rand.New(rand.NewPCG(seed, 0x5eed))
		comp := make([]uint32, n)
		for v := range comp {
			comp[v] = 1 // the large component, rooted at 1
		}
		for range agree {
			comp[rng.Uint32N(n)] = 0 // the small one, rooted at 0
		}
		comp[0] = 0
		if comp[1] != 1 {
			t.Fatal("seed draws vertex 1: pick another")
		}
		want := uint32(0)
		if agree < unanimous {
			want = 1
		}
		if got := (&run{n: n, comp: comp}).mostFrequent(DefaultSamples, seed); got != want {
			t.Errorf("first %d draws in component 0: mostFrequent %d, want %d", agree, got, want)
		}
	}
}

// TestCCBadListPastSettled: settledGraph's torus skipped in settled groups, and beside it
// a vertex whose list's second block holds a vertex past the graph. The sampling reads
// no further than the list's first neighbours; the finish's scan of the groups between
// the settled runs (linkOut) decodes the rest and must refuse the graph.
func TestCCBadListPastSettled(t *testing.T) {
	defer func(mb int) { maxBack = mb }(maxBack)
	maxBack = 0
	const n, bad = 400, 310
	_, edges := settledGraph(t)
	lists := make([][]uint32, n)
	for _, e := range edges {
		lists[e.U] = append(lists[e.U], e.V)
		lists[e.V] = append(lists[e.V], e.U)
	}
	for u := uint32(320); u < 390; u++ {
		lists[bad] = append(lists[bad], u)
		lists[u] = append(lists[u], bad)
	}
	lists[bad] = append(lists[bad], n+50) // past the graph, in the list's second block
	for v := range lists {
		slices.Sort(lists[v])
		lists[v] = slices.Compact(lists[v])
	}
	g := testgraph.BuildLists(t, lists, store.CreateOptions{})
	r, err := Run(store.NewCompressed(g), Options{Workers: 1})
	if err == nil {
		t.Fatalf("vertex %d's list holds %d of %d vertices: answered %d components", bad, n+50, n, r.Components)
	}
	if !strings.Contains(err.Error(), ".shard") {
		t.Fatalf("%v names no shard", err)
	}
}

// TestPassSkipped holds passSkipped to its rule on random forests (parents smaller, as
// after the sampling) where most vertices hang within a few steps of the root sk:
// every vertex before the index it returns is labelled sk, the one at it (if any) is
// not, and every label still leads to the vertex's root.
func TestPassSkipped(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 19))
	for it := range 2000 {
		n := 1 + r.IntN(80)
		comp := make([]uint32, n)
		for v := range comp {
			switch {
			case v == 0 || r.IntN(8) == 0:
				comp[v] = uint32(v) // a root
			case r.IntN(4) == 0:
				comp[v] = uint32(v - 1) // a chain through the vertex before
			default:
				comp[v] = uint32(r.IntN(v))
			}
		}
		root := func(c []uint32, v uint32) uint32 {
			for c[v] != v {
				v = c[v]
			}
			return v
		}
		roots := make([]uint32, n)
		for v := range roots {
			roots[v] = root(comp, uint32(v))
		}
		sk := roots[r.IntN(n)]
		from := r.IntN(n)
		for v := 0; v < from; v++ { // compressed, as the scan leaves them
			comp[v] = roots[v]
		}
		k := int(passSkipped(comp, comp[from:], sk))
		if from+k > n {
			t.Fatalf("#%d: index %d past the %d vertices from %d", it, k, n-from, from)
		}
		for v := range comp {
			if comp[v] > uint32(v) || root(comp, uint32(v)) != roots[v] {
				t.Fatalf("#%d: vertex %d labelled %d, not in its tree (root %d)", it, v, comp[v], roots[v])
			}
		}
		for v := from; v < from+k; v++ {
			if comp[v] != sk {
				t.Fatalf("#%d: vertex %d passed with label %d, not %d", it, v, comp[v], sk)
			}
		}
		if from+k < n && comp[from+k] == sk {
			t.Fatalf("#%d: stopped at vertex %d, labelled %d", it, from+k, sk)
		}
	}
}

// TestLinkGroupAsm holds linkGroup, linkFirsts and linkMixed (their assembly where it
// runs) to linkGroupGo, linkFirstsGo and linkMixedGo store for store: the same labels
// and masks after the same groups of links, on random forests whose parents are
// smaller (as during the sampling) and neighbours near and far.
func TestLinkGroupAsm(t *testing.T) {
	if !haveLinkAsm {
		t.Skip("no assembly on this architecture or build")
	}
	r := rand.New(rand.NewPCG(11, 23))
	for it := range 3000 {
		n := 1 + r.IntN(300)
		want := make([]uint32, n)
		for v := range want {
			want[v] = uint32(v)
			if v > 0 && r.IntN(3) > 0 {
				want[v] = uint32(r.IntN(v))
			}
		}
		got := slices.Clone(want)
		for range 1 + r.IntN(6) {
			v := uint32(r.IntN(n))
			k := r.IntN(min(64, n-int(v)) + 1)
			x0, x1 := make([]uint32, k), make([]uint32, k)
			for j := range x0 {
				near := func() uint32 {
					if r.IntN(2) == 0 {
						return uint32(min(max(int(v)+j+r.IntN(9)-4, 0), n-1))
					}
					return uint32(r.IntN(n))
				}
				x0[j], x1[j] = near(), near()
			}
			a, once := want[r.IntN(n)], r.Uint64()
			var gotIn, wantIn uint64
			kind := []string{"linkGroup", "linkFirsts", "linkMixed"}[r.IntN(3)]
			switch kind {
			case "linkGroup":
				linkGroupGo(want, v, x0, x1)
				linkGroup(got, v, x0, x1)
			case "linkFirsts":
				wantIn = linkFirstsGo(want, v, x0, a)
				gotIn = linkFirsts(got, v, x0, a)
			default:
				wantIn = linkMixedGo(want, v, x0, x1, once, a)
				gotIn = linkMixed(got, v, x0, x1, once, a)
			}
			if !slices.Equal(got, want) || gotIn != wantIn {
				t.Fatalf("#%d: %s at %d of %d: labels or mask differ (mask %#x, want %#x)\n got %v\nwant %v", it, kind, v, k, gotIn, wantIn, got, want)
			}
		}
	}
}
