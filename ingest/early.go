package ingest

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/store"
)

// The automatic order decides what it can in the first pass, before the graph in the
// file's order is built: phase 1 of that build counts every vertex's input degree and
// samples complete lists (autoSide), and at its end (decideAuto) the sample says whether
// the file's numbering has locality, and, where it has none, whether the degree order
// is smaller. When it is, the first build stops there and the input is read again in
// the degree order (the numbering --order degree gives), so the choice costs one
// phase 1 in the file's order, not a second build. When the file's order wins outright
// (strong locality, or locality on a graph too large for the bisection) its build is
// the result and nothing is estimated after it. Otherwise the graph is built in the
// file's order and the orders that need its lists (the BFS order's locality probe, the
// bisection order's ball) are weighed on it (estimate.go), with the degree order's
// estimate from the first pass.

// earlyAuto carries the automatic order's first-pass decision from the first build to
// twoPass.
type earlyAuto struct {
	rewind    func() error // reads the input again from its start; nil when it cannot be
	bisectMax uint64       // the most list entries the automatic order bisects

	// what decideAuto found
	est       *OrderEstimate
	final     bool         // the file's order is the result, decided: nothing to estimate after the build
	perm, inv []uint32     // the degree order, chosen: the input is read again in it
	sample    *listsSample // the lists sampled while the input was read, for the estimate after the build
	degRatio  float64      // the degree order's lists over the file order's, in that sample (0: not estimated)
	degSkip   string       // why the degree order was not estimated: flat degrees
	phases    []Phase      // the first pass's phase 1 and the decision, when the degree order is chosen
}

// errReadAgain stops the first build when the degree order is chosen at the end of its
// phase 1 (earlyAuto.perm).
var errReadAgain = errors.New("ingest: the degree order chosen, the input to be read again")

// autoSide is what phase 1 of the first build collects for decideAuto: the sampled
// lists, out-lists and in-lists apart when directed. The degrees are counted from the
// spills when they are needed (spillDegrees), not while the input is read.
type autoSide struct{ out, in *listSample }

// newAutoSide starts the side collection of p, the first build of an automatic order.
func (p *pipeline) newAutoSide() *autoSide {
	c := cmp.Or(p.opt.sampleCap, sampleEntries(p.mem))
	s := &autoSide{out: newListSample(c)}
	if p.opt.Directed {
		s.in = newListSample(c)
	}
	return s
}

// lists is the sample as the estimate takes it (listsSample), and the stored edges
// it estimates: each list sorted and, unless duplicates are kept, without repeats, as
// the graph stores it, and thinned, one rate for both directions, to the rate a built
// graph of that many stored edges is sampled at (sampleLists: stored/rate at most
// sampleSize), or the sample's own where that is higher (its cap). stored is the
// input's count, repeats included; the share of the sample's entries left after
// dropping them scales it (soc-Slashdot0902 stores 1.0M of its 1.74M: its reciprocal
// pairs). The rate follows the expected count, not the entries held: thinned until few
// enough entries were left, the sample shed its hubs first, and kron13's degree order
// came out larger than the file's.
func (s *autoSide) lists(stored uint64, capEntries int, keepDups bool) (*listsSample, uint64) {
	rate := s.out.rate.Load()
	if s.in != nil {
		rate = max(rate, s.in.rate.Load())
	}
	thin := func(stored uint64) {
		for stored/rate > uint64(sampleSize(stored, capEntries)) {
			rate *= 2
		}
	}
	thin(stored)
	out := s.out.thinned(rate)
	ls := &listsSample{out: sortedLists(out, keepDups)}
	held, kept := len(out), len(ls.out)
	if s.in != nil {
		in := s.in.thinned(rate)
		ls.in = sortedLists(in, keepDups)
		held, kept = held+len(in), kept+len(ls.in)
	}
	if held > 0 {
		stored = uint64(float64(stored) * float64(kept) / float64(held))
	}
	thin(stored)
	ls.rate = rate
	ls.out, ls.in = thinnedLists(ls.out, rate), thinnedLists(ls.in, rate)
	return ls, stored
}

