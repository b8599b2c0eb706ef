package bfs

import (
	"fmt"
	"math/bits"
	"sort"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/oocgraph/ooc/internal/pages"
	"github.com/oocgraph/ooc/internal/parallel"
	"github.com/oocgraph/ooc/store"
)

const unreached = Unreached

// Run runs a direction-optimizing breadth-first search from src (Beamer, Asanović,
// Patterson, "Direction-optimizing breadth-first search", SC 2012; the switching rule and
// its constants are those of GAPBS's BFS kernel). Top-down levels expand a queue; bottom-up
// levels sweep the unvisited vertices in vertex order over a frontier bitmap and stop at
// a vertex's first neighbour in the frontier. On a directed graph top-down follows
// out-lists and bottom-up reads in-lists.
//
// It fills Parent, Level (unless opt.NoLevels), Levels, Depth and Seconds; Reached and
// EdgesTraversed are filled as Summarize defines them. Seconds covers the search from
// the allocation of its arrays (parent, level, queue), as GAPBS's trial times the
// allocation of its parent array and frontiers, to the last level's fill.
func Run(a store.Adjacency, src uint32, opt Options) (*Result, error) {
	if src >= a.NumVertices() {
		return nil, fmt.Errorf("kernels: source %d is not a vertex (the graph has %d): %w", src, a.NumVertices(), store.ErrNoVertex)
	}
	if err := opt.Check(); err != nil {
		return nil, err
	}
	opt = opt.WithDefaults()
	workers := parallel.Workers(opt.Workers)
	if (uint64(a.NumVertices())+a.NumEdges())*uint64(workers-1) <= serialWork {
		workers = 1
	}
	t0 := time.Now()
	b := newBFS(a, workers, !opt.NoLevels)
	b.t0 = t0
	b.init()
	b.maxDeg = maxOutDegree(a)
	err := b.run(src, opt.Alpha, opt.Beta, opt.StrictSwitch)
	if err == nil && b.level != nil {
		b.fillLevels()
	}
	secs := time.Since(t0).Seconds()
	if err != nil {
		return nil, err
	}
	r := &Result{Source: src, Parent: b.parent, Level: b.level, Depth: b.depth, Levels: b.levelStats(), Seconds: secs}
	summarize(a, r)
	return r, nil
}

// frontierScout is the scout and edges of a new top-down frontier whose degrees the
// claims did not sum; exact is false where they are estimated. When its size times
// maxDeg cannot pass limit (the edges that send a level bottom-up), it reads no degree:
// scout -1 (not known, too small for bottom-up) and that product as edges. On meshes
// and roads that is every level but the last few, and a degree lookup per discovered
// vertex costs a tenth of such a search. A frontier of more than 4*scoutSample vertices
// gets the degrees of scoutSample of them, evenly spaced, scaled to all and capped at
// the unchecked edges (which hold the frontier's, not yet expanded): the sum is
// only weighed against thresholds and estimates, and on a random graph the lookups (a
// directory entry per vertex, in no order) cost a twentieth of the search. Else it sums
// the degrees: on all workers for a frontier of more than scoutChunks vertices with
// more than one worker, else on the calling goroutine, where it stops at the first
// multiple of scoutChunk vertices whose degrees exceed limit (b.scoutAt is where it
// stopped; b.tail when the sum is whole): a frontier of at most n/buScan edges stays
// top-down on that, and run sums the rest before a direction's draws.
func (b *bfs) frontierScout(limit, unchecked int64) (scout int64, edges uint64, exact bool) {
	frontier := b.queue[b.head:b.tail]
	if uint64(len(frontier)) <= uint64(max(limit, 0))/b.maxDeg {
		return -1, uint64(len(frontier)) * b.maxDeg, true
	}
	if len(frontier) > 4*scoutSample {
		stride := len(frontier) / scoutSample
		sum := b.sumOutDegreesEvery(&b.ws[0], frontier[:(scoutSample-1)*stride+1], stride)
		// the frontier's lists are unexpanded: they hold at most the unchecked edges
		est := min(float64(sum)/float64(scoutSample)*float64(len(frontier)), float64(max(unchecked, 0)))
		return int64(est), uint64(est), false
	}
	if b.workers == 1 || len(frontier) <= scoutChunks {
		ws := &b.ws[0]
		var sum uint64
		i := 0
		for i < len(frontier) && int64(sum) <= limit {
			end := min(i+scoutChunk, len(frontier))
			sum += b.sumOutDegrees(ws, frontier[i:end])
			i = end
		}
		b.scoutAt = b.head + i
		return int64(sum), sum, true
	}
	parallel.For(b.workers, len(frontier), scoutChunks, func(w, lo, hi int) {
		ws := &b.ws[w]
		ws.scout += b.sumOutDegrees(ws, frontier[lo:hi])
	})
	for i := range b.ws {
		edges += b.ws[i].scout
		b.ws[i].scout = 0
	}
	return int64(edges), edges, true
}

