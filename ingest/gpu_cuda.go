//go:build cuda

package ingest

import (
	"cmp"
	"fmt"
	"io"
	"math/bits"
	"os"
	"slices"
	"sync"
	"time"
	"unsafe"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/internal/cuda"
	"github.com/oocgraph/ooc/store"
)

// The GPU ingest. The parse workers fill their edges (src<<32|dst, once each; kept
// self-loops apart) into pinned staging buffers, which one goroutine copies into device
// memory while the parse goes on: 8 bytes an edge cross the link, where the directed keys
// (both ways when undirected) are twice that. Then the device, per direction,
// sorts the keys (a stable LSD radix sort over the 2*bits(n-1) bits that matter), drops
// duplicates, counts degrees, sizes each block of each list with a prefix sum and encodes
// the lists in pieces of about 4 MiB that are copied back and handed to the store's
// writer while the next is encoded (ingest/build.cu). The CPU ingest is its twin: the
// shards are byte-identical (gpu_cuda_test.go).
//
// A direction's keys must fit in device memory twice over beside the input: 32 bytes an
// undirected edge, 24 a directed one, plus 20 a vertex. An input that turns out larger is
// read again by the CPU ingest.

const (
	gpuThreads   = 256
	gpuTile      = 256 * 16 // build.cu's TILE
	gpuStageKeys = 1 << 20  // keys a staging buffer holds per stream (8 MiB)
	gpuChunkKeys = 16 << 20 // keys per device chunk during the parse (128 MiB)
	gpuMargin    = 256 << 20
	gpuVertexMem = 20       // device bytes a vertex: degree, row start, new number and back
	gpuFixedMem  = 64 << 20 // the pieces being encoded, the scans' sums
)

// build.cu's scan modes.
const (
	scanU32   = 0
	scanBytes = 1
	scanFlags = 2
)

type gpuIngest struct {
	p    *pipeline
	dev  *cuda.Device
	mod  *cuda.Module
	open chan struct{} // closed when dev (or devErr) is set
	// devErr is why no device could be used
	devErr error

	// the parse's staging buffers
	free, partial, up chan *chunk
	upDone            chan struct{}
	pinned            map[*chunk][]*cuda.Pinned
	mu                sync.Mutex
	err               error // the first upload error

	// the input on the device in chunks of gpuChunkKeys keys: stream 0 the edges
	// (src<<32|dst, no self-loops), stream 1 the kept self-loops
	chunks [2][]*cuda.Buffer
	keys   [2]uint64

	// one direction's build
	n          uint64 // vertices
	b          uint   // bits of the largest id
	x, y       *cuda.Buffer
	counts     *cuda.Buffer // the radix sort's digit counts per tile
	partial1   *cuda.Buffer // the scans' per-block sums
	deg        *cuda.Buffer // n uint32
	rowptr     *cuda.Buffer // n+1 uint64
	perm, inv  *cuda.Buffer // degree order: new numbers, and back
	loopsDev   *cuda.Buffer
	pairsDev   *cuda.Buffer
	oriented   bool   // the keys carry their orientation (build.cu, orient.go) until deduplicated
	pairs      uint64 // oriented: the reciprocal pairs merged
	uniq       uint64 // keys after deduplication, in x
	loops      uint64 // of them, self-loops
	adjBytes   uint64 // the direction's adjacency bytes; y holds each neighbour's offset
	builtBytes int64

	// OOC_GPU_TRACE=1: the time of each step on the log (the device synchronized)
	trace  bool
	last   time.Time
	upDur  time.Duration // spent copying staging buffers to the device
	pinDur time.Duration // of it, pinning them
	waits  time.Duration // the parse workers waited for a free staging buffer
}

// mark logs the time since the last mark, after the device's work when cx is given.
func (g *gpuIngest) mark(cx *cuda.Ctx, what string) {
	if !g.trace {
		return
	}
	if cx != nil {
		cx.Sync()
	}
	now := time.Now()
	if g.p.opt.Log != nil {
		fmt.Fprintf(g.p.opt.Log, "gpu-trace: %-28s %7.1f ms (at %.3f s)\n", what, now.Sub(g.last).Seconds()*1e3, now.Sub(g.p.start).Seconds())
	}
	g.last = now
}

