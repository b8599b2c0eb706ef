package ingest

import (
	"cmp"
	"math"
	"slices"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/store"
)

// The automatic order weighs the bisection order (bisect.go) without paying for it
// first: it bisects the subgraph a ball of the graph induces and compares the ball's
// lists in that numbering with the file's (predictBisect). A ball keeps the
// communities that the bisection gathers, where the sampled lists, a few entries of
// each vertex's neighbourhood, kept too little (a numbering learned from half of the
// sample and measured on the other half predicted no gain on facebook_combined, where
// the bisection order is 0.81 of the file's). Where the prediction beats the other
// orders' estimates, the whole bisection is computed, and its sampled size decides as
// theirs do.

// predictEntries bounds the list entries of the ball the prediction bisects: a few
// milliseconds on one worker.
const predictEntries = 1 << 16

// predictBall bounds the ball's vertices.
const predictBall = 1 << 12

// bisectPrediction is the ball's lists encoded in the file's numbering and in the
// bisection of the ball, both ranked within the ball.
type bisectPrediction struct {
	inputBytes, bisectBytes int64
	vertices                int   // the ball's
	entries                 int64 // its lists' entries inside the ball
	listed                  int64 // all its lists' entries
}

// ratio is the predicted size of the lists in bisection order against the file's: the
// ball's lists inside it as measured, the rest of the ball's entries unchanged. On an
// expander a ball's lists leave it (urand22: 6% of the entries inside, which shrank
// by a quarter as a tree does) and the prediction stays near 1.
func (pr *bisectPrediction) ratio() float64 {
	if pr.inputBytes == 0 || pr.listed == 0 {
		return 1
	}
	inside := float64(pr.entries) / float64(pr.listed)
	return 1 - inside*(1-float64(pr.bisectBytes)/float64(pr.inputBytes))
}

// predictBisect grows a ball breadth-first from the probe's first seed (ballLevels)
// until its lists hold predictEntries entries, bisects the subgraph the ball induces
// and encodes its lists in that numbering and in the file's, each ranked within the
// ball. A ball keeps what numbering by communities finds, where a sample of lists
// keeps a few entries of each; on expanders its lists leave it and little is found.
func predictBisect(adj store.Adjacency, pg *pager) (*bisectPrediction, error) {
	n := adj.NumVertices()
	pr := &bisectPrediction{}
	if n == 0 {
		return pr, nil
	}
	s := uint32(sampleHash(1) % uint64(n))
	for k := uint32(0); k < n && undirectedDegree(adj, s) == 0; k++ {
		s = (s + 1) % n
	}
	local := map[uint32]uint32{s: 0}
	ball := []uint32{s}
	total := int64(undirectedDegree(adj, s))
	var buf []uint32
	var err error
	for i := 0; i < len(ball) && len(ball) < predictBall && total < predictEntries; i++ {
		for d := range directions(adj) {
			if buf, err = adj.List(store.Direction(d), ball[i], math.MaxUint32, buf); err != nil {
				return nil, err
			}
			pg.add(pageBytes + listBytes*int64(len(buf)))
			for _, u := range buf {
				if _, ok := local[u]; !ok && len(ball) < predictBall && total < predictEntries {
					local[u] = uint32(len(ball))
					ball = append(ball, u)
					total += int64(undirectedDegree(adj, u))
				}
			}
		}
	}
	// the induced lists, in local numbers
	var edges [][2]uint32
	for i, v := range ball {
		for d := range directions(adj) {
			if buf, err = adj.List(store.Direction(d), v, math.MaxUint32, buf); err != nil {
				return nil, err
			}
			pg.add(pageBytes + listBytes*int64(len(buf)))
			for _, u := range buf {
				if j, ok := local[u]; ok && u != v {
					edges = append(edges, [2]uint32{uint32(i), j})
				}
			}
		}
	}
	pr.vertices, pr.entries = len(ball), int64(len(edges))
	for _, v := range ball {
		pr.listed += int64(undirectedDegree(adj, v))
	}
	// the file's numbering within the ball: ranks by id
	byID := make([]uint32, len(ball))
	for i := range byID {
		byID[i] = uint32(i)
	}
	slices.SortFunc(byID, func(a, b uint32) int { return cmp.Compare(ball[a], ball[b]) })
	inRank := make([]uint32, len(ball))
	for r, i := range byID {
		inRank[i] = uint32(r)
	}
	h := flatOf(len(ball), edges)
	perm, _, err := bisectOrder(h, 1, 16*int64(len(ball))+4*int64(len(edges))+1, nil)
	if err != nil {
		return nil, err
	}
	es := make([]parse.Edge, len(edges))
	for i, e := range edges {
		es[i] = parse.Edge{U: uint64(e[0]), V: uint64(e[1])}
	}
	pr.inputBytes = sampleBytes(es, func(x uint64) uint32 { return inRank[x] }, true)
	pr.bisectBytes = sampleBytes(es, func(x uint64) uint32 { return perm[x] }, true)
	return pr, nil
}

// flatOf is the undirected in-memory graph of n vertices whose lists hold edges[i][1]
// in the list of edges[i][0].
func flatOf(n int, edges [][2]uint32) *store.Flat {
	off := make([]uint64, n+1)
	for _, e := range edges {
		off[e[0]+1]++
	}
	for i := range n {
		off[i+1] += off[i]
	}
	adj := make([]uint32, len(edges))
	at := append([]uint64(nil), off[:n]...)
	for _, e := range edges {
		adj[at[e[0]]] = e[1]
		at[e[0]]++
	}
	return &store.Flat{N: uint32(n), M: uint64(len(edges)), OutOff: off, OutAdj: adj, InOff: off, InAdj: adj}
}
