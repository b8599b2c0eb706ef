// Package validate checks BFS and connected-components results against the graph itself,
// independently of the engine that produced them: the Graph500 BFS checks (as in the
// Graph500 reference code and GAPBS's verifiers) and a partition check for components.
// Both stream the shards once, in parallel, in time linear in the graph.
package validate

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/oocgraph/ooc"
	"github.com/oocgraph/ooc/store"
)

// ErrInvalid is matched by every error that reports a wrong result (as opposed to an
// unreadable graph).
var ErrInvalid = errors.New("invalid result")

const none = ooc.Unreached

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
// Together these force level to be the exact BFS distance. Vertex ids in messages are
// internal.
func BFS(g *store.Graph, src uint32, parent, level []uint32) error {
	n := g.NumVertices()
	switch {
	case uint64(len(parent)) != uint64(n) || uint64(len(level)) != uint64(n):
		return invalid("%d parents and %d levels for %d vertices", len(parent), len(level), n)
	case src >= n:
		return invalid("source %d is not a vertex", src)
	case parent[src] != src || level[src] != 0:
		return invalid("source %d has parent %d and level %d, expected itself and 0", src, parent[src], level[src])
	}
	// Tree checks, per vertex: parents are vertices one level closer to the source, so
	// following parents strictly decreases the level and must end at the only vertex of
	// level 0, the source.
	err := eachShard(g.In(), func(s *store.Shard) error {
		var it store.ListIter
		for v := s.Lo; v < s.Hi(); v++ {
			p, l := parent[v], level[v]
			if (p == none) != (l == none) {
				return invalid("vertex %d has parent %s but level %s", v, str(p), str(l))
			}
			if p == none || v == src {
				continue
			}
			if p >= n {
				return invalid("vertex %d has parent %d, not a vertex", v, p)
			}
			if level[p] == none || level[p]+1 != l {
				return invalid("tree edge %d -> %d joins levels %s and %d, expected a difference of one", p, v, str(level[p]), l)
			}
			if ok, err := hasNeighbor(s, &it, v, p); err != nil {
				return err
			} else if !ok {
				return invalid("tree edge %d -> %d (parent of %d) is not an edge of the graph", p, v, v)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	// Edge checks, over every out-list.
	return eachShard(g.Out(), func(s *store.Shard) error {
		var it store.ListIter
		for u := s.Lo; u < s.Hi(); u++ {
			lu := level[u]
			if lu == none {
				continue
			}
			for s.Iter(&it, u); it.Next(); {
				v := it.Value()
				if lv := level[v]; lv == none || lv > lu+1 {
					return invalid("edge %d -> %d joins levels %d and %s, expected the second reached and at most one deeper", u, v, lu, str(lv))
				}
			}
			if it.Err() != nil {
				return s.ListError(u)
			}
		}
		return nil
	})
}

// hasNeighbor reports whether p is in v's (sorted) list, stopping once it is passed.
func hasNeighbor(s *store.Shard, it *store.ListIter, v, p uint32) (bool, error) {
	for s.Iter(it, v); it.Next(); {
		if x := it.Value(); x >= p {
			return x == p, nil
		}
	}
	if it.Err() != nil {
		return false, s.ListError(v)
	}
	return false, nil
}

func str(x uint32) string {
	if x == none {
		return "none"
	}
	return fmt.Sprint(x)
}

// eachShard runs check on every shard in parallel and returns the error of the first
// failing shard in vertex order, so that the message does not depend on scheduling.
func eachShard(c *store.CSR, check func(s *store.Shard) error) error {
	errs := make([]error, len(c.Shards))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, s := range c.Shards {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			errs[i] = check(s)
		}()
	}
	wg.Wait()
	return firstNonNil(errs)
}

func firstNonNil(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
