package bfs

import (
	"math/rand/v2"
	"testing"

	"github.com/oocgraph/ooc/internal/testseed"
)

// TestVisitedBitmap holds visitedBitmap's b.front to the visited vertices of parent, bit
// by bit, on vertex counts around whole words and past a parallel chunk, with one and
// three workers, on the vector compare and on the Go loop, into fresh bitmaps and into
// ones a run left set: every bit of a vertex equal to whether its parent is set, none
// past the last vertex.
func TestVisitedBitmap(t *testing.T) {
	defer func(h bool) { haveGroupWord = h }(haveGroupWord)
	seed := testseed.Seed(t)
	r := rand.New(rand.NewPCG(seed, 2))
	for _, n := range []uint32{1, 63, 64, 65, 127, 128, 4097, 1<<16 + 64*1024 + 37} {
		for _, workers := range []int{1, 3} {
			for _, vec := range []bool{false, true} {
				if vec && !haveGroupWord {
					continue
				}
				haveGroupWord = vec
				b := &bfs{n: n, workers: workers, parent: make([]uint32, n)}
				for reuse := range 2 {
					density := r.IntN(5)
					for v := range b.parent {
						b.parent[v] = unreached
						if r.IntN(4) < density {
							b.parent[v] = r.Uint32N(n)
						}
					}
					if reuse == 1 {
						for w := range b.front {
							b.front[w] = r.Uint64()
						}
					}
					b.visitedBitmap()
					if len(b.front) != int(n+63)/64 || len(b.next) != len(b.front) {
						t.Fatalf("n %d: bitmaps of %d and %d words", n, len(b.front), len(b.next))
					}
					for v := range uint32(len(b.front) * 64) {
						got := b.front[v/64]>>(v%64)&1 != 0
						want := v < n && b.parent[v] != unreached
						if got != want {
							t.Fatalf("seed %d, n %d, %d workers, vector %v, reuse %d: vertex %d's bit %v, want %v",
								seed, n, workers, vec, reuse, v, got, want)
						}
					}
				}
			}
		}
	}
}