func gpuFile(r io.Reader, info store.InputInfo, name string, size int64, opt Options) (*Report, error) {
	if why := gpuEligible(r, size, opt); why != "" {
		return nil, &gpuSkip{reason: why}
	}
	return gpuRun(opt, info, name, size, func(g *gpuIngest) (parse.Header, error) {
		var res *parse.ParseResult
		err := g.phase1("parse", func(prog *progress, emit func([]parse.Edge) error) error {
			var err error
			res, err = parse.Parse(r, g.p.parseOptions(name, MaxVertexID, prog), func(b []parse.Edge) error {
				prog.addEdges(int64(len(b)))
				return emit(b)
			})
			return err
		})
		if err != nil {
			return parse.Header{}, err
		}
		g.p.input.Format, g.p.compression = string(res.Format), res.Compression
		g.p.phases[len(g.p.phases)-1].Bytes = res.InBytes
		return res.Header, nil
	})
}

// gpuEdges is FromEdges on the GPU: produce is called once, or once more by the CPU
// pipeline after a skip.
func gpuEdges(opt Options, input store.InputInfo, hdr parse.Header, produce func(emit func([]parse.Edge) error) error) (*Report, error) {
	if why := gpuEdgesEligible(hdr, opt); why != "" {
		return nil, &gpuSkip{reason: why}
	}
	return gpuRun(opt, input, input.Name, -1, func(g *gpuIngest) (parse.Header, error) {
		err := g.phase1("partition", func(prog *progress, emit func([]parse.Edge) error) error {
			return produce(func(b []parse.Edge) error {
				prog.addEdges(int64(len(b)))
				return emit(b)
			})
		})
		return hdr, err
	})
}

// gpuRun runs a GPU ingest whose input phase1 reads.
func gpuRun(opt Options, info store.InputInfo, name string, size int64, phase1 func(g *gpuIngest) (parse.Header, error)) (*Report, error) {
	if err := cuda.Available(); err != nil {
		return nil, &gpuSkip{reason: "found no GPU: " + err.Error()}
	}
	p, err := newPipeline(opt, info, name, size)
	if err != nil {
		return nil, err
	}
	defer p.close()
	g := &gpuIngest{p: p, open: make(chan struct{}), pinned: map[*chunk][]*cuda.Pinned{},
		trace: os.Getenv("OOC_GPU_TRACE") != "", last: p.start}
	go g.start()
	defer g.close()
	hdr, err := phase1(g)
	if err != nil {
		return nil, err
	}
	if p.opt.Directed && hdr.Symmetric {
		return nil, &gpuSkip{reason: "does not take a symmetric MatrixMarket file read --directed", reread: true}
	}
	if n := int64(p.vertexCount(hdr)); p.countDegrees() && degreeOrderBytes*n > p.orderMem() {
		// the CPU ingest says what the degree order cannot do within the budget
		return nil, &gpuSkip{reason: "leaves the degree order of so many vertices to the CPU ingest", reread: true}
	}
	if err := g.order(hdr); err != nil {
		return nil, err
	}
	p.backend = BackendGPU + " (" + g.dev.Name + ")"
	return p.finishWith(hdr, g.build)
}

// start opens the device and loads the kernels, while the parse begins.
func (g *gpuIngest) start() {
	defer close(g.open)
	dev, err := cuda.Open(0, g.p.opt.gpuBudget, gpuMargin)
	if err != nil {
		g.devErr = err
		return
	}
	err = dev.Do(func(c *cuda.Ctx) error {
		var err error
		g.mod, err = c.Load("build", buildFatbin)
		return err
	})
	if err != nil {
		dev.Close()
		g.devErr = err
		return
	}
	g.dev = dev
	if g.trace && g.p.opt.Log != nil {
		fmt.Fprintf(g.p.opt.Log, "gpu-trace: device open at %.3f s\n", time.Since(g.p.start).Seconds())
	}
}

func (g *gpuIngest) close() {
	<-g.open
	if g.dev == nil {
		return
	}
	g.dev.Do(func(c *cuda.Ctx) error {
		for _, ps := range g.pinned {
			for _, p := range ps {
				c.Unregister(p)
			}
		}
		c.FreeAll()
		return c.Unload(g.mod)
	})
	g.dev.Close()
}

// ---- the parse ----------------------------------------------------------------------------

