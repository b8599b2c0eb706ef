package ingest

import (
	"cmp"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/store"
)

// The degree order numbers vertices by descending degree in the input, ties by ascending
// id (FORMAT.md, vertex_order). Hubs get the smallest ids, so the sorted lists start with
// them and their deltas are short: on kron scale 22 the neighbour bytes shrink from 17.8 to
// 13.2 bits each, and the engines read fewer bytes (bottom-up BFS meets a parent among
// the first neighbours, Afforest samples the hubs).

const degPageBits = 16

// degreeCounter counts endpoint occurrences by id during the scan, before the vertex
// count is known, in pages of 2^16 counters allocated on first touch. Each batch's ids
// are ordered by page first (one counting pass, byPage), then counted page by
// page with plain increments under the page's lock, each batch starting at another page
// so that concurrent batches rarely meet. Adding per endpoint into random counters,
// atomically or into a private page set per core, was a sixth of a degree-ordered
// ingest's CPU time on 16 cores (kron23): cache and TLB misses, and hub lines shared by
// every core. The sums do not depend on how batches interleave.
type degreeCounter struct {
	pages [1 << (32 - degPageBits)]atomic.Pointer[degPage]
	locks [1 << (32 - degPageBits)]sync.Mutex
	top   atomic.Uint64 // largest id + 1
	turn  atomic.Uint64 // rotates the first page of each batch
}

type degPage [1 << degPageBits]uint32

func (c *degreeCounter) page(id uint64) *degPage {
	slot := &c.pages[id>>degPageBits]
	if pg := slot.Load(); pg != nil {
		return pg
	}
	slot.CompareAndSwap(nil, new(degPage))
	return slot.Load()
}

// countScratch is one add call's buffers.
type countScratch struct {
	ids, tmp []uint64
	runs     []int // the start of each page's run of ids, and len(ids)
}

var countScratchPool = sync.Pool{New: func() any { return new(countScratch) }}

// add counts both endpoints of every edge (self-loops only when kept); ids must be at most
// MaxVertexID.
func (c *degreeCounter) add(b []parse.Edge, keepLoops bool) {
	sc := countScratchPool.Get().(*countScratch)
	defer countScratchPool.Put(sc)
	ids := reuse(sc.ids, 2*len(b))
	var top uint64
	for _, e := range b {
		top = max(top, e.U+1, e.V+1) // a dropped self-loop's vertex still counts
		if e.U != e.V || keepLoops {
			ids = append(ids, e.U, e.V)
		}
	}
	sc.ids = ids
	if cap(sc.tmp) < len(ids) {
		sc.tmp = make([]uint64, len(ids), cap(ids))
	}
	ids = byPage(ids, sc.tmp[:len(ids)])
	runs := sc.runs[:0]
	for i, id := range ids {
		if i == 0 || id>>degPageBits != ids[i-1]>>degPageBits {
			runs = append(runs, i)
		}
	}
	runs = append(runs, len(ids))
	sc.runs = runs
	if n := len(runs) - 1; n > 0 {
		first := int(c.turn.Add(1) % uint64(n))
		for k := range n {
			r := (first + k) % n
			run := ids[runs[r]:runs[r+1]]
			pi := run[0] >> degPageBits
			pg := c.page(run[0])
			c.locks[pi].Lock()
			for _, id := range run {
				pg[id&(1<<degPageBits-1)]++
			}
			c.locks[pi].Unlock()
		}
	}
	for old := c.top.Load(); top > old && !c.top.CompareAndSwap(old, top); old = c.top.Load() {
	}
}

// pagePassBits is the widest span of pages byPage orders in one counting pass: its
// 4096 counters stay in L1.
const pagePassBits = 12

