package validate

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/oocgraph/ooc"
	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
)

// smallPieces splits graphs of a few KiB into many pieces for the test's duration.
func smallPieces(t *testing.T, bytes uint64) {
	old := pieceBytes
	pieceBytes = bytes
	t.Cleanup(func() { pieceBytes = old })
}

func TestPiecesCoverEveryVertexOnce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	g := testgraph.Build(t, 3000, testgraph.Random(r, 3000, 20000), false, 4096)
	for _, b := range []uint64{1, 64, 1000, 1 << 20} {
		smallPieces(t, b)
		ps := pieces(g.Out())
		next := uint32(0)
		for _, p := range ps {
			if p.lo != next || p.hi <= p.lo || p.lo < p.s.Lo || p.hi > p.s.Hi() {
				t.Fatalf("pieceBytes %d: piece [%d,%d) of shard [%d,%d) after vertex %d", b, p.lo, p.hi, p.s.Lo, p.s.Hi(), next)
			}
			next = p.hi
		}
		if next != g.NumVertices() {
			t.Fatalf("pieceBytes %d: pieces end at %d of %d vertices", b, next, g.NumVertices())
		}
		if b == 1 && len(ps) != int(g.NumVertices()) {
			t.Fatalf("pieceBytes 1: %d pieces for %d vertices, want one each", len(ps), g.NumVertices())
		}
	}
}

// bfsOf is a plain queue BFS over adjacency lists, the reference the checks must accept.
func bfsOf(out [][]uint32, src uint32) (parent, level []uint32) {
	parent, level = make([]uint32, len(out)), make([]uint32, len(out))
	for i := range parent {
		parent[i], level[i] = ooc.Unreached, ooc.Unreached
	}
	parent[src], level[src] = src, 0
	q := []uint32{src}
	for len(q) > 0 {
		u := q[0]
		q = q[1:]
		for _, v := range out[u] {
			if level[v] == ooc.Unreached {
				parent[v], level[v] = u, level[u]+1
				q = append(q, v)
			}
		}
	}
	return parent, level
}

// TestParallelChecks runs the checks over random graphs cut into many shards and pieces,
// on several worker counts: a correct search passes, and each broken one fails with the
// same message whatever the scheduling.
func TestParallelChecks(t *testing.T) {
	smallPieces(t, 200)
	for _, directed := range []bool{false, true} {
		seed := uint64(11)
		if directed {
			seed = 12
		}
		t.Run(fmt.Sprintf("directed=%v/seed=%d", directed, seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 1))
			const n = 2000
			edges := testgraph.Random(r, n, 6000)
			g := testgraph.Build(t, n, edges, directed, 2048)
			if len(g.Out().Shards) < 3 {
				t.Fatalf("%d shards, want several", len(g.Out().Shards))
			}
			out, _ := testgraph.Lists(n, edges, directed)
			src := edges[0].U
			parent, level := bfsOf(out, src)
			if err := BFS(g, src, parent, level); err != nil {
				t.Fatalf("a correct BFS: %v", err)
			}
			var deep []uint32 // reached vertices other than the source
			for v := range level {
				if level[v] != ooc.Unreached && uint32(v) != src {
					deep = append(deep, uint32(v))
				}
			}
			for i := range 20 {
				p, l := slices.Clone(parent), slices.Clone(level)
				v := deep[r.IntN(len(deep))]
				switch i % 3 {
				case 0:
					l[v] += 2 // too deep for its tree edge and its neighbours
				case 1:
					p[v] = (p[v] + 1 + uint32(r.IntN(n-1))) % n // another parent, rarely a neighbour one level up
					if l[p[v]] != ooc.Unreached && l[p[v]]+1 == l[v] && slices.Contains(inList(g, p[v], v), p[v]) {
						continue
					}
				case 2:
					p[v], l[v] = ooc.Unreached, ooc.Unreached
				}
				first := BFS(g, src, p, l)
				if !errors.Is(first, ErrInvalid) {
					t.Fatalf("mutation %d of vertex %d: got %v, want an ErrInvalid", i, v, first)
				}
				for _, procs := range []int{1, 3, 8} {
					old := runtime.GOMAXPROCS(procs)
					err := BFS(g, src, p, l)
					runtime.GOMAXPROCS(old)
					if err == nil || err.Error() != first.Error() {
						t.Fatalf("mutation %d on %d threads: %v, first run said %v", i, procs, err, first)
					}
				}
			}
		})
	}
}

// inList returns the in-neighbours of v (for checking whether a random parent happens to
// be a valid one).
func inList(g *store.Graph, _, v uint32) []uint32 {
	l, err := g.In().ShardOf(v).Neighbors(nil, v)
	if err != nil {
		panic(err)
	}
	return l
}

// TestParallelCC compares the concurrent union-find's partition with the sequential one's
// on random graphs of several components, and breaks labels in both ways.
func TestParallelCC(t *testing.T) {
	smallPieces(t, 100)
	for _, directed := range []bool{false, true} {
		r := rand.New(rand.NewPCG(21, 2))
		const n = 3000
		edges := testgraph.Random(r, n, 2400) // sparse: many components
		g := testgraph.Build(t, n, edges, directed, 2048)
		seq, err := UnionFind(g)
		if err != nil {
			t.Fatal(err)
		}
		labels := make([]uint32, n)
		for v := range labels {
			labels[v] = Find(seq, uint32(v))
		}
		size := map[uint32]uint64{}
		for v := range labels {
			size[labels[v]]++
		}
		wantComps, wantLargest := uint64(len(size)), slices.Max(slices.Collect(maps.Values(size)))
		for _, procs := range []int{1, 4} {
			old := runtime.GOMAXPROCS(procs)
			p, err := CC(g, labels)
			runtime.GOMAXPROCS(old)
			if err != nil || p.Components != wantComps || p.Largest != wantLargest {
				t.Fatalf("directed=%v, %d threads: %+v, %v; want %d components, largest %d", directed, procs, p, err, wantComps, wantLargest)
			}
		}
		// merge two components under one label, and split one (a vertex with edges)
		merged := slices.Clone(labels)
		a, b := labels[edges[0].U], labels[edges[1].U]
		for v := range merged {
			if merged[v] == b {
				merged[v] = a
			}
		}
		split := slices.Clone(labels)
		for _, e := range edges {
			if e.U != e.V {
				split[e.U] = n + 5
				break
			}
		}
		for name, l := range map[string][]uint32{"merged": merged, "split": split} {
			if name == "merged" && a == b {
				continue
			}
			if _, err := CC(g, l); !errors.Is(err, ErrInvalid) {
				t.Errorf("directed=%v %s: got %v, want an ErrInvalid", directed, name, err)
			}
		}
	}
}
