package engine

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/oocgraph/ooc/store"
)

// Summarize fills r.Reached, r.Depth and r.EdgesTraversed from r.Level and the graph's
// out-degrees, so that every backend counts edges the same way (see
// BFSResult.EdgesTraversed). It reads only the DEGREES sections, in parallel.
func Summarize(g *store.Graph, r *BFSResult) {
	type chunk struct {
		s      *store.Shard
		lo, hi uint32 // indexes into the shard's vertices
	}
	const size = 1 << 16
	var chunks []chunk
	for _, s := range g.Out().Shards {
		for lo := uint32(0); lo < s.N; lo += min(size, s.N-lo) {
			chunks = append(chunks, chunk{s, lo, lo + min(size, s.N-lo)})
		}
	}
	type part struct {
		reached, degSum uint64
		depth           uint32
	}
	parts := make([]part, len(chunks))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(chunks)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(chunks); i = int(next.Add(1) - 1) {
				c := chunks[i]
				var p part
				for j, d := range c.s.Degrees[c.lo:c.hi] {
					if l := r.Level[c.s.Lo+c.lo+uint32(j)]; l != Unreached {
						p.reached++
						p.degSum += uint64(d)
						p.depth = max(p.depth, l)
					}
				}
				parts[i] = p
			}
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
