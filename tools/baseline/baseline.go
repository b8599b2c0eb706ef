// Package baseline holds the simple sequential algorithms that ooc's engines are
// measured against (issue 3, "Benchmarks"): a queue BFS and a union-find, both on the
// uncompressed in-memory CSR (store.Flat), the fastest form a single core can have.
// The parallel baselines are the engines' own algorithms run on that same Flat CSR
// (bfs.BFS and afforest.Run accept it), so the benchmarks in this package separate
// the cost of compression from the gain of parallelism.
package baseline

import (
	"github.com/oocgraph/ooc/bfs"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

// BFS is a sequential queue BFS over out-lists; it returns parents and levels.
func BFS(f *store.Flat, src uint32) (parent, level []uint32) {
	parent = make([]uint32, f.N)
	level = make([]uint32, f.N)
	for i := range parent {
		parent[i], level[i] = bfs.Unreached, bfs.Unreached
	}
	queue := make([]uint32, 0, f.N)
	parent[src], level[src] = src, 0
	queue = append(queue, src)
	for head := 0; head < len(queue); head++ {
		u := queue[head]
		for _, v := range f.OutAdj[f.OutOff[u]:f.OutOff[u+1]] {
			if parent[v] == bfs.Unreached {
				parent[v], level[v] = u, level[u]+1
				queue = append(queue, v)
			}
		}
	}
	return parent, level
}

// UnionFind labels each vertex with the root of its (weakly connected) component by a
// sequential union-find over the out-lists: path halving, the smaller root kept.
func UnionFind(f *store.Flat) []uint32 {
	p := make([]uint32, f.N)
	for i := range p {
		p[i] = uint32(i)
	}
	for u := uint32(0); u < f.N; u++ {
		for _, v := range f.OutAdj[f.OutOff[u]:f.OutOff[u+1]] {
			if u < v || f.Directed() { // undirected lists hold each edge twice
				validate.Union(p, u, v)
			}
		}
	}
	for v := range p {
		p[v] = validate.Find(p, uint32(v))
	}
	return p
}
