package bfs

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/oocgraph/ooc/ingest"
	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
)

// TestBottomUpBound holds bottom-up levels to the bound topDownCheaper decides by
// without samples: after a bottom-up level the lists of the vertices it left unvisited
// sum to at most its entries examined less the vertices it found, since each of them
// read its whole list. Random graphs with hubs (lists of several blocks) on compressed
// shards of several sizes and the flat CSR, one and three workers, and
// facebook_combined where the real graphs are.
func TestBottomUpBound(t *testing.T) {
	defer func(s uint64, w uint64) { buScan, serialWork = s, w }(buScan, serialWork)
	buScan = 0 // small frontiers of small graphs go bottom-up too
	r := rand.New(rand.NewPCG(19, 11))
	for i := range 4 {
		n := uint32(200 + r.IntN(3000))
		edges := testgraph.Random(r, n, int(n)*(2+r.IntN(12)))
		for v := uint32(0); v < n; v += 3 {
			edges = append(edges, testgraph.Edge{U: n / 3, V: v})
		}
		for _, shardBytes := range []int64{64 << 10, 0} {
			g := testgraph.Build(t, n, edges, false, shardBytes)
			checkBottomUpBound(t, fmt.Sprintf("random#%d(n=%d,m=%d) shardBytes=%d", i, n, len(edges), shardBytes), g, []uint32{0, n / 3, n - 1})
		}
	}
	path := testgraph.Real(t, "facebook_combined.txt.gz")
	dir := filepath.Join(t.TempDir(), "g.ooc")
	if _, err := ingest.File(path, ingest.Options{Dest: dir}); err != nil {
		t.Fatal(err)
	}
	checkBottomUpBound(t, "facebook_combined", testgraph.Open(t, dir), []uint32{0, 289, 930, 2125, 3534})
}

func checkBottomUpBound(t *testing.T, name string, g *store.Graph, srcs []uint32) {
	t.Helper()
	flat, err := store.NewFlat(g)
	if err != nil {
		t.Fatal(err)
	}
	levels := 0
	for _, a := range []store.Adjacency{store.NewCompressed(g), flat} {
		for wi, workers := range []int{1, 3} {
			serialWork = [2]uint64{1 << 18, 0}[wi]
			for _, src := range srcs {
				r, err := Run(a, src, Options{Workers: workers, StrictSwitch: true})
				if err != nil {
					t.Fatal(err)
				}
				for _, l := range r.Levels {
					if l.Direction != BottomUp {
						continue
					}
					var found, left uint64
					for v, lv := range r.Level {
						switch {
						case lv == uint32(l.Level)+1:
							found++
						case lv > uint32(l.Level)+1: // unreached too
							left += uint64(a.Degree(store.In, uint32(v)))
						}
					}
					if left+found > l.EdgesExamined {
						t.Fatalf("%s %T workers=%d src=%d: bottom-up level %d examined %d entries and found %d vertices, but left lists of %d entries unvisited",
							name, a, workers, src, l.Level, l.EdgesExamined, found, left)
					}
					levels++
				}
			}
		}
	}
	if levels == 0 {
		t.Fatalf("%s: no bottom-up level", name)
	}
}
