package ingest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/internal/parallel"
	"github.com/oocgraph/ooc/internal/plural"
	"github.com/oocgraph/ooc/store"
)

// Options shape an ingest.
type Options struct {
	Dest  string // the graph directory to write
	Force bool   // replace an existing graph at Dest

	Directed       bool // keep directions (and store the transpose); default: symmetrize
	KeepSelfLoops  bool
	KeepDuplicates bool
	Relabel        bool // compact arbitrary 64-bit ids to 0..n-1 and store the mapping
	SparseIDs      bool // keep an id range of more than MaxSlotsPerEdge vertices an input edge
	// Order numbers the vertices: store.OrderDegree by descending input degree (the
	// mapping is stored), store.OrderInput or "" as the file (or --relabel) numbers them,
	// OrderAuto whichever of the two an estimate finds smaller (Report.Order says).
	Order string

	ShardBytes int64 // ADJ bytes per shard; 0 = store.DefaultShardBytes; at most store.MaxShardBytes
	Mem        int64 // memory budget in bytes; 0 means DefaultMem(), below 0 is refused
	Workers    int   // 0 means GOMAXPROCS, below 0 or past 4096 is refused

	Progress io.Writer    // progress bars go here; nil = none
	Log      io.Writer    // the final summary; nil = none
	Verbose  bool         // also log how the memory budget is split (Budget), to Log
	Format   parse.Format // "" = detect
	Columns  [2]string    // Parquet: the source and destination id columns ("": src, dst)
	// Weights keeps each edge's weight (the third text column, DIMACS arc weights,
	// MatrixMarket values, the Parquet column WeightColumn): weighted.go.
	Weights      bool
	WeightColumn string // Parquet: the weight column ("": weight)
	// FloatWeights reads the weights of a text, DIMACS or MatrixMarket input as float32
	// (store/FORMAT.md, version 7); a real MatrixMarket file and a floating-point Parquet
	// weight column have float32 weights without it.
	FloatWeights bool
	// WidthMeant, with Format bin32, reads the pairs as bin32 even where every second id
	// is 0: such content is otherwise refused as a bin64 file read at the wrong width
	// unless the name ends .bin32 (parse.ParseOptions.WidthMeant).
	WidthMeant bool
	Backend    string // BackendAuto (""), BackendCPU or BackendGPU

	// Context, when set, cancels the ingest (the CLI cancels it on SIGINT, SIGTERM and SIGHUP);
	// the partial graph is removed. An input that is not a regular file (a pipe, a FIFO,
	// a terminal) is then read on a goroutine of its own, which a cancel leaves waiting
	// in its read: what the input gives next goes to that read, not to the caller.
	Context context.Context

	// Sizes forced by tests, so small inputs exercise many spill blocks and split
	// partitions; zero means "from the budget".
	chunkKeys int   // keys per phase-1 chunk and direction
	taskKeys  int   // keys a phase-2 task may sort at once
	fillKeys  int   // keys a chunk takes at least before it is sorted (benchmarks)
	sampleCap int   // entries the automatic order samples
	spillMem  int64 // bytes of the spills kept in memory (tape); -1: none
	spillSlab int64 // their slab size
	headsMem  int64 // bytes a split may keep its blocks' headers in (headsLimit); -1: none
	groupBits groupBits
	gpuBudget int64 // device memory the GPU ingest may take; 0: free memory less a margin
	// diskDir is the directory whose file system the disk checks measure and name: the
	// destination's parent, kept by a pass that writes into a temporary directory in it
	// ("" = Dest's parent)
	diskDir string

	// weighWindow sends a weighted regular file to the two-pass path (weighfile.go),
	// with windows of this many bytes (-1: as the budget allows).
	weighWindow int64

	zstdWindow int64 // the window of a zstd input's first frame, counted in Mem (budgetZstd)
	noSummary  bool  // the first pass of two (reorder.go): Log gets the budget line, not the summary
	noOrient   bool  // keys carry no orientation: the ids reached orientLimit (againUnoriented)

	early     *earlyAuto // the first build of an automatic order (early.go)
	bisectMax uint64     // list entries the automatic order bisects at most; 0: bisectMaxEntries
}

