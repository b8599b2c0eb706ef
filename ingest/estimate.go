package ingest

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/store"
)

// estimateOrders makes the automatic choice on the graph built in the file's order: it
// encodes a sample of its lists (listsSample) in each order and keeps the smallest
// (chooseByEstimate says the rule). When the file's numbering has strong locality (its
// sampled lists take less than strongLocal% of what they take numbered at random), the
// file's order is kept without numbering any other. Otherwise the bisection order's
// size is predicted from a ball of the graph (predictBisect). When the numbering has
// some locality (under localInput%), the degree and the BFS order, which discard it and
// were the larger on every such graph measured (web crawl, road map, grid in row
// order, ego networks, Slashdot), are not tried; else each of them is numbered from the
// graph's lists (the degree order from the stored degrees, the BFS order from a
// traversal). The bisection order is computed last, when its prediction beats the
// smallest estimate (withBisect). The chosen numbering is the second pass's. Where the
// first pass estimated the degree order (early.degRatio), that ratio scales the file
// order's estimate instead: the same decision, not made twice.
func estimateOrders(adj *store.Compressed, opt Options, bp *pipeline, pg *pager, early *earlyAuto) (*orderChoice, error) {
	n := adj.NumVertices()
	keep := &orderChoice{order: store.OrderInput}
	if n == 0 {
		keep.est = &OrderEstimate{Skipped: "no vertices"}
		return keep, nil
	}
	if need := degreeOrderBytes * int64(n); need > bp.orderMem() {
		keep.est = &OrderEstimate{Skipped: fmt.Sprintf("the degree order would take %s for %d vertices, more than half the budget", bytesize.Format(need), n)}
		return keep, nil
	}
	// ids.bin, which a relabeled graph has in any order: raw before a numbering is
	// known (the prediction, the floor), its own size once it is (idsOf)
	var ids int64
	if !adj.Graph().M.Relabeled {
		ids = store.IDsFileBytes(int64(n), 4)
	}
	idsOf := func(inv []uint32) int64 {
		if ids == 0 {
			return 0
		}
		return store.IDsBytes(len(inv), func(i int) uint64 { return adj.Graph().External(inv[i]) })
	}
	var s *listsSample
	var est *OrderEstimate
	if early != nil && early.sample != nil {
		// the lists sampled while the input was read, and their sizes
		s = early.sample
		e := early.est
		est = &OrderEstimate{SampleRate: e.SampleRate, SampledLists: e.SampledLists, InputBytes: e.InputBytes, RandomBytes: e.RandomBytes}
	} else {
		var err error
		if s, err = sampleLists(adj, sampleSize(adj.NumEdges(), cmp.Or(opt.sampleCap, sampleEntries(bp.mem))), pg); err != nil {
			return nil, err
		}
		est = &OrderEstimate{SampleRate: s.rate, SampledLists: len(s.out) + len(s.in)}
		est.InputBytes, est.RandomBytes = s.bytes(nil), s.randomBytes(n)
	}
	if est.InputBytes < est.RandomBytes*strongLocal/100 {
		why := fmt.Sprintf("the file's numbering has strong locality (its lists %d%% of a random numbering's), which the other orders discard", 100*est.InputBytes/max(est.RandomBytes, 1))
		est.DegreeSkipped, est.BFSSkipped, est.BisectSkipped, est.Chosen = why, why, why, store.OrderInput
		keep.est = est
		return keep, nil
	}
	if err := predictBisectBytes(adj, est, ids, bp, pg); err != nil {
		return nil, err
	}
	if est.InputBytes < est.RandomBytes*localInput/100 {
		why := fmt.Sprintf("the file's numbering has locality (its lists %d%% of a random numbering's), which they discard", 100*est.InputBytes/max(est.RandomBytes, 1))
		est.DegreeSkipped, est.BFSSkipped = why, why
		return withBisect(adj, s, est, idsOf, nil, nil, bp, pg)
	}
	// the probe beside the degree order's numbering
	var perr error
	var wg sync.WaitGroup
	wg.Go(func() { est.BallLevels, perr = ballLevels(adj, pg) })
	switch {
	case early != nil && early.degSkip != "":
		est.DegreeSkipped = early.degSkip
	case early != nil && early.degRatio > 0:
		est.DegreeBytes = int64(float64(est.InputBytes)*early.degRatio) + ids
	default:
		perm, inv := degreeOrder(storedDegrees(adj, pg), bp.workers)
		est.DegreeBytes = s.bytes(perm) + idsOf(inv)
	}
	wg.Wait()
	releaseGraph(adj.Graph())
	if perr != nil {
		return nil, perr
	}
	var bperm, binv []uint32
	switch bfsNeed := bfsOrderBytes * int64(n); {
	case est.BallLevels < probeLevels:
		est.BFSSkipped = fmt.Sprintf("searches spread fast (balls of %d vertices in %d levels), no locality to find", probeBall, est.BallLevels)
	case est.InputBytes <= s.floorBytes()+ids:
		est.BFSSkipped = "the file's order is within what lists of consecutive ids would take with ids.bin"
	case bfsNeed > bp.orderMem() || bfsNeed+8*int64(maxDegree(adj, pg))*int64(bp.workers) > bp.orderMem():
		est.BFSSkipped = "the BFS order would take more than half the budget"
	default:
		var err error
		if bperm, binv, err = bfsOrder(adj, bp.workers, pg); err != nil {
			return nil, err
		}
		est.BFSBytes = s.bytes(bperm) + idsOf(binv)
	}
	return withBisect(adj, s, est, idsOf, bperm, binv, bp, pg)
}

