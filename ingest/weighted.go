package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"time"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/internal/parallel"
	"github.com/oocgraph/ooc/store"
)

// The weighted ingest (Options.Weights) keeps each edge's weight and stores it in the
// shards' WEIGHTS sections (store/FORMAT.md, version 4). While the edges fit the memory
// budget it is a path of its own, on the CPU, that holds them in memory (12 bytes an
// input edge, 8 more a stored directed edge while the lists are built). A regular file
// whose edges exceed the budget (plainly, from its size and first MiB's line length, or
// found so while it is read) is ingested in two passes within the budget instead
// (weighfile.go); from a pipe such an input is refused. Duplicates keep the smallest
// weight (with --keep-duplicates every copy keeps its own); an undirected edge is
// stored both ways with its weight, and a directed graph's in-lists carry the weights
// of the arcs they mirror. Vertices are numbered as the unweighted pipeline numbers them
// (Options.Order: input, degree, or auto from a sample; Options.Relabel), and the lists
// come out byte for byte as that pipeline writes them (TestWeightedSameLists). The lists
// are built by a counting sort on the list's vertex and sorted list by list on all cores
// (kron scale 20, 16M edges: 1.5 s on 2 cores).

// wedge is an edge with its weight, in internal (0-based) ids.
type wedge struct{ u, v, w uint32 }

// wedgeBytes is what weighted ingest holds per input edge, and per stored directed edge
// while the lists are built.
const wedgeBytes = 12 + 8

// weightedFile ingests a weighted text edge list.
func weightedFile(r io.Reader, name string, size int64, opt Options) (*Report, error) {
	b, err := newWeightedBuild(opt, name)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	maxID := uint64(MaxVertexID)
	if opt.Relabel {
		maxID = math.MaxUint64
	}
	f := regularFile(r)
	per := int64(2 * wedgeBytes)
	if opt.Relabel {
		per += 8
	}
	if f != nil && (opt.weighWindow != 0 || plainlyBeyond(f, size, per, b.mem)) {
		return b.twoPasses(f, size, "estimated from its first MiB")
	}
	restore := setMemoryLimit(b.mem) // the arrays outgrown go back before the budget is reached
	res, err := parse.ParseWeighted(r, parse.ParseOptions{Format: opt.Format, Name: name, MaxID: maxID, FloatWeights: opt.FloatWeights}, b.add)
	restore()
	var over *overBudgetError
	if errors.As(err, &over) && f != nil {
		b.edges, b.wide, b.loopIDs = nil, nil, nil
		debug.FreeOSMemory()
		return b.twoPasses(f, size, "found while reading it")
	}
	if err != nil {
		return nil, err
	}
	b.opt.FloatWeights = res.FloatWeights
	info := store.InputInfo{Name: filepath.Base(name), Bytes: size, Format: string(res.Format)}
	if name == "-" {
		info.Name = "-"
	}
	b.phases = append(b.phases, Phase{Name: "parse", Seconds: time.Since(t0).Seconds(), Bytes: res.InBytes, Edges: res.Edges})
	return b.finish(info, res.Header, res.Compression)
}

// twoPasses ingests the regular file f in two passes (weighfile.go), saying so and why.
func (b *weightedBuild) twoPasses(f *os.File, size int64, why string) (*Report, error) {
	if b.opt.Verbose && b.opt.Log != nil {
		fmt.Fprintf(b.opt.Log, "weights: the edges of %s exceed %s (%s): two passes over the file, the lists built as without --weights and then weighed\n",
			inputName(b.name), bytesize.Format(b.mem), why)
	}
	return weighFile(f, b.name, size, b.opt)
}