// Phase is the cost of one pipeline phase, under the name the report prints. A name
// stands for one kind of work: "choose" is --order auto's decision after its first
// build, "order" the computing of a numbering (degree, BFS or bisection).
type Phase struct {
	Name    string  `json:"name"`
	Seconds float64 `json:"seconds"`
	Bytes   int64   `json:"bytes"` // bytes read: input for parsing, spill for sorting; the graph's for commit
	Edges   uint64  `json:"edges"` // input edges parsed, or directed edges sorted; 0 for commit
}

// Report is what an ingest did.
type Report struct {
	Manifest *store.Manifest `json:"manifest"`
	Phases   []Phase         `json:"phases"`
	PeakRSS  int64           `json:"peak_rss"` // VmHWM of the process, bytes
	Mem      int64           `json:"mem"`      // the budget it ran under
	Budget   Budget          `json:"budget"`   // how the pipeline split it
	Workers  int             `json:"workers"`
	Seconds  float64         `json:"seconds"`
	Compress string          `json:"compression,omitempty"`
	Order    *OrderEstimate  `json:"order_estimate,omitempty"` // with OrderAuto
	Backend  string          `json:"backend"`                  // "cpu", or "gpu" and the device's name
}

// MaxVertexID is the largest 0-based id a graph can hold without --relabel: the store
// reserves 2^32-1 as "no vertex".
const MaxVertexID = 1<<32 - 2

// File ingests the edge list at path ("-" is standard input), or the Parquet dataset
// directory of part files at path (dirFromParquet), into opt.Dest.
func File(path string, opt Options) (rep *Report, err error) {
	defer func() { err = bareInterrupt(namedNoSpace(opt.Dest, err)) }()
	if path == "-" {
		return FileFrom(os.Stdin, "-", -1, opt)
	}
	if path == "" {
		return nil, fmt.Errorf("ingest: an empty input name: %w", parse.ErrBadInput)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, &parse.ParseError{Path: path, Offset: -1, Msg: "cannot read the input", Err: unwrapPath(err)}
	}
	if st.IsDir() {
		return dirFromParquet(path, opt)
	}
	f, err := openWaiting(opt.Context, path, st.Mode()&fs.ModeNamedPipe != 0)
	if err != nil && errors.Is(err, context.Canceled) {
		return nil, err
	}
	if err != nil {
		return nil, &parse.ParseError{Path: path, Offset: -1, Msg: "cannot open the input", Err: unwrapPath(err)}
	}
	defer f.Close()
	first := true
	return againUnoriented(opt, st.Mode().IsRegular(), func(o Options) (*Report, error) {
		if !first {
			if _, err := f.Seek(0, io.SeekStart); err != nil {
				return nil, &parse.ParseError{Path: path, Offset: -1, Msg: "cannot read the input again", Err: unwrapPath(err)}
			}
		}
		first = false
		return FileFrom(f, path, st.Size(), o)
	})
}