// phase1 runs read, which hands the input's edges to emit, with the staging buffers and
// their uploader, and records the phase.
func (g *gpuIngest) phase1(name string, read func(prog *progress, emit func([]parse.Edge) error) error) error {
	p := g.p
	t0 := time.Now()
	// enough buffers that the parse does not wait for the device to open (about 0.1 s),
	stageBytes := int64(8 * gpuStageKeys)
	if p.opt.KeepSelfLoops {
		stageBytes *= 2
	}
	nbuf := int(min(int64(2*p.workers+8), max(p.gpuStagingMem()/stageBytes, 4)))
	g.free, g.partial, g.up = make(chan *chunk, nbuf), make(chan *chunk, nbuf), make(chan *chunk, nbuf)
	for range nbuf {
		c := &chunk{}
		c.keys[0] = make([]uint64, 0, gpuStageKeys)
		if p.opt.KeepSelfLoops {
			c.keys[1] = make([]uint64, 0, gpuStageKeys)
		}
		g.free <- c
	}
	g.upDone = make(chan struct{})
	go g.uploader()
	prog := newProgress(p.opt.Progress, name, max(p.inBytes, 0), p.inBytes > 0)
	err := read(prog, g.emit)
	for more := true; more; {
		select {
		case c := <-g.partial:
			g.up <- c
		default:
			more = false
		}
	}
	g.mark(nil, name)
	close(g.up)
	<-g.upDone
	prog.finish()
	g.mark(nil, "last uploads")
	if g.trace && p.opt.Log != nil {
		fmt.Fprintf(p.opt.Log, "gpu-trace: uploads took %.1f ms (pinning %.1f), workers waited %.1f ms for staging buffers\n", g.upDur.Seconds()*1e3, g.pinDur.Seconds()*1e3, g.waits.Seconds()*1e3)
	}
	g.mu.Lock()
	upErr := g.err
	g.mu.Unlock()
	if upErr != nil {
		return upErr // a skip comes first: the input stopped because of it
	}
	if err != nil {
		return err
	}
	if p.ctx.Err() != nil {
		return p.cause()
	}
	p.phases = append(p.phases, Phase{Name: name, Seconds: time.Since(t0).Seconds(), Edges: p.inputEdges.Load()})
	return nil
}

// emit is the parse's batch handler: p.emit's, with staging buffers for chunks.
func (g *gpuIngest) emit(batch []parse.Edge) error {
	p := g.p
	if p.ctx.Err() != nil {
		return p.cause()
	}
	if len(batch) == 0 {
		return nil
	}
	p.inputEdges.Add(uint64(len(batch)))
	var loops, top uint64
	for len(batch) > 0 {
		asked := time.Now()
		c, err := p.takeFrom(g.partial, g.free)
		if err != nil {
			return err
		}
		if g.trace {
			g.mu.Lock()
			g.waits += time.Since(asked)
			g.mu.Unlock()
		}
		n := min(len(batch), gpuStageKeys-max(len(c.keys[0]), len(c.keys[1])))
		l, t := g.fill(c, batch[:n])
		loops, top = loops+l, max(top, t)
		batch = batch[n:]
		if len(c.keys[0]) == gpuStageKeys || len(c.keys[1]) == gpuStageKeys {
			g.up <- c
		} else {
			g.partial <- c
		}
	}
	return p.noteBatch(loops, top)
}

// fill appends the edges to c (stream 0, or 1 for a kept self-loop) and returns the
// self-loops dropped and the largest id, as pipeline.fill.
func (g *gpuIngest) fill(c *chunk, edges []parse.Edge) (loops, top uint64) {
	out, self := c.keys[0], c.keys[1]
	keep := g.p.opt.KeepSelfLoops
	for _, e := range edges {
		top = max(top, e.U, e.V)
		u, v := uint32(e.U), uint32(e.V)
		switch {
		case u != v:
			out = append(out, key(u, v))
		case keep:
			self = append(self, key(u, u))
		default:
			loops++
		}
	}
	c.keys[0], c.keys[1] = out, self
	return loops, top
}

func (g *gpuIngest) fail(err error) {
	g.mu.Lock()
	if g.err == nil {
		g.err = err
	}
	g.mu.Unlock()
	g.p.fail(err)
}

// uploader copies full staging buffers to the device and frees them.
func (g *gpuIngest) uploader() {
	defer close(g.upDone)
	<-g.open
	if g.devErr != nil {
		g.fail(&gpuSkip{reason: "could not start the GPU: " + g.devErr.Error(), reread: true})
	}
	for c := range g.up {
		if g.dev != nil && g.p.ctx.Err() == nil {
			t := time.Now()
			err := g.dev.Do(func(cx *cuda.Ctx) error { return g.upload(cx, c) })
			g.upDur += time.Since(t)
			if err != nil {
				g.fail(err)
			}
		}
		for d := range c.keys {
			c.keys[d] = c.keys[d][:0]
		}
		g.free <- c
	}
}

func keyBytes(k []uint64) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(k))), 8*cap(k))
}

