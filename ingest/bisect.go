package ingest

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/oocgraph/ooc/store"
)

// The bisection order (store.OrderBisect) numbers the vertices by recursive graph
// bisection (Dhulipala, Kabiljo, Karrer, Ottaviano, Pupyrev and Shalita, "Compressing
// graphs and indexes with recursive graph bisection", KDD 2016): the vertices are split
// into two halves, vertices are swapped between them while that lowers an estimate of
// the log-gap cost of all lists, and each half is split in turn, down to leaves of
// bisectLeaf vertices; the leaves in order are the numbering, each part's half with its
// highest degree first (orient), but for a few hubs, which go first (hubsFirst), and
// a few vertices that joinOrder moves ahead. A list whose neighbours
// fall in one half has gaps of about half the size: vertices with similar lists get
// nearby numbers, which is what a social network's files lack (facebook_combined's lists
// from 6.32 to about 4.3 bits a neighbour, where the BFS order reaches 5.5).
//
// The cost of list q over a split into halves of n1 and n2 vertices, d1 and d2 of its
// neighbours in each, is d1*log2(n1/(d1+1)) + d2*log2(n2/(d2+1)); a vertex's move gain
// is how much the cost of its neighbours' lists falls if it changes sides (lists are
// the undirected view: a directed graph's out- and in-lists together). Each round sorts
// both halves by gain and swaps pairs while their gains sum above zero; bisectRounds
// rounds at most (the paper's 20 found no smaller lists than 4 on the real graphs).
// Vertices without neighbours are left out of the splits and numbered last, in id order.
//
// Work is O(rounds * m * log n): every level reads every list twice a round. The
// subproblems of a level are independent and share out over the workers, so the first
// log2(workers) levels run on one. It reads the lists of a graph already built in the
// file's order (reorder.go), each subproblem's in ascending vertex order (the pages in
// order), and holds bisectBytes a vertex plus bisectWorkerBytes a vertex for each worker
// (its tallies of each list's neighbours in either half); a worker also keeps a
// subproblem's lists decoded while they fit in its share of the budget, else decodes
// them on each pass.

const (
	bisectLeaf   = 16
	bisectRounds = 4
	// bisectBytes a vertex: its number and the inverse (which holds the splits), its
	// side, its gain, its sort key and the radix sort's buffer for it, and the parts of
	// two levels (16 bytes a part of more than bisectLeaf/2 vertices).
	bisectBytes = 4 + 4 + 1 + 4 + 8 + 8 + 4
	// bisectWorkerBytes a vertex a worker: the tallies d1 and d2 of each list, the
	// lists tallied, the subproblem's vertices in ascending id and the lists' local
	// numbers (load).
	bisectWorkerBytes = 20
)

// bisectNeed is what the bisection order of n vertices holds with w workers, their
// caches apart.
func bisectNeed(n int64, w int) int64 { return (bisectBytes + bisectWorkerBytes*int64(w)) * n }

// bisectPlan is how many workers the bisection order of n vertices takes within mem
// bytes, at most workers (0 when even one does not fit), and each one's cache of
// decoded lists (4 bytes an entry, 16 a vertex): a share of what the arrays leave.
func bisectPlan(n, mem int64, workers int) (w int, cache int64) {
	w = max(workers, 1)
	for w > 0 && bisectNeed(n, w) > mem {
		w--
	}
	if w == 0 {
		return 0, 0
	}
	return w, (mem - bisectNeed(n, w)) / int64(w)
}

// lg2 is log2 of small counts from a table, of large ones computed.
var lg2Table = sync.OnceValue(func() []float64 {
	t := make([]float64, 1<<16)
	for i := 1; i < len(t); i++ {
		t[i] = math.Log2(float64(i))
	}
	return t
})

// A list's cost in a half of n vertices rises by log2(n) - g(d) when its d neighbours
// there become d+1: (d+1)*log2(n/(d+2)) - d*log2(n/(d+1)), where g(d) = (d+1)*log2(d+2) -
// d*log2(d+1) does not depend on n. So a move's change in a list's cost is the
// difference of the halves' log2 sizes and two values of g, from a table for small d.
var gTable = sync.OnceValue(func() []float64 {
	t := make([]float64, 1<<16)
	for d := range t {
		t[d] = gOf(uint32(d))
	}
	return t
})

func gOf(d uint32) float64 {
	x := float64(d)
	return (x+1)*math.Log2(x+2) - x*math.Log2(x+1)
}