// checkOptions refuses, before any input is read, an unknown Order, a ShardBytes out of
// range, a negative Workers or Mem (0 asks for the default: the CLI's rule), WidthMeant
// without Format bin32, and FloatWeights or WeightColumn without Weights (as ooc ingest
// refuses --float-weights without --weights: they would be ignored).
func checkOptions(opt Options) error {
	if err := CheckOrder(opt.Order); err != nil {
		return err
	}
	if err := store.CheckShardBytes(opt.ShardBytes); err != nil {
		return err
	}
	if err := parallel.CheckWorkers("ingest: Options.Workers", opt.Workers); err != nil {
		return fmt.Errorf("%w: %w", err, parse.ErrBadInput)
	}
	if opt.Mem < 0 {
		return fmt.Errorf("ingest: Options.Mem %d: want 0 (DefaultMem) or a budget in bytes: %w", opt.Mem, parse.ErrBadInput)
	}
	if opt.WidthMeant && opt.Format != parse.FormatBin32 {
		return fmt.Errorf("ingest: Options.WidthMeant says a bin32 width is meant: set Options.Format to bin32 (Format is %q): %w", opt.Format, parse.ErrBadInput)
	}
	switch {
	case opt.Weights:
	case opt.FloatWeights:
		return fmt.Errorf("ingest: Options.FloatWeights reads weights: set Options.Weights too: %w", parse.ErrBadInput)
	case opt.WeightColumn != "":
		return fmt.Errorf("ingest: Options.WeightColumn %q names a weight column: set Options.Weights too: %w", opt.WeightColumn, parse.ErrBadInput)
	}
	return nil
}

func isReaderAt(r io.Reader) bool { _, ok := r.(io.ReaderAt); return ok }

// unwrapPath drops the *PathError's repetition of the path, which ParseError prints.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// FileFrom ingests the edge list read from r; name is how errors and the manifest call
// it and size its length in bytes (-1 when unknown, as for a pipe).
func FileFrom(r io.Reader, name string, size int64, opt Options) (rep *Report, err error) {
	defer func() { err = bareInterrupt(namedNoSpace(opt.Dest, err)) }()
	if err := CheckBackend(opt.Backend); err != nil {
		return nil, err
	}
	if err := checkOptions(opt); err != nil {
		return nil, err
	}
	r = waitingInput(opt.Context, r)
	if reordered(opt) {
		return twoPass(opt, rewinder(r), func(a Options) (*Report, error) { return FileFrom(r, name, size, a) })
	}
	info := store.InputInfo{Name: filepath.Base(name), Bytes: size}
	if name == "-" {
		info.Name = "-"
	}
	if opt.Weights && !isParquet(r, name, opt) {
		if err := notParquetColumns(name, opt); err != nil {
			return nil, err
		}
		return weightedFile(r, name, size, opt)
	}
	r, err = budgetZstd(r, name, &opt)
	if err != nil {
		return nil, err
	}
	if rep, done, err := fileFromParquet(r, name, size, opt); done {
		return rep, err
	}
	if rep, done, err := fileFromGPU(r, info, name, size, opt); done {
		return rep, err
	}
	p, err := newPipeline(opt, info, name, size)
	if err != nil {
		return nil, err
	}
	defer p.close()
	var hdr parse.Header
	if p.scanned() {
		hdr, err = p.scanPass(r, name)
	} else {
		hdr, err = p.parsePass(r, name)
	}
	if err != nil {
		return nil, err
	}
	return p.finish(hdr)
}

// FromEdges ingests the edges that produce passes to emit (which may be called
// concurrently; batches are not retained). Generators use it to write graphs straight
// through the ingest path; hdr plays the part of a file header (Vertices may exceed the
// largest id, to include isolated vertices; Entries, when set, announces how many edges
// produce passes, which lets the automatic backend take a large input to the GPU).
// produce must give the same edges each time it is called: when the GPU finds the input
// too large for its memory, the CPU pipeline calls it again.
func FromEdges(opt Options, input store.InputInfo, hdr parse.Header, produce func(emit func(batch []parse.Edge) error) error) (*Report, error) {
	rep, err := againUnoriented(opt, true, func(o Options) (*Report, error) { return edgesOnce(o, input, hdr, produce) })
	return rep, namedNoSpace(opt.Dest, err)
}