func (g *gpuIngest) upload(cx *cuda.Ctx, c *chunk) error {
	if _, ok := g.pinned[c]; !ok {
		t := time.Now()
		defer func() { g.pinDur += time.Since(t) }()
		var ps []*cuda.Pinned
		for d := range c.keys {
			if cap(c.keys[d]) == 0 {
				continue
			}
			pin, err := cx.Pin(keyBytes(c.keys[d]))
			if err != nil {
				return err
			}
			ps = append(ps, pin)
		}
		g.pinned[c] = ps
	}
	for d := range c.keys {
		keys := c.keys[d]
		for len(keys) > 0 {
			fill := g.keys[d] % gpuChunkKeys
			if g.keys[d] == uint64(len(g.chunks[d]))*gpuChunkKeys { // every chunk full
				if err := g.roomForChunk(); err != nil {
					return err
				}
				b, err := cx.Alloc(fmt.Sprintf("%s %d", []string{"edges", "self-loops"}[d], len(g.chunks[d])), 8*gpuChunkKeys)
				if err != nil {
					return &gpuSkip{reason: "ran out of device memory for the keys: " + err.Error(), reread: true}
				}
				g.chunks[d] = append(g.chunks[d], b)
			}
			n := min(uint64(len(keys)), gpuChunkKeys-fill)
			dst := g.chunks[d][len(g.chunks[d])-1].Ptr + cuda.DevPtr(8*fill)
			if err := cx.HtoD(dst, unsafe.Pointer(&keys[0]), int64(8*n)); err != nil {
				return err
			}
			g.keys[d] += n
			keys = keys[n:]
		}
	}
	return nil
}

// roomForChunk refuses one more chunk of input when the build could not hold it: a
// direction's keys twice over (the sort's two buffers) beside the input (undirected: 4
// times an edge's 8 bytes; directed: 3), the vertices' arrays and the scans' sums.
func (g *gpuIngest) roomForChunk() error {
	held := uint64(len(g.chunks[0])+len(g.chunks[1])+1) * gpuChunkKeys
	if g.dirKeys(held) >= 1<<32-gpuTile {
		return &gpuSkip{reason: "sorts at most 2^32 keys a direction", reread: true}
	}
	times := int64(4)
	if g.p.opt.Directed {
		times = 3
	}
	need := 8*int64(held)*times + int64(held)/4 + gpuVertexMem*int64(g.p.maxID.Load()) + gpuFixedMem
	if need > g.dev.Budget() {
		return &gpuSkip{reason: fmt.Sprintf("needs more than the GPU's %s for %d keys and %d vertices",
			bytesize.Format(g.dev.Budget()), held, g.p.maxID.Load()), reread: true}
	}
	return nil
}

// dirKeys is how many keys a direction has for edges input keys (loops among them
// counted as edges: an upper bound).
func (g *gpuIngest) dirKeys(edges uint64) uint64 {
	if g.p.opt.Directed {
		return edges
	}
	return 2 * edges
}

// directionKeys is how many keys each direction's build sorts.
func (g *gpuIngest) directionKeys() uint64 { return g.dirKeys(g.keys[0]) + g.keys[1] }

// eachChunk calls f with every device chunk of input stream s and its keys.
func (g *gpuIngest) eachChunk(s int, f func(c *cuda.Buffer, n uint64) error) error {
	for i, c := range g.chunks[s] {
		if err := f(c, min(gpuChunkKeys, g.keys[s]-uint64(i)*gpuChunkKeys)); err != nil {
			return err
		}
	}
	return nil
}

// ---- launches -----------------------------------------------------------------------------

func grid(n uint64, per uint64) int { return int((n + per - 1) / per) }

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

func ptr(b *cuda.Buffer) cuda.DevPtr {
	if b == nil {
		return 0
	}
	return b.Ptr
}

func (g *gpuIngest) read64(cx *cuda.Ctx, at cuda.DevPtr) (uint64, error) {
	var v uint64
	err := cx.DtoH(unsafe.Pointer(&v), at, 8)
	return v, err
}

// reduce sums n values (scan mode) per block of gpuTile into the scan sums, turns those
// into their exclusive prefix sums, and returns the number of blocks and the total.
func (g *gpuIngest) reduce(cx *cuda.Ctx, mode int, in32, keys, rowptr cuda.DevPtr, n uint64) (np, total uint64, err error) {
	np = n/gpuTile + 1
	part := ptr(g.partial1)
	if err := launchScanReduce(cx, g.mod, int(np), gpuThreads, int32(mode), in32, keys, rowptr, n, g.dupFlags(), part); err != nil {
		return 0, 0, err
	}
	if err := launchScanPartials(cx, g.mod, 1, gpuThreads, part, np); err != nil {
		return 0, 0, err
	}
	total, err = g.read64(cx, g.partial1.Ptr+cuda.DevPtr(8*np))
	return np, total, err
}

