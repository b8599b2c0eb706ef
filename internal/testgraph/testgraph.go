// Package testgraph builds small graph directories straight through store.Builder,
// independently of ingest, so that engines and their tests can be checked against plain
// adjacency lists.
package testgraph

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/oocgraph/ooc/store"
)

// Edge is a directed input edge U -> V.
type Edge struct{ U, V uint32 }

// Lists returns sorted, deduplicated adjacency lists without self-loops: for an undirected
// graph out holds every edge both ways and in is out; for a directed one in is the
// transpose.
func Lists(n uint32, edges []Edge, directed bool) (out, in [][]uint32) {
	return lists(n, edges, directed, false)
}

// ListsWithLoops is Lists keeping self-loops as ingest --keep-self-loops stores them: an
// undirected self-loop once in its vertex's list, a directed one in both directions.
func ListsWithLoops(n uint32, edges []Edge, directed bool) (out, in [][]uint32) {
	return lists(n, edges, directed, true)
}

func lists(n uint32, edges []Edge, directed, loops bool) (out, in [][]uint32) {
	out = make([][]uint32, n)
	in = out
	if directed {
		in = make([][]uint32, n)
	}
	for _, e := range edges {
		if e.U == e.V && !loops {
			continue
		}
		out[e.U] = append(out[e.U], e.V)
		if directed {
			in[e.V] = append(in[e.V], e.U)
		} else if e.U != e.V {
			out[e.V] = append(out[e.V], e.U)
		}
	}
	for _, l := range [][][]uint32{out, in} {
		for v := range l {
			slices.Sort(l[v])
			l[v] = slices.Compact(l[v])
		}
	}
	return out, in
}

// write writes the graph into dir (which must not exist) with ADJ sections of at most
// shardBytes (0: the default) and returns its manifest.
func write(dir string, n uint32, edges []Edge, directed bool, shardBytes int64, loops bool) (*store.Manifest, error) {
	out, in := lists(n, edges, directed, loops)
	b, err := store.Create(dir, store.CreateOptions{ShardBytes: shardBytes})
	if err != nil {
		return nil, err
	}
	write := func(d store.Direction, lists [][]uint32) error {
		w := b.Writer(d)
		for v, l := range lists {
			if len(l) > 0 {
				if err := w.AppendList(uint32(v), l); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := write(store.Out, out); err != nil {
		b.Abort()
		return nil, err
	}
	if directed {
		if err := write(store.In, in); err != nil {
			b.Abort()
			return nil, err
		}
	}
	m := &store.Manifest{Vertices: n, Directed: directed, InputEdges: uint64(len(edges)),
		Input: store.InputInfo{Name: "testgraph", Format: "test"}, Options: store.BuildOptions{KeepSelfLoops: loops}}
	if err := b.Commit(m); err != nil {
		return nil, err
	}
	return m, nil
}

// Build writes the graph into a fresh temporary directory and opens it; it is closed when
// the test ends.
func Build(tb testing.TB, n uint32, edges []Edge, directed bool, shardBytes int64) *store.Graph {
	tb.Helper()
	return build(tb, n, edges, directed, shardBytes, false)
}

// BuildWithLoops is Build keeping self-loops (see ListsWithLoops).
func BuildWithLoops(tb testing.TB, n uint32, edges []Edge, directed bool, shardBytes int64) *store.Graph {
	tb.Helper()
	return build(tb, n, edges, directed, shardBytes, true)
}

func build(tb testing.TB, n uint32, edges []Edge, directed bool, shardBytes int64, loops bool) *store.Graph {
	tb.Helper()
	return Open(tb, writeTemp(tb, n, edges, directed, shardBytes, loops))
}

// Dir writes the graph into a fresh temporary directory and returns its path, for code
// that opens the graph itself (the CLI).
func Dir(tb testing.TB, n uint32, edges []Edge, directed bool) string {
	tb.Helper()
	return writeTemp(tb, n, edges, directed, 0, false)
}

func writeTemp(tb testing.TB, n uint32, edges []Edge, directed bool, shardBytes int64, loops bool) string {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), "g.ooc")
	if _, err := write(dir, n, edges, directed, shardBytes, loops); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// BuildLists writes lists[v] as vertex v's out-list, as given (not symmetrised, sorted or
// checked against the vertex count: a test's damaged lists stay damaged), into a fresh
// temporary directory with opt, and opens it; it is closed when the test ends.
func BuildLists(tb testing.TB, lists [][]uint32, opt store.CreateOptions) *store.Graph {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), "g.ooc")
	b, err := store.Create(dir, opt)
	if err != nil {
		tb.Fatal(err)
	}
	for v, l := range lists {
		if err := b.Writer(store.Out).AppendList(uint32(v), l); err != nil {
			tb.Fatal(err)
		}
	}
	if err := b.Commit(&store.Manifest{Vertices: uint32(len(lists))}); err != nil {
		tb.Fatal(err)
	}
	return Open(tb, dir)
}