// FromWeightedEdges is FromEdges for weighted edges: produce passes every edge, with
// its weight, to emit (from one goroutine at a time). Generators use it for --weights.
func FromWeightedEdges(opt Options, input store.InputInfo, hdr parse.Header, produce func(emit func(parse.WEdge) error) error) (rep *Report, err error) {
	defer func() { err = namedNoSpace(opt.Dest, err) }()
	opt.Weights = true
	if err := checkOptions(opt); err != nil {
		return nil, err // before produce runs: a generator's edges are not made for nothing
	}
	b, err := newWeightedBuild(opt, input.Name)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	if err := produce(b.add); err != nil {
		return nil, err
	}
	b.phases = append(b.phases, Phase{Name: "generate", Seconds: time.Since(t0).Seconds(), Edges: b.input})
	return b.finish(input, hdr, "")
}

// weightedBuild gathers the edges of a weighted ingest.
type weightedBuild struct {
	opt   Options
	name  string
	mem   int64
	edges []wedge
	input uint64 // input edges
	loops uint64 // self-loops dropped
	maxID uint64 // largest id + 1
	// With --relabel: the edges in the file's (64-bit) ids until finish numbers them, and
	// the ids of dropped self-loops, which are vertices all the same.
	wide    [][]wideEdge // in chunks of wideChunk, so that growing copies nothing
	nwide   int
	loopIDs []uint64
	start   time.Time
	phases  []Phase
}

func newWeightedBuild(opt Options, name string) (*weightedBuild, error) {
	if err := CheckBackend(opt.Backend); err != nil {
		return nil, err
	}
	switch {
	case opt.Backend == BackendGPU:
		return nil, fmt.Errorf("ingest: --weights runs on the CPU only (the GPU ingest does not carry weights yet): drop --backend gpu: %w", parse.ErrBadInput)
	}
	mem := opt.Mem
	if mem <= 0 {
		mem = DefaultMem()
	}
	if opt.Verbose && opt.Log != nil {
		order := "the file's vertex order"
		switch opt.Order {
		case store.OrderDegree:
			order = "vertices numbered by degree"
		case OrderAuto:
			order = "the vertex order chosen between the file's and the degree order (" + weightedOrders + "; a file read twice chooses as without --weights)"
		}
		fmt.Fprintf(opt.Log, "weights: the CPU path (the GPU ingest does not carry weights), the input's edges held in memory while they fit %s "+
			"(else a regular file is read twice: lists built as without --weights, then weighed); %s\n", bytesize.Format(mem), order)
	}
	return &weightedBuild{opt: opt, name: name, mem: mem, start: time.Now()}, nil
}

// interrupted is the error once Options.Context is done: the CLI cancels it on SIGINT,
// SIGTERM and SIGHUP, and nothing is published then.
func (b *weightedBuild) interrupted() error {
	if b.opt.Context == nil || b.opt.Context.Err() == nil {
		return nil
	}
	return fmt.Errorf("ingest: interrupted: %w", context.Cause(b.opt.Context))
}

// add takes one input edge.
func (b *weightedBuild) add(e parse.WEdge) error {
	if b.input%(1<<16) == 0 {
		if err := b.interrupted(); err != nil {
			return err
		}
	}
	b.input++
	b.maxID = max(b.maxID, e.U+1, e.V+1)
	if e.U == e.V && !b.opt.KeepSelfLoops {
		b.loops++
		if b.opt.Relabel {
			b.loopIDs = append(b.loopIDs, e.U)
		}
		return nil
	}
	if b.opt.Relabel {
		if need := int64(b.nwide+1) * (2*wedgeBytes + 8); need > b.mem {
			return &overBudgetError{fmt.Errorf("ingest: %s: more than %d edges: a weighted ingest with --relabel from a pipe holds its edges in memory, "+
				"%d bytes each, more than --mem %s (a regular file is read twice instead): %w", inputName(b.name), b.nwide, 2*wedgeBytes+8, bytesize.Format(b.mem), parse.ErrBadInput)}
		}
		if len(b.wide) == 0 || len(b.wide[len(b.wide)-1]) == wideChunk {
			b.wide = append(b.wide, make([]wideEdge, 0, wideChunk))
		}
		last := &b.wide[len(b.wide)-1]
		*last = append(*last, wideEdge{e.U, e.V, e.W})
		b.nwide++
		return nil
	}
	// as the line gives it: an undirected edge goes to both lists later, and outLists
	// tells a reciprocal pair by which list a line names first
	u, v := uint32(e.U), uint32(e.V)
	if need := int64(len(b.edges)+1) * 2 * wedgeBytes; need > b.mem {
		return &overBudgetError{fmt.Errorf("ingest: %s: more than %d edges: a weighted ingest from a pipe holds its edges in memory, "+
			"%d bytes each with both directions, more than --mem %s (a regular file is read twice instead): %w", inputName(b.name), len(b.edges), 2*wedgeBytes, bytesize.Format(b.mem), parse.ErrBadInput)}
	}
	if len(b.edges) == cap(b.edges) {
		// grown within the budget: the old array and the new one are alive at once
		b.edges = slices.Grow(b.edges, int(min(max(int64(len(b.edges)), 1<<12), b.mem/(2*wedgeBytes)-int64(len(b.edges)))))
	}
	b.edges = append(b.edges, wedge{u, v, e.W})
	return nil
}