// thinnedLists is es without the lists whose listHash is not 0 modulo rate.
func thinnedLists(es []parse.Edge, rate uint64) []parse.Edge {
	return slices.DeleteFunc(es, func(e parse.Edge) bool { return listHash(e.U)&(rate-1) != 0 })
}

// thinned keeps, in place, the entries of the lists whose listHash is 0 modulo rate,
// and returns them.
func (s *listSample) thinned(rate uint64) []parse.Edge {
	s.entries = thinnedLists(s.entries, rate)
	return s.entries
}

// sortedLists orders entries by list and neighbour, repeats dropped unless keepDups.
func sortedLists(es []parse.Edge, keepDups bool) []parse.Edge {
	keys := sortedKeys(es, func(x uint64) uint32 { return uint32(x) }, keepDups)
	out := make([]parse.Edge, len(keys)) // not in es: the sample's array goes
	for i, k := range keys {
		out[i] = parse.Edge{U: uint64(keySrc(k)), V: uint64(keyDst(k))}
	}
	return out
}

func (s *autoSide) add(b []parse.Edge, directed, keepLoops bool) {
	s.out.add(b, true, !directed, keepLoops)
	if s.in != nil {
		s.in.add(b, false, true, keepLoops)
	}
}

// emitInput hands a batch of the input to phase 1: counted and sampled in the first
// build of an automatic order, renumbered when the degree order was chosen before it.
func (p *pipeline) emitInput(b []parse.Edge) error {
	if p.side != nil {
		p.side.add(b, p.opt.Directed, p.opt.KeepSelfLoops)
	}
	if p.readAgain {
		return p.emitRenumbered(b)
	}
	return p.emit(b)
}

var renumberPool = sync.Pool{New: func() any { return new([]parse.Edge) }}

// emitRenumbered emits b with each id through p.perm, the numbering the first reading
// of the input chose.
func (p *pipeline) emitRenumbered(b []parse.Edge) error {
	buf := renumberPool.Get().(*[]parse.Edge)
	defer renumberPool.Put(buf)
	out := (*buf)[:0]
	n := uint64(len(p.perm))
	for _, e := range b {
		if e.U >= n || e.V >= n {
			return fmt.Errorf("ingest: %s: vertex id %d was not in the input when it was first read (it changed between the two readings): %w",
				p.name, max(e.U, e.V), parse.ErrBadInput)
		}
		out = append(out, parse.Edge{U: uint64(p.perm[e.U]), V: uint64(p.perm[e.V])})
	}
	*buf = out
	return p.emit(out)
}

// readAgainIn prepares p to read the input in the degree order e chose: the numbering
// held beside phase 1 (heldBytes), hub groups split as a degree-ordered ingest splits
// them.
func (p *pipeline) readAgainIn(e *earlyAuto) error {
	p.perm, p.inv, p.readAgain, p.estimate = e.perm, e.inv, true, e.est
	p.oriented = p.oriented && uint64(len(e.inv)) <= orientLimit
	for _, sp := range p.spills[:p.dirs] {
		sp.bySource = true
	}
	p.setGroups(func() groupBits { return minGroupBits }) // groupBits says why
	return p.sizePhase1()
}

// afterPhase1 ends phase 1 of a plain input: the renumbering is done with, and the
// first build of an automatic order decides what it can (decideAuto).
func (p *pipeline) afterPhase1(hdr parse.Header) error {
	if p.readAgain {
		p.perm = nil
	}
	if p.side == nil {
		return nil
	}
	t0 := time.Now()
	err := p.decideAuto(hdr)
	p.phases = append(p.phases, Phase{Name: "choose", Seconds: time.Since(t0).Seconds(), Edges: p.vertexCount(hdr)})
	if errors.Is(err, errReadAgain) {
		p.opt.early.phases = p.phases
	}
	return err
}