// BuildEncoded writes lists[v], bytes taken as they are, as vertex v's out-list of
// degrees[v] neighbours (len(lists) vertices, one shard), into a fresh temporary
// directory, and opens it; it is closed when the test ends. The checksums and directory
// hold whatever the bytes are: a list that does not decode is left to the decoders.
func BuildEncoded(tb testing.TB, degrees []uint32, lists [][]byte) *store.Graph {
	tb.Helper()
	if len(degrees) != len(lists) {
		tb.Fatalf("testgraph: %d degrees for %d lists", len(degrees), len(lists))
	}
	offsets, data := []uint32{0}, []byte(nil)
	for _, l := range lists {
		data = append(data, l...)
		offsets = append(offsets, uint32(len(data)))
	}
	dir := filepath.Join(tb.TempDir(), "g.ooc")
	b, err := store.Create(dir, store.CreateOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	if err := b.Writer(store.Out).AppendRange(0, degrees, offsets, data); err != nil {
		tb.Fatal(err)
	}
	if err := b.Commit(&store.Manifest{Vertices: uint32(len(lists))}); err != nil {
		tb.Fatal(err)
	}
	return Open(tb, dir)
}

// Open opens the graph directory dir, to be closed when the test ends.
func Open(tb testing.TB, dir string) *store.Graph {
	tb.Helper()
	g, err := store.Open(dir)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { g.Close() })
	return g
}

// Random returns m uniformly random edges over n vertices.
func Random(r *rand.Rand, n uint32, m int) []Edge {
	e := make([]Edge, m)
	for i := range e {
		e[i] = Edge{uint32(r.IntN(int(n))), uint32(r.IntN(int(n)))}
	}
	return e
}

// Pairs turns its arguments into edges, two at a time: Pairs(0, 1, 2, 3) is 0 -> 1,
// 2 -> 3. An odd last argument is dropped.
func Pairs(ends ...uint32) []Edge {
	e := make([]Edge, len(ends)/2)
	for i := range e {
		e[i] = Edge{ends[2*i], ends[2*i+1]}
	}
	return e
}

// Case is a named small graph for edge-case tests.
type Case struct {
	Name     string
	N        uint32
	Edges    []Edge
	Directed bool
}

// Cases are the edge cases every engine is checked on.
func Cases() []Case {
	path, star, two, cycle := []Edge{}, []Edge{}, []Edge{}, []Edge{}
	for i := uint32(0); i+1 < 50; i++ {
		path = append(path, Edge{i, i + 1})
	}
	for i := uint32(1); i < 300; i++ { // hub with a list longer than several blocks
		star = append(star, Edge{0, i})
	}
	for i := uint32(0); i < 10; i++ {
		two = append(two, Edge{i, (i + 1) % 10}, Edge{10 + i, 10 + (i+1)%10})
	}
	for i := uint32(0); i < 20; i++ {
		cycle = append(cycle, Edge{i, (i + 1) % 20})
	}
	var mesh, runs []Edge
	for v := uint32(0); v < 64; v++ { // an 8x8 grid by rows: its inner lists are mirrored blocks
		if v%8 != 7 {
			mesh = append(mesh, Edge{v, v + 1})
		}
		if v+8 < 64 {
			mesh = append(mesh, Edge{v, v + 8})
		}
	}
	for _, r := range [][2]uint32{{1, 20}, {100, 130}, {250, 260}, {390, 400}} { // compact blocks, exceptions
		for u := r[0]; u < r[1]; u++ {
			runs = append(runs, Edge{0, u})
		}
	}
	return []Case{
		{"empty", 0, nil, false},
		{"mesh", 64, mesh, false},
		{"runs", 400, runs, false},
		{"single", 1, nil, false},
		{"isolated", 5, []Edge{{1, 3}}, false},
		{"selfloops", 4, []Edge{{0, 0}, {0, 1}, {1, 1}, {2, 3}, {3, 3}}, false},
		{"duplicates", 3, []Edge{{0, 1}, {1, 0}, {0, 1}, {1, 2}}, false},
		{"path", 50, path, false},
		{"star", 300, star, false},
		{"twocomponents", 25, two, false},
		{"directed-cycle", 20, cycle, true},
		{"directed-path", 50, path, true},
		{"directed-star-in", 300, reverse(star), true},
	}
}

func reverse(e []Edge) []Edge {
	r := make([]Edge, len(e))
	for i, x := range e {
		r[i] = Edge{x.V, x.U}
	}
	return r
}

// String names a case for test output.
func (c Case) String() string { return fmt.Sprintf("%s(n=%d,m=%d)", c.Name, c.N, len(c.Edges)) }
