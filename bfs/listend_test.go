package bfs

import (
	"encoding/binary"
	"slices"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
)

// topDownModes runs f with the top-down expansion on one goroutine (expandSerial, its
// road, mesh, short-word, one-block and claimList paths) and then on two workers with
// lists cut into one-block pieces (expandList), for graphs of at most 2^10 vertices.
func topDownModes(t *testing.T, f func(mode string, opt Options)) {
	defer func(s, w uint64, p uint32) { serialEdges, serialWork, pieceSize = s, w, p }(serialEdges, serialWork, pieceSize)
	serialWork, serialEdges = ^uint64(0), ^uint64(0)
	f("serial", Options{Workers: 1, Alpha: 1})
	serialWork, serialEdges, pieceSize = 0, 0, store.BlockSize
	f("parallel", Options{Workers: 2, Alpha: 1})
}

// oneList is a graph of n vertices in which vertex v's list is list (bytes as they are,
// of deg neighbours) and every other vertex's list is empty, but the source's (0, when v
// is not 0), which is 1, 2 and v: so that v's list is read in level 0 or in level 1
// after other lists of a batch.
func oneList(t *testing.T, n, v, deg uint32, list []byte) *store.Graph {
	degrees, lists := make([]uint32, n), make([][]byte, n)
	if v != 0 {
		l := []uint32{1, 2, v}
		if v <= 2 {
			l = []uint32{1, 2}
		}
		degrees[0], lists[0] = uint32(len(l)), store.AppendList(nil, 0, l)
	}
	degrees[v], lists[v] = deg, list
	return testgraph.BuildEncoded(t, degrees, lists)
}

// TestBFSListEnd: a list whose blocks decode but that does not end where its last block
// does (a byte after it), or whose second block is not where its index says, passes
// Check (checksums, directory, the index within the list) and must be refused by every
// top-down path as store.ListIter refuses it, wherever the list is read: DecodeBlock
// reads one block and checks neither, so each path that reads a list to its end checks
// store.BlockEnds.
func TestBFSListEnd(t *testing.T) {
	const n = 300
	for _, c := range []listEndCase{
		{"source's neighbour 1, then 00", 0, 1, []byte{0x02, 0x00}},
		{"vertex 2's neighbour 0, then 00", 2, 1, []byte{0x03, 0x00}},
		{"vertex 2's 3 neighbours, then 00", 2, 3, trailing(2, []uint32{0, 1, 3})},
		{"vertex 10's mirrored 4, then 00", 10, 4, trailing(10, []uint32{8, 9, 11, 12})},
		{"source's 10 neighbours, then 00", 0, 10, trailing(0, apart(1, 10))},
		{"vertex 7's 10 neighbours, then 00", 7, 10, trailing(7, apart(11, 10))},
		{"source's 40 neighbours, then 00", 0, 40, trailing(0, apart(1, 40))},
		{"source's 100 neighbours, then 00", 0, 100, trailing(0, apart(1, 100))},
		{"source's 100 neighbours, block 1 indexed a byte early", 0, 100, indexedEarly(0, apart(1, 100))},
	} {
		g := c.graph(t, n)
		topDownModes(t, func(mode string, opt Options) {
			c.refused(t, mode, g, opt)
		})
	}
}

// listEndCase is vertex v's list of deg neighbours whose blocks decode but which
// store.ListIter refuses: a byte after its last block, or a block not where the block
// index says.
type listEndCase struct {
	name string
	v    uint32
	deg  uint32
	list []byte
}

// apart is k neighbours from lo on, 2 apart.
func apart(lo, k uint32) []uint32 {
	l := make([]uint32, k)
	for i := range l {
		l[i] = lo + 2*uint32(i)
	}
	return l
}

// trailing is v's list l with a zero byte after it.
func trailing(v uint32, l []uint32) []byte { return append(store.AppendList(nil, v, l), 0) }

// indexedEarly is v's list l (more than one block) with its second block's index entry
// a byte early, inside the first block.
func indexedEarly(v uint32, l []uint32) []byte {
	b := store.AppendList(nil, v, l)
	binary.LittleEndian.PutUint32(b, binary.LittleEndian.Uint32(b)-1)
	return b
}

// graph is oneList's graph of n vertices for c, after checking that DecodeList refuses
// c's list and Check passes the graph (checksums, directory, the index within the list).
func (c listEndCase) graph(t *testing.T, n uint32) *store.Graph {
	t.Helper()
	if _, err := store.DecodeList(nil, c.v, c.deg, c.list, n); err == nil {
		t.Fatalf("%s: store.DecodeList decodes it", c.name)
	}
	g := oneList(t, n, c.v, c.deg, c.list)
	if err := g.Check(); err != nil {
		t.Fatalf("%s: the checksums and directory should pass: %v", c.name, err)
	}
	return g
}

// refused fails t unless a search of g from vertex 0 with opt returns an error that
// names the list's shard.
func (c listEndCase) refused(t *testing.T, mode string, g *store.Graph, opt Options) {
	t.Helper()
	r, err := Run(store.NewCompressed(g), 0, opt)
	if err == nil {
		t.Fatalf("%s, %s: answered %d reached, levels %+v", c.name, mode, r.Reached, r.Levels)
	}
	if !strings.Contains(err.Error(), ".shard") {
		t.Fatalf("%s, %s: %v names no shard", c.name, mode, err)
	}
}

