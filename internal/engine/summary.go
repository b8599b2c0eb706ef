package engine

import (
	"runtime"
	"sync"

	"github.com/oocgraph/ooc/store"
)

// Summarize fills r.Reached, r.Depth and r.EdgesTraversed from r.Level and the graph's
// out-degrees, so that every backend counts edges the same way (see
// BFSResult.EdgesTraversed). It reads only the DEGREES sections, in parallel by shard.
func Summarize(g *store.Graph, r *BFSResult) {
	shards := g.Out().Shards
	type part struct {
		reached, degSum uint64
		depth           uint32
	}
	parts := make([]part, len(shards))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, s := range shards {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			var p part
			for j, d := range s.Degrees {
				if l := r.Level[s.Lo+uint32(j)]; l != Unreached {
					p.reached++
					p.degSum += uint64(d)
					p.depth = max(p.depth, l)
				}
			}
			parts[i] = p
		}()
	}
	wg.Wait()
	var t part
	for _, p := range parts {
		t.reached += p.reached
		t.degSum += p.degSum
		t.depth = max(t.depth, p.depth)
	}
	r.Reached, r.Depth, r.EdgesTraversed = t.reached, t.depth, t.degSum
	if !g.Directed() {
		r.EdgesTraversed /= 2
	}
}

// CountComponents fills r.Components and r.Largest from r.Labels, which must be vertex
// ids (each vertex labelled by a member of its component, as union-find roots are).
func CountComponents(r *CCResult) {
	size := make([]uint32, len(r.Labels))
	for _, l := range r.Labels {
		size[l]++
	}
	r.Components, r.Largest = 0, 0
	for _, s := range size {
		if s > 0 {
			r.Components++
			r.Largest = max(r.Largest, uint64(s))
		}
	}
}
