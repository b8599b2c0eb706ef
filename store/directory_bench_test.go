package store

import (
	"math/rand/v2"
	"path/filepath"
	"testing"
)

// BenchmarkDirectory compares the directory's accessors with the arrays of versions 2
// to 4 (a degree and an offset per vertex, read from plain slices), on a road-like shard
// of 2^20 vertices of degree 1 to 6: random access (ListAt, as top-down BFS does) and a
// sweep over every vertex (DirCursor, as Range, Afforest and PageRank do).
func BenchmarkDirectory(b *testing.B) {
	const n = 1 << 20
	r := rand.New(rand.NewPCG(1, 2))
	dir := filepath.Join(b.TempDir(), "g.ooc")
	bld, err := Create(dir, CreateOptions{})
	if err != nil {
		b.Fatal(err)
	}
	for v := uint32(0); v < n; v++ {
		l := []uint32{}
		for u := v - min(v, 3); u < min(n, v+4) && len(l) < 1+int(r.Uint32N(6)); u++ {
			if u != v {
				l = append(l, u)
			}
		}
		if err := bld.Writer(Out).AppendList(v, l); err != nil {
			b.Fatal(err)
		}
	}
	g := openCommitted(b, bld, dir, n)
	s := g.Out().Shards[0]
	deg, off := make([]uint32, n), make([]uint32, n+1)
	for i := uint32(0); i < n; i++ {
		deg[i], off[i] = s.DegreeAt(i), s.ListOffset(i)
	}
	off[n] = uint32(len(s.Adj))
	order := make([]uint32, n)
	for i := range order {
		order[i] = r.Uint32N(n)
	}
	report := func(b *testing.B, sum uint64) {
		if sum == 0 {
			b.Fatal("nothing read")
		}
		b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mvertices/s")
	}
	b.Run("random/arrays", func(b *testing.B) {
		var sum uint64
		for range b.N {
			for _, i := range order {
				l := s.Adj[off[i]:off[i+1]]
				sum += uint64(deg[i]) + uint64(len(l))
			}
		}
		report(b, sum)
	})
	b.Run("random/ListAt", func(b *testing.B) {
		var sum uint64
		for range b.N {
			for _, i := range order {
				d, l := s.ListAt(i)
				sum += uint64(d) + uint64(len(l))
			}
		}
		report(b, sum)
	})
	b.Run("sweep/arrays", func(b *testing.B) {
		var sum uint64
		for range b.N {
			for i := uint32(0); i < n; i++ {
				l := s.Adj[off[i]:off[i+1]]
				sum += uint64(deg[i]) + uint64(len(l))
			}
		}
		report(b, sum)
	})
	b.Run("sweep/DirCursor", func(b *testing.B) {
		var sum uint64
		var c DirCursor
		for range b.N {
			c.Reset(s)
			for i := uint32(0); i < n; i++ {
				d, l := c.At(i)
				sum += uint64(d) + uint64(len(l))
			}
		}
		report(b, sum)
	})
}