// bisector is one numbering's state.
type bisector struct {
	adj    store.Adjacency
	pg     *pager
	lg, gt []float64
	inv    []uint32  // the numbering being built: each subproblem a range of it
	right  []bool    // during a subproblem: its vertex is in the right half
	gain   []float32 // during a subproblem: each vertex's gain
	keys   []uint64  // sort keys, a subproblem's positions
	tmp    []uint64  // the radix sort's buffer for keys
	work   []*bisectWorker
}

// bisectWorker is one worker's tallies (d1, d2 of each list, by list vertex), the
// subproblem's vertices in ascending id (the order its lists are read in: the first
// graph's pages in order) and their decoded lists, when they fit.
type bisectWorker struct {
	d1, d2     []uint32
	touched    []uint32 // the lists tallied
	vs         []uint32 // the subproblem's vertices, ascending
	ls         *lister  // reads the lists
	cache      []uint32 // the subproblem's lists end to end, when they fit
	ends       []int    // where each of vs's lists ends in cache
	loc        []uint32 // a list vertex's local number while the cache holds it, else unnumbered
	locIDs     []uint32 // the list vertices by local number
	cacheLimit int64    // bytes: 8 an entry (its local number, and the number's list vertex), 16 a vertex
}

// bisectOrder returns the bisection order of adj's vertices on workers goroutines, each
// keeping up to cache bytes of decoded lists (bisectPlan): perm[v] is the new number of
// v and inv its inverse. pg (when not nil) releases the pages of the lists read. The
// numbering does not depend on the workers or the cache.
func bisectOrder(adj store.Adjacency, workers int, cache int64, pg *pager) (perm, inv []uint32, err error) {
	n := int(adj.NumVertices())
	b := &bisector{adj: adj, pg: pg, lg: lg2Table(), gt: gTable(),
		inv: make([]uint32, 0, n), right: make([]bool, n), gain: make([]float32, n), keys: make([]uint64, n), tmp: make([]uint64, n)}
	var isolated []uint32
	for v := range uint32(n) {
		if undirectedDegree(adj, v) == 0 {
			isolated = append(isolated, v)
		} else {
			b.inv = append(b.inv, v)
		}
		if v%(1<<16) == 0 {
			pg.add(degreePages(adj))
		}
	}
	split := len(b.inv)
	b.inv = append(b.inv, isolated...)
	isolated = nil
	for range max(workers, 1) {
		loc := make([]uint32, n)
		for i := range loc {
			loc[i] = unnumbered
		}
		b.work = append(b.work, &bisectWorker{d1: make([]uint32, n), d2: make([]uint32, n), ls: newLister(adj, pg), loc: loc, cacheLimit: cache})
	}
	level := []part{{0, split}}
	for len(level) > 0 {
		if err := b.level(level); err != nil {
			return nil, nil, err
		}
		var next []part
		for _, s := range level {
			if s.hi-s.lo > bisectLeaf {
				mid := s.lo + (s.hi-s.lo)/2
				next = append(next, part{s.lo, mid}, part{mid, s.hi})
			}
		}
		level = next
	}
	b.orient(0, split)
	if err := hubsFirst(adj, b.inv[:split], b.keys[:0], pg); err != nil {
		return nil, nil, err
	}
	b.right, b.gain, b.keys, b.tmp, b.work = nil, nil, nil, nil, nil
	if err := joinOrder(adj, b.inv[:split], pg); err != nil {
		return nil, nil, err
	}
	perm = make([]uint32, n)
	for i, v := range b.inv {
		perm[v] = uint32(i)
	}
	return perm, b.inv, nil
}

// orient puts first, in each part of inv[lo:hi] that the bisection split, the half
// that holds the part's highest degree, and in each leaf its highest degree first (the
// rest in order), and returns that degree. The bisection's cost does not depend on
// which half comes first; this way each community's centre (the ego of an ego
// network) comes before most of its members, whose sorted lists then start with a
// neighbour numbered before them, as in a social network's file (see joinOrder).
func (b *bisector) orient(lo, hi int) uint32 {
	if hi <= lo {
		return 0
	}
	if hi-lo <= bisectLeaf {
		best, at := uint32(0), lo
		for i := lo; i < hi; i++ {
			if d := undirectedDegree(b.adj, b.inv[i]); d > best {
				best, at = d, i
			}
		}
		v := b.inv[at]
		copy(b.inv[lo+1:at+1], b.inv[lo:at])
		b.inv[lo] = v
		return best
	}
	mid := lo + (hi-lo)/2
	d1, d2 := b.orient(lo, mid), b.orient(mid, hi)
	if d2 > d1 { // the halves swap places, each kept in its order
		slices.Reverse(b.inv[lo:hi])
		slices.Reverse(b.inv[lo : lo+hi-mid])
		slices.Reverse(b.inv[lo+hi-mid : hi])
	}
	return max(d1, d2)
}

