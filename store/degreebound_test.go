package store

import (
	"math/rand/v2"
	"path/filepath"
	"testing"
)

// TestMaxDegreeBound checks the bound, and DegreeAboveBound's, against every vertex's
// degree on random graphs cut into shards of several sizes.
func TestMaxDegreeBound(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 11))
	for _, opt := range []CreateOptions{{}, {ShardBytes: 500}, {ShardBytes: 1 << 12, ShardVertices: 7}} {
		dir := filepath.Join(t.TempDir(), "g.ooc")
		nv := uint32(1 + r.IntN(3000))
		buildGraph(t, dir, nv, randomLists(r, nv, 1+r.IntN(400)), opt)
		g, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range g.Shards() {
			b, top := s.MaxDegreeBound(), uint64(0)
			for i := range s.N {
				top = max(top, uint64(s.DegreeAt(i)))
			}
			if b < top || b > 2*top+255 {
				t.Fatalf("nv=%d shard at %d: bound %d, largest degree %d", nv, s.Lo, b, top)
			}
			for _, d := range []uint64{0, 1, 5, 64, 128, top, b} {
				var above uint64
				for i := range s.N {
					if uint64(s.DegreeAt(i)) > d {
						above++
					}
				}
				c := s.DegreeAboveBound(d)
				if c < above || c > uint64(s.N) || d >= b && c != 0 {
					t.Fatalf("nv=%d shard at %d: %d vertices of degree above %d, bound %d of %d", nv, s.Lo, above, d, c, s.N)
				}
			}
		}
		g.Close()
	}
}