// scan writes the exclusive prefix sums of n values (scan mode) to out32 or out64, with
// the total at index n, and returns the total.
func (g *gpuIngest) scan(cx *cuda.Ctx, mode int, in32, keys, rowptr cuda.DevPtr, n uint64, out32, out64 cuda.DevPtr) (uint64, error) {
	np, total, err := g.reduce(cx, mode, in32, keys, rowptr, n)
	if err != nil {
		return 0, err
	}
	return total, launchScanDown(cx, g.mod, int(np), gpuThreads, int32(mode), in32, keys, rowptr, n, g.dupFlags(), ptr(g.partial1), out32, out64)
}

// dupFlags is the keepDup argument of the deduplicating kernels: DUP_KEEP, DUP_ORIENTED.
func (g *gpuIngest) dupFlags() uint32 { return b2u(g.p.opt.KeepDuplicates) | 2*b2u(g.oriented) }

// sort sorts the n keys in x by a stable LSD radix sort over the 2b bits of src<<b|dst
// (2b+1 of src<<(b+1)|dst<<1|o when oriented), with y as the other buffer; the result is
// in x.
func (g *gpuIngest) sort(cx *cuda.Ctx, n uint64, oriented bool) error {
	lo := g.b + uint(b2u(oriented)) // the bits of dst, or of dst<<1|o
	total := g.b + lo
	if g.b == 0 || n < 2 {
		return nil
	}
	passes := (total + 7) / 8
	w := (total + passes - 1) / passes
	mask := uint64(1)<<w - 1
	ntiles := (n + gpuTile - 1) / gpuTile
	for pass := uint(0); pass < passes; pass++ {
		shift := uint64(pass * w)
		if err := launchRadixHist(cx, g.mod, int(ntiles), gpuThreads, ptr(g.x), n, uint32(lo), uint32(shift), uint32(mask), ptr(g.counts), ntiles); err != nil {
			return err
		}
		if _, err := g.scan(cx, scanU32, ptr(g.counts), 0, 0, 256*ntiles, ptr(g.counts), 0); err != nil {
			return err
		}
		if err := launchRadixScatter(cx, g.mod, int(ntiles), gpuThreads, ptr(g.x), ptr(g.y), n, uint32(lo), uint32(shift), uint32(mask), ptr(g.counts), ntiles); err != nil {
			return err
		}
		g.x, g.y = g.y, g.x
	}
	return nil
}

// relabel renumbers the n keys in x by perm, oriented ones keeping their orientation.
func (g *gpuIngest) relabel(cx *cuda.Ctx, n uint64, perm *cuda.Buffer, oriented bool) error {
	return launchRelabel(cx, g.mod, grid(n, gpuThreads), gpuThreads, ptr(g.x), n, ptr(perm), b2u(oriented))
}

// sizes counts the degrees of the deduplicated keys in x and every neighbour's byte
// offset (into y), and sets adjBytes.
func (g *gpuIngest) sizes(cx *cuda.Ctx) error {
	if err := cx.Memset32(g.deg.Ptr, 0, int64(g.n)); err != nil {
		return err
	}
	if err := cx.Memset32(g.loopsDev.Ptr, 0, 2); err != nil {
		return err
	}
	if err := launchDegCount(cx, g.mod, grid(g.uniq, gpuThreads), gpuThreads, ptr(g.x), g.uniq, ptr(g.deg), 1, ptr(g.loopsDev)); err != nil {
		return err
	}
	var err error
	if g.loops, err = g.read64(cx, g.loopsDev.Ptr); err != nil {
		return err
	}
	if _, err := g.scan(cx, scanU32, ptr(g.deg), 0, 0, g.n, 0, ptr(g.rowptr)); err != nil {
		return err
	}
	g.adjBytes, err = g.scan(cx, scanBytes, 0, ptr(g.x), ptr(g.rowptr), g.uniq, 0, ptr(g.y))
	return err
}

// ---- the vertex order ----------------------------------------------------------------------