// byPage orders ids by their page (id>>degPageBits), using tmp as scratch, and returns
// the ordered ids (ids or tmp). The counting needs the pages grouped, not the ids sorted:
// one counting pass on the page where a full radix sort took two or three (a degree-ordered
// kron23 ingest on 16 cores: 4.4 of 38 CPU-seconds).
func byPage(ids, tmp []uint64) []uint64 {
	if len(ids) == 0 {
		return ids
	}
	lo, hi := ids[0]>>degPageBits, ids[0]>>degPageBits
	for _, id := range ids {
		lo, hi = min(lo, id>>degPageBits), max(hi, id>>degPageBits)
	}
	if hi-lo >= 1<<pagePassBits {
		return radixSort(ids, tmp)
	}
	var count [1<<pagePassBits + 1]uint32
	for _, id := range ids {
		count[(id>>degPageBits-lo)&(1<<pagePassBits-1)+1]++
	}
	for i := 1; i < len(count); i++ {
		count[i] += count[i-1]
	}
	for _, id := range ids {
		p := (id>>degPageBits - lo) & (1<<pagePassBits - 1)
		tmp[count[p]] = id
		count[p]++
	}
	return tmp
}

// flatten returns the counts of ids [0, n), its pages copied on up to workers
// goroutines.
func (c *degreeCounter) flatten(n uint64, workers int) []uint32 {
	deg := make([]uint32, n)
	pages := int((n + 1<<degPageBits - 1) >> degPageBits)
	inRanges(pages, rangesFor(pages, workers, 1), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			if pg := c.pages[i].Load(); pg != nil {
				copy(deg[i<<degPageBits:], pg[:])
			}
		}
	})
	return deg
}

// rangesFor is how many ranges of at least least elements each [0, n) is cut into for
// workers goroutines: at most workers, at least one.
func rangesFor(n, workers, least int) int { return max(min(workers, n/max(least, 1)), 1) }

// inRanges cuts [0, n) into w ranges and runs body(i, lo, hi) for range i on a goroutine
// of its own.
func inRanges(n, w int, body func(i, lo, hi int)) {
	var wg sync.WaitGroup
	for i := range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body(i, i*n/w, (i+1)*n/w)
		}()
	}
	wg.Wait()
}

// degCap bounds the counting sort's buckets (a histogram of 256 KiB a goroutine); the
// vertices of larger degree, hubs and few, share the top bucket, which is then sorted
// exactly.
const degCap = 1<<16 - 1

// degreeOrder returns the degree order of the vertices with degrees deg: perm[v] is the
// new number of v and inv its inverse. A stable counting sort by degree, descending, on
// up to workers goroutines, each counting and then placing a range of vertices (ranges
// in id order keep ties in id order): O(n + workers*degCap), no comparison sort over
// all vertices. On one core it was the serial step between the scan and the replay
// (kron23: 0.10-0.19 s on the H100 host).
func degreeOrder(deg []uint32, workers int) (perm, inv []uint32) {
	n := len(deg)
	w := rangesFor(n, workers, 1<<16) // at least 64K vertices a goroutine
	tops := make([]uint32, w)
	inRanges(n, w, func(i, lo, hi int) {
		var m uint32
		for _, d := range deg[lo:hi] {
			m = max(m, d)
		}
		tops[i] = m
	})
	top := slices.Max(tops)
	c := min(top, degCap)
	// bucket k holds degree c-k (k = 0: degree c and above); start[i][k] is where range
	// i's first vertex of bucket k goes
	start := make([][]uint32, w)
	inRanges(n, w, func(i, lo, hi int) {
		h := make([]uint32, int(c)+1)
		for _, d := range deg[lo:hi] {
			h[c-min(d, c)]++
		}
		start[i] = h
	})
	var at uint32
	for k := range int(c) + 1 {
		for i := range w {
			at, start[i][k] = at+start[i][k], at
		}
	}
	topBucket := n
	if c > 0 {
		topBucket = int(start[0][1])
	}
	inv = make([]uint32, n)
	inRanges(n, w, func(i, lo, hi int) {
		h := start[i]
		for v, d := range deg[lo:hi] {
			k := c - min(d, c)
			inv[h[k]] = uint32(lo + v)
			h[k]++
		}
	})
	if top > degCap {
		slices.SortStableFunc(inv[:topBucket], func(a, b uint32) int { return cmp.Compare(deg[b], deg[a]) })
	}
	perm = make([]uint32, n)
	inRanges(n, w, func(_, lo, hi int) {
		for i, v := range inv[lo:hi] {
			perm[v] = uint32(lo + i)
		}
	})
	return perm, inv
}