// withBisect computes the bisection order when the prediction says it beats the
// orders estimated so far (predictBisectBytes), estimates its size as theirs (idsOf:
// the ids.bin a numbering gives), and makes the choice (chooseByEstimate); bperm and
// binv are the BFS order's numbering, when computed.
func withBisect(adj *store.Compressed, s *listsSample, est *OrderEstimate, idsOf func(inv []uint32) int64, bperm, binv []uint32, bp *pipeline, pg *pager) (*orderChoice, error) {
	var sperm, sinv []uint32
	if est.BisectSkipped == "" {
		best := est.InputBytes
		if est.DegreeSkipped == "" {
			best = min(best, est.DegreeBytes)
		}
		if est.BFSSkipped == "" {
			best = min(best, est.BFSBytes)
		}
		held := 8 * int64(len(bperm)) // the BFS order's arrays stay beside it
		w, cache := bisectPlan(int64(adj.NumVertices()), bp.orderMem()-held, bp.workers)
		switch {
		case est.BisectPredicted*100 > best*(100-bisectMargin):
			est.BisectSkipped = fmt.Sprintf("not %d%% under the smallest estimate", bisectMargin)
		case w == 0:
			est.BisectSkipped = "the bisection order would take more than half the budget"
		default:
			var err error
			if sperm, sinv, err = bisectOrder(adj, w, cache, pg); err != nil {
				return nil, err
			}
			est.BisectBytes = s.bytes(sperm) + idsOf(sinv)
		}
	}
	est.Chosen = chooseByEstimate(est)
	est.ChoseDegree = est.Chosen == store.OrderDegree
	ch := &orderChoice{order: est.Chosen, est: est}
	switch est.Chosen {
	case store.OrderDegree:
		ch.perm, ch.inv = degreeOrder(storedDegrees(adj, pg), bp.workers)
	case store.OrderBFS:
		ch.perm, ch.inv = bperm, binv
	case store.OrderBisect:
		ch.perm, ch.inv = sperm, sinv
	}
	return ch, nil
}

// strongLocal: the file's numbering has strong locality when its sampled lists take
// less than this percentage of what they take numbered at random; no other order is
// tried then, the bisection order neither: on the web crawl (26%), the road map (44%)
// and the grid in row order (38%) it came out 1.4-2.2x larger than the file's order,
// its ids.bin included.
const strongLocal = 50

// bisectMargin is the percentage under the smallest other estimate by which the
// bisection order's predicted size must fall for it to be computed: the prediction is
// within about 10% of the outcome (facebook_combined 0.82 of the file's order predicted,
// 0.81 measured; soc-Slashdot0902 1.07 against 1.12).
const bisectMargin = 5

// bisectMaxEntries bounds the stored list entries of a graph the automatic order
// bisects: the bisection costs 3-10x an ingest in the file's order on the real graphs
// of up to 2^23 entries, and 60-110x on 2^27 (kron22, urand22).
const bisectMaxEntries = 1 << 24

// autoBisectMax is the most list entries the automatic order bisects: bisectMaxEntries,
// or what a test sets.
func (o Options) autoBisectMax() uint64 { return cmp.Or(o.bisectMax, bisectMaxEntries) }

