package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/internal/parallel"
	"github.com/oocgraph/ooc/internal/plural"
	"github.com/oocgraph/ooc/store"
)

// A weighted file whose edges exceed the memory budget is ingested in two passes, within
// the budget: pass 1 builds the lists without weights through the unweighted pipeline
// (spilling to disk, on the GPU when the backend takes it, in the order and numbering it
// chooses) into a temporary graph; pass 2 reads the file again with its weights and
// weighs the lists one window of vertices at a time (with several windows, from spills
// of the arcs by window that one read writes: weighspill.go). A window holds its
// lists decoded (4 bytes a stored edge) and their weights (4 more; 4 more again with
// --keep-duplicates), and each input edge finds its slot in each list it lies in by a
// binary search: the lightest copy's weight is kept, or with --keep-duplicates each
// copy's, a list's copies of one neighbour then sorted by weight. The window's lists are
// then written, byte for byte as pass 1 encoded them, with a WEIGHTS section: the graph
// is the one the in-memory path builds (TestWeighFileSameGraph).

// weighEdgeBytes is what a window holds per stored edge (its neighbour and weight, and
// a margin for the mapped list bytes it decodes), and weighDupBytes the fill count more
// with --keep-duplicates.
const (
	weighEdgeBytes = 12
	weighDupBytes  = 4
)

// overBudgetError is the in-memory weighted ingest's refusal of an input whose edges
// exceed the budget: a regular file is then ingested in two passes instead.
type overBudgetError struct{ err error }

func (e *overBudgetError) Error() string { return e.err.Error() }
func (e *overBudgetError) Unwrap() error { return e.err }

// regularFile is r as a regular file that can be read again, or nil.
func regularFile(r io.Reader) *os.File {
	f, ok := r.(*os.File)
	if !ok {
		return nil
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	return f
}

// plainlyBeyond reports whether the plain (uncompressed) text file f of size bytes
// holds, at the line length of its first MiB, edges of more than twice mem at per bytes
// an edge: the in-memory path is not tried then (it would parse a budget's worth of
// edges before it found them too many).
func plainlyBeyond(f *os.File, size int64, per, mem int64) bool {
	head := make([]byte, 1<<20)
	n, _ := f.ReadAt(head, 0)
	head = head[:n]
	if bytes.HasPrefix(head, []byte{0x1f, 0x8b}) || bytes.HasPrefix(head, []byte{0x28, 0xb5, 0x2f, 0xfd}) {
		return false
	}
	lines := int64(bytes.Count(head, []byte{'\n'}))
	if lines < 64 {
		return false
	}
	return size/(int64(n)/lines)*per > 2*mem
}

// weighFile ingests the weighted file f in two passes (above).
func weighFile(f *os.File, name string, size int64, opt Options) (*Report, error) {
	start := time.Now()
	mem := opt.Mem
	if mem <= 0 {
		mem = DefaultMem()
	}
	tmp, dest, err := tempLists(opt.Dest)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	a := opt
	a.inTemp(dest)
	// the first pass builds the lists alone: no weight option reaches it
	a.Weights, a.FloatWeights, a.WeightColumn, a.noSummary = false, false, "", true
	if !opt.Verbose {
		a.Log = nil
	}
	rep, err := againUnoriented(a, true, func(o Options) (*Report, error) {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, &parse.ParseError{Path: name, Offset: -1, Msg: "cannot read the input again", Err: unwrapPath(err)}
		}
		return FileFrom(f, name, size, o)
	})
	if err != nil {
		return nil, err
	}
	debug.FreeOSMemory()
	g, err := store.Open(a.Dest)
	if err != nil {
		return nil, err
	}
	defer g.Close()
	t0 := time.Now()
	// the weight type, from the flag or a real MatrixMarket header, before the graph is
	// created; every read of pass 2 then parses the weights as that type
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, &parse.ParseError{Path: name, Offset: -1, Msg: "cannot read the input again", Err: unwrapPath(err)}
	}
	if opt.FloatWeights, err = parse.FloatWeightsIn(f, parse.ParseOptions{Format: parse.Format(g.M.Input.Format), Name: name, FloatWeights: opt.FloatWeights}); err != nil {
		return nil, err
	}
	w, err := newWeigher(g, f, name, opt, mem, tmp)
	if err != nil {
		return nil, err
	}
	m, err := w.run()
	if err != nil {
		return nil, err
	}
	rep.Manifest = m
	rep.Phases = append(rep.Phases, Phase{Name: "weigh", Seconds: time.Since(t0).Seconds(), Bytes: w.read, Edges: m.Edges})
	rep.Seconds = time.Since(start).Seconds()
	rep.PeakRSS, rep.Mem = PeakRSS(), mem
	if opt.Log != nil {
		rep.Summary(opt.Log)
	}
	return rep, nil
}

