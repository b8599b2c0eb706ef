package validate

import (
	"fmt"

	"github.com/oocgraph/ooc/store"
)

// PageRank model constants, as package pagerank and GAPBS's PageRank kernel define the model.
const (
	prDamping = 0.85
	// The reference iterates until its L1 change is below prTolerance, which puts it
	// within 0.85/0.15 of that (6e-9) of the fixed point: far below any bound checked.
	prTolerance = 1e-9
	prMaxIters  = 10000
)

// PageRankScores computes the PageRank scores of g by plain power iteration in float64:
// score(u) = (1-d)/n + d·Σ score(v)/outdeg(v) over the in-neighbours v of u, with
// d = 0.85, starting from 1/n, until the L1 change falls below 1e-9. Vertices without
// out-edges pass their score to nobody (GAPBS's model). It decodes the lists with
// store.ListIter, not the engines' decoders, in pieces on all cores.
func PageRankScores(g *store.Graph) ([]float64, error) {
	n := g.NumVertices()
	if n == 0 {
		return nil, nil
	}
	deg := make([]uint32, n)
	for _, s := range g.Out().Shards {
		s.DegreesAt(deg[s.Lo:s.Hi()], 0)
	}
	score := make([]float64, n)
	contrib := make([]float64, n)
	for v := range score {
		score[v] = 1 / float64(n)
	}
	base := (1 - prDamping) / float64(n)
	ps := pieces(g.In())
	change := make([]float64, len(ps)) // per piece, added in vertex order
	index := make(map[uint32]int, len(ps))
	for i, p := range ps {
		index[p.lo] = i
	}
	for iter := 0; iter < prMaxIters; iter++ {
		for v, d := range deg {
			contrib[v] = 0
			if d > 0 {
				contrib[v] = score[v] / float64(d)
			}
		}
		err := eachPiece(g.In(), func(s *store.Shard, lo, hi uint32) error {
			var it store.ListIter
			var c float64
			for u := lo; u < hi; u++ {
				var sum float64
				for s.Iter(&it, u); it.Next(); {
					sum += contrib[it.Value()]
				}
				if it.Err() != nil {
					return s.ListError(u)
				}
				next := base + prDamping*sum
				c += max(next-score[u], score[u]-next)
				score[u] = next
			}
			change[index[lo]] = c
			return nil
		})
		if err != nil {
			return nil, err
		}
		var total float64
		for _, c := range change {
			total += c
		}
		if total < prTolerance {
			return score, nil
		}
	}
	return nil, fmt.Errorf("validate: the PageRank reference did not converge in %d iterations", prMaxIters)
}

// PageRank checks scores against PageRankScores: it returns their L1 distance and an
// error matching ErrInvalid when that exceeds bound (or a score is missing or not a
// finite number).
func PageRank(g *store.Graph, scores []float32, bound float64) (float64, error) {
	n := g.NumVertices()
	if uint64(len(scores)) != uint64(n) {
		return 0, invalid("%d scores for %d vertices", len(scores), n)
	}
	ref, err := PageRankScores(g)
	if err != nil {
		return 0, err
	}
	var dist float64
	for v, x := range scores {
		if x != x || x > 1 || x < 0 {
			return 0, invalid("vertex %d has score %v, expected a number in [0, 1]", v, x)
		}
		dist += max(float64(x)-ref[v], ref[v]-float64(x))
	}
	if dist > bound {
		return dist, invalid("scores are %.3g from the reference in L1, expected at most %.3g", dist, bound)
	}
	return dist, nil
}
