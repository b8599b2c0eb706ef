package ingest

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/oocgraph/ooc/store"
)

// The BFS order (store.OrderBFS) numbers the vertices breadth-first, Cuthill-McKee style
// (Cuthill and McKee, 1969): each connected component in turn, from its smallest input
// id; the children of each vertex get consecutive numbers in ascending degree (ties by
// input id), in the order of their parents. (Starting from a pseudo-peripheral vertex
// instead, found by a first sweep, doubled the cost and changed the lists' bytes by 0.1%
// on a grid, 0.3% on kron18 and 6% on luxembourg_osm.) Neighbours then get nearby numbers, so the sorted lists' gaps are small
// on meshes, road maps and graphs whose file numbers them at random, and a search reads
// nearby memory. Components and numbering follow the undirected view: a directed graph's
// out-lists and in-lists together, its degree the sum of both.
//
// It reads the lists of a graph already built in the file's order (reorder.go), each
// level's frontier in parallel, and holds 4 bytes a vertex for the numbering, 4 for its
// inverse (which is the queue), a bit for "numbered" and at most 4 for the next
// frontier's children as they are gathered: bfsOrderBytes. The numbering does not depend
// on the workers: a vertex reached from several parents of a level goes to the one
// numbered first (an atomic minimum), and the children are placed in the parents' order.

// bfsOrderBytes is what the BFS order holds per vertex at most (above).
const bfsOrderBytes = 13

// listBytes is what the pager counts for a neighbour read: more than the codec takes
// for one, so that the pages are released early rather than late.
const listBytes = 4

// pageBytes is what the pager counts for a vertex looked up out of order, in each
// direction: its list and its directory entry, each a fault that maps the 64 KiB around
// it (the kernel's fault-around). Counted as a page each, the pages a search touched
// reached 100 MiB between releases on a 48 MiB budget.
const pageBytes = 2 * faultBytes

// faultBytes is what one page fault of a file mapping maps: fault_around_bytes, 64 KiB.
const faultBytes = 64 << 10

// bfsChunk is how many frontier vertices one task of a level takes.
const bfsChunk = 256

// A level runs on several goroutines only when it has bfsParallelLevel vertices or more
// and there are bfsParallelWorkers workers or more: the parallel levels read each
// frontier list twice (claim, then gather) where the serial one reads it once, so two
// workers take twice the CPU for the serial time; and high-diameter graphs have
// thousands of small levels, each three barriers when parallel. Tests lower the level.
const bfsParallelWorkers = 3

var bfsParallelLevel = 8 * bfsChunk

// unnumbered marks a vertex not yet claimed or numbered in perm.
const unnumbered = math.MaxUint32

// bfsOrderer is one numbering's state.
type bfsOrderer struct {
	adj        store.Adjacency
	pg         *pager // nil: nothing to release
	directed   bool
	workers    int
	perm, inv  []uint32 // perm[v]: v's number (during a level: the claiming parent's); inv: numbers back
	seen       []uint64 // bit v: v is numbered
	randomRead int64    // what the pager counts for a vertex looked up out of order
	next       int      // vertices numbered so far
	bufs       []workerBuf
}

// workerBuf is one worker's decoding buffers and the children it gathered in a level.
type workerBuf struct {
	nbrs, in []uint32
	kids     []uint32
	keys     []uint64 // byDegree's
}

// chunkOut is where a level's chunk put its children: in worker w's kids[lo:hi].
type chunkOut struct{ w, lo, hi int }

// bfsOrder returns the BFS order of adj's vertices: perm[v] is the new number of v and
// inv its inverse. pg (when not nil) releases the pages of the lists read.
func bfsOrder(adj store.Adjacency, workers int, pg *pager) (perm, inv []uint32, err error) {
	n := int(adj.NumVertices())
	o := &bfsOrderer{adj: adj, pg: pg, directed: adj.Directed(), workers: max(workers, 1),
		perm: make([]uint32, n), inv: make([]uint32, n), seen: make([]uint64, (n+63)/64)}
	for i := range o.perm {
		o.perm[i] = unnumbered
	}
	o.bufs = make([]workerBuf, o.workers)
	o.randomRead = pageBytes
	if o.directed {
		o.randomRead *= 2
	}
	for s := 0; s < n; s++ {
		if o.isSeen(uint32(s)) {
			continue
		}
		if o.degree(uint32(s)) == 0 {
			o.number(uint32(s))
			continue
		}
		if err := o.component(uint32(s)); err != nil {
			return nil, nil, err
		}
	}
	return o.perm, o.inv, nil
}

func (o *bfsOrderer) isSeen(v uint32) bool {
	return atomic.LoadUint64(&o.seen[v/64])&(1<<(v%64)) != 0
}

func (o *bfsOrderer) number(v uint32) {
	o.perm[v], o.inv[o.next] = uint32(o.next), v
	o.seen[v/64] |= 1 << (v % 64)
	o.next++
}

func (o *bfsOrderer) degree(v uint32) uint32 {
	o.pg.add(o.randomRead)
	return undirectedDegree(o.adj, v)
}

// neighbours returns v's neighbours in the undirected view, in bf's buffers.
func (o *bfsOrderer) neighbours(v uint32, bf *workerBuf) ([]uint32, error) {
	var err error
	bf.nbrs, err = o.adj.List(store.Out, v, unnumbered, bf.nbrs)
	if err == nil && o.directed {
		bf.in, err = o.adj.List(store.In, v, unnumbered, bf.in)
		bf.nbrs = append(bf.nbrs, bf.in...)
	}
	o.pg.add(o.randomRead + listBytes*int64(len(bf.nbrs)))
	return bf.nbrs, err
}