// OrderAuto lets ingest choose the vertex order: the degree order when it makes the graph
// smaller, counting its ids.bin, else the file's own. Graphs numbered at random (Kronecker,
// many social networks) shrink by about a fifth in degree order and their searches run
// 2-4x faster; graphs whose numbering has locality (web crawls, road networks, meshes)
// grow (cnr-2000: 12.8 -> 16.8 bits per edge, luxembourg_osm: 40.8 -> 59.1).
const OrderAuto = "auto"

// CheckOrder checks a vertex order (Options.Order, --order); "" is the input order.
func CheckOrder(s string) error {
	switch s {
	case "", store.OrderInput, store.OrderDegree, store.OrderBFS, store.OrderBisect, OrderAuto:
		return nil
	}
	return fmt.Errorf("ingest: vertex order %q, expected %s, %s, %s, %s or %s: %w", s, store.OrderInput, store.OrderDegree, store.OrderBFS, store.OrderBisect, OrderAuto, parse.ErrBadInput)
}

// sampleCap bounds the sampled list entries (16 bytes each: 4 MiB), and so the time to
// encode them in each order, which --order auto pays even when it keeps the file's order
// (with 1M entries that was 0.2 of the 0.6 CPU-seconds of a grid of 2^22 vertices); a
// small --mem lowers it to a sixteenth of the budget.
const sampleCap = 1 << 18

// sampleBuf is how many sampled entries add collects before it takes the lock.
const sampleBuf = 512

// listSample keeps the complete lists of a deterministic sample of source vertices, those
// whose hash is 0 modulo rate, to estimate the encoded size of the graph in either order
// (orderEstimate). When the sample outgrows sampleCap the rate doubles and the entries of
// the vertices it drops go; so the sample is the lists of the vertices with hash 0 modulo
// the smallest rate whose sample fits, whatever the order the batches came in.
type listSample struct {
	cap     int
	mu      sync.Mutex
	rate    atomic.Uint64 // a power of two
	entries []parse.Edge  // U the list's vertex, V a neighbour
}

func newListSample(cap int) *listSample {
	s := &listSample{cap: cap}
	s.rate.Store(1)
	return s
}

func sampleHash(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	return x ^ x>>33
}

// listHash picks the sampled lists: the vertices whose hash is 0 modulo the rate. It
// runs twice an input edge while the input is read (autoSide), so it is one multiply
// (Fibonacci hashing: the product's upper half mixes every bit of an id below 2^32):
// sampling random batches took 4-5 ns an edge with it, 7-12 with sampleHash, murmur3's
// finalizer.
func listHash(x uint64) uint64 { return x * 0x9e3779b97f4a7c15 >> 32 }

// add samples the lists that batch b contributes to: with out, u's list gets v; with
// in, v's list gets u (an undirected graph's lists take both, a directed graph's
// out-lists and in-lists are sampled apart). Self-loops go only when kept. The sampled entries
// collect in a buffer on the stack, merged under the lock each time it fills: a buffer
// on the heap (kept in a sync.Pool) was allocated again after every collection, and
// while the rate is low the sample takes every entry (kron18 on 2 cores: the sampling
// took 0.7 s of a 0.9 s scan).
func (s *listSample) add(b []parse.Edge, out, in, keepLoops bool) {
	var buf [sampleBuf]parse.Edge
	n := 0
	mask := s.rate.Load() - 1
	for _, e := range b {
		if e.U == e.V && !keepLoops {
			continue
		}
		if n >= len(buf)-1 {
			mask = s.merge(buf[:n])
			n = 0
		}
		if out && listHash(e.U)&mask == 0 {
			buf[n] = e
			n++
		}
		if in && (e.U != e.V || !out) && listHash(e.V)&mask == 0 {
			buf[n] = parse.Edge{U: e.V, V: e.U}
			n++
		}
	}
	if n > 0 {
		s.merge(buf[:n])
	}
}