// weigher is pass 2 of a two-pass weighted ingest.
type weigher struct {
	g    *store.Graph
	f    *os.File
	name string
	opt  Options
	mem  int64
	// the file's (0-based) ids of the graph's vertices: with perm, vertex perm[id]; with
	// ids, vertex vs[i] (or i when vs is nil) for the id ids[i], ids ascending; else the
	// id itself
	perm   []uint32
	ids    []uint64
	vs     []uint32
	window int64       // bytes a window's lists may take
	sym    bool        // a directed graph from a symmetric MatrixMarket file: each entry both arcs
	read   int64       // input bytes read, all passes
	tmp    string      // a directory for the spills, removed after
	parts  []uint32    // the window's parts, one for each worker placing weights
	ends   [][2]uint32 // a batch's edges' ends as vertices
	stamp  os.FileInfo
}

func newWeigher(g *store.Graph, f *os.File, name string, opt Options, mem int64, tmp string) (*weigher, error) {
	w := &weigher{g: g, f: f, name: name, opt: opt, mem: mem, tmp: tmp}
	st, err := f.Stat()
	if err != nil {
		return nil, &parse.ParseError{Path: name, Offset: -1, Msg: "cannot read the input again", Err: unwrapPath(err)}
	}
	w.stamp = st
	w.numbering()
	held := int64(len(w.perm))*4 + int64(len(w.ids))*8 + int64(len(w.vs))*4
	// the parser's buffers and a zstd window, and the writer's, beside the window
	w.window = max((mem-held)*3/4-8<<20-opt.zstdWindow, 1<<20)
	if opt.weighWindow > 0 {
		w.window = opt.weighWindow
	}
	if opt.Verbose && opt.Log != nil {
		fmt.Fprintf(opt.Log, "weights: pass 2 reads %s again with its weights, windows of lists within %s\n", inputName(name), bytesize.Format(w.window))
	}
	return w, nil
}

// idBase is the id base of the pass-1 graph's input format.
func (w *weigher) idBase() uint64 {
	switch parse.Format(w.g.M.Input.Format) {
	case parse.FormatMTX, parse.FormatDIMACS:
		return 1
	}
	return 0
}

// numbering builds the map from the file's ids to the graph's vertices, from ids.bin.
func (w *weigher) numbering() {
	g := w.g
	if g.M.IDs == nil {
		return
	}
	n, base := g.M.Vertices, w.idBase()
	if !g.M.Relabeled {
		w.perm = make([]uint32, n)
		for v := range n {
			w.perm[g.External(v)-base] = v
		}
		return
	}
	w.ids = make([]uint64, n)
	ascending := true
	for v := range n {
		w.ids[v] = g.External(v) - base
		ascending = ascending && (v == 0 || w.ids[v-1] < w.ids[v])
	}
	if ascending {
		return
	}
	w.vs = make([]uint32, n)
	for v := range n {
		w.vs[v] = v
	}
	slices.SortFunc(w.vs, func(a, b uint32) int {
		x, y := w.ids[a], w.ids[b]
		return compareU64(x, y)
	})
	for i, v := range w.vs {
		w.ids[i] = g.External(v) - base
	}
}

