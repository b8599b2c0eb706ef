package ingest

import (
	"cmp"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"time"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/store"
)

// The weighted ingest (Options.Weights) keeps each edge's weight and stores it in the
// shards' WEIGHTS sections (store/FORMAT.md, version 4). It is a path of its own, on the
// CPU: it holds the edges in memory (12 bytes an input edge, 8 more a stored directed
// edge while the lists are built) and refuses an input whose edges exceed the memory
// budget, where the unweighted pipeline spills to disk. Duplicates keep the smallest
// weight (with --keep-duplicates every copy keeps its own); an undirected edge is
// stored both ways with its weight, and a directed graph's in-lists carry the weights
// of the arcs they mirror.

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
	res, err := parse.ParseWeighted(r, parse.ParseOptions{Format: opt.Format, Name: name, MaxID: MaxVertexID}, b.add)
	if err != nil {
		return nil, err
	}
	info := store.InputInfo{Name: filepath.Base(name), Bytes: size, Format: string(res.Format)}
	if name == "-" {
		info.Name = "-"
	}
	b.phases = append(b.phases, Phase{Name: "parse", Seconds: time.Since(t0).Seconds(), Bytes: res.InBytes, Edges: res.Edges})
	return b.finish(info, res.Header, res.Compression)
}

// FromWeightedEdges is FromEdges for weighted edges: produce passes every edge, with
// its weight, to emit (from one goroutine at a time). Generators use it for --weights.
func FromWeightedEdges(opt Options, input store.InputInfo, hdr parse.Header, produce func(emit func(parse.WEdge) error) error) (*Report, error) {
	opt.Weights = true
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
	opt    Options
	name   string
	mem    int64
	edges  []wedge
	input  uint64 // input edges
	loops  uint64 // self-loops dropped
	maxID  uint64 // largest id + 1
	start  time.Time
	phases []Phase
}

func newWeightedBuild(opt Options, name string) (*weightedBuild, error) {
	if err := CheckBackend(opt.Backend); err != nil {
		return nil, err
	}
	switch {
	case opt.Backend == BackendGPU:
		return nil, fmt.Errorf("ingest: --weights runs on the CPU only (the GPU ingest does not carry weights yet): drop --backend gpu: %w", parse.ErrBadInput)
	case opt.Relabel:
		return nil, fmt.Errorf("ingest: --weights with --relabel is not supported yet: %w", parse.ErrBadInput)
	case opt.Order == store.OrderDegree:
		return nil, fmt.Errorf("ingest: --weights with --order degree is not supported yet (use --order input): %w", parse.ErrBadInput)
	}
	mem := opt.Mem
	if mem <= 0 {
		mem = DefaultMem()
	}
	if opt.Verbose && opt.Log != nil {
		fmt.Fprintf(opt.Log, "weights: the CPU path (the GPU ingest does not carry weights), the input's edges held in memory, within %s; vertices in input order\n", bytesize.Format(mem))
	}
	return &weightedBuild{opt: opt, name: name, mem: mem, start: time.Now()}, nil
}

// add takes one input edge.
func (b *weightedBuild) add(e parse.WEdge) error {
	b.input++
	b.maxID = max(b.maxID, e.U+1, e.V+1)
	if e.U == e.V && !b.opt.KeepSelfLoops {
		b.loops++
		return nil
	}
	u, v := uint32(e.U), uint32(e.V)
	if !b.opt.Directed && u > v {
		u, v = v, u // one canonical copy of an undirected edge; both directions are stored later
	}
	if need := int64(len(b.edges)+1) * 2 * wedgeBytes; need > b.mem {
		return fmt.Errorf("ingest: %s: more than %d edges: a weighted ingest holds its edges in memory, "+
			"%d bytes each with both directions, more than --mem %s: %w", inputName(b.name), len(b.edges), 2*wedgeBytes, bytesize.Format(b.mem), parse.ErrBadInput)
	}
	b.edges = append(b.edges, wedge{u, v, e.W})
	return nil
}

