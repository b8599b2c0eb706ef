package validate

import (
	"container/heap"
	"fmt"
	"math"
	"slices"

	"github.com/oocgraph/ooc/store"
)

// Weights gives the weights of g's out-lists, entry k of Of(v) for v's k-th neighbour
// (package sssp's Weights satisfies it).
type Weights interface {
	Of(v uint32) []uint32
}

// floatWeights says whether w's weights are float32 bit patterns: a Weights with a
// method Float() bool that says so (package sssp's do). Distances are then float32 bits
// too, each path's sum rounded to float32 edge by edge, in path order.
func floatWeights(w Weights) bool {
	f, ok := w.(interface{ Float() bool })
	return ok && f.Float()
}

// addWeight is the distance d plus the weight c: 64-bit integer addition, or with float
// weights the float32 sum's bits (d and c non-negative, so the bits order as the sums).
func addWeight(d uint64, c uint32, float bool) uint64 {
	if float {
		return uint64(math.Float32bits(math.Float32frombits(uint32(d)) + math.Float32frombits(c)))
	}
	return d + uint64(c)
}

// unreachedDist is the distance of a vertex the source does not reach (sssp.Inf).
const unreachedDist = ^uint32(0)

// Dijkstra returns the distances from src over g's out-edges weighted by w, by
// Dijkstra's algorithm with a binary heap and lazy deletion, decoding with
// store.ListIter. Unreached vertices get 0xFFFFFFFF; distances are added in 64 bits, or
// with float weights (floatWeights) in float32 along each path, the result holding the
// bits: as rounding is monotone and adds nothing below a non-negative weight, Dijkstra's
// order still settles each vertex at its least path sum.
func Dijkstra(g *store.Graph, w Weights, src uint32) ([]uint64, error) {
	n := g.NumVertices()
	if src >= n {
		return nil, invalid("source %d is not a vertex", src)
	}
	dist := make([]uint64, n)
	for v := range dist {
		dist[v] = uint64(unreachedDist)
	}
	dist[src] = 0
	q := &distHeap{{0, src}}
	float := floatWeights(w)
	var it store.ListIter
	for q.Len() > 0 {
		top := heap.Pop(q).(distItem)
		if top.d != dist[top.v] {
			continue // a stale entry: v was reached more cheaply since
		}
		s := g.Out().ShardOf(top.v)
		ws := w.Of(top.v)
		if len(ws) != int(s.Degree(top.v)) {
			return nil, invalid("vertex %d has %d weights for %d out-edges", top.v, len(ws), s.Degree(top.v))
		}
		k := 0
		for s.Iter(&it, top.v); it.Next(); k++ {
			v, d := it.Value(), addWeight(top.d, ws[k], float)
			if d < dist[v] {
				dist[v] = d
				heap.Push(q, distItem{d, v})
			}
		}
		if it.Err() != nil {
			return nil, s.ListError(top.v)
		}
	}
	return dist, nil
}

type distItem struct {
	d uint64
	v uint32
}

type distHeap []distItem

func (h distHeap) Len() int           { return len(h) }
func (h distHeap) Less(i, j int) bool { return h[i].d < h[j].d }
func (h distHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *distHeap) Push(x any)        { *h = append(*h, x.(distItem)) }
func (h *distHeap) Pop() any {
	x := (*h)[len(*h)-1]
	*h = (*h)[:len(*h)-1]
	return x
}

// SSSP checks dist (0xFFFFFFFF for unreached vertices) against Dijkstra's distances from
// src, exactly.
func SSSP(g *store.Graph, w Weights, src uint32, dist []uint32) error {
	n := g.NumVertices()
	if uint64(len(dist)) != uint64(n) {
		return invalid("%d distances for %d vertices", len(dist), n)
	}
	want, err := Dijkstra(g, w, src)
	if err != nil {
		return err
	}
	for v, d := range want {
		if uint64(dist[v]) != d && floatWeights(w) {
			return invalid("vertex %d is at distance %s from %d, expected %s", v, strFloatDist(uint64(dist[v])), src, strFloatDist(d))
		}
		if uint64(dist[v]) != d {
			return invalid("vertex %d is at distance %s from %d, expected %s", v, str(dist[v]), src, strDist(d))
		}
	}
	return nil
}