func compareU64(x, y uint64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// vertex is the graph's vertex of the file's id x.
func (w *weigher) vertex(x uint64) (uint32, bool) {
	switch {
	case w.perm != nil:
		if x >= uint64(len(w.perm)) {
			return 0, false
		}
		return w.perm[x], true
	case w.ids != nil:
		i, ok := slices.BinarySearch(w.ids, x)
		if !ok {
			return 0, false
		}
		if w.vs != nil {
			return w.vs[i], true
		}
		return uint32(i), true
	}
	return uint32(x), x < uint64(w.g.M.Vertices)
}

// changed is the error of an input that is not what pass 1 read.
func (w *weigher) changed(what string) error {
	return fmt.Errorf("ingest: %s changed while it was read twice (%s): %w", inputName(w.name), what, parse.ErrBadInput)
}

// run weighs the lists window by window and writes the graph.
func (w *weigher) run() (*store.Manifest, error) {
	return writeWeighted(w.g, w.opt, w.write)
}

func (w *weigher) write(bl *store.Builder) error {
	g := w.g
	defer setMemoryLimit(w.mem)()
	csrs := []*store.CSR{g.Out()}
	if g.Directed() {
		csrs = append(csrs, g.In())
	}
	per := int64(weighEdgeBytes)
	if w.opt.KeepDuplicates {
		per += weighDupBytes
	}
	bounds := []uint32{0} // window i holds the vertices bounds[i]..bounds[i+1]-1
	for lo := uint32(0); lo < g.M.Vertices || len(bounds) == 1; {
		lo = windowEnd(csrs, lo, g.M.Vertices, w.window, per)
		bounds = append(bounds, lo)
	}
	var sp *arcSpill
	nw := len(bounds) - 1
	spill := nw > 1 && nw*len(csrs) <= maxSpillFiles
	if w.opt.Verbose && w.opt.Log != nil {
		how := "the file read once a window"
		if spill {
			how = "the file read once more, its arcs spilled to disk by window"
		}
		fmt.Fprintf(w.opt.Log, "weights: %s of lists, %s\n", plural.Of(nw, "window"), how)
	}
	if spill {
		var err error
		if sp, err = w.distribute(bounds, len(csrs)); err != nil {
			return err
		}
		defer sp.close()
	}
	for i := range len(bounds) - 1 {
		lo, hi := bounds[i], bounds[i+1]
		lists := make([]*wwindow, len(csrs))
		for i, c := range csrs {
			l, err := newWWindow(c, lo, hi, w.opt.KeepDuplicates, defaultWorkers(w.opt.Workers))
			if err != nil {
				return err
			}
			lists[i] = l
		}
		var err error
		w.split(lists, lo, hi, defaultWorkers(w.opt.Workers))
		if sp != nil {
			err = w.placeSpilled(lists, sp, i)
		} else {
			err = w.pass(i == 0, func() {
				for _, l := range lists {
					l.reset()
				}
			}, func(batch []parse.WEdge, at uint64) error { return w.place(lists, batch, at) })
		}
		if err != nil {
			return err
		}
		for i, c := range csrs {
			if err := lists[i].finish(w); err != nil {
				return err
			}
			if err := lists[i].append(bl.Writer(c.Dir)); err != nil {
				return err
			}
		}
		// the window's arrays go back before the next window's are made
		lists = nil
		debug.FreeOSMemory()
	}
	return nil
}

// windowEnd is the end of the window of vertices from lo whose lists, in all directions,
// take at most budget bytes at per bytes an edge and 16 a vertex (one vertex at least).
func windowEnd(csrs []*store.CSR, lo, n uint32, budget, per int64) uint32 {
	var used int64
	v := lo
	for v < n {
		cost := int64(16)
		for _, c := range csrs {
			if s := shardOf(c, v); s != nil {
				cost += per * int64(s.DegreeAt(v-s.Lo))
			}
		}
		if v > lo && used+cost > budget {
			break
		}
		used += cost
		v++
	}
	return v
}

// shardOf is the shard of c that holds v's list, or nil.
func shardOf(c *store.CSR, v uint32) *store.Shard {
	i, _ := slices.BinarySearchFunc(c.Shards, v, func(s *store.Shard, v uint32) int {
		switch {
		case s.Hi() <= v:
			return -1
		case s.Lo > v:
			return 1
		}
		return 0
	})
	if i < len(c.Shards) && c.Shards[i].Lo <= v && v < c.Shards[i].Hi() {
		return c.Shards[i]
	}
	return nil
}

// pass reads the file once with its weights and hands each batch of edges to handle.
// The first pass also learns whether a MatrixMarket file is symmetric
// (each entry both arcs of a directed graph) and, after reset, reads the file again if it is.
func (w *weigher) pass(first bool, reset func(), handle func(batch []parse.WEdge, at uint64) error) error {
	for {
		res, err := w.read1(handle)
		if err != nil {
			return err
		}
		if res.Edges != w.g.M.InputEdges {
			return w.changed(fmt.Sprintf("%s, then %d", plural.Of(w.g.M.InputEdges, "edge"), res.Edges))
		}
		if first && uint64(res.Header.IDBase) != w.idBase() {
			return w.changed("its format")
		}
		if first && w.g.Directed() && res.Header.Symmetric && !w.sym {
			w.sym = true
			reset()
			continue
		}
		return nil
	}
}

// read1 is one read of the file: the parser (one core) hands batches of edges to a
// goroutine that passes them to handle.
func (w *weigher) read1(handle func(batch []parse.WEdge, at uint64) error) (*parse.ParseResult, error) {
	if _, err := w.f.Seek(0, io.SeekStart); err != nil {
		return nil, &parse.ParseError{Path: w.name, Offset: -1, Msg: "cannot read the input again", Err: unwrapPath(err)}
	}
	maxID := uint64(MaxVertexID)
	if w.opt.Relabel {
		maxID = math.MaxUint64
	}
	const batch = 1 << 16
	w.ends = make([][2]uint32, batch)
	full, free := make(chan []parse.WEdge, 2), make(chan []parse.WEdge, 3)
	for range 3 {
		free <- make([]parse.WEdge, 0, batch)
	}
	placed := make(chan error, 1)
	var failed atomic.Bool
	go func() {
		var err error
		var edges uint64
		for b := range full {
			if err == nil {
				err = handle(b, edges)
				failed.Store(err != nil)
			}
			edges += uint64(len(b))
			free <- b[:0]
		}
		placed <- err
	}()
	errStop := errors.New("stop")
	cur := <-free
	res, err := parse.ParseWeighted(w.f, parse.ParseOptions{Format: parse.Format(w.g.M.Input.Format), Name: w.name, MaxID: maxID, FloatWeights: w.opt.FloatWeights}, func(e parse.WEdge) error {
		cur = append(cur, e)
		if len(cur) < batch {
			return nil
		}
		if failed.Load() {
			return errStop
		}
		if err := interrupted(w.opt.Context); err != nil {
			return err
		}
		full <- cur
		cur = <-free
		return nil
	})
	if err == nil {
		full <- cur
	}
	close(full)
	if perr := <-placed; perr != nil && (err == nil || errors.Is(err, errStop)) {
		err = perr
	}
	if res != nil {
		w.read += res.InBytes
	}
	if err != nil {
		return nil, err
	}
	if st, err := w.f.Stat(); err != nil || st.Size() != w.stamp.Size() || !st.ModTime().Equal(w.stamp.ModTime()) {
		return nil, w.changed("its size or modification time")
	}
	return res, nil
}

// place puts the weights of a batch of input edges, the first of which is the file's
// edge number at (from 0), into the window's lists: the ends mapped to vertices on all
// cores, then each core places the edges of the lists in its part of the window.
func (w *weigher) place(lists []*wwindow, batch []parse.WEdge, at uint64) error {
	workers := len(w.parts) - 1
	ends, err := w.mapEnds(batch, at)
	if err != nil {
		return err
	}
	bad := make([]int, workers) // the first edge a worker found wrong, or len(batch)
	out := lists[0]
	var in *wwindow
	if len(lists) > 1 {
		in = lists[1]
	}
	directed := w.g.Directed()
	w.onParts(func(k int, lo, hi uint32) {
		bad[k] = len(batch)
		for i, x := range ends {
			u, v, wt := x[0], x[1], batch[i].W
			if u == noVertex {
				continue
			}
			ok := out.put(u, v, wt, lo, hi)
			switch {
			case !directed:
				ok = ok && (u == v || out.put(v, u, wt, lo, hi))
			default:
				ok = ok && in.put(v, u, wt, lo, hi)
				if w.sym && u != v {
					ok = ok && out.put(v, u, wt, lo, hi) && in.put(u, v, wt, lo, hi)
				}
			}
			if !ok {
				bad[k] = i
				return
			}
		}
	})
	if i := slices.Min(bad); i < len(batch) {
		return w.changed(fmt.Sprintf("an edge pass 1 did not store, on edge %d", at+uint64(i)+1))
	}
	return nil
}

// onParts runs fn(k, lo, hi) for every part k of the window (w.parts), each on a
// goroutine of its own, and returns when all have.
func (w *weigher) onParts(fn func(k int, lo, hi uint32)) {
	var wg sync.WaitGroup
	for k := range len(w.parts) - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(k, w.parts[k], w.parts[k+1])
		}()
	}
	wg.Wait()
}