// order numbers the vertices (the degree order's permutation from the raw keys'
// degrees) and, for the automatic order, builds the first direction both ways to compare
// their exact sizes. It prepares the first direction's build.
func (g *gpuIngest) order(hdr parse.Header) error {
	p := g.p
	g.n = p.vertexCount(hdr)
	if g.n > 0 {
		g.b = uint(bits.Len32(uint32(g.n - 1)))
	}
	// oriented keys take a bit more of the low half: ids below 2^31 (orient.go)
	g.oriented = p.oriented && g.n <= orientLimit
	p.oriented = g.oriented
	return g.dev.Do(func(cx *cuda.Ctx) error {
		if err := g.alloc(cx); err != nil {
			return err
		}
		if p.countDegrees() && g.n > 0 {
			if err := cx.Memset32(g.deg.Ptr, 0, int64(g.n)); err != nil {
				return err
			}
			// both ends of every edge; a kept self-loop counts its vertex twice
			err := g.eachChunk(0, func(c *cuda.Buffer, k uint64) error {
				return launchDegPairs(cx, g.mod, grid(k, gpuThreads), gpuThreads, ptr(c), k, ptr(g.deg))
			})
			if err == nil {
				err = g.eachChunk(1, func(c *cuda.Buffer, k uint64) error {
					return launchDegCount(cx, g.mod, grid(k, gpuThreads), gpuThreads, ptr(c), k, ptr(g.deg), 2, ptr(g.loopsDev))
				})
			}
			if err != nil {
				return err
			}
			g.mark(cx, "degree count")
			deg := make([]uint32, g.n)
			if err := cx.DtoH(unsafe.Pointer(&deg[0]), g.deg.Ptr, int64(4*g.n)); err != nil {
				return err
			}
			perm, inv := degreeOrder(deg, p.workers)
			g.mark(nil, "degree order (host)")
			p.inv = inv
			if g.perm, err = g.upload32(cx, "perm", perm); err != nil {
				return err
			}
			if p.opt.Order == OrderAuto {
				if g.inv, err = g.upload32(cx, "inv", inv); err != nil {
					return err
				}
			}
		}
		degreeFirst := p.opt.Order == store.OrderDegree
		if err := g.prepare(cx, 0, degreeFirst); err != nil {
			return err
		}
		if p.opt.Order != OrderAuto || g.n == 0 {
			return nil
		}
		// the automatic order: the input order's size is known; the degree order's next
		inBytes := g.adjBytes
		if err := g.renumber(cx, g.perm); err != nil {
			return err
		}
		g.mark(cx, "auto: degree order sized")
		est := &OrderEstimate{SampleRate: 1, SampledLists: int(min(g.uniq, 1<<62)), InputBytes: int64(inBytes),
			DegreeBytes: int64(g.adjBytes) + store.IDsFileBytes(int64(g.n), 4)}
		est.ChoseDegree = est.DegreeBytes < est.InputBytes
		p.estimate = est
		if !est.ChoseDegree {
			p.inv = nil
			return g.renumber(cx, g.inv) // back to the input order
		}
		return nil
	})
}

// renumber renumbers the prepared direction's keys by perm, sorts them again and sizes
// their lists.
func (g *gpuIngest) renumber(cx *cuda.Ctx, perm *cuda.Buffer) error {
	if err := g.relabel(cx, g.uniq, perm, false); err != nil {
		return err
	}
	if err := g.sort(cx, g.uniq, false); err != nil {
		return err
	}
	return g.sizes(cx)
}

func (g *gpuIngest) upload32(cx *cuda.Ctx, name string, v []uint32) (*cuda.Buffer, error) {
	b, err := cx.Alloc(name, int64(4*len(v)))
	if err != nil {
		return nil, err
	}
	return b, cx.HtoD(b.Ptr, unsafe.Pointer(&v[0]), int64(4*len(v)))
}

// alloc allocates what every direction's build uses.
func (g *gpuIngest) alloc(cx *cuda.Ctx) error {
	k := g.directionKeys()
	ntiles := (k + gpuTile - 1) / gpuTile
	np := max(k, 256*ntiles, g.n+1)/gpuTile + 2
	var err error
	for _, a := range []struct {
		b     **cuda.Buffer
		name  string
		bytes uint64
	}{
		{&g.counts, "digit counts", 4 * (256*ntiles + 1)},
		{&g.partial1, "scan sums", 8 * np},
		{&g.deg, "degrees", 4 * max(g.n, 1)},
		{&g.rowptr, "row starts", 8 * (g.n + 1)},
		{&g.loopsDev, "self-loops", 8},
		{&g.pairsDev, "reciprocal pairs", 8},
	} {
		if *a.b, err = cx.Alloc(a.name, int64(a.bytes)); err != nil {
			return &gpuSkip{reason: "ran out of device memory: " + err.Error(), reread: true}
		}
	}
	return nil
}

