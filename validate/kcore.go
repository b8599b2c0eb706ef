package validate

import (
	"fmt"
	"math"

	"github.com/oocgraph/ooc/store"
)

// CoreNumbers computes the core number of every vertex of g with the sequential
// algorithm of Batagelj and Zaversnik ("An O(m) algorithm for cores decomposition of
// networks", 2003): vertices sorted into bins by degree, always removing one of least
// current degree and moving each neighbour of higher degree down one bin. Degrees are
// those package kcore defines: list lengths, in plus out on a directed graph. It
// decodes with store.ListIter, independently of the engines.
func CoreNumbers(g *store.Graph) ([]uint32, error) {
	n := g.NumVertices()
	csrs := []*store.CSR{g.Out()}
	if g.Directed() {
		csrs = append(csrs, g.In())
	}
	deg := make([]uint32, n)
	var maxDeg uint32
	for v := range n {
		var d uint64
		for _, c := range csrs {
			d += uint64(c.ShardOf(v).Degree(v))
		}
		if d > math.MaxUint32 {
			return nil, fmt.Errorf("validate: vertex %d has more than %d in- and out-edges together", v, uint32(math.MaxUint32))
		}
		deg[v] = uint32(d)
		maxDeg = max(maxDeg, deg[v])
	}
	// bin[d] is where the vertices of degree d start in vert; pos[v] is v's place there.
	bin := make([]uint32, uint64(maxDeg)+2)
	for _, d := range deg {
		bin[d+1]++
	}
	for d := 1; d < len(bin); d++ {
		bin[d] += bin[d-1]
	}
	vert, pos := make([]uint32, n), make([]uint32, n)
	next := append([]uint32(nil), bin...)
	for v, d := range deg {
		pos[v] = next[d]
		vert[pos[v]] = uint32(v)
		next[d]++
	}
	var it store.ListIter
	for i := range n {
		v := vert[i]
		for _, c := range csrs {
			s := c.ShardOf(v)
			for s.Iter(&it, v); it.Next(); {
				u := it.Value()
				if deg[u] <= deg[v] {
					continue
				}
				// swap u with the first vertex of its bin, then move the bin's start past it
				du, pu := deg[u], pos[u]
				pw := bin[du]
				w := vert[pw]
				vert[pu], vert[pw] = w, u
				pos[u], pos[w] = pw, pu
				bin[du]++
				deg[u]--
			}
			if it.Err() != nil {
				return nil, s.ListError(v)
			}
		}
	}
	return deg, nil
}

// KCore checks core against CoreNumbers exactly and returns the largest core number.
func KCore(g *store.Graph, core []uint32) (uint32, error) {
	n := g.NumVertices()
	if uint64(len(core)) != uint64(n) {
		return 0, invalid("%d core numbers for %d vertices", len(core), n)
	}
	want, err := CoreNumbers(g)
	if err != nil {
		return 0, err
	}
	var kmax uint32
	for v, k := range want {
		if core[v] != k {
			return 0, invalid("vertex %d has core number %d, expected %d", v, core[v], k)
		}
		kmax = max(kmax, k)
	}
	return kmax, nil
}