// scoutChunk is how many degrees frontierScout sums between two looks at its bound;
// tests raise it to sum every frontier whole.
var scoutChunk = 64

// scoutChunks is the most vertices whose degrees frontierScout sums on one goroutine
// when the search has more workers.
const scoutChunks = 1 << 12

// scoutSample is the number of a large frontier's vertices whose degrees frontierScout
// reads; tests lower it to exercise the estimate.
var scoutSample = 4096

// maxOutDegree bounds the out-degrees of a compressed graph from its directory headers;
// 0 (not known) for other adjacencies.
func maxOutDegree(a store.Adjacency) uint64 {
	c, ok := a.(*store.Compressed)
	if !ok {
		return 0
	}
	var m uint64
	for _, s := range c.Graph().Out().Shards {
		m = max(m, s.MaxDegreeBound())
	}
	return m
}

// buSamples is the most unvisited vertices whose lists sampleBottomUp scans: one in 64
// of the unvisited vertices, at least 32. On a graph of a few thousand vertices a
// search takes a fifth of a millisecond, and 256 scans were a tenth of it.
const buSamples = 256

// buSample is the draws of an estimate so far: found unvisited vertices in tries draws,
// whose scans examined examined entries, and rng, the xorshift state of the next draw.
// With visited set the scans meet the frontier at a visited neighbour (scanCost). With
// most > 0 the draws stop once the bottom-up level's cost is known to exceed edges
// whatever the draws to come find (dearer).
type buSample struct {
	examined, found, tries, rng uint64
	visited                     bool
	most                        uint64 // the most unvisited vertices the estimate may draw
	edges                       int64  // the frontier's edges, which dearer weighs against
}

// sampleAt is the start of the draws of a decision before the level at depth, whether
// to go bottom-up (back false) or back top-down: a state of its own per search, level
// and rule, so that how many draws one decision takes does not change the draws of
// the next.
func sampleAt(src, depth uint32, back bool) buSample {
	d := uint64(depth) << 1
	if back {
		d |= 1
	}
	return buSample{rng: (uint64(src)*0x9E3779B97F4A7C15 ^ (d+1)*0xBF58476D1CE4E5B9) | 1}
}

// buSampleSize is the number of unvisited vertices an estimate draws: one in 64 of the
// unvisited, at least 32, at most buSamples.
func buSampleSize(unvisited uint64) uint64 { return min(max(unvisited/64, 32), buSamples) }

// sampleBottomUp estimates the entries a bottom-up level against the frontier bitmap
// b.front would examine, with unvisited vertices left: it scans the in-lists of some
// (buSampleSize) unvisited vertices drawn at random (as the level would: up to the
// first neighbour in the frontier) and scales their mean to all. The draws come from
// the xorshift state rng (sampleAt's), so a search decides the same way each time.
// A sample that finds no unvisited vertex in 16 draws per sample counts each at its
// mean degree.
func (b *bfs) sampleBottomUp(rng *uint64, unvisited uint64) float64 {
	s := buSample{rng: *rng}
	b.drawBottomUp(&s, unvisited, buSampleSize(unvisited))
	*rng = s.rng
	return b.estimate(&s, unvisited)
}

// drawBottomUp draws vertices into s until it holds want unvisited ones or 16*want
// draws; with none unvisited it draws none. Drawing up to want in steps draws the
// vertices that drawing up to want at once would. With s.most set it stops, or draws
// none, once the sample is dearer than s.edges (dearer), tested after each scan: the
// draws that find visited vertices (a return's 512 tries for a few unvisited ones)
// test nothing more.
func (b *bfs) drawBottomUp(s *buSample, unvisited, want uint64) {
	if unvisited == 0 || s.most > 0 && b.dearer(s, unvisited) {
		return
	}
	for ; s.tries < 16*want && s.found < want; s.tries++ {
		x := s.rng
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		s.rng = x
		v := uint32((x >> 32) * uint64(b.n) >> 32)
		if b.parent[v] != unreached {
			continue
		}
		s.found++
		s.examined += uint64(b.scanCost(v, s.visited))
		if s.most > 0 && b.dearer(s, unvisited) {
			s.tries++
			return
		}
	}
}

// dearer says whether the draws of s show a bottom-up level dearer (buCost) than the
// frontier's s.edges whatever the draws to come find: the entries examined so far over
// the most vertices the estimate may draw (s.most: no mean it takes divides by more,
// and with none found it takes the mean degree, above the fixed cost alone), scaled
// and weighed as buCost does. Then the rule that goes bottom-up (run) stays top-down
// whether the first draws decide or all of them: at the first decisions of a search on
// a social graph the unvisited vertices' scans read their whole lists (facebook_combined
// from 2125: 32 scans where 5 settle it).
func (b *bfs) dearer(s *buSample, unvisited uint64) bool {
	u := float64(unvisited)
	return b.buWeight*(float64(s.examined)/float64(s.most)*u)+b.buVertex*u > float64(s.edges)
}

