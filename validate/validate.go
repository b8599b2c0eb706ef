// Package validate checks BFS and connected-components results against the graph itself,
// independently of the engine that produced them: the Graph500 BFS checks (as in the
// Graph500 reference code and GAPBS's verifiers) and a partition check for components.
// Both stream the shards once, in parallel, in time linear in the graph.
package validate

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"

	"github.com/oocgraph/ooc/internal/parallel"
	"github.com/oocgraph/ooc/store"
)

// ErrInvalid is matched by every error that reports a wrong result (as opposed to an
// unreadable graph).
var ErrInvalid = errors.New("invalid result")

const none = ^uint32(0) // bfs.Unreached: the validators import no algorithm

func invalid(format string, args ...any) error {
	return fmt.Errorf("validate: %s: %w", fmt.Sprintf(format, args...), ErrInvalid)
}

// BFS checks that parent and level are a breadth-first search from src (internal ids):
//
//   - the parents form a tree rooted at src: parent[src] = src, level[src] = 0, and
//     every other reached vertex has a reached parent one level closer to src;
//   - every tree edge parent[v] -> v is an edge of the graph;
//   - every edge u -> v of the graph with u reached has v reached and
//     level[v] <= level[u] + 1 (on undirected graphs this makes levels of neighbours
//     differ by at most one);
//   - a vertex has a parent exactly when it has a level.
//
// Together these force level to be the exact BFS distance. The checks are one pass over
// the lists on all cores: on an undirected graph a vertex's list serves both its tree
// edge and its edges; a directed graph looks for tree edges in the in-lists and checks
// edges in the out-lists. The pass reads the levels of neighbours at random, so it reads
// them from a copy one byte a vertex when every level fits (depth below 255): a quarter
// of the memory to miss in the caches. Messages name vertices by the file's own ids.
func BFS(g *store.Graph, src uint32, parent, level []uint32) error {
	n := g.NumVertices()
	switch {
	case uint64(len(parent)) != uint64(n) || uint64(len(level)) != uint64(n):
		return invalid("%d parents and %d levels for %d vertices", len(parent), len(level), n)
	case src >= n:
		return invalid("source %d is not a vertex", src)
	case parent[src] != src || level[src] != 0:
		return invalid("source %d has parent %s and level %s, expected itself and 0", g.External(src), id(g, parent[src]), str(level[src]))
	}
	if lev, ok := narrowLevels(level); ok {
		return checkBFS(&bfsCheck[uint8]{g: g, src: src, parent: parent, level: level, lev: lev})
	}
	return checkBFS(&bfsCheck[uint32]{g: g, src: src, parent: parent, level: level, lev: level})
}

func checkBFS[L levelWord](c *bfsCheck[L]) error {
	if !c.g.Directed() {
		return eachPiece(c.g.Out(), c.both)
	}
	if err := eachPiece(c.g.In(), c.tree); err != nil {
		return err
	}
	return eachPiece(c.g.Out(), c.edges)
}

// levelWord is the types the hot loops read levels as; none is the type's largest value.
type levelWord interface{ ~uint8 | ~uint32 }

// narrowLevels returns level one byte a vertex (none as 255), on all cores, or false
// when a level of 255 or more does not fit.
func narrowLevels(level []uint32) ([]uint8, bool) {
	lev := make([]uint8, len(level))
	var deep atomic.Bool
	parallel.For(runtime.GOMAXPROCS(0), len(level), span, func(_, lo, hi int) {
		for i, l := range level[lo:hi] {
			if l >= 255 && l != none {
				deep.Store(true)
			}
			lev[lo+i] = uint8(min(l, 255))
		}
	})
	return lev, !deep.Load()
}

// bfsCheck is one search's check, which reads the levels as L.
type bfsCheck[L levelWord] struct {
	g             *store.Graph
	src           uint32
	parent, level []uint32
	lev           []L // level, narrowed where it fits: what the checks read
}

// vertex checks v's own entries: a parent exactly when a level, and a parent that is a
// vertex one level closer to the source.
func (c *bfsCheck[L]) vertex(v uint32) error {
	p, l := c.parent[v], c.level[v]
	if (p == none) != (l == none) {
		return invalid("vertex %d has parent %s but level %s", c.g.External(v), id(c.g, p), str(l))
	}
	if p == none || v == c.src {
		return nil
	}
	if p >= uint32(len(c.lev)) {
		return invalid("vertex %d has parent %d, not a vertex", c.g.External(v), p)
	}
	if lp := c.lev[p]; lp == ^L(0) || lp+1 != c.lev[v] {
		return invalid("tree edge %d -> %d joins levels %s and %d, expected a difference of one", c.g.External(p), c.g.External(v), str(c.level[p]), l)
	}
	return nil
}

// treeParent is the neighbour v's list must hold: its parent, or none for the source and
// unreached vertices (none is never a neighbour).
func (c *bfsCheck[L]) treeParent(v uint32) uint32 {
	if v == c.src {
		return none
	}
	return c.parent[v]
}

func (c *bfsCheck[L]) notAnEdge(v uint32) error {
	p := c.parent[v]
	return invalid("tree edge %d -> %d (parent of %d) is not an edge of the graph", c.g.External(p), c.g.External(v), c.g.External(v))
}

