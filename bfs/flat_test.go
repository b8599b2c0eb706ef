package bfs

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/internal/testseed"
	"github.com/oocgraph/ooc/store"
)

// TestBottomUpFlat holds a bottom-up level on a flat CSR to a plain loop over the
// vertices: each unvisited vertex takes the first in-neighbour in the frontier bitmap
// as its parent, and the level counts the entries read up to it (the whole list where
// none is in the frontier), the vertices found and their in-degrees (the scout). The
// counts steer the next level's direction and a search's answer does not show them.
// Random graphs, visited sets and frontiers, vertex counts around whole words and past
// a worker's chunk, one and three workers, with and without levels, on the vector
// compare and on the Go loop.
func TestBottomUpFlat(t *testing.T) {
	defer func(h bool) { haveGroupWord = h }(haveGroupWord)
	seed := testseed.Seed(t)
	r := rand.New(rand.NewPCG(seed, 4))
	for _, n := range []uint32{1, 63, 64, 65, 200, 4097, 3*4096*8 + 37} {
		flat, directed := randomFlat(t, r, n)
		for _, workers := range []int{1, 3} {
			for _, vec := range []bool{false, true} {
				if vec && !haveGroupWord {
					continue
				}
				haveGroupWord = vec
				levels := r.IntN(2) == 0
				where := fmt.Sprintf("seed %d, n %d, directed %v, %d workers, vector %v, levels %v", seed, n, directed, workers, vec, levels)
				b := newBFS(flat, workers, levels)
				b.init()
				words := (int(n) + 63) / 64
				b.front, b.next = make([]uint64, words), make([]uint64, words)
				visited := r.IntN(4)
				for v := range n {
					if r.IntN(4) < visited {
						b.parent[v] = r.Uint32N(n)
						if r.IntN(2) == 0 {
							b.front[v/64] |= 1 << (v % 64)
						}
					}
				}
				for w := range b.next {
					b.next[w] = r.Uint64() // a level clears its words before it sets them
				}
				const depth = 5
				wantParent := slices.Clone(b.parent)
				var wantLevel []uint32
				if levels {
					wantLevel = slices.Clone(b.level)
				}
				wantNext := make([]uint64, words)
				var wantAwake, wantExamined, wantScout uint64
				for v := range n {
					if wantParent[v] != unreached {
						continue
					}
					nbrs := flat.InAdj[flat.InOff[v]:flat.InOff[v+1]]
					for _, u := range nbrs {
						wantExamined++
						if b.front[u/64]>>(u%64)&1 != 0 {
							wantParent[v] = u
							if levels {
								wantLevel[v] = depth + 1
							}
							wantNext[v/64] |= 1 << (v % 64)
							wantAwake++
							wantScout += uint64(len(nbrs))
							break
						}
					}
				}
				awake, examined, scout := b.bottomUp(depth)
				if awake != wantAwake || examined != wantExamined || scout != wantScout {
					t.Fatalf("%s: found %d, examined %d, scout %d; want %d, %d, %d", where, awake, examined, scout, wantAwake, wantExamined, wantScout)
				}
				if !slices.Equal(b.parent, wantParent) || !slices.Equal(b.next, wantNext) || !slices.Equal(b.level, wantLevel) {
					t.Fatalf("%s: the parents, the next frontier's bitmap or the levels differ from the plain loop's", where)
				}
			}
		}
	}
}

// TestExpandFlat holds a top-down level on one goroutine on a flat CSR to a plain loop
// over the frontier's out-lists: each unvisited neighbour claimed by the first frontier
// vertex that lists it and queued in that order, every entry of the frontier's lists
// examined, and the claimed vertices' out-degrees summed (the scout), which steer the
// next level's direction. Random graphs, visited sets and frontiers, with one worker
// and with three.
func TestExpandFlat(t *testing.T) {
	defer func(s uint64) { serialEdges = s }(serialEdges)
	serialEdges = ^uint64(0)
	seed := testseed.Seed(t)
	r := rand.New(rand.NewPCG(seed, 5))
	for _, n := range []uint32{1, 2, 65, 200, 5000} {
		flat, directed := randomFlat(t, r, n)
		for _, workers := range []int{1, 3} {
			where := fmt.Sprintf("seed %d, n %d, directed %v, %d workers", seed, n, directed, workers)
			b := newBFS(flat, workers, false)
			b.init()
			visited := 1 + r.IntN(3)
			for v := range n {
				if r.IntN(4) < visited {
					b.parent[v] = r.Uint32N(n)
					if r.IntN(2) == 0 {
						b.queue[b.tail] = v
						b.tail++
					}
				}
			}
			frontier := slices.Clone(b.queue[:b.tail])
			wantParent := slices.Clone(b.parent)
			var wantQueue []uint32
			var wantScout, wantExamined uint64
			for _, u := range frontier {
				nbrs := flat.OutAdj[flat.OutOff[u]:flat.OutOff[u+1]]
				wantExamined += uint64(len(nbrs))
				for _, v := range nbrs {
					if wantParent[v] == unreached {
						wantParent[v] = u
						wantQueue = append(wantQueue, v)
						wantScout += flat.OutOff[v+1] - flat.OutOff[v]
					}
				}
			}
			scout, examined := b.topDown(3, ^uint64(0))
			if scout != wantScout || examined != wantExamined {
				t.Fatalf("%s: scout %d, examined %d; want %d, %d", where, scout, examined, wantScout, wantExamined)
			}
			if b.head != len(frontier) || !slices.Equal(b.queue[b.head:b.tail], wantQueue) || !slices.Equal(b.parent, wantParent) {
				t.Fatalf("%s: the new frontier or the parents differ from the plain loop's", where)
			}
		}
	}
}

// randomFlat is the flat CSR of a random graph of n vertices and 1 to 8 edges a vertex,
// directed where n is odd.
func randomFlat(t *testing.T, r *rand.Rand, n uint32) (*store.Flat, bool) {
	directed := n%2 == 1
	g := testgraph.Build(t, n, testgraph.Random(r, n, int(n)*(1+r.IntN(8))), directed, 0)
	flat, err := store.NewFlat(g)
	if err != nil {
		t.Fatal(err)
	}
	return flat, directed
}