// finish sorts and deduplicates the edges, builds the lists and writes the graph.
func (b *weightedBuild) finish(input store.InputInfo, hdr parse.Header, compression string) (*Report, error) {
	symmetric := !b.opt.Directed || hdr.Symmetric
	nv := max(b.maxID, hdr.Vertices)
	var ids []uint64 // with --relabel: the distinct ids, ascending
	if b.opt.Relabel {
		ids = b.relabel()
		nv = uint64(len(ids))
	}
	if nv > MaxVertexID+1 {
		return nil, fmt.Errorf("ingest: %s: %d vertices, more than a graph holds: %w", inputName(b.name), nv, parse.ErrBadInput)
	}
	workers := defaultWorkers(b.opt.Workers)
	var inv []uint32
	var est *OrderEstimate
	if b.opt.Order == store.OrderDegree || b.opt.Order == OrderAuto {
		perm, iv := degreeOrder(b.degrees(uint32(nv)), workers)
		if b.opt.Order == OrderAuto {
			est = b.estimate(perm, ids != nil)
		}
		if est == nil || est.ChoseDegree {
			b.renumber(perm, workers)
			inv = iv
		}
	}
	if b.opt.Directed && hdr.Symmetric {
		// a symmetric MatrixMarket file read --directed: each entry stands for both arcs
		for _, e := range b.edges[:len(b.edges)] {
			if e.u != e.v {
				b.edges = append(b.edges, wedge{e.v, e.u, e.w})
			}
		}
	}
	t0 := time.Now()
	out := b.outLists(uint32(nv), workers)
	b.edges = nil
	var in *wlists
	if b.opt.Directed {
		in = out.transpose()
	}
	// input edges dropped as duplicates, counted as the unweighted pipeline counts them
	kept, stored := b.input-b.loops, out.edges()
	dups := kept - stored
	if symmetric {
		dups = kept - (stored-out.self)/2 - out.self
	}
	var pairs *uint64
	if out.oriented {
		r := out.pairs
		dups, pairs = dups-r, &r
	}
	b.phases = append(b.phases, Phase{Name: "sort", Seconds: time.Since(t0).Seconds(), Edges: stored})
	t0 = time.Now()
	m := &store.Manifest{Vertices: uint32(nv), Directed: b.opt.Directed, VertexOrder: store.OrderInput, IDBase: hdr.IDBase,
		InputEdges: b.input, SelfLoopsDropped: b.loops, DuplicatesDropped: dups, ReciprocalPairs: pairs, Input: input,
		Options: store.BuildOptions{KeepSelfLoops: b.opt.KeepSelfLoops, KeepDuplicates: b.opt.KeepDuplicates}}
	if inv != nil {
		m.VertexOrder = store.OrderDegree
	}
	var orig func(i int) uint64 // the file's own id of vertex i, for ids.bin
	base := uint64(hdr.IDBase)
	switch {
	case ids != nil && inv != nil:
		orig = func(i int) uint64 { return ids[inv[i]] + base }
	case ids != nil:
		orig = func(i int) uint64 { return ids[i] + base }
	case inv != nil:
		orig = func(i int) uint64 { return uint64(inv[i]) + base }
	}
	if orig != nil {
		m.IDBase, m.Relabeled = 0, ids != nil // ids.bin holds the file's own ids
	}
	if err := b.write(out, in, m, orig); err != nil {
		return nil, err
	}
	b.phases = append(b.phases, Phase{Name: "commit", Seconds: time.Since(t0).Seconds(), Bytes: m.Bytes})
	rep := &Report{Manifest: m, Phases: b.phases, PeakRSS: PeakRSS(), Mem: b.mem, Workers: workers, Order: est,
		Seconds: time.Since(b.start).Seconds(), Compress: compression, Backend: BackendCPU}
	if b.opt.Log != nil {
		rep.Summary(b.opt.Log)
	}
	return rep, nil
}