// drawsStop lets the draws of the rule that goes bottom-up stop where they show a
// dearer bottom-up level (dearer); tests turn it off to hold the rule to its draws
// taken whole.
var drawsStop = true

// estimate scales the mean of s's scans to unvisited vertices (see sampleBottomUp).
func (b *bfs) estimate(s *buSample, unvisited uint64) float64 {
	if unvisited == 0 {
		return 0
	}
	if s.found == 0 {
		return float64(unvisited) * float64(b.a.NumEdges()) / float64(b.n)
	}
	return float64(s.examined) / float64(s.found) * float64(unvisited)
}

// buCost weighs the estimate of s by what a bottom-up level's entries and unvisited
// vertices cost in top-down entries (buWeight, buVertex).
func (b *bfs) buCost(s *buSample, unvisited uint64) float64 {
	return b.buWeight*b.estimate(s, unvisited) + b.buVertex*float64(unvisited)
}

// buFirst is the number of unvisited vertices whose scans decide a direction alone
// when their estimate and the frontier's edges differ by more than buMargin times
// (run, bottomUpLevels); else the estimate draws all of buSampleSize. On cnr-2000
// most decisions differ by 3-20 times, and the 256 scans of each, a cache miss or
// more apiece, were 4% of a search. Tests set it to buSamples to draw all always.
var buFirst uint64 = 32

const buMargin = 2

// buScan weighs a bottom-up level's fixed cost: it reads every vertex's parent (and
// the frontier's bitmap) to find the unvisited ones, about a sixteenth of a top-down
// entry's cost a vertex, so a frontier of at most n/buScan out-edges stays top-down
// without the direction's samples. The last levels of a road map's or a mesh's search
// (a frontier of tens of vertices, the unchecked edges a few times its own) went
// bottom-up by the samples' estimate, whose entries are few, and read all n parents:
// grid22's level 920 (88 vertices) took 6.3 ms against 0.013 ms for its neighbours, 2%
// of the search. Not under StrictSwitch (GAPBS's rule alone); tests set it to 0, no
// fixed cost, so that small frontiers of small graphs go bottom-up too.
var buScan uint64 = 16

// scanCost is the number of v's in-neighbours a bottom-up level checks: up to the first
// in the frontier bitmap b.front, or all. A list that does not decode counts whole;
// the level itself reports it.
//
// With visited it reads the first visited neighbour instead, without b.front: before a
// level, every visited in-neighbour of an unvisited vertex is in the frontier (a vertex
// of an earlier level was expanded, which visited its out-neighbours), so the count is
// the same, and run decides a level's direction before it builds the frontier's bitmap,
// which a level that stays top-down does not read (cnr-2000 built it at ten levels a
// search).
func (b *bfs) scanCost(v uint32, visited bool) uint32 {
	switch {
	case b.c != nil:
		s := b.c.Shard(store.In, v)
		d, list := s.ListAt(v - s.Lo)
		if d == 0 {
			return 0
		}
		if visited {
			return b.scanVisited(list, v, d)
		}
		_, checked, st := store.ScanList(list, v, d, b.n, b.front)
		if st == store.Malformed {
			return d
		}
		return checked
	case b.f != nil:
		nbrs := b.f.InAdj[b.f.InOff[v]:b.f.InOff[v+1]]
		for i, u := range nbrs {
			if visited && b.parent[u] != unreached || !visited && b.front[u>>6]&(1<<(u&63)) != 0 {
				return uint32(i) + 1
			}
		}
		return uint32(len(nbrs))
	}
	return b.a.Degree(store.In, v)
}

// scanVisited is scanCost's count on v's list (degree d > 0) by its first visited
// neighbour: a block's first neighbour alone, then the block decoded whole (its parents
// tested on the vector unit where DecodeUnvisited decodes it there).
func (b *bfs) scanVisited(list []byte, v, d uint32) uint32 {
	var buf [store.BlockSize]uint32
	pos := store.FirstBlock(d)
	for k, checked := uint32(0), uint32(0); checked < d; k++ {
		c := store.BlockLen(d, k)
		if u, ok := store.FirstNeighbour(v, list, pos, c, b.n); ok && b.parent[u] != unreached {
			return checked + 1 // most scans that meet the frontier meet it here
		}
		next, mask, tested, ok := store.DecodeUnvisited(buf[:c], v, list, pos, c, b.n, b.parent)
		if !ok {
			return d
		}
		if !tested {
			mask = 0
			for i, u := range buf[:c] {
				if b.parent[u] == unreached {
					mask |= 1 << i
				}
			}
		}
		if seen := ^mask & (1<<c - 1); seen != 0 {
			return checked + uint32(bits.TrailingZeros64(seen)) + 1
		}
		checked += c
		pos = next
	}
	return d
}