func strFloatDist(d uint64) string {
	if d == uint64(unreachedDist) {
		return "none"
	}
	return fmt.Sprint(math.Float32frombits(uint32(d)))
}

func strDist(d uint64) string {
	if d == uint64(unreachedDist) {
		return "none"
	}
	return fmt.Sprint(d)
}

// SSSPParents checks that parent is a shortest-path tree for dist (already checked with
// SSSP): parent[src] = src; a vertex has a parent exactly when it has a distance; and
// for every other reached vertex v, parent[v] -> v is an edge of the graph whose weight
// c gives dist[parent[v]] + c = dist[v].
func SSSPParents(g *store.Graph, w Weights, src uint32, dist, parent []uint32) error {
	n := g.NumVertices()
	switch {
	case uint64(len(parent)) != uint64(n) || uint64(len(dist)) != uint64(n):
		return invalid("%d parents and %d distances for %d vertices", len(parent), len(dist), n)
	case src >= n:
		return invalid("source %d is not a vertex", src)
	case parent[src] != src:
		return invalid("source %d has parent %s, expected itself", src, str(parent[src]))
	}
	float := floatWeights(w)
	return eachPiece(g.Out(), func(_ *store.Shard, lo, hi uint32) error {
		var it store.ListIter
		var hubs hubLists
		for v := lo; v < hi; v++ {
			p := parent[v]
			if (p == unreachedDist) != (dist[v] == unreachedDist) {
				return invalid("vertex %d has parent %s but distance %s", v, str(p), str(dist[v]))
			}
			if p == unreachedDist || v == src {
				continue
			}
			if p >= n || dist[p] == unreachedDist {
				return invalid("vertex %d has parent %s, not a reached vertex", v, str(p))
			}
			s := g.Out().ShardOf(p)
			ws := w.Of(p)
			found := false
			if nb, err := hubs.list(s, &it, p); err != nil {
				return err
			} else if nb != nil {
				for k, _ := slices.BinarySearch(nb, v); k < len(nb) && nb[k] == v && !found; k++ {
					found = k < len(ws) && addWeight(uint64(dist[p]), ws[k], float) == uint64(dist[v])
				}
			} else {
				k := 0
				for s.Iter(&it, p); it.Next() && it.Value() <= v; k++ {
					if it.Value() == v && k < len(ws) && addWeight(uint64(dist[p]), ws[k], float) == uint64(dist[v]) {
						found = true
						break
					}
				}
				if it.Err() != nil {
					return s.ListError(p)
				}
			}
			if !found {
				return invalid("tree edge %d -> %d: no such edge with dist %d + weight = dist %d", p, v, dist[p], dist[v])
			}
		}
		return nil
	})
}

// hubLists holds the decoded out-lists of the long-listed parents SSSPParents met more
// than once lately: a hub parents many vertices, and walking its list to each child took
// a star of 300,000 leaves minutes (quadratic); a held list is searched in O(log d). A
// parent met once is walked to its child, as are lists of fewer than hubMin neighbours
// (cheap) and of more than hubMax (memory: 16 lists of at most 4 MiB a goroutine).
type hubLists struct {
	v, seen        [16]uint32
	nb             [16][]uint32
	next, seenNext int
}

const hubMin, hubMax = 256, 1 << 20

// list returns v's decoded out-list (sorted) when v's degree is within hubMin..hubMax
// and v was met before, else nil; the error of a list that does not decode.
func (h *hubLists) list(s *store.Shard, it *store.ListIter, v uint32) ([]uint32, error) {
	if d := s.Degree(v); d < hubMin || d > hubMax {
		return nil, nil
	}
	for i := range h.v {
		if h.nb[i] != nil && h.v[i] == v {
			return h.nb[i], nil
		}
	}
	if !slices.Contains(h.seen[:], v+1) { // +1: the zero value holds no vertex
		h.seen[h.seenNext] = v + 1
		h.seenNext = (h.seenNext + 1) % len(h.seen)
		return nil, nil
	}
	i := h.next
	h.next = (h.next + 1) % len(h.v)
	nb := h.nb[i][:0]
	for s.Iter(it, v); it.Next(); {
		nb = append(nb, it.Value())
	}
	if it.Err() != nil {
		h.nb[i] = nil
		return nil, s.ListError(v)
	}
	h.v[i], h.nb[i] = v, nb
	return nb, nil
}