// wideChunk is the edges in each chunk of weightedBuild.wide.
const wideChunk = 1 << 16

// wideEdge is an input edge in the file's ids, before --relabel numbers them.
type wideEdge struct {
	u, v uint64
	w    uint32
}

// relabel numbers the distinct ids (those of dropped self-loops included) 0..n-1 in
// ascending order, as the unweighted ingest's --relabel does, turns the wide edges into
// edges of those numbers, and returns the ids.
func (b *weightedBuild) relabel() []uint64 {
	ids := make([]uint64, 0, 2*b.nwide+len(b.loopIDs))
	for _, c := range b.wide {
		for _, e := range c {
			ids = append(ids, e.u, e.v)
		}
	}
	ids = append(ids, b.loopIDs...)
	slices.Sort(ids)
	ids = slices.Clip(slices.Compact(ids))
	rank := func(id uint64) uint32 { i, _ := slices.BinarySearch(ids, id); return uint32(i) }
	b.edges = make([]wedge, 0, b.nwide)
	for i, c := range b.wide {
		for _, e := range c {
			b.edges = append(b.edges, wedge{rank(e.u), rank(e.v), e.w})
		}
		b.wide[i] = nil
	}
	b.wide, b.loopIDs = nil, nil
	return ids
}

// degrees are the input degrees the degree order sorts by, as the unweighted ingest
// counts them: every endpoint of every input line (dropped self-loops not). degreeOrder
// then numbers the vertices by descending degree, ties by ascending id.
func (b *weightedBuild) degrees(n uint32) []uint32 {
	deg := make([]uint32, n)
	for _, e := range b.edges {
		deg[e.u]++
		deg[e.v]++
	}
	return deg
}

// renumber gives every edge's ends their new numbers.
func (b *weightedBuild) renumber(perm []uint32, workers int) {
	parallel.For(workers, len(b.edges), 1<<16, func(_, lo, hi int) {
		for i := range b.edges[lo:hi] {
			e := &b.edges[lo+i]
			e.u, e.v = perm[e.u], perm[e.v]
		}
	})
}

// estimate decides --order auto as the unweighted ingest does (chooseDegree): the lists
// of a sample of vertices, encoded in the file's order and in the degree order perm, the
// degree order chosen when it is smaller with its ids.bin.
func (b *weightedBuild) estimate(perm []uint32, relabeled bool) *OrderEstimate {
	s := newListSample(sampleEntries(b.mem))
	batch := make([]parse.Edge, 0, 4096)
	for i, e := range b.edges {
		batch = append(batch, parse.Edge{U: uint64(e.u), V: uint64(e.v)})
		if len(batch) == cap(batch) || i == len(b.edges)-1 {
			s.add(batch, true, !b.opt.Directed, true) // dropped self-loops never reached b.edges
			batch = batch[:0]
		}
	}
	rate := int64(s.rate.Load())
	in := func(x uint64) uint32 { return uint32(x) }
	deg := func(x uint64) uint32 { return perm[x] }
	est := &OrderEstimate{SampleRate: uint64(rate), SampledLists: len(s.entries),
		InputBytes:  rate * sampleBytes(s.entries, in, b.opt.KeepDuplicates),
		DegreeBytes: rate * sampleBytes(s.entries, deg, b.opt.KeepDuplicates)}
	if !relabeled { // a relabeled graph has its ids.bin in either order
		est.DegreeBytes += store.IDsFileBytes(int64(len(perm)), 4)
	}
	est.ChoseDegree = est.DegreeBytes < est.InputBytes
	est.BFSSkipped = weightedOrders
	return est
}