func edgesOnce(opt Options, input store.InputInfo, hdr parse.Header, produce func(emit func(batch []parse.Edge) error) error) (*Report, error) {
	if err := CheckBackend(opt.Backend); err != nil {
		return nil, err
	}
	if err := checkOptions(opt); err != nil {
		return nil, err
	}
	if reordered(opt) {
		// produce gives the same edges each time it is called
		again := func() error { return nil }
		return twoPass(opt, again, func(a Options) (*Report, error) { return FromEdges(a, input, hdr, produce) })
	}
	if rep, done, err := fromEdgesGPU(opt, input, hdr, produce); done {
		return rep, err
	}
	p, err := newPipeline(opt, input, input.Name, -1)
	if err != nil {
		return nil, err
	}
	defer p.close()
	if err := p.checkEdgesDisk(hdr.Entries); err != nil {
		return nil, err
	}
	if p.scanned() {
		hdr, err = p.scanEdges(hdr, produce)
	} else {
		err = p.phase1("partition", 0, func(prog *progress) error {
			return produce(func(b []parse.Edge) error {
				prog.addEdges(int64(len(b)))
				return p.emitInput(b)
			})
		})
		if err == nil {
			err = p.afterPhase1(hdr)
		}
	}
	if err != nil {
		return nil, err
	}
	return p.finish(hdr)
}

// parsePass is phase 1 for a plain (not relabeled) input.
func (p *pipeline) parsePass(r io.Reader, name string) (parse.Header, error) {
	var res *parse.ParseResult
	err := p.phase1("parse", p.inBytes, func(prog *progress) error {
		var err error
		res, err = parse.Parse(r, p.parseOptions(name, MaxVertexID, prog), func(b []parse.Edge) error {
			prog.addEdges(int64(len(b)))
			return p.emitInput(b)
		})
		if res != nil {
			p.phaseBytes = res.InBytes
			p.input.Format, p.compression = string(res.Format), res.Compression
		}
		return err
	})
	if err != nil {
		return parse.Header{}, err
	}
	return res.Header, p.afterPhase1(res.Header)
}

// rewinder returns what reads r again from its start for a second reading of the
// input: r must be a regular file; nil when it is not (a pipe is read once).
func rewinder(r io.Reader) func() error {
	f, ok := r.(*os.File)
	if !ok {
		return nil
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil
	}
	return func() error {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return &parse.ParseError{Path: f.Name(), Offset: -1, Msg: "cannot read the input again", Err: unwrapPath(err)}
		}
		return nil
	}
}

func (p *pipeline) parseOptions(name string, maxID uint64, prog *progress) parse.ParseOptions {
	return parse.ParseOptions{Format: p.opt.Format, Name: name, Workers: p.workers, MaxID: maxID, Progress: prog.add,
		MaxWindow: max(p.opt.zstdWindow, parse.DefaultMaxWindow), WidthMeant: p.opt.WidthMeant}
}

// finish runs phase 2 and publishes the graph.
func (p *pipeline) finish(hdr parse.Header) (*Report, error) { return p.finishWith(hdr, p.phase2) }