// buCached is what an entry a bottom-up level examines costs, in entries a top-down level
// examines, and buCachedVertex what each unvisited vertex it looks at costs besides, on
// compressed shards while the parent array fits in a core's L2 cache (at most
// cachedParents vertices, 2 MiB). There a top-down entry is a decoded neighbour and a
// cached load and store of its parent; a bottom-up level reads a directory entry and a
// list's first block for each unvisited vertex, then tests neighbours one at a time. On
// the device (td12: each decision to go bottom-up of 8 sources a graph run both ways,
// fresh processes) these weights chose right at 106 of the 109 decisions on the real
// graphs (the three others, on cnr-2000, within 2% of the better). With the entries
// alone weighed at 3, facebook_combined from 930 stayed top-down (60,801 entries, 0.23
// ms) where bottom-up took 0.12 (15,346 entries from 2,863 vertices); at 2 alone
// soc-Slashdot0902 went bottom-up a level early from some sources (12188: 121,790
// entries from 77,299 vertices, 2.6 ms against top-down's 2.0).
// Only the rule that goes bottom-up weighs them: the later levels sweep few unvisited
// vertices, which mostly meet the frontier at once, and weighed there they came back
// top-down a level early and lost 20% on facebook_combined from some sources. On larger
// graphs a top-down claim misses the caches and the counts are weighed evenly: urand22
// with a weight of 2 stayed top-down at its peak level and took twice the time.
const (
	buCached       = 2
	buCachedVertex = 1.5
)

// cachedParents is the most vertices whose searches weigh bottom-up entries at buCached;
// tests lower it to exercise both weights.
var cachedParents uint32 = 1 << 19

// serialWork bounds the graph's size (vertices plus stored edges) times the workers
// beyond the first for which a search runs on the calling goroutine: it then saves that
// many workers' share of the time, and on small graphs waking the workers for each level
// and the compare-and-swap that lets them share the parents cost more than that. It is
// an eighth of Afforest's bound: a search's bottom-up levels need no atomics and gain
// from a second core on graphs that Afforest runs faster on one (soc-Slashdot0902).
// Tests set it to 0 and to ^0 to exercise both paths.
var serialWork uint64 = 1 << 18

// bfs is the state of one search.
type bfs struct {
	a       store.Adjacency
	c       *store.Compressed // non-nil when a is compressed: bottom-up decodes inline
	f       *store.Flat       // non-nil when a is flat
	n       uint32
	src     uint32 // the search's source (seeds sampleAt)
	workers int

	parent []uint32
	level  []uint32 // nil when the search writes no levels (Options.NoLevels)
	depth  uint32   // the largest level, once run returns
	// queue holds every vertex that was ever a top-down frontier, in order; [head, tail)
	// is the current one (GAPBS's sliding queue). A vertex enters it at most once, so n
	// entries suffice, and one more takes the branch-free claims' write past the last
	// (claimAllMax).
	queue      []uint32
	head, tail int
	// scoutAt is where frontierScout stopped summing the degrees of the frontier
	// [head, tail): tail when scout is the whole sum.
	scoutAt int
	qtail   atomic.Int64 // where workers append the next frontier

	front, next []uint64 // bitmaps for bottom-up levels
	bits        []uint64 // their own memory where the queue holds none (visitedBitmap)
	// done marks the vertices a bottom-up level on compressed shards need not look at:
	// visited, or without in-neighbours (never reached). Valid (doneValid) from the
	// second level of a run of bottom-up levels on: the first builds it from parent.
	done      []uint64
	doneValid bool
	serial    bool // the level runs on the calling goroutine alone (topDown)
	// buWeight and buVertex are what a bottom-up entry and an unvisited vertex cost in
	// top-down entries (buCached and buCachedVertex, or 1 and 0).
	buWeight, buVertex float64
	// maxDeg bounds every out-degree; when it is 0 (not known) the top-down claims sum
	// the degrees of the vertices they discover, else frontierScout does when needed.
	maxDeg   uint64
	pieces   []piece             // parts of long lists left for the second top-down pass
	found    []segment           // the queue's top-down discoveries, level by level
	foundBuf [statLevels]segment // found's first levels, allocated with the search's state
	piecesMu sync.Mutex
	ws       []workerState
	stats    []levelRec
	statBuf  [statLevels]levelRec // stats' first levels, allocated with the search's state
	t0       time.Time            // the search's start
	last     time.Duration        // the end of the last level recorded, from t0

	failed atomic.Bool
	errMu  sync.Mutex
	err    error
}

