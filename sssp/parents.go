package sssp

import (
	"math"
	"sync/atomic"

	"github.com/oocgraph/ooc/internal/parallel"
	"github.com/oocgraph/ooc/store"
)

// Parents returns a shortest-path tree for the distances of r: Parent[Source] = Source,
// Parent[v] = Inf for unreached v, and otherwise the smallest u with an edge u -> v
// (weight c) such that Dist[u] + c = Dist[v] (the float32 sum for float weights). It
// takes one parallel pass over the out-lists of the reached vertices on workers
// goroutines (0 means GOMAXPROCS, below 0 or past 4096 is refused), with the same
// weights as the run; the smallest predecessor makes the tree the same for any number
// of workers.
func Parents(a store.Adjacency, w Weights, r *Result, workers int) ([]uint32, error) {
	if err := parallel.CheckWorkers("sssp: Parents' workers", workers); err != nil {
		return nil, err
	}
	n := a.NumVertices()
	parent := make([]uint32, n)
	for v := range parent {
		parent[v] = Inf
	}
	if n == 0 {
		return parent, nil
	}
	dist := r.Dist
	float := w.Float()
	workers = parallel.Workers(workers)
	bufs := make([][]uint32, workers)
	failed := make([]error, workers)
	parallel.For(workers, int(n), 1<<12, func(wk, lo, hi int) {
		for u := uint32(lo); u < uint32(hi) && failed[wk] == nil; u++ {
			du := dist[u]
			if du == Inf {
				continue
			}
			nbrs, err := a.List(store.Out, u, math.MaxUint32, bufs[wk])
			if err != nil {
				failed[wk] = err
				return
			}
			bufs[wk] = nbrs[:0]
			ws := w.Of(u)
			if len(ws) != len(nbrs) {
				failed[wk] = errMisaligned(u, len(ws), len(nbrs))
				return
			}
			for k, v := range nbrs {
				if v == r.Source {
					continue
				}
				if float && math.Float32bits(math.Float32frombits(du)+math.Float32frombits(ws[k])) != dist[v] {
					continue
				}
				if !float && uint64(du)+uint64(ws[k]) != uint64(dist[v]) {
					continue
				}
				for {
					p := atomic.LoadUint32(&parent[v])
					if p <= u || atomic.CompareAndSwapUint32(&parent[v], p, u) {
						break
					}
				}
			}
		}
	})
	for _, err := range failed {
		if err != nil {
			return nil, err
		}
	}
	parent[r.Source] = r.Source
	return parent, nil
}
