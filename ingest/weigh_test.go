package ingest

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/store"
)

// TestWeighEdgesSameGraph: weighing the lists of an unweighted build gives the graph the
// weighted ingest builds from the same edges with the same (direction-free) weights:
// the same shards, section for section, the weights included, and the same manifest
// counts; at several orders, both ways, with ids.bin.
func TestWeighEdgesSameGraph(t *testing.T) {
	_, plain := randomWEdges(t, 2000, 30_000)
	weight := func(u, v uint64) uint32 {
		a, b := min(u, v), max(u, v)
		return 1 + uint32((a*0x9e3779b97f4a7c15^b*0xc2b2ae3d27d4eb4f)>>40)%999
	}
	weighted := make([]parse.WEdge, len(plain))
	for i, e := range plain {
		weighted[i] = parse.WEdge{U: e.U, V: e.V, W: weight(e.U, e.V)}
	}
	for _, order := range []string{store.OrderInput, store.OrderDegree} {
		for _, directed := range []bool{false, true} {
			where := fmt.Sprintf("order %s directed %v", order, directed)
			dir := t.TempDir()
			opt := Options{Directed: directed, Order: order, ShardBytes: 16 << 10, Workers: 2}
			opt.Dest = filepath.Join(dir, "w.ooc")
			if _, err := fromWEdges(opt, weighted); err != nil {
				t.Fatal(err)
			}
			opt.Dest = filepath.Join(dir, "weighed.ooc")
			rep, err := WeighEdges(opt, store.InputInfo{Name: "test"}, parse.Header{}, func(emit func([]parse.Edge) error) error {
				return emit(plain)
			}, weight)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if _, err := store.Verify(opt.Dest); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			a, err := store.Open(filepath.Join(dir, "w.ooc"))
			if err != nil {
				t.Fatal(err)
			}
			b, err := store.Open(opt.Dest)
			if err != nil {
				t.Fatal(err)
			}
			if !b.M.Weighted || rep.Manifest.Edges != a.M.Edges || a.M.Edges != b.M.Edges || a.M.MergedEdges() != b.M.MergedEdges() ||
				a.M.SelfLoopsDropped != b.M.SelfLoopsDropped || a.M.VertexOrder != b.M.VertexOrder || len(a.Shards()) != len(b.Shards()) ||
				len(a.Shards()) < 3 {
				t.Fatalf("%s: manifests differ: weighted %v, edges %d/%d, merged %d/%d, loops %d/%d, order %s/%s, %d/%d shards", where,
					b.M.Weighted, a.M.Edges, b.M.Edges, a.M.MergedEdges(), b.M.MergedEdges(), a.M.SelfLoopsDropped, b.M.SelfLoopsDropped,
					a.M.VertexOrder, b.M.VertexOrder, len(a.Shards()), len(b.Shards()))
			}
			sameShards(t, where, a, b, store.SecAdj, store.SecDirectory, store.SecWeights)
			a.Close()
			b.Close()
		}
	}
}