// finishWith builds the shards with build (phase 2, or the GPU's build) and publishes the
// graph.
func (p *pipeline) finishWith(hdr parse.Header, build func() error) (*Report, error) {
	// A symmetric MatrixMarket file read --directed: each entry stands for both
	// directions, so the out-lists are the union of both spills (phase2).
	p.symmetric = !p.opt.Directed || hdr.Symmetric
	p.idBase = uint64(hdr.IDBase) // originalID: errors name the file's own ids
	if err := p.checkSparse(hdr); err != nil {
		return nil, err
	}
	// The vertex count is known now: each vertex takes 8 bytes in every direction's
	// shards, which the estimate from the input's size knew nothing of (sparse ids: two
	// edges, the largest id 4*10^9, make a graph of 32 GiB).
	if n := int64(p.vertexCount(hdr)); n >= 1<<24 {
		need := 8 * n * int64(p.dirs)
		if err := checkDisk(p.opt.diskParent(), need); err != nil {
			return nil, fmt.Errorf("%w; the graph has %d vertices (the largest id + 1), 8 bytes each in the shards (--relabel numbers sparse ids 0..n-1)", err, n)
		}
	}
	ids := p.writeIDs(hdr)
	err := build()
	if idsErr := <-ids; err == nil {
		err = idsErr
	}
	if err == nil && p.rebuild != nil {
		err = p.rebuild.done()
	}
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	m := p.manifest(hdr)
	// The spills' memory goes back while the shards' last bytes are written and synced,
	// but their files go first: they lie in the graph's temporary directory, which Commit
	// renames into the graph, and a spill file removed after that stayed in the graph.
	for _, s := range p.spills {
		if s != nil {
			s.t.dropFile()
		}
	}
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		p.closeSpills()
	}()
	err = p.b.Commit(m)
	<-closed
	if err != nil {
		return nil, err
	}
	p.committed = true
	p.phases = append(p.phases, Phase{Name: "commit", Seconds: time.Since(t0).Seconds(), Bytes: m.Bytes})
	rep := &Report{Manifest: m, Phases: p.phases, PeakRSS: PeakRSS(), Mem: p.mem, Budget: p.budget(), Workers: p.workers,
		Seconds: time.Since(p.start).Seconds(), Compress: p.compression, Order: p.estimate, Backend: cmp.Or(p.backend, BackendCPU)}
	if p.opt.Log != nil && !p.opt.noSummary {
		rep.Summary(p.opt.Log)
	}
	return rep, nil
}

// MaxSlotsPerEdge bounds the vertices (the largest id + 1) an ingest accepts per input
// edge without --relabel or Options.SparseIDs, for graphs of 2^20 vertices and more: past
// it the graph is mostly vertices without edges, each 8 bytes in the shards and 8 to 24
// in the memory of every command (17 bytes of input made a 32 GiB graph that bfs could
// not hold).
const MaxSlotsPerEdge = 64

// checkSparse refuses an id range absurdly larger than the input (MaxSlotsPerEdge).
func (p *pipeline) checkSparse(hdr parse.Header) error {
	n, edges := p.vertexCount(hdr), p.inputEdges.Load()
	if p.opt.Relabel || p.opt.SparseIDs || n < 1<<20 || n <= MaxSlotsPerEdge*max(edges, 1) {
		return nil
	}
	return fmt.Errorf("ingest: %s: %s (the largest id + 1) for %s, more than %d vertex slots an edge: "+
		"the graph would be mostly empty vertices, %s in the shards and as much again in the memory of every search "+
		"(--relabel numbers the distinct ids 0..n-1; --sparse-ids keeps them as they are): %w",
		p.name, plural.Of(n, "vertex"), plural.Of(edges, "input edge"), MaxSlotsPerEdge, bytesize.Format(int64(8*n)*int64(p.dirs)), parse.ErrBadInput)
}

// writeIDs writes ids.bin, when the graph has one, in the background while phase 2
// runs (the ids are known once the vertices are numbered), and returns the channel that
// receives its error.
func (p *pipeline) writeIDs(hdr parse.Header) <-chan error {
	done := make(chan error, 1)
	if !p.opt.Relabel && p.inv == nil {
		done <- nil
		return done
	}
	n := int(p.vertexCount(hdr))
	go func() { done <- p.b.WriteIDs(n, p.originalID) }()
	return done
}

// vertexCount is the graph's vertex count: the vertices numbered anew (degree order,
// --relabel), else the largest id + 1 or the header's count, whichever is larger.
func (p *pipeline) vertexCount(hdr parse.Header) uint64 {
	switch {
	case p.inv != nil:
		return uint64(len(p.inv))
	case p.ids != nil:
		return uint64(len(p.ids))
	}
	return max(p.maxID.Load(), hdr.Vertices)
}