// component numbers the unnumbered vertices reachable from s, level by level.
func (o *bfsOrderer) component(s uint32) error {
	lo := o.next
	o.number(s)
	for hi := o.next; lo < hi; lo, hi = hi, o.next {
		if err := o.level(lo, hi); err != nil {
			return err
		}
	}
	return nil
}

// level numbers the children of the frontier inv[lo:hi]: claim, gather, place.
func (o *bfsOrderer) level(lo, hi int) error {
	if o.workers < bfsParallelWorkers || hi-lo < bfsParallelLevel {
		return o.serialLevel(lo, hi)
	}
	chunks := (hi - lo + bfsChunk - 1) / bfsChunk
	w := min(o.workers, chunks)
	if err := o.run(w, chunks, func(c int, bf *workerBuf, _ int) error { return o.claim(lo+c*bfsChunk, min(hi, lo+(c+1)*bfsChunk), bf) }); err != nil {
		return err
	}
	outs := make([]chunkOut, chunks)
	for i := range o.bufs[:w] {
		o.bufs[i].kids = o.bufs[i].kids[:0]
	}
	if err := o.run(w, chunks, func(c int, bf *workerBuf, wi int) error {
		start := len(bf.kids)
		err := o.gather(lo+c*bfsChunk, min(hi, lo+(c+1)*bfsChunk), bf)
		outs[c] = chunkOut{w: wi, lo: start, hi: len(bf.kids)}
		return err
	}); err != nil {
		return err
	}
	at := make([]int, chunks)
	for c, oc := range outs {
		at[c] = o.next
		o.next += oc.hi - oc.lo
	}
	return o.run(w, chunks, func(c int, _ *workerBuf, _ int) error {
		oc := outs[c]
		for i, v := range o.bufs[oc.w].kids[oc.lo:oc.hi] {
			o.perm[v], o.inv[at[c]+i] = uint32(at[c]+i), v
			atomic.OrUint64(&o.seen[v/64], 1<<(v%64))
		}
		return nil
	})
}

// serialLevel is level on one goroutine, in one read of each list: each frontier
// vertex, in order, takes its neighbours not yet numbered as children, which is what
// the claims come to (the first parent to reach a vertex is the one numbered first).
func (o *bfsOrderer) serialLevel(lo, hi int) error {
	bf := &o.bufs[0]
	for i := lo; i < hi; i++ {
		nbrs, err := o.neighbours(o.inv[i], bf)
		if err != nil {
			return err
		}
		start := o.next
		for _, v := range nbrs {
			if o.perm[v] == unnumbered {
				o.perm[v], o.inv[o.next] = 0, v // numbered below, after the sort
				o.next++
			}
		}
		kids := o.inv[start:o.next]
		o.byDegree(kids, bf)
		for k, v := range kids {
			o.perm[v] = uint32(start + k)
			o.seen[v/64] |= 1 << (v % 64)
		}
	}
	return nil
}

// byDegree sorts vertices by ascending degree, ties by id.
func (o *bfsOrderer) byDegree(vs []uint32, bf *workerBuf) {
	if len(vs) < 2 {
		return
	}
	keys := bf.keys[:0]
	for _, v := range vs {
		keys = append(keys, uint64(o.degree(v))<<32|uint64(v))
	}
	slices.Sort(keys)
	for i, k := range keys {
		vs[i] = uint32(k)
	}
	bf.keys = keys
}

// run calls fn for chunks 0..n-1 on w goroutines (the caller's alone when w is 1), each
// with its worker's buffers and index.
func (o *bfsOrderer) run(w, n int, fn func(c int, bf *workerBuf, wi int) error) error {
	if w <= 1 {
		for c := range n {
			if err := fn(c, &o.bufs[0], 0); err != nil {
				return err
			}
		}
		return nil
	}
	var next atomic.Int64
	errs := make([]error, w)
	var wg sync.WaitGroup
	for wi := range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := int(next.Add(1) - 1); c < n && errs[wi] == nil; c = int(next.Add(1) - 1) {
				errs[wi] = fn(c, &o.bufs[wi], wi)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// claim lets each frontier vertex inv[i], i in [lo, hi), claim its unnumbered
// neighbours: each keeps the smallest claimant's number.
func (o *bfsOrderer) claim(lo, hi int, bf *workerBuf) error {
	for i := lo; i < hi; i++ {
		nbrs, err := o.neighbours(o.inv[i], bf)
		if err != nil {
			return err
		}
		k := uint32(i)
		for _, v := range nbrs {
			if o.isSeen(v) {
				continue
			}
			p := &o.perm[v]
			for old := atomic.LoadUint32(p); k < old && !atomic.CompareAndSwapUint32(p, old, k); old = atomic.LoadUint32(p) {
			}
		}
	}
	return nil
}

// gather appends to bf.kids the children of each frontier vertex inv[i], i in [lo, hi),
// in order: the neighbours it claimed, once each, by ascending degree and id.
func (o *bfsOrderer) gather(lo, hi int, bf *workerBuf) error {
	for i := lo; i < hi; i++ {
		nbrs, err := o.neighbours(o.inv[i], bf)
		if err != nil {
			return err
		}
		start := len(bf.kids)
		for _, v := range nbrs {
			if !o.isSeen(v) && atomic.LoadUint32(&o.perm[v]) == uint32(i) {
				bf.kids = append(bf.kids, v)
			}
		}
		kids := bf.kids[start:]
		if len(kids) > 1 {
			o.byDegree(kids, bf)
			bf.kids = bf.kids[:start+len(slices.Compact(kids))]
		}
	}
	return nil
}