// workerState is one worker's scratch and counters, padded so that workers do not share
// cache lines. On 64-bit machines one worker's state fits a page (its first touch a
// fault).
type workerState struct {
	// scratch holds a serial top-down batch's entries (ents) or what a bottom-up level
	// found in a directory group (group): a worker runs one direction at a time. Both
	// hold no pointers (the collector sees words here). Not zeroed per level.
	scratch [scratchWords]uint64
	// ones is how many lists of one varint (of several bytes, or any where oneVarints
	// ran) the last serial top-down batch claimed: expandSerial's gate for oneVarints,
	// kept from level to level; oneNbrs is what oneVarints decoded
	ones    int
	oneNbrs [serialBatch]uint32

	out []uint32 // next-frontier vertices not yet flushed to the queue
	// listShard and degShard are the shards of the last list expanded and of the last
	// degree read (compressed graphs).
	listShard, degShard *store.Shard
	scout               uint64 // out-degrees of vertices this worker discovered top-down
	examined            uint64
	awake               uint64
	buf                 [store.BlockSize]uint32 // a decoded block (not zeroed per list)
	_                   [64]byte
}

// scratchWords is the size of workerState.scratch in words: the larger of ents and group.
const scratchWords = (max(unsafe.Sizeof([serialBatch]store.ListEntry{}), unsafe.Sizeof(store.GroupScan{})) + 7) / 8

// ents is the scratch as a serial top-down batch's entries.
func (ws *workerState) ents() *[serialBatch]store.ListEntry {
	return (*[serialBatch]store.ListEntry)(unsafe.Pointer(&ws.scratch))
}

// group is the scratch as what a bottom-up level found in a directory group.
func (ws *workerState) group() *store.GroupScan {
	return (*store.GroupScan)(unsafe.Pointer(&ws.scratch))
}

const flushAt = 1024

func newBFS(a store.Adjacency, workers int, levels bool) *bfs {
	b := &bfs{a: a, n: a.NumVertices(), workers: workers, ws: make([]workerState, workers)}
	// Fresh memory's first load maps the shared zero page and its first store then faults
	// again for a page of its own: the worker states, whose first access is a load (the
	// shard of the last list), are written first, a fault a page (one for one worker).
	clear(b.ws)
	b.stats, b.found = b.statBuf[:0], b.foundBuf[:0]
	b.c, _ = a.(*store.Compressed)
	b.f, _ = a.(*store.Flat)
	b.buWeight = 1
	if b.c != nil && b.n <= cachedParents {
		b.buWeight, b.buVertex = buCached, buCachedVertex
	}
	if workers == 1 && b.n < smallSearch {
		b.oneBlock(levels)
		return b
	}
	// init writes parent and level whole (one worker maps their pages in one call first,
	// more fault their own parts in parallel); the queue is written only as far as the
	// search reaches.
	ready := pages.Fill[uint32]
	if workers > 1 {
		ready = pages.Reserve[uint32]
	}
	b.parent = make([]uint32, b.n)
	ready(b.parent)
	if levels {
		b.level = make([]uint32, b.n)
		ready(b.level)
	}
	b.queue = make([]uint32, b.n+1) // a spare entry for the branch-free claims (claimAllMax)
	pages.Reserve(b.queue)
	return b
}

// smallSearch bounds the vertices of a one-worker search whose arrays oneBlock takes
// from one allocation: below it a parent array spans fewer pages than pages.Fill maps
// ahead (16), so init's stores fault its pages in either way.
const smallSearch = 1 << 14

// oneBlock takes parent, level (with levels) and the queue from one allocation, each
// on cache lines of its own, the queue after the arrays that init writes whole. In a
// fresh process a small graph's search paid for allocations of their own: on
// facebook_combined (4,039 vertices, 16 KiB arrays, a size class of one object a
// span) parent's and the queue's took 9 us on the device with 3 page faults (a span
// set up for each, the one before stored away) and the first level faulted in the
// queue's first page; the joint allocation (32 KiB) took 1.7 us without faults, and
// the queue's first entries lie on parent's last page, which init faulted in.
func (b *bfs) oneBlock(levels bool) {
	const line = 8 // uint64 words a cache line
	n := int(b.n)
	words := (n + 2*line - 1) / (2 * line) * line // a parent or level array's, whole lines
	total := words + (n+2)/2                      // parent and the queue's n+1 entries
	if levels {
		total += words
	}
	m := make([]uint64, total+line-1)
	at := int(-uintptr(unsafe.Pointer(unsafe.SliceData(m))) / 8 % line) // the first line
	b.parent = uint32s(m[at:at+words], n)
	at += words
	if levels {
		b.level = uint32s(m[at:at+words], n)
		at += words
	}
	b.queue = uint32s(m[at:], n+1)
}

// uint32s is the first n uint32s of the memory of m, which holds at least n/2 words.
func uint32s(m []uint64, n int) []uint32 {
	if n == 0 {
		return []uint32{}
	}
	_ = m[(n-1)/2]
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(m))), n)
}