// predictBisectBytes sets est.BisectPredicted: the file order's estimate scaled by
// what bisecting a ball of the graph did to the ball's lists (predictBisect), plus
// ids.bin; or est.BisectSkipped.
func predictBisectBytes(adj store.Adjacency, est *OrderEstimate, ids int64, bp *pipeline, pg *pager) error {
	entries, most := adj.NumEdges()*uint64(directions(adj)), bp.opt.autoBisectMax()
	if entries > most {
		est.BisectSkipped = fmt.Sprintf("%d list entries, more than the %d the automatic order bisects", entries, most)
		return nil
	}
	if ids >= est.InputBytes {
		est.BisectSkipped = "ids.bin alone would take what the file's order takes"
		return nil
	}
	pr, err := predictBisect(adj, pg)
	if err != nil {
		return err
	}
	if pr.inputBytes == 0 {
		est.BisectSkipped = "no lists in the ball"
		return nil
	}
	est.BisectPredicted = int64(float64(est.InputBytes)*pr.ratio()) + ids
	return nil
}

// sampleSize is how many list entries the automatic order samples from a graph of m
// stored edges: a sixteenth of them, at least 16K, at most cap. Encoding the sample in
// each order is most of what keeping the file's order costs, so it stays a small part
// of the ingest on small graphs too (facebook_combined: 11K entries instead of all
// 176K).
func sampleSize(m uint64, cap int) int {
	return int(min(uint64(cap), max(m/16, 1<<14)))
}

// autoRule is chooseByEstimate's rule in words, for the summary (-v).
const autoRule = "the smallest wins, the file's order on a tie"

// chooseByEstimate is the automatic order's rule: the order of the smallest estimate
// (ids.bin counted), the file's order on a tie, since keeping it costs nothing more.
// Size alone decides because, measured (docs/log-2026-11-24.md, "vertex orders"), the
// much faster orders were also the smaller: on kron22 the degree and the BFS order (BFS
// 2.2-2.4x, CC 2.0-2.1x less CPU than the file's order), on a permuted grid the BFS order
// (BFS 4.6x, CC 3.7x). The degree order within 5% of the smallest was tried as a speed
// rule for graphs without locality and dropped: on urand22, 4% larger, its BFS and CC
// took the same CPU time as the file's order's, within 5%.
func chooseByEstimate(e *OrderEstimate) string {
	best, order := e.InputBytes, store.OrderInput
	if e.DegreeSkipped == "" && e.DegreeBytes < best {
		best, order = e.DegreeBytes, store.OrderDegree
	}
	if e.BFSSkipped == "" && e.BFSBytes < best {
		best, order = e.BFSBytes, store.OrderBFS
	}
	if e.BisectSkipped == "" && e.BisectBytes > 0 && e.BisectBytes < best {
		order = store.OrderBisect
	}
	return order
}

// storedDegrees is every vertex's degree in the undirected view (out + in when
// directed): what the automatic choice numbers the degree order by, as the graph
// stores it (duplicates dropped unless kept).
func storedDegrees(adj store.Adjacency, pg *pager) []uint32 {
	deg := make([]uint32, adj.NumVertices())
	for v := range deg {
		deg[v] = undirectedDegree(adj, uint32(v))
		if v%(1<<16) == 0 {
			pg.add(degreePages(adj))
		}
	}
	return deg
}

// listsSample is the complete lists of the vertices whose hash is 0 modulo rate, the
// smallest power of two that keeps them near the sample's cap (each direction's lists of
// a directed graph apart).
type listsSample struct {
	rate    uint64
	out, in []parse.Edge // U the list's vertex, V a neighbour
}

func sampleLists(adj store.Adjacency, cap int, pg *pager) (*listsSample, error) {
	s := &listsSample{rate: 1}
	for adj.NumEdges()/s.rate > uint64(max(cap, 1)) {
		s.rate *= 2
	}
	var buf []uint32
	var err error
	dirs := []*[]parse.Edge{&s.out, &s.in}[:1]
	if adj.Directed() {
		dirs = append(dirs, &s.in)
	}
	for v := range adj.NumVertices() {
		if sampleHash(uint64(v))&(s.rate-1) != 0 {
			continue
		}
		for d, list := range dirs {
			if buf, err = adj.List(store.Direction(d), v, math.MaxUint32, buf); err != nil {
				return nil, err
			}
			pg.add(pageBytes + listBytes*int64(len(buf)))
			for _, u := range buf {
				*list = append(*list, parse.Edge{U: uint64(v), V: uint64(u)})
			}
		}
	}
	return s, nil
}

