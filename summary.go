package ooc

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
// ids naming a member of the component (as union-find roots do), so that a component's
// label is the one vertex labelled with itself. It runs in parallel: components are
// counted as those vertices, and sizes with atomic adds, except for the most frequent
// label of a small sample (the giant component of most graphs), which each worker counts
// locally so that all workers do not contend on one counter.
func CountComponents(r *CCResult) {
	labels := r.Labels
	n := len(labels)
	r.Components, r.Largest = 0, 0
	if n == 0 {
		return
	}
	hot := labels[0]
	seen := map[uint32]int{}
	for i := 0; i < 1024; i++ {
		l := labels[uint64(i)*0x9E3779B97F4A7C15%uint64(n)]
		if seen[l]++; seen[l] > seen[hot] {
			hot = l
		}
	}
	size := make([]uint32, n)
	var comps, hotSize atomic.Uint64
	parallelChunks(n, 1<<16, func(lo, hi int) {
		var c, h uint64
		for v, l := range labels[lo:hi] {
			switch {
			case l == hot:
				h++
			default:
				atomic.AddUint32(&size[l], 1)
			}
			if int(l) == lo+v {
				c++
			}
		}
		comps.Add(c)
		hotSize.Add(h)
	})
	largest := make([]uint64, (n+1<<16-1)>>16)
	parallelChunks(n, 1<<16, func(lo, hi int) {
		var m uint32
		for _, s := range size[lo:hi] {
			m = max(m, s)
		}
		largest[lo>>16] = uint64(m)
	})
	r.Components, r.Largest = comps.Load(), hotSize.Load()
	for _, m := range largest {
		r.Largest = max(r.Largest, m)
	}
}

// parallelChunks runs body over [0, n) in chunks of size, on GOMAXPROCS goroutines.
func parallelChunks(n, size int, body func(lo, hi int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), (n+size-1)/size) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for lo := int(next.Add(int64(size))) - size; lo < n; lo = int(next.Add(int64(size))) - size {
				body(lo, min(lo+size, n))
			}
		}()
	}
	wg.Wait()
}