func (c *bfsCheck[L]) badEdge(u, v uint32) error {
	return invalid("edge %d -> %d joins levels %d and %s, expected the second reached and at most one deeper", c.g.External(u), c.g.External(v), c.level[u], str(c.level[v]))
}

// both checks vertices lo..hi of an undirected graph: their entries, their tree edges
// and their edges. It stores each edge both ways and the conditions on an edge are
// symmetric (both ends reached or neither, levels at most one apart), so each edge is
// checked from its larger end only: v's sorted list is read up to v, or on to v's
// parent when that is larger.
func (c *bfsCheck[L]) both(s *store.Shard, lo, hi uint32) error {
	var cur store.DirCursor
	cur.Reset(s)
	var b blocks
	nv := c.g.NumVertices()
	for v := lo; v < hi; v++ {
		if err := c.vertex(v); err != nil {
			return err
		}
		lv, want := c.lev[v], c.treeParent(v)
		found := want == none
		deg, list := cur.At(v - s.Lo)
		b.reset(v, deg, list, nv)
		for {
			blk, ok := b.next()
			if !ok {
				return s.ListError(v)
			}
			if blk == nil {
				break
			}
			below := blk
			if blk[len(blk)-1] >= v {
				i, _ := slices.BinarySearch(blk, v)
				below = blk[:i]
			}
			if err := c.below(v, lv, below); err != nil {
				return err
			}
			if !found && want < v {
				found = slices.Contains(below, want)
			}
			if len(below) < len(blk) { // past v: on to a larger parent, if any
				if !found && want > v {
					found, ok = find(&b, blk, want)
				}
				if !ok {
					return s.ListError(v)
				}
				break
			}
		}
		if !found {
			return c.notAnEdge(v)
		}
	}
	return nil
}

// below checks v's edges to the smaller neighbours xs. For a reached v, lev[x] - lv + 1
// <= 2 (unsigned, in L) holds exactly for the levels lv-1, lv and lv+1, and for none
// only when lv is 0 (the source), so none is tested apart.
func (c *bfsCheck[L]) below(v uint32, lv L, xs []uint32) error {
	unreached := ^L(0)
	lev := c.lev
	if lv == unreached {
		for _, x := range xs {
			if lev[x] != unreached {
				return c.badEdge(x, v)
			}
		}
		return nil
	}
	for _, x := range xs {
		if lx := lev[x]; lx-lv+1 > 2 || lx == unreached {
			if lx == unreached || lx > lv {
				return c.badEdge(v, x)
			}
			return c.badEdge(x, v)
		}
	}
	return nil
}

// find reports whether want is in the list b reads, from blk (the block it last
// decoded) on; false as the second result means malformed bytes.
func find(b *blocks, blk []uint32, want uint32) (bool, bool) {
	for ok := true; ; {
		if blk[len(blk)-1] >= want {
			return slices.Contains(blk, want), true
		}
		if blk, ok = b.next(); !ok || blk == nil {
			return false, ok
		}
	}
}

// tree checks vertices lo..hi of a directed graph's in-lists: their entries and that
// each one's parent is among its in-neighbours (sorted, so the walk stops once past it).
func (c *bfsCheck[L]) tree(s *store.Shard, lo, hi uint32) error {
	var cur store.DirCursor
	cur.Reset(s)
	var b blocks
	nv := c.g.NumVertices()
	for v := lo; v < hi; v++ {
		if err := c.vertex(v); err != nil {
			return err
		}
		want := c.treeParent(v)
		if want == none {
			continue
		}
		deg, list := cur.At(v - s.Lo)
		b.reset(v, deg, list, nv)
		blk, ok := b.next()
		found := false
		if ok && blk != nil {
			found, ok = find(&b, blk, want)
		}
		if !ok {
			return s.ListError(v)
		}
		if !found {
			return c.notAnEdge(v)
		}
	}
	return nil
}

// edges checks the out-lists of vertices lo..hi of a directed graph.
func (c *bfsCheck[L]) edges(s *store.Shard, lo, hi uint32) error {
	unreached := ^L(0)
	var cur store.DirCursor
	cur.Reset(s)
	var b blocks
	nv, lev := c.g.NumVertices(), c.lev
	for u := lo; u < hi; u++ {
		lu := lev[u]
		if lu == unreached {
			continue
		}
		deg, list := cur.At(u - s.Lo)
		b.reset(u, deg, list, nv)
		for {
			blk, ok := b.next()
			if !ok {
				return s.ListError(u)
			}
			if blk == nil {
				break
			}
			for _, v := range blk {
				// lu+1 does not wrap: lu is a level, below the type's largest value
				if lv := lev[v]; lv == unreached || lv > lu+1 {
					return c.badEdge(u, v)
				}
			}
		}
	}
	return nil
}

func str(x uint32) string {
	if x == none {
		return "none"
	}
	return fmt.Sprint(x)
}

// id names internal vertex v by the file's own id; none and out-of-range values are
// printed as they are.
func id(g *store.Graph, v uint32) string {
	if v == none {
		return "none"
	}
	if v >= g.NumVertices() {
		return fmt.Sprint(v)
	}
	return fmt.Sprint(g.External(v))
}