// localInput: the file's numbering has locality when its sampled lists take less than
// this percentage of what they take numbered at random; no other order is tried then
// (a grid of 2^22 vertices in row order: 54%, luxembourg_osm 47%; that grid numbered at
// random: about 100%). Without it the BFS order was computed for nothing on the grid once
// the codec coded runs of ids as intervals, which made the floor below no test.
const localInput = 80

// randomBytes is the sampled lists' encoded size with the n ids numbered at random (a
// hash, not a bijection: near enough for the size), scaled by the rate.
func (s *listsSample) randomBytes(n uint32) int64 {
	id := func(x uint64) uint32 { return uint32(sampleHash(x^0x5bd1e995) % uint64(n)) }
	return int64(s.rate) * (sampleBytes(s.out, id, true) + sampleBytes(s.in, id, true))
}

// floorBytes is the sampled lists' encoded size if each were a run of consecutive ids
// just after its vertex, scaled by the rate: no numbering does better with the store's
// codec.
func (s *listsSample) floorBytes() int64 {
	var total int64
	var keys []uint64
	var buf []byte
	for _, es := range [][]parse.Edge{s.out, s.in} {
		for i := 0; i < len(es); {
			j := i + 1
			for j < len(es) && es[j].U == es[i].U {
				j++
			}
			v := uint32(es[i].U)
			keys = keys[:0]
			for k := range j - i {
				keys = append(keys, key(v, v+1+uint32(k)))
			}
			buf = store.AppendListKeys(buf[:0], v, keys)
			total += int64(len(buf))
			i = j
		}
	}
	return int64(s.rate) * total
}

// bytes is the sampled lists' encoded size in the order perm (nil: as stored), scaled
// by the rate.
func (s *listsSample) bytes(perm []uint32) int64 {
	id := func(x uint64) uint32 { return uint32(x) }
	if perm != nil {
		id = func(x uint64) uint32 { return perm[x] }
	}
	return int64(s.rate) * (sampleBytes(s.out, id, true) + sampleBytes(s.in, id, true))
}

// Locality probe: the BFS order gives neighbours nearby numbers only where a search's
// levels stay small, in graphs of few dimensions (meshes, road maps), not in expanders
// (random, Kronecker, most social graphs), where a ball's levels grow by the degree and
// the BFS order is no better than a random one. So the automatic choice grows balls of
// probeBall vertices from probeSeeds vertices (by hash) and computes the BFS order only
// when the median ball needs probeLevels levels or more.
const (
	probeSeeds  = 8
	probeBall   = 4096
	probeLevels = 8
)

// ballLevels is the median number of levels a search from each probe seed takes to reach
// probeBall vertices (or its whole component).
func ballLevels(adj store.Adjacency, pg *pager) (int, error) {
	n := adj.NumVertices()
	var levels []int
	var buf []uint32
	var err error
	for i := uint64(0); i < probeSeeds && n > 0; i++ {
		s := uint32(sampleHash(i+1) % uint64(n))
		for k := uint32(0); k < n && adj.Degree(store.Out, s) == 0 && (!adj.Directed() || adj.Degree(store.In, s) == 0); k++ {
			s = (s + 1) % n
		}
		seen := map[uint32]bool{s: true}
		front := []uint32{s}
		depth := 0
		for len(front) > 0 && len(seen) < probeBall {
			depth++
			var next []uint32
			for _, u := range front {
				for d := range directions(adj) {
					if buf, err = adj.List(store.Direction(d), u, probeBall, buf); err != nil {
						return 0, err
					}
					pg.add(pageBytes + listBytes*int64(len(buf)))
					for _, v := range buf {
						if !seen[v] && len(seen) < probeBall {
							seen[v] = true
							next = append(next, v)
						}
					}
				}
			}
			front = next
		}
		levels = append(levels, depth)
	}
	if len(levels) == 0 {
		return 0, nil
	}
	slices.Sort(levels)
	return levels[len(levels)/2], nil
}

// directions is how many directions adj stores: 2 when directed, else 1.
func directions(adj store.Adjacency) int {
	if adj.Directed() {
		return 2
	}
	return 1
}