func (b *bfs) init() {
	if b.workers == 1 { // no closure to allocate
		fillUnreached(b.parent)
		if b.level != nil {
			fillUnreached(b.level)
		}
		return
	}
	parallel.For(b.workers, int(b.n), 1<<16, func(_, lo, hi int) {
		fillUnreached(b.parent[lo:hi])
		if b.level != nil {
			fillUnreached(b.level[lo:hi])
		}
	})
}

// fillUnreached sets every entry of p to unreached: the first fillBlock entries one at
// a time, the rest by copies of them (memmove's vector stores, a few instructions for
// each 4 KiB where the loop took four an entry; on a road map the loop was 1.3% of a
// search's instructions).
func fillUnreached(p []uint32) {
	const fillBlock = 1024
	head := p[:min(len(p), fillBlock)]
	for i := range head {
		head[i] = unreached
	}
	for rest := p[len(head):]; len(rest) > 0; {
		rest = rest[copy(rest, head):]
	}
}

func (b *bfs) fail(err error) {
	b.errMu.Lock()
	if b.err == nil {
		b.err = err
	}
	b.errMu.Unlock()
	b.failed.Store(true)
}

// run is GAPBS's DOBFS loop: go bottom-up when the edges out of the frontier (scout)
// exceed the edges not yet checked over alpha; come back once the frontier shrinks below
// n/beta. Two rules are added, both on an estimate of the entries the coming bottom-up
// level would examine, taken by scanning the lists of a random sample of unvisited
// vertices against the frontier (sampleBottomUp): go bottom-up only when the frontier's
// edges (what top-down would examine) exceed that estimate, and on an undirected graph
// come back top-down when, and only when, they fall below it plus a later bottom-up
// level's fixed cost (topDownCheaper, in place of beta's rule). GAPBS's rule counts
// edges alone; a bottom-up level's cost depends on how soon each unvisited vertex meets
// the frontier.
// On web graphs many vertices stay unreached for several levels and each bottom-up
// level scans their whole lists again (cnr-2000: a first bottom-up level of 3.2M
// entries where top-down would read about 0.6M); on dense social graphs a frontier that
// grows makes the next bottom-up level cheap, though the last one was not
// (facebook_combined). Going bottom-up, the estimate is weighed by what a bottom-up
// entry and vertex cost against a top-down entry (buCost), and a frontier of at most
// n/buScan out-edges stays top-down unsampled (a bottom-up level reads all n parents).
// strict turns these rules off. A search stops once every vertex is reached.
func (b *bfs) run(src uint32, alpha, beta int, strict bool) error {
	b.parent[src] = src
	if b.level != nil {
		b.level[src] = 0
	}
	b.queue[0], b.head, b.tail, b.scoutAt = src, 0, 1, 1
	edgesToCheck := int64(b.a.NumEdges())
	scout := int64(b.a.Degree(store.Out, src))
	edges := uint64(scout) // the frontier's out-edges; ^0 when not counted
	depth := uint32(0)
	unvisited := uint64(b.n) - 1
	b.src = src
	exact := true // scout is the frontier's out-edges, not an estimate
	for b.head < b.tail {
		if unvisited == 0 {
			// every vertex is reached: the frontier's lists can claim none (a road
			// map's last level went bottom-up, its estimate 0, and scanned every
			// vertex's parent for nothing)
			b.stat(depth, uint64(b.tail-b.head), false, 0)
			depth++
			break
		}
		if scout >= 0 && scout > edgesToCheck/int64(alpha) && (strict || buScan == 0 || uint64(scout)*buScan > uint64(b.n)) {
			bottomUp := strict
			if !strict {
				smp := sampleAt(src, depth, false)
				smp.visited = true // the frontier's bitmap is built for a bottom-up level alone
				k := buSampleSize(unvisited)
				// the frontier's edges summed whole: draws that show a dearer
				// bottom-up level settle it top-down (dearer) whatever the rest find;
				// the rules below would read the whole too where they go top-down
				if b.scoutAt < b.tail {
					scout += int64(b.sumOutDegrees(&b.ws[0], b.queue[b.scoutAt:b.tail]))
					b.scoutAt = b.tail
				}
				if drawsStop {
					smp.most, smp.edges = k, scout
				}
				b.drawBottomUp(&smp, unvisited, min(buFirst, k))
				if smp.most == 0 || !b.dearer(&smp, unvisited) {
					est := b.buCost(&smp, unvisited)
					// the first draws decide when the frontier's edges exceed buMargin
					// times their estimate, or fall below it over buMargin
					decided := k > buFirst && smp.found == buFirst && (float64(scout) > buMargin*est || buMargin*float64(scout) < est)
					if !decided {
						b.drawBottomUp(&smp, unvisited, k)
						est = b.buCost(&smp, unvisited)
					}
					bottomUp = float64(scout) > est
				}
				edges = uint64(scout)
			}
			if bottomUp {
				b.visitedBitmap()
				last := b.bottomUpLevels(&depth, &unvisited, &scout, &edges, beta, strict)
				exact = true
				if b.failed.Load() {
					return b.err
				}
				if unvisited == 0 {
					// every vertex is reached: the last frontier (if any) is recorded by
					// its size as below, without the queue, which no level reads again
					if last > 0 {
						b.stat(depth, last, false, 0)
						depth++
					}
					break
				}
				b.bitmapToQueue()
				b.scoutAt = b.tail
				continue
			}
		}
		if scout >= 0 && exact {
			edgesToCheck -= scout
		}
		frontier := uint64(b.tail - b.head)
		s, examined := b.topDown(depth, edges)
		b.stat(depth, frontier, false, examined)
		if b.failed.Load() {
			return b.err
		}
		if scout < 0 || !exact { // the frontier's degrees, known now: its lists were expanded whole
			edgesToCheck -= int64(examined)
		}
		unvisited -= uint64(b.tail - b.head)
		if b.level != nil {
			b.found = append(b.found, segment{uint32(b.head), uint32(b.tail), depth + 1})
		} else {
			b.rewind()
		}
		scout, edges, exact = int64(s), s, true
		b.scoutAt = b.tail
		if b.maxDeg > 0 {
			scout, edges, exact = b.frontierScout(edgesToCheck/int64(alpha), edgesToCheck)
		}
		depth++
	}
	b.depth = depth - 1 // the last level discovered no vertex
	return nil
}