// prepare makes direction d's keys from the input's, renumbers them by the degree
// order when relabel, sorts and deduplicates them and sizes their lists. The input is
// freed after its last direction.
func (g *gpuIngest) prepare(cx *cuda.Ctx, d int, relabel bool) error {
	k := g.directionKeys()
	var err error
	if g.x, err = cx.Alloc("keys", int64(8*(k+1))); err != nil {
		return &gpuSkip{reason: "ran out of device memory: " + err.Error(), reread: true}
	}
	mode, per, loops := uint64(0), uint64(2), uint64(1) // undirected: both ways; self-loops as they are
	switch {
	case g.p.opt.Directed:
		mode, per = uint64(1+d), 1
	case g.oriented:
		mode, loops = 3, 4
	}
	at := ptr(g.x)
	for s, m := range []uint64{mode, loops} {
		err := g.eachChunk(s, func(c *cuda.Buffer, n uint64) error {
			err := launchExpand(cx, g.mod, grid(n, gpuThreads), gpuThreads, at, ptr(c), n, uint32(m))
			at += cuda.DevPtr(8 * n * per)
			return err
		})
		if err != nil {
			return err
		}
		per = 1
	}
	if err := cx.Sync(); err != nil {
		return err
	}
	g.mark(cx, "expand")
	if d == g.p.dirs-1 {
		for s := range g.chunks {
			for _, c := range g.chunks[s] {
				if err := cx.Free(c); err != nil {
					return err
				}
			}
			g.chunks[s] = nil
		}
	}
	if g.y, err = cx.Alloc("sorted keys", int64(8*(k+1))); err != nil {
		return &gpuSkip{reason: "ran out of device memory: " + err.Error(), reread: true}
	}
	if relabel && k > 0 {
		if err := g.relabel(cx, k, g.perm, g.oriented); err != nil {
			return err
		}
	}
	if err := g.sort(cx, k, g.oriented); err != nil {
		return err
	}
	g.mark(cx, "sort")
	if g.oriented {
		if err := g.countPairs(cx, k); err != nil {
			return err
		}
	}
	g.uniq = k
	if !g.p.opt.KeepDuplicates && k > 0 {
		np, uniq, err := g.reduce(cx, scanFlags, 0, ptr(g.x), 0, k)
		if err != nil {
			return err
		}
		if err := launchUniqWrite(cx, g.mod, int(np), gpuThreads, ptr(g.x), k, g.dupFlags(), ptr(g.partial1), ptr(g.y)); err != nil {
			return err
		}
		g.uniq = uniq
		g.x, g.y = g.y, g.x
	}
	g.mark(cx, "deduplicate")
	err = g.sizes(cx)
	g.mark(cx, "degrees and sizes")
	return err
}

// countPairs counts the reciprocal pairs among the n sorted oriented keys in x.
func (g *gpuIngest) countPairs(cx *cuda.Ctx, n uint64) error {
	if err := cx.Memset32(g.pairsDev.Ptr, 0, 2); err != nil {
		return err
	}
	if err := launchCountPairs(cx, g.mod, grid(n, gpuThreads), gpuThreads, ptr(g.x), n, ptr(g.pairsDev)); err != nil {
		return err
	}
	var err error
	g.pairs, err = g.read64(cx, g.pairsDev.Ptr)
	return err
}

// ---- encoding and writing -----------------------------------------------------------------

// build encodes and writes every direction (the first is prepared by order).
func (g *gpuIngest) build() error {
	p := g.p
	t0 := time.Now()
	var keys uint64
	for d := range p.dirs {
		err := g.dev.Do(func(cx *cuda.Ctx) error {
			if d > 0 {
				cx.Free(g.x)
				cx.Free(g.y)
				if err := g.prepare(cx, d, p.inv != nil); err != nil {
					return err
				}
			}
			return g.write(cx, p.b.Writer(store.Direction(d)))
		})
		if err != nil {
			return err
		}
		keys += g.uniq
		if d == 0 {
			p.storedEdges, p.storedLoops, p.reciprocal = g.uniq, g.loops, g.pairs
		}
	}
	p.phases = append(p.phases, Phase{Name: "gpu", Seconds: time.Since(t0).Seconds(), Bytes: g.builtBytes, Edges: keys})
	return nil
}

type gpuPiece struct {
	lo               uint32
	degrees, offsets []uint32
	data             []byte
	buf              []byte
}

// Pieces of the write: the lists starting in one window of gpuPieceSpan bytes, and at
// most gpuPieceVertices vertices; a piece comes back as its degrees, its offsets and its
// lists, in one copy.
const (
	gpuPieceSpan     = 4 << 20
	gpuPieceVertices = 256 << 10
)