// weightedOrders is why the weighted ingest of edges held in memory estimates neither the
// BFS nor the bisection order (twoPass refuses them by name).
const weightedOrders = "the BFS and bisection orders do not take --weights yet"

// wlists is one direction's lists: vertex v's entries are ent[off[v] : off[v]+deg[v]],
// each the neighbour in the high 32 bits and the weight in the low ones, so that sorting
// the numbers sorts a list by neighbour and then weight.
type wlists struct {
	off  []uint64 // n+1 entries
	deg  []uint32 // entries kept (after deduplication) of each list
	ent  []uint64
	self uint64 // self-loops stored
	// pairs counts the reciprocal pairs merged (u v and v u in the input), when oriented
	// (an undirected build that drops duplicates)
	pairs    uint64
	oriented bool
}

func (l *wlists) n() uint32 { return uint32(len(l.deg)) }

func (l *wlists) list(v uint32) []uint64 { return l.ent[l.off[v] : l.off[v]+uint64(l.deg[v])] }

func (l *wlists) edges() uint64 {
	var e uint64
	for _, d := range l.deg {
		e += uint64(d)
	}
	return e
}

// outLists places the edges in their lists by a counting sort on the list's vertex (an
// undirected edge in both ends' lists), then sorts each list by neighbour and weight on
// workers goroutines and, unless duplicates are kept, keeps the first (lightest) entry
// of each neighbour.
//
// An undirected build that drops duplicates also counts the reciprocal pairs: each list
// holds first the copies its input lines name (u's list: the lines "u v") and then the
// reverse copies, whose distinct neighbours (sorted apart, then merged) sum to the
// distinct directed input edges; those beyond the distinct undirected ones are pairs.
func (b *weightedBuild) outLists(n uint32, workers int) *wlists {
	l := &wlists{off: make([]uint64, uint64(n)+1), deg: make([]uint32, n)}
	both := !b.opt.Directed
	l.oriented = both && !b.opt.KeepDuplicates
	for _, e := range b.edges {
		l.off[e.u+1]++
		if both && e.u != e.v {
			l.off[e.v+1]++
		}
	}
	for i := range n {
		l.off[i+1] += l.off[i]
	}
	l.ent = make([]uint64, l.off[n])
	for _, e := range b.edges {
		l.put(e.u, e.v, e.w)
	}
	var named []uint32 // oriented: each list's copies named by its lines, first in it
	if l.oriented {
		named = slices.Clone(l.deg)
	}
	for _, e := range b.edges {
		if both && e.u != e.v {
			l.put(e.v, e.u, e.w)
		}
	}
	selfs, distinct := make([]uint64, workers), make([]uint64, workers)
	bufs := make([][]uint64, workers)
	parallel.For(workers, int(n), 1<<12, func(w, lo, hi int) {
		for v := uint32(lo); v < uint32(hi); v++ {
			es := l.ent[l.off[v]:l.off[v+1]]
			if l.oriented {
				distinct[w] += distinctNamed(es[:named[v]], v)
				bufs[w] = mergeRuns(es, int(named[v]), bufs[w])
			} else {
				slices.Sort(es)
			}
			if !b.opt.KeepDuplicates {
				es = slices.CompactFunc(es, func(x, y uint64) bool { return x>>32 == y>>32 })
			}
			l.deg[v] = uint32(len(es))
			for _, x := range es {
				if uint32(x>>32) == v {
					selfs[w]++
				}
			}
		}
	})
	var named64 uint64
	for w := range workers {
		l.self += selfs[w]
		named64 += distinct[w]
	}
	if l.oriented {
		l.pairs = named64 - (l.edges()-l.self)/2
	}
	return l
}