// rewind moves the frontier [head, tail) to the start of the queue. A search that
// writes no levels reads no frontier after its level (fillLevels reads them all), so
// its frontiers can share the queue's first entries: a road map's levels of a few
// hundred vertices then reuse the same cached lines instead of running through the
// queue's n entries of fresh pages, a page fault each 1024 vertices.
func (b *bfs) rewind() {
	k := copy(b.queue, b.queue[b.head:b.tail])
	b.head, b.tail = 0, k
	b.qtail.Store(int64(k))
}

// bottomUpLevels runs bottom-up levels from the frontier in b.front until run's rules
// send the search back top-down, and leaves the new frontier in b.front; it returns
// that frontier's size.
func (b *bfs) bottomUpLevels(depth *uint32, unvisited *uint64, scout *int64, edges *uint64, beta int, strict bool) uint64 {
	awake := uint64(b.tail - b.head)
	b.doneValid = false
	for {
		old := awake
		var examined, next uint64
		awake, examined, next = b.bottomUp(*depth)
		b.doneValid = b.c != nil
		b.stat(*depth, old, true, examined)
		if b.failed.Load() {
			return 0
		}
		*depth++
		*unvisited -= awake
		b.front, b.next = b.next, b.front
		if strict || b.a.Directed() {
			if awake < old && awake <= uint64(b.n)/uint64(beta) {
				*scout, *edges = 1, ^uint64(0)
				return awake
			}
			continue
		}
		// with every vertex reached run stops at once: a bottom-up level would sweep
		// the bitmaps for none; with none found the frontier is empty and the search over
		if *unvisited == 0 || awake == 0 || b.topDownCheaper(*depth, *unvisited, next, examined-awake) {
			*scout, *edges = int64(next), next
			return awake
		}
	}
}

// topDownCheaper says whether a top-down level from a frontier of next out-edges would
// examine fewer entries than a bottom-up one with unvisited vertices left, by
// sampleBottomUp's estimate plus the bottom-up level's fixed cost (sweepCost): from its
// first buFirst draws where they differ by more than buMargin times, else from all. It
// draws none when next is at least most plus that cost, most being what a bottom-up
// level can examine at most: a vertex the level before left unvisited read its whole
// list there, so the lists of the unvisited vertices hold at most that level's entries
// less one for each vertex it found (bottomUpLevels). On dense social graphs the first
// bottom-up level wakes vertices whose lists sum to many times that (facebook_combined:
// its two decisions a search drew 32-63 vertices each, 4-14 us).
//
// It alone sends an undirected search back top-down: GAPBS's rule (a frontier that
// shrinks below n/beta) came back from frontiers whose lists reach mostly visited
// vertices, where a bottom-up level finds the few left for a fraction of it. On the
// device, kron22 in degree order from 2544544: 146,069 vertices top-down examined
// 169,415 entries in 7.1 ms, bottom-up 2,098 in 2.5 even as the first level of a new
// run of bottom-up levels (0.25-0.5 ms here as the next level of the run);
// soc-Slashdot0902 from 5882: 3,921 vertices 0.12 ms top-down, 0.04 bottom-up.
func (b *bfs) topDownCheaper(depth uint32, unvisited, next, most uint64) bool {
	sweep := b.sweepCost()
	if float64(next) >= float64(most)+sweep {
		return false
	}
	smp := sampleAt(b.src, depth, true)
	k := buSampleSize(unvisited)
	b.drawBottomUp(&smp, unvisited, min(buFirst, k))
	est := b.estimate(&smp, unvisited) + sweep
	if k > buFirst && smp.found == buFirst && (est > buMargin*float64(next) || buMargin*est < float64(next)) {
		return float64(next) < est
	}
	b.drawBottomUp(&smp, unvisited, k)
	return float64(next) < b.estimate(&smp, unvisited)+sweep
}

