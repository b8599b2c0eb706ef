package store

import (
	"os"
	"testing"
)

// BenchmarkHeadGroup reads the first two neighbours of every vertex of the graph in
// OOC_BENCH_GRAPH (a graph directory) by HeadGroup, a group at a time in first mode
// as Afforest's sampling does: the same work at every run, for instruction counts of
// HeadGroup alone (Afforest's own runs differ in what they sample with the schedule).
func BenchmarkHeadGroup(b *testing.B) {
	dir := os.Getenv("OOC_BENCH_GRAPH")
	if dir == "" {
		b.Skip("OOC_BENCH_GRAPH names no graph")
	}
	g, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	var x [2][DirGroup]uint32
	var r HeadReader
	nv := g.NumVertices()
	b.ResetTimer()
	for range b.N {
		for _, s := range g.Out().Shards {
			r.Reset(s, nv, &x)
			for gi := uint32(0); gi*DirGroup < s.N; gi++ {
				if _, _, bad := r.Group(gi, 0, min(DirGroup, s.N-gi*DirGroup), true); bad >= 0 {
					b.Fatalf("shard at %d, group %d: list %d refused", s.Lo, gi, bad)
				}
			}
		}
	}
	b.ReportMetric(float64(nv)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mvertices/s")
}