// part is a subproblem: the vertices inv[lo:hi].
type part struct{ lo, hi int }

// level splits each part of more than bisectLeaf vertices, the parts shared out over
// the workers.
func (b *bisector) level(parts []part) error {
	var next atomic.Int64
	errs := make([]error, len(b.work))
	var wg sync.WaitGroup
	for wi, w := range b.work[:min(len(b.work), len(parts))] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(parts) && errs[wi] == nil; i = int(next.Add(1) - 1) {
				if s := parts[i]; s.hi-s.lo > bisectLeaf {
					errs[wi] = b.split(s, w)
				}
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

// split makes inv[s.lo:mid] and inv[mid:s.hi] the halves of the lowest cost found in
// bisectRounds rounds of swaps, starting from the part's order.
func (b *bisector) split(s part, w *bisectWorker) error {
	docs := b.inv[s.lo:s.hi]
	h := len(docs) / 2
	for i, v := range docs {
		b.right[v] = i >= h
	}
	w.vs = append(w.vs[:0], docs...)
	slices.Sort(w.vs)
	if err := w.load(b); err != nil {
		return err
	}
	defer w.unload()
	n1, n2 := b.lgOf(uint32(h)), b.lgOf(uint32(len(docs)-h))
	for range bisectRounds {
		if err := b.tally(n1, n2, w); err != nil {
			return err
		}
		if err := b.gains(w); err != nil {
			return err
		}
		if b.swap(s, h) == 0 {
			break
		}
	}
	return nil
}

// lgOf is log2(x).
func (b *bisector) lgOf(x uint32) float64 {
	if int(x) < len(b.lg) {
		return b.lg[x]
	}
	return math.Log2(float64(x))
}

// tally counts each list's neighbours among the subproblem's vertices in either half
// (d1, d2 of the lists of their neighbours, all zero before), then replaces the counts
// of each list with what moving one of its neighbours lowers its cost by, as float32
// bits: d1 for a move from the first half to the second, d2 the other way. gains sets
// them back to zero.
func (b *bisector) tally(n1, n2 float64, w *bisectWorker) error {
	w.touched = w.touched[:0]
	err := w.each(b, func(v uint32, nbrs []uint32) {
		d := w.d1
		if b.right[v] {
			d = w.d2
		}
		for _, q := range nbrs {
			if w.d1[q]+w.d2[q] == 0 {
				w.touched = append(w.touched, q)
			}
			d[q]++
		}
	})
	if err != nil {
		return err
	}
	// toRight: the cost of q's d1 = a neighbours on the left falls by log2(n1) - g(a-1),
	// that of its d2 = c on the right rises by log2(n2) - g(c); toLeft the other way
	dn := n1 - n2
	for _, q := range w.touched {
		a, c := w.d1[q], w.d2[q]
		var toRight, toLeft float64
		if a > 0 {
			toRight = dn - b.g(a-1) + b.g(c)
		}
		if c > 0 {
			toLeft = -dn - b.g(c-1) + b.g(a)
		}
		w.d1[q], w.d2[q] = math.Float32bits(float32(toRight)), math.Float32bits(float32(toLeft))
	}
	return nil
}

// g is gOf(d), from the table when small.
func (b *bisector) g(d uint32) float64 {
	if int(d) < len(b.gt) {
		return b.gt[d]
	}
	return gOf(d)
}

// gains sets the gain of moving each of the subproblem's vertices to the other half:
// the sum over its neighbours' lists of what the move lowers their costs by (tally);
// then the tallies go back to zero.
func (b *bisector) gains(w *bisectWorker) error {
	err := w.each(b, func(v uint32, nbrs []uint32) {
		d := w.d1
		if b.right[v] {
			d = w.d2
		}
		var g float32
		for _, q := range nbrs {
			g += math.Float32frombits(d[q])
		}
		b.gain[v] = g
	})
	for _, q := range w.touched {
		w.d1[q], w.d2[q] = 0, 0
	}
	return err
}

// swap sorts each half of s by descending gain (ties by position) and swaps the pairs
// whose gains sum above zero; it returns how many pairs it swapped.
func (b *bisector) swap(s part, h int) int {
	mid := s.lo + h
	left := b.sorted(s.lo, mid)
	right := b.sorted(mid, s.hi)
	swaps := 0
	for k := 0; k < len(left) && k < len(right); k++ {
		i, j := int(uint32(left[k])), int(uint32(right[k]))
		if b.gain[b.inv[i]]+b.gain[b.inv[j]] <= 0 {
			break
		}
		b.inv[i], b.inv[j] = b.inv[j], b.inv[i]
		b.right[b.inv[i]], b.right[b.inv[j]] = false, true
		swaps++
	}
	return swaps
}

// sorted returns the positions [lo, hi) of inv in keys[lo:hi], by descending gain, ties
// by position: each key is the gain's order-preserving bits inverted, then the position.
func (b *bisector) sorted(lo, hi int) []uint64 {
	keys := b.keys[lo:hi]
	for i := range keys {
		p := lo + i
		keys[i] = uint64(^orderedBits(b.gain[b.inv[p]]))<<32 | uint64(p)
	}
	return radixSort(keys, b.tmp[lo:hi]) // a comparison sort was a fifth of cnr-2000's bisection
}

// orderedBits maps a float32 to a uint32 of the same order.
func orderedBits(f float32) uint32 {
	u := math.Float32bits(f)
	if u&(1<<31) != 0 {
		return ^u
	}
	return u | 1<<31
}

// load decodes the lists of w.vs into w's cache when they fit its limit, each list
// vertex q renumbered to a local number (w.loc[q]): the tallies of a subproblem's
// lists then lie together at the start of d1 and d2 instead of all over them, in
// cache on the deeper levels (urand18 and kron18: 0.86x of the CPU time).
func (w *bisectWorker) load(b *bisector) error {
	w.cache, w.ends = w.cache[:0], w.ends[:0]
	var entries int64
	for _, v := range w.vs {
		entries += int64(undirectedDegree(b.adj, v))
		if 16*int64(len(w.vs))+8*entries > w.cacheLimit {
			return nil
		}
	}
	// Allocated whole, once for the largest subproblem that fits: grown by append,
	// the copies left behind took the resident set past the budget.
	if cap(w.cache) < int(entries) {
		w.cache = make([]uint32, 0, entries)
	}
	if cap(w.ends) < len(w.vs) {
		w.ends = make([]int, 0, len(w.vs))
	}
	if ids := min(int(entries), len(w.loc)); cap(w.locIDs) < ids {
		w.locIDs = make([]uint32, 0, ids)
	}
	w.ls.last = unnumbered
	for _, v := range w.vs {
		nbrs, err := w.ls.list(v)
		if err != nil {
			return err
		}
		for _, q := range nbrs {
			x := w.loc[q]
			if x == unnumbered {
				x = uint32(len(w.locIDs))
				w.loc[q], w.locIDs = x, append(w.locIDs, q)
			}
			w.cache = append(w.cache, x)
		}
		w.ends = append(w.ends, len(w.cache))
	}
	return nil
}

// unload empties the cache and forgets its local numbers.
func (w *bisectWorker) unload() {
	for _, q := range w.locIDs {
		w.loc[q] = unnumbered
	}
	w.cache, w.ends, w.locIDs = w.cache[:0], w.ends[:0], w.locIDs[:0]
}

// each calls fn with each list of w.vs, in order, from the cache when it holds them.
func (w *bisectWorker) each(b *bisector, fn func(v uint32, nbrs []uint32)) error {
	if len(w.ends) == len(w.vs) && len(w.vs) > 0 {
		start := 0
		for i, v := range w.vs {
			fn(v, w.cache[start:w.ends[i]])
			start = w.ends[i]
		}
		return nil
	}
	w.ls.last = unnumbered
	for _, v := range w.vs {
		nbrs, err := w.ls.list(v)
		if err != nil {
			return err
		}
		fn(v, nbrs)
	}
	return nil
}

// bisectNear is how far (in vertices) a list read may lie from the one before it to
// count as read in order: about as far as the kernel's fault-around maps (64 KiB of a
// directory of a few bytes a vertex). Lists read farther apart count a pageBytes each.
const bisectNear = 1 << 12

// The hubs go first: a bottom-up search step stops at a vertex's first visited
// neighbour, and lists are sorted, so a hub that most lists hold and that a search
// reaches early is found at a list's first entry only when its number is small. In a
// social network's file each ego network's centre has a low id; the bisection scatters
// them, and facebook_combined's bottom-up steps found their first visited neighbour
// after 13.8 entries a vertex instead of 1.8, so the search stayed top-down. A hub is a
// vertex of degree at least n/hubShare (a sixteenth of the lists hold it) and hubAvg
// times the mean degree (an outlier: where every vertex qualifies, as in a dense
// community, none goes first); at most hubsMax of them, the highest degrees.
// Measured (VM, one worker, 64 sources, medians of 5 rounds): facebook_combined's 8 hubs
// took BFS from 0.188 to 0.139 ms (its file's order 0.137) and CC from 0.105 to about
// 0.06-0.08 ms, its lists from 94.8 to 102.9 KiB; 4 to 32 hubs searched alike, 1 or 2 did
// not help. kron14 and kron16: BFS 0.22 -> 0.15 and 0.93 -> 0.69 ms, lists 3%
// larger. soc-Slashdot0902, cnr-2000, luxembourg_osm and urand have none (n/64 on
// Slashdot and cnr: no faster BFS, cnr's CC slower).
//
// The hubs go first joined (hubFront): the highest degree takes number 0, and each
// later number goes to a hub with a neighbour among the numbers before it, else to a
// common neighbour of such a hub and an earlier number, then that hub; hubs neither
// reaches (another component, or farther) follow in the bisection's order. So every
// vertex of the front but the first has its smallest neighbour in the front, and the
// sampling of connected components, which links each long list's first neighbour
// alone, puts the whole front in vertex 0's tree within the first group, where the
// lists whose first neighbour is a hub find it (afforest's second). facebook_combined's
// 8 hubs formed three trees there (two of them joined by vertex 1465, one by 1085 of
// the file's ids).
const (
	hubShare = 16
	hubAvg   = 4
	hubsMax  = 32
)

// hubsFirst numbers the front of inv's hubs (hubFront) first and the rest of inv (the
// bisection's numbering of the vertices with neighbours) after it in its order; keys
// is scratch, and pg counts the lists read.
func hubsFirst(adj store.Adjacency, inv []uint32, keys []uint64, pg *pager) error {
	var total uint64
	for _, v := range inv {
		total += uint64(undirectedDegree(adj, v))
	}
	n := uint64(adj.NumVertices())
	for i, v := range inv {
		if d := uint64(undirectedDegree(adj, v)); d*hubShare >= n && d*uint64(len(inv)) >= hubAvg*total {
			keys = append(keys, d<<32|uint64(^uint32(i))) // by degree, ties to the earlier
		}
	}
	if len(keys) == 0 {
		return nil
	}
	slices.Sort(keys)
	keys = keys[max(len(keys)-hubsMax, 0):]
	top := inv[^uint32(keys[len(keys)-1])]
	pos := make([]int, len(keys))
	for k, x := range keys {
		pos[k] = int(^uint32(x))
	}
	slices.Sort(pos)
	hubs := make([]uint32, 0, len(pos))
	for _, i := range pos {
		if inv[i] != top {
			hubs = append(hubs, inv[i])
		}
	}
	front, err := hubFront(adj, top, hubs, pg)
	if err != nil {
		return err
	}
	// the rest move back over the front's places, from the end
	in := make([]uint64, adj.NumVertices()/64+1)
	for _, v := range front {
		in[v/64] |= 1 << (v % 64)
	}
	at := len(inv)
	for i := len(inv) - 1; i >= 0; i-- {
		if v := inv[i]; in[v/64]>>(v%64)&1 == 0 {
			at--
			inv[at] = inv[i]
		}
	}
	copy(inv, front)
	return nil
}

// hubFront is the hubs' front (see hubsFirst): top, then each of hubs (in their
// order) as soon as it has a neighbour in the front; while none has, the first hub
// with a common neighbour of the front gets it before itself. The hubs left are
// appended in their order.
func hubFront(adj store.Adjacency, top uint32, hubs []uint32, pg *pager) ([]uint32, error) {
	words := adj.NumVertices()/64 + 1
	near := make([]uint64, words) // the front's neighbours
	in := make([]uint64, words)   // the front
	has := func(bm []uint64, v uint32) bool { return bm[v/64]>>(v%64)&1 != 0 }
	list := newLister(adj, pg).list
	var front []uint32
	add := func(v uint32) error {
		front = append(front, v)
		in[v/64] |= 1 << (v % 64)
		l, err := list(v)
		for _, x := range l {
			near[x/64] |= 1 << (x % 64)
		}
		return err
	}
	if err := add(top); err != nil {
		return nil, err
	}
	for len(hubs) > 0 {
		joined := false
		rest := hubs[:0]
		for _, h := range hubs {
			if !has(near, h) {
				rest = append(rest, h)
			} else if err := add(h); err != nil {
				return nil, err
			} else {
				joined = true
			}
		}
		hubs = rest
		if joined {
			continue
		}
		for i, h := range hubs { // none next to the front: one by a common neighbour
			l, err := list(h)
			if err != nil {
				return nil, err
			}
			c := slices.IndexFunc(l, func(x uint32) bool { return has(near, x) && !has(in, x) })
			if c < 0 {
				continue
			}
			if err := add(l[c]); err != nil {
				return nil, err
			}
			if err := add(h); err != nil {
				return nil, err
			}
			hubs = slices.Delete(hubs, i, i+1)
			joined = true
			break
		}
		if !joined {
			break
		}
	}
	return append(front, hubs...), nil
}

// joinOrder moves ahead, before each vertex of inv (a numbering of the vertices with
// neighbours) none of whose neighbours comes before it, the first of its neighbours
// that has a neighbour before it, where one has; the rest keep their order. So a
// vertex's smallest neighbour is smaller than itself but for the first vertex of each
// component and the few whose neighbours have none before them either. It reads each
// list once, and neighbours' lists up to as many entries again in all; its arrays (4
// bytes and a bit a vertex) take the place of the bisection's sort keys.
//
// Afforest's sampling links each long list with its first neighbour alone, and a
// vertex whose smallest neighbour comes after it starts a tree of its own. In
// facebook_combined's bisection order 52 vertices did (the file's order: 2): the
// members of ego networks numbered before their centre linked among themselves, a
// group of 64 lists in which more than an eighth missed the large tree made the
// sampling link both neighbours of the next 8 groups (22 second links, 512 lists),
// and 4 vertices stayed outside the large tree. With orient and joinOrder: 2 such
// vertices, 3 moved ahead, 1 second link, every vertex in one tree, lists 102.9 ->
// 101.4 KiB.
func joinOrder(adj store.Adjacency, inv []uint32, pg *pager) error {
	placed := make([]uint64, adj.NumVertices()/64+1)
	has := func(v uint32) bool { return placed[v/64]>>(v%64)&1 != 0 }
	anyPlaced := func(l []uint32) bool { return slices.ContainsFunc(l, has) }
	out := make([]uint32, 0, len(inv))
	place := func(v uint32) {
		placed[v/64] |= 1 << (v % 64)
		out = append(out, v)
	}
	var budget int64 // the entries of neighbours' lists left to read
	for _, v := range inv {
		budget += int64(undirectedDegree(adj, v))
	}
	own, other := newLister(adj, pg), newLister(adj, pg)
	for _, v := range inv {
		if has(v) {
			continue
		}
		l, err := own.list(v)
		if err != nil {
			return err
		}
		if len(out) > 0 && !anyPlaced(l) {
			for _, w := range l {
				if budget <= 0 {
					break
				}
				lw, err := other.list(w)
				if err != nil {
					return err
				}
				budget -= int64(len(lw))
				if anyPlaced(lw) {
					place(w)
					break
				}
			}
		}
		place(v)
	}
	copy(inv, out)
	return nil
}

// lister reads a vertex's list in the undirected view (out and in when directed) into
// its buffers, counting on the pager the list's entries and, for a list more than
// bisectNear vertices past the one read before, a pageBytes a direction.
type lister struct {
	adj        store.Adjacency
	pg         *pager
	directed   bool
	pages      int64 // pageBytes times the directions
	nbrs, more []uint32
	last       uint32 // the vertex read last, unnumbered before the first
}

func newLister(adj store.Adjacency, pg *pager) *lister {
	return &lister{adj: adj, pg: pg, directed: adj.Directed(), pages: pageBytes * int64(directions(adj)), last: unnumbered}
}

// list is v's list in the undirected view, in l's buffers.
func (l *lister) list(v uint32) ([]uint32, error) {
	var err error
	l.nbrs, err = l.adj.List(store.Out, v, unnumbered, l.nbrs)
	if err == nil && l.directed {
		l.more, err = l.adj.List(store.In, v, unnumbered, l.more)
		l.nbrs = append(l.nbrs, l.more...)
	}
	read := listBytes * int64(len(l.nbrs))
	if l.last == unnumbered || v-l.last > bisectNear {
		read += l.pages
	}
	l.last = v
	l.pg.add(read)
	return l.nbrs, err
}
