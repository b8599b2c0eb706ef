package bfs

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/internal/testseed"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
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

// TestBitmapsInQueue runs searches without levels whose bitmaps lie in the queue
// (queueWords: a random graph's third frontier holds an eighth of the vertices, more
// than the bitmaps' words) with one and three workers, on compressed shards and the
// flat CSR, and holds their parents to the search with levels, whose bitmaps have
// memory of their own (one worker: the same parents), or to the oracle's levels and the
// validator (three). It checks that the bitmaps were in the queue.
func TestBitmapsInQueue(t *testing.T) {
	seed := testseed.Seed(t)
	r := rand.New(rand.NewPCG(seed, 3))
	const n = 1 << 15
	lists := make([][]uint32, n)
	for v := range uint32(n) {
		for range 1 + r.IntN(16) {
			u := r.Uint32N(n)
			lists[v] = append(lists[v], u)
			lists[u] = append(lists[u], v)
		}
	}
	var edges []testgraph.Edge
	for v := range lists {
		slices.Sort(lists[v])
		lists[v] = slices.Compact(lists[v])
		for _, u := range lists[v] {
			edges = append(edges, testgraph.Edge{U: uint32(v), V: u})
		}
	}
	g := testgraph.BuildLists(t, lists, store.CreateOptions{})
	flat, err := store.NewFlat(g)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := testgraph.Lists(n, edges, false)
	for _, a := range []store.Adjacency{store.NewCompressed(g), flat} {
		for _, src := range []uint32{r.Uint32N(n), r.Uint32N(n), r.Uint32N(n)} {
			want := refLevels(out, src)
			for _, workers := range []int{1, 3} {
				b := newBFS(a, workers, false)
				b.init()
				b.maxDeg = maxOutDegree(a)
				if err := b.run(src, 15, 18, false); err != nil {
					t.Fatal(err)
				}
				q := uintptr(unsafe.Pointer(unsafe.SliceData(b.queue)))
				if f := uintptr(unsafe.Pointer(unsafe.SliceData(b.front))); f < q || f >= q+4*uintptr(len(b.queue)) {
					t.Fatalf("seed %d, %T, source %d, %d workers: the bitmaps are not in the queue", seed, a, src, workers)
				}
				if err := validate.BFS(g, src, b.parent, want); err != nil {
					t.Fatalf("seed %d, %T, source %d, %d workers: %v", seed, a, src, workers, err)
				}
				if workers > 1 {
					continue
				}
				ref, err := Run(a, src, Options{Workers: 1})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(b.parent, ref.Parent) {
					t.Fatalf("seed %d, %T, source %d: parents differ from the search with levels", seed, a, src)
				}
			}
		}
	}
}

// TestQueueWords holds queueWords to its rule on queues starting on a word boundary and
// off it: w whole words inside the entries [0, tail) from the first boundary, or nil
// when they do not fit or the search writes levels.
func TestQueueWords(t *testing.T) {
	m := make([]uint64, 64)
	for off := range 2 {
		q := unsafe.Slice((*uint32)(unsafe.Pointer(&m[0])), 128)[off:]
		for _, levels := range []bool{false, true} {
			for tail := 0; tail <= 40; tail++ {
				for w := 1; w <= 20; w++ {
					b := &bfs{queue: q, tail: tail}
					if levels {
						b.level = make([]uint32, 1)
					}
					got := b.queueWords(w)
					fits := !levels && off+2*w <= tail
					if got == nil {
						if fits {
							t.Fatalf("offset %d, tail %d, %d words: nil, want words", off, tail, w)
						}
						continue
					}
					start := uintptr(unsafe.Pointer(&got[0])) - uintptr(unsafe.Pointer(&q[0]))
					if !fits || len(got) != w || start+8*uintptr(w) > 4*uintptr(tail) ||
						uintptr(unsafe.Pointer(&got[0]))%8 != 0 {
						t.Fatalf("offset %d, tail %d, %d words: %d words at byte %d, levels %v", off, tail, w, len(got), start, levels)
					}
				}
			}
		}
	}
}