// noVertex marks in weigher.ends an edge left out (a self-loop dropped: both ends) or
// one whose ids pass 1 did not number (the first end).
const noVertex = math.MaxUint32

// split cuts the window lo..hi into parts of about as many list entries, one for each
// worker.
func (w *weigher) split(lists []*wwindow, lo, hi uint32, workers int) {
	var total uint64
	for _, l := range lists {
		total += l.first[hi-lo]
	}
	w.parts = append(w.parts[:0], lo)
	var sum uint64
	for v := lo; v < hi && len(w.parts) < workers; v++ {
		for _, l := range lists {
			sum += l.first[v-lo+1] - l.first[v-lo]
		}
		if sum*uint64(workers) >= total*uint64(len(w.parts)) {
			w.parts = append(w.parts, v+1)
		}
	}
	w.parts = append(w.parts, hi)
}

// wwindow is one direction's lists of the vertices lo..hi-1, decoded, and their weights.
type wwindow struct {
	c      *store.CSR
	lo, hi uint32
	first  []uint64 // hi-lo+1 entries: each list's first entry in nbrs
	nbrs   []uint32
	wts    []uint32
	fill   []uint32 // with duplicates kept: at a run's first entry, the run's copies placed
}

// newWWindow decodes c's lists of lo..hi-1 into a window, and then lets the pages of the
// shards it read go (releaseMapped): a fault maps a whole folio of the page cache, and on
// kernels with large folios the first read of a freshly written shard maps all of it, so
// both directions' shards would stay resident beside the windows' arrays. append maps
// the window's part again, and lets it go.
func newWWindow(c *store.CSR, lo, hi uint32, keepDups bool, workers int) (*wwindow, error) {
	l := &wwindow{c: c, lo: lo, hi: hi, first: make([]uint64, hi-lo+1)}
	for v := lo; v < hi; v++ {
		var d uint32
		if s := shardOf(c, v); s != nil {
			d = s.DegreeAt(v - s.Lo)
		}
		l.first[v-lo+1] = l.first[v-lo] + uint64(d)
	}
	e := l.first[hi-lo]
	l.nbrs, l.wts = make([]uint32, e), make([]uint32, e)
	if keepDups {
		l.fill = make([]uint32, e)
	}
	l.reset()
	errs := make([]error, workers)
	parallel.For(workers, int(hi-lo), 1<<12, func(wk, a, b int) {
		for i := a; i < b && errs[wk] == nil; i++ {
			v := lo + uint32(i)
			s := shardOf(c, v)
			if s == nil {
				continue
			}
			x, y := l.first[i], l.first[i+1]
			got, err := s.Neighbors(l.nbrs[x:x:y], v)
			if err == nil && uint64(len(got)) != y-x {
				err = fmt.Errorf("ingest: the list of vertex %d decoded to %s, not %d", v, plural.Of(len(got), "neighbour"), y-x)
			}
			errs[wk] = err
		}
	})
	for _, s := range c.Shards {
		if s.Lo < hi && s.Hi() > lo {
			releaseMapped(s.Bytes())
		}
	}
	return l, errors.Join(errs...)
}