// finish sorts and deduplicates the edges, builds the lists and writes the graph.
func (b *weightedBuild) finish(input store.InputInfo, hdr parse.Header, compression string) (*Report, error) {
	if b.opt.Directed && hdr.Symmetric {
		// a symmetric MatrixMarket file read --directed: each entry stands for both arcs
		n := len(b.edges)
		for _, e := range b.edges[:n] {
			if e.u != e.v {
				b.edges = append(b.edges, wedge{e.v, e.u, e.w})
			}
		}
	}
	nv := max(b.maxID, hdr.Vertices)
	if nv > MaxVertexID+1 {
		return nil, fmt.Errorf("ingest: %s: %d vertices, more than a graph holds: %w", inputName(b.name), nv, parse.ErrBadInput)
	}
	t0 := time.Now()
	slices.SortFunc(b.edges, func(x, y wedge) int {
		return cmp.Or(cmp.Compare(x.u, y.u), cmp.Compare(x.v, y.v), cmp.Compare(x.w, y.w))
	})
	kept := len(b.edges)
	if !b.opt.KeepDuplicates { // the first of equal (u, v) has the smallest weight
		b.edges = slices.CompactFunc(b.edges, func(x, y wedge) bool { return x.u == y.u && x.v == y.v })
	}
	out := b.lists(uint32(nv), false)
	// as the unweighted pipeline counts them: input edges, not stored copies
	dups := uint64(kept - len(b.edges))
	if b.opt.Directed && hdr.Symmetric {
		stored := out.edges()
		dups = b.input - b.loops - (stored-out.self)/2 - out.self
	}
	var in *wlists
	if b.opt.Directed {
		in = b.lists(uint32(nv), true)
	}
	b.edges = nil
	b.phases = append(b.phases, Phase{Name: "sort", Seconds: time.Since(t0).Seconds(), Edges: out.edges()})
	t0 = time.Now()
	m := &store.Manifest{Vertices: uint32(nv), Directed: b.opt.Directed, VertexOrder: store.OrderInput, IDBase: hdr.IDBase,
		InputEdges: b.input, SelfLoopsDropped: b.loops, DuplicatesDropped: dups, Input: input,
		Options: store.BuildOptions{KeepSelfLoops: b.opt.KeepSelfLoops, KeepDuplicates: b.opt.KeepDuplicates}}
	if err := b.write(out, in, m); err != nil {
		return nil, err
	}
	b.phases = append(b.phases, Phase{Name: "commit", Seconds: time.Since(t0).Seconds(), Bytes: m.Bytes})
	rep := &Report{Manifest: m, Phases: b.phases, PeakRSS: PeakRSS(), Mem: b.mem, Workers: 1,
		Seconds: time.Since(b.start).Seconds(), Compress: compression, Backend: BackendCPU}
	if b.opt.Log != nil {
		rep.Summary(b.opt.Log)
	}
	return rep, nil
}

// wlists is one direction's lists, CSR style.
type wlists struct {
	off  []uint64 // n+1 entries
	nbr  []uint32
	wts  []uint32
	self uint64
}

func (l *wlists) edges() uint64 { return l.off[len(l.off)-1] }

// lists builds the out-lists (or, with in, the in-lists) from the sorted, deduplicated
// edges by a counting sort on the list's vertex. Every list comes out in ascending
// neighbour order: for an undirected graph, vertex x first receives its mirrors (y, x)
// with y < x in ascending y, then its edges (x, y) with y >= x in ascending y; for the
// in-lists, the arcs (u, x) arrive in ascending u.
func (b *weightedBuild) lists(n uint32, in bool) *wlists {
	l := &wlists{off: make([]uint64, uint64(n)+1)}
	both := !b.opt.Directed
	for _, e := range b.edges {
		switch {
		case in:
			l.off[e.v+1]++
		default:
			l.off[e.u+1]++
			if both && e.u != e.v {
				l.off[e.v+1]++
			}
		}
	}
	for i := range n {
		l.off[i+1] += l.off[i]
	}
	l.nbr = make([]uint32, l.off[n])
	l.wts = make([]uint32, l.off[n])
	next := slices.Clone(l.off[:n])
	put := func(x, y, w uint32) {
		l.nbr[next[x]], l.wts[next[x]] = y, w
		next[x]++
	}
	for _, e := range b.edges {
		if e.u == e.v {
			l.self++
		}
		switch {
		case in:
			put(e.v, e.u, e.w)
		case both && e.u != e.v:
			put(e.v, e.u, e.w)
			put(e.u, e.v, e.w)
		default:
			put(e.u, e.v, e.w)
		}
	}
	return l
}

// write stores the lists as a weighted graph.
func (b *weightedBuild) write(out, in *wlists, m *store.Manifest) error {
	bl, err := store.Create(b.opt.Dest, store.CreateOptions{Force: b.opt.Force, Log: b.opt.Log, ShardBytes: b.opt.ShardBytes, Weighted: true})
	if err != nil {
		return err
	}
	for d, l := range map[store.Direction]*wlists{store.Out: out, store.In: in} {
		if l == nil {
			continue
		}
		w := bl.Writer(d)
		for v := range m.Vertices {
			a, z := l.off[v], l.off[v+1]
			if a == z {
				continue
			}
			if err := w.AppendWeightedList(v, l.nbr[a:z], l.wts[a:z]); err != nil {
				bl.Abort()
				return err
			}
		}
	}
	return bl.Commit(m)
}