// decideAuto makes the automatic order's first-pass decision from p.side: the file's
// order kept (e.final), the degree order chosen (e.perm; errReadAgain stops this build),
// or the choice left to the estimate after the build (with e.degRatio when the degree
// order was estimated).
func (p *pipeline) decideAuto(hdr parse.Header) error {
	e, s := p.opt.early, p.side
	p.side = nil
	n := p.vertexCount(hdr)
	if n == 0 {
		e.final, e.est = true, &OrderEstimate{Skipped: "no vertices"}
		return nil
	}
	if need := degreeOrderBytes * int64(n); need > p.orderMem() {
		e.final, e.est = true, &OrderEstimate{Skipped: fmt.Sprintf("the degree order would take %s for %d vertices, more than half the budget", bytesize.Format(need), n)}
		return nil
	}
	stored := p.inputEdges.Load() - p.selfLoops.Load() // stored edges, repeats included
	if !p.opt.Directed {
		stored *= 2
	}
	ls, stored := s.lists(stored, cmp.Or(p.opt.sampleCap, sampleEntries(p.mem)), p.opt.KeepDuplicates)
	entries := stored // list entries: both ways, or out and in
	if p.opt.Directed {
		entries *= 2
	}
	est := &OrderEstimate{SampleRate: ls.rate, SampledLists: len(ls.out) + len(ls.in)}
	est.InputBytes, est.RandomBytes = ls.bytes(nil), ls.randomBytes(uint32(n))
	e.sample = ls
	local := 100 * est.InputBytes / max(est.RandomBytes, 1)
	switch {
	case local < strongLocal:
		why := fmt.Sprintf("the file's numbering has strong locality (its lists %d%% of a random numbering's), which the other orders discard", local)
		est.DegreeSkipped, est.BFSSkipped, est.BisectSkipped, est.Chosen = why, why, why, store.OrderInput
		e.final, e.est = true, est
		return nil
	case entries <= e.bisectMax:
		e.est = est
		return nil // the bisection order is weighed on the built graph, the others beside it
	case local < localInput:
		why := fmt.Sprintf("the file's numbering has locality (its lists %d%% of a random numbering's), which they discard", local)
		est.DegreeSkipped, est.BFSSkipped, est.Chosen = why, why, store.OrderInput
		est.BisectSkipped = fmt.Sprintf("about %d list entries, more than the %d the automatic order bisects", entries, e.bisectMax)
		e.final, e.est = true, est
		return nil
	}
	if share := ls.heavyShare(); share*100 < flatPercent {
		e.degSkip = fmt.Sprintf("the degrees are flat (lists of %d times the mean length or longer hold %.2f%% of the sampled entries): nothing for it to gather", heavyFactor, 100*share)
		est.DegreeSkipped, e.est = e.degSkip, est
		return nil
	}
	deg, err := p.spillDegrees(n)
	if err != nil {
		return err
	}
	perm, inv := degreeOrder(deg, p.workers)
	deg = nil
	lists := ls.bytes(perm)
	est.DegreeBytes = lists + store.IDsFileBytes(int64(n), 4)
	e.degRatio = float64(lists) / float64(max(est.InputBytes, 1))
	if est.DegreeBytes >= est.InputBytes || e.rewind == nil {
		e.est = est
		return nil
	}
	est.BFSSkipped = "the degree order was chosen in the first pass, before a graph to search was built"
	est.BisectSkipped = fmt.Sprintf("about %d list entries, more than the %d the automatic order bisects", entries, e.bisectMax)
	est.Chosen, est.ChoseDegree = store.OrderDegree, true
	e.est, e.perm, e.inv = est, perm, inv
	return errReadAgain
}