// FuzzTopDownList holds the top-down expansion (every path of expandSerial, and
// expandList's pieces) to store.DecodeList on arbitrary bytes as vertex v's list of d
// neighbours, read in level 0 (v the source) or level 1 (after the source's other
// neighbours): a search fails exactly where DecodeList refuses the list, and else
// reaches the source, its neighbours and v's.
func FuzzTopDownList(f *testing.F) {
	f.Add(uint32(0), uint32(1), []byte{0x02, 0x00}, false)
	f.Add(uint32(4), uint32(0), []byte{0x02}, true)
	f.Add(uint32(2), uint32(1), []byte{0x03, 0x00}, true)
	f.Add(uint32(5), uint32(3), []byte{0x09, 0x02, 0xA5, 0x02}, true)
	f.Add(uint32(10), uint32(4), []byte{0x1F, 0xFF, 0x07}, false)
	f.Add(uint32(10), uint32(6), []byte{0x13, 0xC1, 0x20, 0xD8, 0x61, 0x24}, true)
	nbrs := make([]uint32, 150)
	for i := range nbrs {
		nbrs[i] = uint32(i)
	}
	f.Add(uint32(3), uint32(150), store.AppendList(nil, 3, nbrs), false)
	f.Add(uint32(3), uint32(150), append(store.AppendList(nil, 3, nbrs), 0), true)
	const n = 200
	f.Fuzz(func(t *testing.T, v, d uint32, list []byte, level1 bool) {
		v, d = v%n, d%200
		if len(list) > 4096 {
			return
		}
		want, err := store.DecodeList(nil, v, d, list, n)
		src := v
		if level1 && v != 0 {
			src = 0
		}
		g := oneList(t, n, v, d, list)
		if g.Check() != nil {
			return // a list Check refuses: ooc.Open never gives it to a search
		}
		// what a search from src reaches: 0's list is 1, 2 and v where v is not 0
		adj := map[uint32][]uint32{v: want}
		if v != 0 {
			adj[0] = []uint32{1, 2, v}
		}
		reach, queue := map[uint32]bool{src: true}, []uint32{src}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for _, y := range adj[x] {
				if !reach[y] {
					reach[y] = true
					queue = append(queue, y)
				}
			}
		}
		topDownModes(t, func(mode string, opt Options) {
			r, rerr := Run(store.NewCompressed(g), src, opt)
			if (rerr == nil) != (err == nil) {
				t.Fatalf("%s: v %d d %d list %x from %d: search error %v, DecodeList's %v", mode, v, d, list, src, rerr, err)
			}
			if err != nil {
				return
			}
			var got []uint32
			for x, p := range r.Parent {
				if p != Unreached {
					got = append(got, uint32(x))
				}
			}
			var wantReach []uint32
			for x := range reach {
				wantReach = append(wantReach, x)
			}
			slices.Sort(wantReach)
			if !slices.Equal(got, wantReach) {
				t.Fatalf("%s: v %d d %d list %x from %d: reached %v, want %v", mode, v, d, list, src, got, wantReach)
			}
		})
	})
}

// TestBFSBottomUpListEnd: a list that bottom-up reads to its end (no neighbour in the
// frontier, or a list of one, found or not) with a byte after its last block, or a list
// whose second block is not where its index says, must be refused by the bottom-up
// scans (store.ScanGroup, both its vector steps and its scalar loop, and ScanList) as
// store.ListIter refuses it. The search runs bottom-up from level 0 (StrictSwitch, alpha
// and beta 2^30); vertex v's list is scanned there against the frontier {0}.
func TestBFSBottomUpListEnd(t *testing.T) {
	const n = 300
	for _, c := range []listEndCase{
		{"vertex 5's neighbour 0 (found), then 00", 5, 1, trailing(5, []uint32{0})},
		{"vertex 5's neighbour 3 (a miss), then 00", 5, 1, trailing(5, []uint32{3})},
		{"vertex 70's neighbour 0 (found, 2 bytes), then 00", 70, 1, trailing(70, []uint32{0})},
		{"vertex 5's 2 neighbours, then 00", 5, 2, trailing(5, []uint32{3, 4})},
		{"vertex 5's 3 neighbours, then 00", 5, 3, trailing(5, []uint32{3, 4, 6})},
		{"vertex 7's 10 neighbours, then 00", 7, 10, trailing(7, apart(11, 10))},
		{"vertex 7's 40 neighbours, then 00", 7, 40, trailing(7, apart(11, 40))},
		{"vertex 7's 100 neighbours, then 00", 7, 100, trailing(7, apart(11, 100))},
		{"vertex 7's 100 neighbours, block 1 indexed a byte early", 7, 100, indexedEarly(7, apart(11, 100))},
	} {
		c.refused(t, "bottom-up", c.graph(t, n), Options{Workers: 1, Alpha: 1 << 30, Beta: 1 << 30, StrictSwitch: true})
	}
}