// merge adds sampled entries to the sample, doubling the rate while the sample is over
// its cap, and returns the rate's mask.
func (s *listSample) merge(es []parse.Edge) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	mask := s.rate.Load() - 1 // the rate may have grown since
	if s.entries == nil {
		// All at once: grown by append, the sample was copied about 30 times on its
		// way to the cap, into fresh pages each time.
		s.entries = make([]parse.Edge, 0, s.cap+sampleBuf)
	}
	for _, e := range es {
		if listHash(e.U)&mask == 0 {
			s.entries = append(s.entries, e)
		}
	}
	for len(s.entries) > s.cap && s.rate.Load() < maxListRate {
		r := 2 * s.rate.Load()
		s.entries = thinnedLists(s.entries, r)
		s.rate.Store(r)
	}
	if len(s.entries) > s.cap {
		// at maxListRate only the lists of hash 0 are left (vertex 0's among them): one
		// list longer than the cap (a star's centre) keeps its first cap entries, so the
		// sample stays within its memory and the estimate of that list is short
		s.entries = s.entries[:s.cap]
	}
	return s.rate.Load() - 1
}

// maxListRate is the highest sampling rate: listHash has 32 bits, so at this rate only
// the lists of hash 0 are sampled and a higher one would thin none of them.
const maxListRate = 1 << 32

// sortedKeys is the entries' keys with each id mapped by id, in order, duplicates dropped
// unless keepDups.
func sortedKeys(entries []parse.Edge, id func(uint64) uint32, keepDups bool) []uint64 {
	keys := make([]uint64, len(entries))
	for i, e := range entries {
		keys[i] = key(id(e.U), id(e.V))
	}
	keys = radixSort(keys, make([]uint64, len(keys)))
	if !keepDups {
		keys = slices.Compact(keys)
	}
	return keys
}

// sampleBytes is the size of the sampled lists encoded as the store encodes them, with
// each id mapped by id (duplicates dropped unless kept).
func sampleBytes(entries []parse.Edge, id func(uint64) uint32, keepDups bool) int64 {
	keys := sortedKeys(entries, id, keepDups)
	var total int64
	var buf []byte
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keySrc(keys[j]) == keySrc(keys[i]) {
			j++
		}
		buf = store.AppendListKeys(buf[:0], keySrc(keys[i]), keys[i:j])
		total += int64(len(buf))
		i = j
	}
	return total
}

// OrderEstimate is what the automatic choice saw: the estimated bytes of the adjacency in
// each order (ids.bin included where the order adds one) and the choice.
type OrderEstimate struct {
	SampleRate      uint64 `json:"sample_rate"`
	InputBytes      int64  `json:"input_order_bytes"`
	RandomBytes     int64  `json:"random_order_bytes,omitempty"` // the sample numbered at random: the locality test
	DegreeBytes     int64  `json:"degree_order_bytes"`
	DegreeSkipped   string `json:"degree_skipped,omitempty"` // why the degree order was not estimated
	BFSBytes        int64  `json:"bfs_order_bytes,omitempty"`
	BFSSkipped      string `json:"bfs_skipped,omitempty"`            // why the BFS order was not estimated
	BisectPredicted int64  `json:"bisect_predicted_bytes,omitempty"` // predictBisect's estimate
	BisectBytes     int64  `json:"bisect_order_bytes,omitempty"`
	BisectSkipped   string `json:"bisect_skipped,omitempty"` // why the bisection order was not computed
	BallLevels      int    `json:"ball_levels"`              // the locality probe's median levels (estimate.go)
	Chosen          string `json:"chosen,omitempty"`
	ChoseDegree     bool   `json:"chose_degree"`
	SampledLists    int    `json:"sampled_entries"`
	Skipped         string `json:"skipped,omitempty"` // why nothing was estimated: the file's order kept
}