// distinctNamed sorts a list's copies named by its own lines (of vertex v) and returns
// how many distinct neighbours other than v they hold.
func distinctNamed(es []uint64, v uint32) uint64 {
	slices.Sort(es)
	var d uint64
	for i, x := range es {
		if uint32(x>>32) != v && (i == 0 || x>>32 != es[i-1]>>32) {
			d++
		}
	}
	return d
}

// mergeRuns sorts es, whose first k entries are sorted, by sorting the rest and merging
// the two runs through buf, which it returns (grown).
func mergeRuns(es []uint64, k int, buf []uint64) []uint64 {
	a, b := es[:k], es[k:]
	slices.Sort(b)
	if len(a) == 0 || len(b) == 0 || a[len(a)-1] <= b[0] {
		return buf
	}
	buf = append(buf[:0], a...)
	i, j, o := 0, 0, 0
	for i < len(buf) && j < len(b) {
		if b[j] < buf[i] {
			es[o] = b[j]
			j++
		} else {
			es[o] = buf[i]
			i++
		}
		o++
	}
	copy(es[o:], buf[i:])
	return buf
}

// put appends neighbour u with weight w to v's list, using deg as the fill count.
func (l *wlists) put(v, u, w uint32) {
	l.ent[l.off[v]+uint64(l.deg[v])] = uint64(u)<<32 | uint64(w)
	l.deg[v]++
}

// transpose builds the in-lists of directed out-lists: the arc u -> x, weight w, becomes
// x's entry (u, w). Scanning u in ascending order fills every in-list already sorted.
func (l *wlists) transpose() *wlists {
	n := l.n()
	t := &wlists{off: make([]uint64, uint64(n)+1), deg: make([]uint32, n), self: l.self}
	for u := range n {
		for _, x := range l.list(u) {
			t.off[x>>32+1]++
		}
	}
	for i := range n {
		t.off[i+1] += t.off[i]
	}
	t.ent = make([]uint64, t.off[n])
	for u := range n {
		for _, x := range l.list(u) {
			t.put(uint32(x>>32), u, uint32(x))
		}
	}
	return t
}

// write stores the lists as a weighted graph, and with orig ids.bin: the file's own id,
// base included, of each vertex.
func (b *weightedBuild) write(out, in *wlists, m *store.Manifest, orig func(int) uint64) error {
	bl, err := store.Create(b.opt.Dest, store.CreateOptions{Force: b.opt.Force, Log: b.opt.Log, ShardBytes: b.opt.ShardBytes, Weighted: true, FloatWeights: b.opt.FloatWeights})
	if err != nil {
		return err
	}
	if orig != nil {
		if err := bl.WriteIDs(int(m.Vertices), orig); err != nil {
			bl.Abort()
			return err
		}
	}
	for d, l := range map[store.Direction]*wlists{store.Out: out, store.In: in} {
		if l == nil {
			continue
		}
		w := bl.Writer(d)
		var nbrs, wts []uint32
		for v := range m.Vertices {
			es := l.list(v)
			if len(es) == 0 {
				continue
			}
			if v%(1<<16) == 0 {
				if err := b.interrupted(); err != nil {
					bl.Abort()
					return err
				}
			}
			nbrs, wts = nbrs[:0], wts[:0]
			for _, x := range es {
				nbrs, wts = append(nbrs, uint32(x>>32)), append(wts, uint32(x))
			}
			if err := w.AppendWeightedList(v, nbrs, wts); err != nil {
				bl.Abort()
				return err
			}
		}
	}
	if err := b.interrupted(); err != nil {
		bl.Abort()
		return err
	}
	return bl.Commit(m)
}