// manifest fills what the pipeline knows; Commit adds the shard lists and sizes.
func (p *pipeline) manifest(hdr parse.Header) *store.Manifest {
	n := p.vertexCount(hdr)
	kept := p.inputEdges.Load() - p.selfLoops.Load()
	stored, loops := p.storedEdges, p.storedLoops
	var dups uint64
	if p.symmetric {
		dups = kept - (stored-loops)/2 - loops
	} else {
		dups = kept - stored
	}
	var pairs *uint64
	if p.oriented {
		r := p.reciprocal
		dups, pairs = dups-r, &r
	}
	m := &store.Manifest{
		Vertices: uint32(n), Directed: p.opt.Directed, InputEdges: p.inputEdges.Load(),
		SelfLoopsDropped: p.selfLoops.Load(), DuplicatesDropped: dups, ReciprocalPairs: pairs, Input: p.input,
		Options:   store.BuildOptions{KeepSelfLoops: p.opt.KeepSelfLoops, KeepDuplicates: p.opt.KeepDuplicates},
		Relabeled: p.opt.Relabel, VertexOrder: store.OrderInput,
	}
	if p.inv != nil {
		m.VertexOrder = store.OrderDegree
	}
	if !p.opt.Relabel && p.inv == nil {
		m.IDBase = hdr.IDBase // otherwise ids.bin holds the file's own ids
	}
	if r := p.rebuild; r != nil {
		// the first pass read the input: its counts, its input, its numbering's ids
		a := r.first
		m.InputEdges, m.SelfLoopsDropped, m.DuplicatesDropped, m.Input = a.InputEdges, a.SelfLoopsDropped, a.DuplicatesDropped, a.Input
		m.ReciprocalPairs = a.ReciprocalPairs
		m.Relabeled, m.VertexOrder = a.Relabeled, r.order
	}
	return m
}

// Summary writes the human-readable report.
func (r *Report) Summary(w io.Writer) {
	m := r.Manifest
	copies := m.Edges
	if m.Directed {
		copies *= 2
	}
	fmt.Fprintf(w, "ingest: %s, %s (%s), %s, %s\n",
		plural.Of(m.Vertices, "vertex"), plural.Of(m.Edges, "edge"), map[bool]string{true: "directed, plus the transpose", false: "undirected, stored both ways"}[m.Directed],
		plural.Of(m.InputEdges, "input edge"), DroppedText(m))
	shards := plural.Of(len(m.Out), "shard")
	if m.Directed {
		shards = fmt.Sprintf("%s (%d out, %d in)", plural.Of(len(m.Out)+len(m.In), "shard"), len(m.Out), len(m.In))
	}
	if copies == 0 {
		fmt.Fprintf(w, "ingest: %s in %s, no edges stored\n", bytesize.Format(m.Bytes), shards)
	} else {
		fmt.Fprintf(w, "ingest: %s in %s, %.2f bytes per directed edge (offsets included)\n",
			bytesize.Format(m.Bytes), shards, float64(m.Bytes)/float64(copies))
	}
	if e := r.Order; e != nil && e.Skipped != "" {
		fmt.Fprintf(w, "ingest: vertex order %s: %s\n", m.VertexOrder, e.Skipped)
	} else if e != nil && e.DegreeSkipped != "" && e.DegreeSkipped == e.BFSSkipped {
		bisect, others := bisectText(e), "degree and BFS orders"
		if e.BisectSkipped == e.DegreeSkipped {
			bisect, others = "", "degree, BFS and bisection orders"
		}
		fmt.Fprintf(w, "ingest: vertex order %s: estimated %s in the file's order, %s numbered at random (the lists of 1 vertex in %d)%s; the %s not tried: %s\n",
			m.VertexOrder, bytesize.Format(e.InputBytes), bytesize.Format(e.RandomBytes), e.SampleRate, bisect, others, e.DegreeSkipped)
	} else if e != nil {
		bfs, why := ", "+bytesize.Format(e.BFSBytes)+" in BFS order", ""
		if e.BFSSkipped != "" {
			bfs, why = "", "; BFS order not tried: "+e.BFSSkipped
		}
		degree := ", " + bytesize.Format(e.DegreeBytes) + " in degree order"
		if e.DegreeSkipped != "" {
			degree = ", degree order not tried: " + e.DegreeSkipped
		}
		fmt.Fprintf(w, "ingest: vertex order %s: estimated %s in the file's order%s%s%s, ids.bin included (the lists of 1 vertex in %d); %s%s\n",
			m.VertexOrder, bytesize.Format(e.InputBytes), degree, bfs, bisectText(e), e.SampleRate, autoRule, why)
	}
	if m.Vertices >= 1<<20 && uint64(m.Vertices) > 64*max(m.Edges, 1) && !m.Relabeled {
		fmt.Fprintf(w, "ingest: note: %d vertices (the largest id + 1) for %d edges: each vertex takes 8 bytes in the shards; --relabel numbers the distinct ids 0..n-1\n",
			m.Vertices, m.Edges)
	}
	for _, ph := range r.Phases {
		if ph.Edges == 0 { // commit: the shards' last bytes, the manifest, the rename
			fmt.Fprintf(w, "ingest: %-9s %7.2fs\n", ph.Name, ph.Seconds)
			continue
		}
		rate := ""
		if ph.Bytes > 0 { // a generator's or a Parquet file's edges come as numbers, not bytes read
			rate = fmt.Sprintf("  %.1f MB/s", float64(ph.Bytes)/1e6/math.Max(ph.Seconds, 1e-9))
		}
		fmt.Fprintf(w, "ingest: %-9s %7.2fs  %s edges/s%s\n", ph.Name, ph.Seconds,
			humanCount(float64(ph.Edges)/math.Max(ph.Seconds, 1e-9)), rate)
	}
	on := ""
	if r.Backend != "" && r.Backend != BackendCPU {
		on = ", " + r.Backend
	}
	fmt.Fprintf(w, "ingest: %.2fs in all, peak memory %s (budget %s, %s%s)\n",
		r.Seconds, bytesize.Format(r.PeakRSS), bytesize.Format(r.Mem), plural.Of(r.Workers, "worker"), on)
}