// write encodes the prepared direction's lists piece by piece, each copied back and
// handed to w while the next is encoded. The host holds a few pieces, not the
// direction's per-vertex arrays.
func (g *gpuIngest) write(cx *cuda.Ctx, w *store.CSRWriter) error {
	n := g.n
	if n == 0 {
		return nil
	}
	// where the pieces start: (vertex, row start, list start) each
	most := g.adjBytes/gpuPieceSpan + n/gpuPieceVertices + 2
	bounds, err := cx.Alloc("piece bounds", int64(24*most))
	if err != nil {
		return err
	}
	defer cx.Free(bounds)
	if err := cx.Memset32(g.loopsDev.Ptr, 0, 2); err != nil {
		return err
	}
	if err := launchPieceBounds(cx, g.mod, grid(n, gpuThreads), gpuThreads, ptr(g.rowptr), ptr(g.y), n, gpuPieceSpan, gpuPieceVertices, ptr(g.loopsDev), ptr(bounds)); err != nil {
		return err
	}
	count, err := g.read64(cx, g.loopsDev.Ptr)
	if err != nil {
		return err
	}
	type bound struct{ v, row, at uint64 }
	bs := make([]bound, count+2)
	if count > 0 {
		if err := cx.DtoH(unsafe.Pointer(&bs[1]), bounds.Ptr, int64(24*count)); err != nil {
			return err
		}
	}
	bs[count+1] = bound{n, g.uniq, g.adjBytes}
	slices.SortFunc(bs, func(a, b bound) int { return cmp.Compare(a.v, b.v) })
	var longest uint64
	for i := range bs[:len(bs)-1] {
		longest = max(longest, bs[i+1].at-bs[i].at)
	}
	g.mark(cx, "piece bounds")
	// The pieces come back into the staging buffers, pinned already, unless a piece is
	// larger than one (pinning fresh memory took 60-100 ms for 192 MiB on the H100 host).
	const nbuf = 4
	meta := uint64(8*gpuPieceVertices + 8)
	pieceCap := meta + longest
	free := make(chan []byte, nbuf)
	for c := range g.pinned {
		if b := keyBytes(c.keys[0]); len(free) < nbuf && pieceCap <= uint64(len(b)) {
			free <- b
		}
	}
	var pins []*cuda.Pinned
	defer func() {
		for _, pin := range pins {
			cx.Unregister(pin)
		}
	}()
	if len(free) < 2 {
		for len(free) > 0 {
			<-free
		}
		for range nbuf {
			b := make([]byte, pieceCap)
			pin, err := cx.Pin(b)
			if err != nil {
				return err
			}
			pins = append(pins, pin)
			free <- b
		}
	}
	dpiece, err := cx.Alloc("encoded piece", int64(pieceCap+8))
	if err != nil {
		return err
	}
	defer cx.Free(dpiece)
	var bufWait time.Duration
	work := make(chan gpuPiece, nbuf)
	var werr error
	var wbusy time.Duration
	wdone := make(chan struct{})
	go func() {
		defer close(wdone)
		for pc := range work {
			if werr == nil {
				t := time.Now()
				werr = w.AppendRange(pc.lo, pc.degrees, pc.offsets, pc.data)
				wbusy += time.Since(t)
			}
			free <- pc.buf
		}
	}()
	err = func() error {
		for i := range bs[:len(bs)-1] {
			a, b := bs[i], bs[i+1]
			k, bytes := b.v-a.v, b.at-a.at // k > 0: the bounds are distinct vertices
			dataAt := 8*k + 4
			if err := launchPieceMeta(cx, g.mod, grid(k+1, gpuThreads), gpuThreads, ptr(g.rowptr), ptr(g.y), ptr(g.deg), a.v, k, ptr(dpiece)); err != nil {
				return err
			}
			if err := launchEncode(cx, g.mod, grid(b.row-a.row, gpuThreads), gpuThreads, ptr(g.x), ptr(g.rowptr), ptr(g.y), a.row, b.row, a.at, ptr(dpiece)+cuda.DevPtr(dataAt)); err != nil {
				return err
			}
			t := time.Now()
			buf := <-free
			bufWait += time.Since(t)
			if err := cx.DtoH(unsafe.Pointer(&buf[0]), dpiece.Ptr, int64(dataAt+bytes)); err != nil {
				free <- buf
				return err
			}
			words := unsafe.Slice((*uint32)(unsafe.Pointer(&buf[0])), 2*k+1)
			work <- gpuPiece{lo: uint32(a.v), degrees: words[:k], offsets: words[k:], data: buf[dataAt : dataAt+bytes], buf: buf}
		}
		return nil
	}()
	g.mark(nil, "encoded and copied back")
	close(work)
	<-wdone
	g.mark(nil, "writer done")
	if g.trace && g.p.opt.Log != nil {
		fmt.Fprintf(g.p.opt.Log, "gpu-trace: %d pieces, waited %.1f ms for the writer, busy %.1f ms for %s\n",
			len(bs)-1, bufWait.Seconds()*1e3, wbusy.Seconds()*1e3, bytesize.Format(int64(g.adjBytes)))
	}
	// every copied-back buffer is back: the pins may go
	if err != nil {
		return err
	}
	g.builtBytes += int64(g.adjBytes)
	return werr
}