// reset forgets the weights placed.
func (l *wwindow) reset() {
	if l.fill != nil {
		clear(l.fill)
		return
	}
	for i := range l.wts {
		l.wts[i] = math.MaxUint32
	}
}

// put places weight wt of neighbour u in v's list when v is in lo..hi-1 (within the
// window), and reports whether the list holds u (true outside).
func (l *wwindow) put(v, u, wt uint32, lo, hi uint32) bool {
	if v < lo || v >= hi {
		return true
	}
	a, b := l.first[v-l.lo], l.first[v-l.lo+1]
	k, ok := slices.BinarySearch(l.nbrs[a:b], u)
	if !ok {
		return false
	}
	i := a + uint64(k)
	if l.fill == nil {
		l.wts[i] = min(l.wts[i], wt)
		return true
	}
	j := i + uint64(l.fill[i])
	if j >= b || l.nbrs[j] != u {
		return false
	}
	l.wts[j] = wt
	l.fill[i]++
	return true
}

// finish checks, with duplicates kept, that every copy got its weight, and sorts each
// neighbour's copies by weight, as the in-memory path stores them.
func (l *wwindow) finish(w *weigher) error {
	if l.fill == nil {
		return nil
	}
	for v := l.lo; v < l.hi; v++ {
		a, b := l.first[v-l.lo], l.first[v-l.lo+1]
		for i := a; i < b; {
			j := i + 1
			for j < b && l.nbrs[j] == l.nbrs[i] {
				j++
			}
			if uint64(l.fill[i]) != j-i {
				return w.changed(fmt.Sprintf("vertex %d's copies of an edge", v))
			}
			slices.Sort(l.wts[i:j])
			i = j
		}
	}
	return nil
}

// append writes the window's lists, as the shards encode them, with their weights, and
// lets the shards' mapped pages go.
func (l *wwindow) append(cw *store.CSRWriter) error {
	for _, s := range l.c.Shards {
		a, b := max(s.Lo, l.lo), min(s.Hi(), l.hi)
		if a >= b {
			continue
		}
		degrees := make([]uint32, b-a)
		s.DegreesAt(degrees, a-s.Lo)
		offsets := make([]uint32, b-a+1)
		for i := range offsets {
			offsets[i] = s.ListOffset(a - s.Lo + uint32(i))
		}
		ws := l.wts[l.first[a-l.lo]:l.first[b-l.lo]]
		if err := cw.AppendWeightedRange(a, degrees, offsets, s.Adj, ws); err != nil {
			return err
		}
		releaseMapped(s.Bytes())
	}
	return nil
}