// bisectText is what the automatic choice saw of the bisection order, for the summary.
func bisectText(e *OrderEstimate) string {
	switch {
	case e.BisectBytes > 0:
		return fmt.Sprintf(", %s in bisection order (predicted %s)", bytesize.Format(e.BisectBytes), bytesize.Format(e.BisectPredicted))
	case e.BisectPredicted > 0:
		return fmt.Sprintf(", bisection order predicted %s, not computed: %s", bytesize.Format(e.BisectPredicted), e.BisectSkipped)
	case e.BisectSkipped != "":
		return ", bisection order not tried: " + e.BisectSkipped
	}
	return ""
}

// DroppedText says what an ingest dropped and merged, as the summary and `ooc info` put
// it: "2 self-loops and 5 duplicate edges dropped, 3 reciprocal pairs merged". Where the
// ingest did not count reciprocal pairs apart, an undirected graph's duplicates include
// them, and the text says so.
func DroppedText(m *store.Manifest) string {
	loops := plural.Of(m.SelfLoopsDropped, "self-loop")
	if r := m.ReciprocalPairs; r != nil {
		return fmt.Sprintf("%s and %s dropped, %s merged", loops, plural.Of(m.DuplicatesDropped, "duplicate edge"), plural.Of(*r, "reciprocal pair"))
	}
	note := ""
	if !m.Directed && m.DuplicatesDropped > 0 {
		note = " (repeated edges and reciprocal pairs u v / v u)"
	}
	return fmt.Sprintf("%s and %s dropped%s", loops, plural.Of(m.DuplicatesDropped, "duplicate"), note)
}

// setMemoryLimit makes the Go collector work to keep the heap within the budget, and
// returns the function that restores the previous limit.
func setMemoryLimit(mem int64) func() {
	old := debug.SetMemoryLimit(mem)
	return func() { debug.SetMemoryLimit(old) }
}

func defaultWorkers(w int) int { return parallel.Workers(w) }