// spillDegrees counts every vertex's input degree from phase 1's spills: the keys it is
// the source of in every direction (an undirected edge is spilled both ways, a directed
// one as an out-key and an in-key), a kept self-loop of an undirected graph, spilled
// once, twice. That is what --order degree counts while it reads the input
// (degreeCounter), duplicates included, so both number the vertices alike. Counted
// while the input was read, the degrees took 13 ns an edge, random increments over
// all the vertices, which the choice would pay even when it keeps the file's order (a
// sixth of urand22's ingest); here a partition's counts stay in cache, and a worker
// counts whole partitions, disjoint ranges of vertices.
func (p *pipeline) spillDegrees(n uint64) ([]uint32, error) {
	type run struct {
		s    *spill
		refs []blockRef
	}
	parts := map[uint32][]run{}
	for _, s := range p.spills[:p.dirs] {
		for part, refs := range s.byPart() {
			parts[part] = append(parts[part], run{s, refs})
		}
	}
	order := slices.Sorted(maps.Keys(parts))
	deg := make([]uint32, n)
	loops := !p.opt.Directed && p.opt.KeepSelfLoops
	var next atomic.Int64
	errs := make([]error, p.workers)
	var wg sync.WaitGroup
	for w := range p.workers {
		wg.Go(func() {
			var scratch, buf []byte
			var groups []groupRun
			for i := next.Add(1) - 1; i < int64(len(order)); i = next.Add(1) - 1 {
				for _, r := range parts[order[i]] {
					for _, ref := range r.refs {
						var b spillBlock
						var err error
						if buf, scratch, err = r.s.t.read(scratch, ref.off, ref.len); err == nil {
							b, err = openBlock(buf, ref.part, ref.count, groups, r.s.gb)
						}
						if err != nil {
							errs[w] = err
							return
						}
						groups = b.groups
						countSources(deg, &b, loops, p.oriented)
					}
				}
			}
		})
	}
	wg.Wait()
	return deg, errors.Join(errs...)
}

// countSources adds the sources of a spill block's keys to deg, a kept self-loop twice
// when loops.
func countSources(deg []uint32, b *spillBlock, loops, oriented bool) {
	mask := b.gb.mask()
	for _, g := range b.groups {
		for i := g.start; i < g.end; i++ {
			x := entryAt(b.entries, b.skip, b.width, i)
			src := g.base | uint32(x&mask)
			deg[src]++
			if loops {
				dst := uint32(x >> b.gb)
				if oriented {
					dst >>= 1
				}
				if dst == src {
					deg[src]++
				}
			}
		}
	}
}

// Flat degrees: the degree order gathers the neighbours of many lists in the few ids of
// the hubs; without hubs it is the file's numbering cut into classes of equal degree,
// which gathers nothing, and it always came out larger than the file's order with its
// ids.bin (urand22: 331.8 against 315.5 MiB estimated). So when lists of heavyFactor
// times the mean length or longer hold less than flatPercent of the sampled entries
// (urand22 0%, a mesh or a road map 0%, kron22 and soc-Slashdot0902 most of them), the
// degrees are not counted (spillDegrees: a tenth of urand22's ingest) and the degree
// order is not tried.
const (
	heavyFactor = 4
	flatPercent = 1
)

// heavyShare is the share of the sample's entries in lists of heavyFactor times the
// mean length or longer, each direction's lists apart.
func (s *listsSample) heavyShare() float64 {
	var heavy, total int
	for _, es := range [][]parse.Edge{s.out, s.in} {
		var lens []int
		for i := 0; i < len(es); {
			j := i + 1
			for j < len(es) && es[j].U == es[i].U {
				j++
			}
			lens = append(lens, j-i)
			i = j
		}
		for _, l := range lens {
			if l*len(lens) >= heavyFactor*len(es) {
				heavy += l
			}
		}
		total += len(es)
	}
	return float64(heavy) / float64(max(total, 1))
}