// buSweep weighs the fixed cost of a bottom-up level after the first of a run on
// compressed shards: it reads a word of the done bitmap and writes one of the next
// frontier's for each 64 vertices, 16 bytes, at buScan's rate a byte (a parent, four
// bytes, is a sixteenth of a top-down entry): n/buSweep top-down entries. The levels
// that end a search from a frontier of a few hundred vertices then stay top-down
// (cnr-2000 from 23308: 453 vertices, 1,577 entries, 20 us the rest of the search
// top-down and 28 with one more bottom-up level), while frontiers whose lists are
// mostly visited go bottom-up once more (kron22 from 127665: 48,589 vertices, 51,215
// entries top-down against 1,774 bottom-up).
const buSweep = 256

// sweepCost is a later bottom-up level's fixed cost in top-down entries: n/buSweep on
// compressed shards (bottomUpCompressed's done bitmap), n/buScan elsewhere (every
// parent read); 0 where tests set buScan to 0.
func (b *bfs) sweepCost() float64 {
	switch {
	case buScan == 0:
		return 0
	case b.c != nil:
		return float64(b.n) / buSweep
	}
	return float64(b.n) / float64(buScan)
}

// stat records a level. Its time runs from the end of the level before (the search's
// start for the first), so that one clock read a level serves both ends: the direction
// decision before a level counts with it, and the levels' times sum to the search's
// but for the level fill after the last. A record holds no pointer, so the thousands
// of levels of a road map or a mesh cost no write barriers and no scanning.
func (b *bfs) stat(depth uint32, frontier uint64, bottomUp bool, examined uint64) {
	now := time.Since(b.t0)
	b.stats = append(b.stats, levelRec{depth, bottomUp, frontier, examined, now - b.last})
	b.last = now
}

// statLevels is the levels a search records before its stats grow on the heap: the
// searches of social and web graphs run fewer.
const statLevels = 32

// levelRec is a level's LevelStat while the search runs.
type levelRec struct {
	depth              uint32
	bottomUp           bool
	frontier, examined uint64
	took               time.Duration
}

// levelStats is the search's levels as Result.Levels gives them.
func (b *bfs) levelStats() []LevelStat {
	out := make([]LevelStat, len(b.stats))
	for i, r := range b.stats {
		dir := TopDown
		if r.bottomUp {
			dir = BottomUp
		}
		out[i] = LevelStat{Level: int(r.depth), Frontier: r.frontier, Direction: dir, EdgesExamined: r.examined, Seconds: r.took.Seconds()}
	}
	return out
}

// summarize fills Reached and EdgesTraversed as Summarize defines them (Depth is the
// search's).
func summarize(a store.Adjacency, r *Result) {
	if c, ok := a.(*store.Compressed); ok {
		Summarize(c.Graph(), r)
		return
	}
	r.Reached, r.EdgesTraversed = 0, 0
	for v, p := range r.Parent { // a vertex has a parent exactly when it has a level
		if p != unreached {
			r.Reached++
			r.EdgesTraversed += uint64(a.Degree(store.Out, uint32(v)))
		}
	}
	if !a.Directed() {
		r.EdgesTraversed /= 2
	}
}

// segment is the part [lo, hi) of the queue that a top-down level discovered, at level
// (the queue's n+1 entries are indexed by uint32s).
type segment struct{ lo, hi, level uint32 }

// fillLevels writes the level of every vertex that a top-down level discovered, from the
// queue. Claims write only the parent: a store per discovered vertex to another random
// line, behind the claim's compare-and-swap, cost more there than in this pass of plain
// stores after the search. Bottom-up levels write levels as they visit, in vertex order.
func (b *bfs) fillLevels() {
	segs := b.found
	if len(segs) == 0 {
		return
	}
	if b.workers == 1 { // no closure to allocate
		for _, s := range segs {
			for _, v := range b.queue[s.lo:s.hi] {
				b.level[v] = s.level
			}
		}
		return
	}
	lo0 := int(segs[0].lo)
	parallel.For(b.workers, int(segs[len(segs)-1].hi)-lo0, 1<<14, func(_, lo, hi int) {
		lo, hi = lo+lo0, hi+lo0
		i := sort.Search(len(segs), func(i int) bool { return int(segs[i].hi) > lo })
		for ; i < len(segs) && int(segs[i].lo) < hi; i++ {
			l := segs[i].level
			for _, v := range b.queue[max(lo, int(segs[i].lo)):min(hi, int(segs[i].hi))] {
				b.level[v] = l
			}
		}
	})
}
