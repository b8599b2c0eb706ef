// Package validate checks BFS and connected-components results against the graph itself,
// independently of the engine that produced them: the Graph500 BFS checks (as in the
// Graph500 reference code and GAPBS's verifiers) and a partition check for components.
// Both stream the shards once, in parallel, in time linear in the graph.
package validate

import (
	"errors"
	"fmt"
	"slices"

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
// edges in the out-lists. Messages name vertices by the file's own ids.
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
	c := &bfsCheck{g: g, cg: store.NewCompressed(g), src: src, parent: parent, level: level}
	if !g.Directed() {
		return eachPiece(g.Out(), c.both)
	}
	if err := eachPiece(g.In(), c.tree); err != nil {
		return err
	}
	return eachPiece(g.Out(), c.edges)
}

type bfsCheck struct {
	g             *store.Graph
	cg            *store.Compressed
	src           uint32
	parent, level []uint32
}

// vertex checks v's own entries: a parent exactly when a level, and a parent that is a
// vertex one level closer to the source.
func (c *bfsCheck) vertex(v uint32) error {
	p, l := c.parent[v], c.level[v]
	if (p == none) != (l == none) {
		return invalid("vertex %d has parent %s but level %s", c.g.External(v), id(c.g, p), str(l))
	}
	if p == none || v == c.src {
		return nil
	}
	if p >= c.g.NumVertices() {
		return invalid("vertex %d has parent %d, not a vertex", c.g.External(v), p)
	}
	if c.level[p] == none || c.level[p]+1 != l {
		return invalid("tree edge %d -> %d joins levels %s and %d, expected a difference of one", c.g.External(p), c.g.External(v), str(c.level[p]), l)
	}
	return nil
}

// treeParent is the neighbour v's list must hold: its parent, or none for the source and
// unreached vertices (none is never a neighbour).
func (c *bfsCheck) treeParent(v uint32) uint32 {
	if v == c.src {
		return none
	}
	return c.parent[v]
}

func (c *bfsCheck) notAnEdge(v uint32) error {
	p := c.parent[v]
	return invalid("tree edge %d -> %d (parent of %d) is not an edge of the graph", c.g.External(p), c.g.External(v), c.g.External(v))
}

func (c *bfsCheck) badEdge(u, v uint32) error {
	return invalid("edge %d -> %d joins levels %d and %s, expected the second reached and at most one deeper", c.g.External(u), c.g.External(v), c.level[u], str(c.level[v]))
}

// both checks vertices lo..hi of an undirected graph: their entries, their tree edges
// and their edges. It stores each edge both ways and the conditions on an edge are
// symmetric (both ends reached or neither, levels at most one apart), so each edge is
// checked from its larger end only: v's sorted list is read up to v, or on to v's
// parent when that is larger.
func (c *bfsCheck) both(s *store.Shard, lo, hi uint32) error {
	l := newLists(c.cg, store.Out)
	for v := lo; v < hi; v++ {
		if err := c.vertex(v); err != nil {
			return err
		}
		lv, want := c.level[v], c.treeParent(v)
		found := want == none
		deg := s.Degree(v)
		for k := uint32(0); k < deg; k += store.BlockSize {
			blk, err := l.block(v, k)
			if err != nil {
				return err
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
					found, err = c.find(l, v, k, deg, want)
				}
				if err != nil {
					return err
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

// below checks v's edges to the smaller neighbours xs. For a reached v, level[x] - lv + 1
// <= 2 (unsigned) holds exactly for the levels lv-1, lv and lv+1, and for none only when
// lv is 0 (the source), so none is tested apart.
func (c *bfsCheck) below(v, lv uint32, xs []uint32) error {
	if lv == none {
		for _, x := range xs {
			if c.level[x] != none {
				return c.badEdge(x, v)
			}
		}
		return nil
	}
	for _, x := range xs {
		if lx := c.level[x]; lx-lv+1 > 2 || lx == none {
			if lx == none || lx > lv {
				return c.badEdge(v, x)
			}
			return c.badEdge(x, v)
		}
	}
	return nil
}

// find reports whether want is in v's list, reading on from block k.
func (c *bfsCheck) find(l *lists, v, k, deg, want uint32) (bool, error) {
	for ; k < deg; k += store.BlockSize {
		blk, err := l.block(v, k)
		if err != nil {
			return false, err
		}
		if blk[len(blk)-1] >= want {
			return slices.Contains(blk, want), nil
		}
	}
	return false, nil
}

// tree checks vertices lo..hi of a directed graph's in-lists: their entries and that
// each one's parent is among its in-neighbours (sorted, so the walk stops once past it).
func (c *bfsCheck) tree(s *store.Shard, lo, hi uint32) error {
	l := newLists(c.cg, store.In)
	for v := lo; v < hi; v++ {
		if err := c.vertex(v); err != nil {
			return err
		}
		want := c.treeParent(v)
		if want == none {
			continue
		}
		found := false
		deg, done := s.Degree(v), false
		for k := uint32(0); k < deg && !done; k += store.BlockSize {
			blk, err := l.block(v, k)
			if err != nil {
				return err
			}
			if blk[len(blk)-1] >= want {
				found, done = slices.Contains(blk, want), true
			}
		}
		if !found {
			return c.notAnEdge(v)
		}
	}
	return nil
}

// edges checks the out-lists of vertices lo..hi of a directed graph.
func (c *bfsCheck) edges(s *store.Shard, lo, hi uint32) error {
	l := newLists(c.cg, store.Out)
	for u := lo; u < hi; u++ {
		lu := c.level[u]
		if lu == none {
			continue
		}
		for k := uint32(0); k < s.Degree(u); k += store.BlockSize {
			blk, err := l.block(u, k)
			if err != nil {
				return err
			}
			for _, v := range blk {
				if lv := c.level[v]; lv == none || lv > lu+1 {
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
