// Package afforest computes connected components with Afforest (Sutton, Ben-Nun, Barak,
// "Optimizing parallel graph connectivity computation via subgraph sampling", IPDPS
// 2018), following GAPBS's CC kernel: link every vertex with a few of its first neighbours,
// compress, find the component that already holds most vertices by sampling, and finish
// by processing only the vertices outside it. On delta-varint lists the sampling rounds
// are cheap: a list's first neighbours are its first bytes.
//
// The pure-Go files are the CPU version; the GPU version lives beside them behind the
// cuda build tag. On directed graphs the components are weakly connected.
package afforest

import (
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/oocgraph/ooc/internal/pages"
	"github.com/oocgraph/ooc/internal/parallel"
	"github.com/oocgraph/ooc/store"
)

// Run labels every vertex of a with the smallest vertex id of its component.
func Run(a store.Adjacency, opt Options) (*Result, error) {
	if err := opt.Check(); err != nil {
		return nil, err
	}
	opt = opt.WithDefaults()
	r := &run{a: a, n: a.NumVertices(), workers: parallel.Workers(opt.Workers), log: opt.Log}
	if (uint64(r.n)+a.NumEdges())*uint64(r.workers-1) <= serialWork {
		r.workers = 1
	}
	r.serial = r.workers == 1
	t0 := time.Now()
	r.comp = make([]uint32, r.n)
	if r.serial {
		pages.Fill(r.comp)
	} else {
		pages.Reserve(r.comp)
	}
	r.parallel(func(_ int, lo, hi uint32) error {
		fill(r.comp[lo:hi], lo)
		return nil
	})
	rounds := max(opt.Rounds, 0)
	skip := ^uint32(0) // component whose vertices the finish skips
	if rounds > 0 {
		if err := r.sample(uint32(rounds)); err != nil {
			return nil, err
		}
		if _, ok := a.(*store.Compressed); !ok || !r.serial {
			r.compress() // else the finish compresses as it scans (linkLists)
		}
		r.logf(t0, "afforest: %d sampling rounds linked", rounds)
	}
	if rounds > 0 && r.n > 0 {
		skip = r.mostFrequent(opt.Samples, opt.Seed)
		r.logf(t0, "afforest: skipping component %d", skip)
	}
	if err := r.finish(uint32(rounds), skip); err != nil {
		return nil, err
	}
	r.compressFinished(skip)
	res := &Result{Labels: r.comp, Seconds: time.Since(t0).Seconds()}
	r.logf(t0, "afforest: done")
	CountComponents(res)
	return res, nil
}

// fill sets c[i] to x+i, two labels a 64-bit store where c's data is 8-byte aligned
// (the labels' allocation is, and the workers' ranges start at multiples of 2048):
// 2.5 instructions a label instead of 5 in a loop of single stores.
func fill(c []uint32, x uint32) {
	i := 0
	if p := unsafe.Pointer(unsafe.SliceData(c)); uintptr(p)%8 == 0 && len(c) >= 2 {
		pairs := unsafe.Slice((*uint64)(p), len(c)/2) // inside c
		first, second := uint64(x), uint64(x+1)       // c[2k] and c[2k+1], less 2k
		if bigEndian {
			first, second = second, first
		}
		y := first | second<<32
		for k := range pairs {
			pairs[k] = y // both halves labels below 2^32: the adds carry across neither
			y += 2 | 2<<32
		}
		i = 2 * len(pairs)
	}
	for ; i < len(c); i++ {
		c[i] = x + uint32(i)
	}
}

// bigEndian is whether the machine stores a word's high half first (fill's pairs).
var bigEndian = binary.NativeEndian.Uint16([]byte{0, 1}) == 1

type run struct {
	a       store.Adjacency
	n       uint32
	workers int
	serial  bool // one goroutine: plain loads and stores instead of atomics
	comp    []uint32
	spare   []uint32 // compress's second array
	log     io.Writer
	bufs    [][]uint32 // per-worker decode buffers

	// reached has bit b set where the finish on one goroutine (linkLists) reached a
	// vertex of the b-th 64 vertices that it did not pass as inside the skipped
	// component (compressFinished); nil on other paths.
	reached []uint64

	// once has bit v set where the sampling linked vertex v with its first neighbour
	// alone, and empty where v has no out-neighbours (linkHeads on one goroutine);
	// each nil while no bit is set. wait and back pace HeadGroup's first mode
	// (linkHeads).
	once, empty []uint64
	settled     []uint64 // groups whose vertices linkFirsts found labelled with the anchor or empty
	settledN    uint32   // the vertices settled holds
	anchor      uint32   // the vertex whose tree second looks for
	last        uint32   // where the last vertex second linked with its second neighbour led
	wait, back  int
}

func (r *run) logf(t0 time.Time, format string, args ...any) {
	if r.log != nil {
		fmt.Fprintf(r.log, "%8.3fs  %s\n", time.Since(t0).Seconds(), fmt.Sprintf(format, args...))
	}
}

// sample links every vertex with each of its first rounds out-neighbours. GAPBS runs one
// pass per round with a compress between them; one pass that decodes each list's prefix
// once does the same links (the partition after them is the same) and measured faster on
// compressed lists, where the decode is most of a round's cost.
func (r *run) sample(rounds uint32) error {
	if c, ok := r.a.(*store.Compressed); ok {
		if r.serial && rounds == 2 {
			r.anchor = anchor(c)
			r.last = r.anchor
		}
		return r.parallel(func(_ int, lo, hi uint32) error {
			if rounds == 2 {
				return r.linkHeads(c, lo, hi)
			}
			return r.linkLists(c, store.Out, lo, hi, 0, rounds, nil)
		})
	}
	return r.parallel(func(w int, lo, hi uint32) error {
		return r.a.Range(store.Out, lo, hi, rounds, &r.bufs[w], nil, func(u uint32, nbrs []uint32) {
			for _, v := range nbrs[:min(rounds, uint32(len(nbrs)))] {
				r.link(u, v)
			}
		})
	})
}

// finish links the remaining edges of every vertex outside the skipped component: its
// out-neighbours from the first unsampled one on, and on directed graphs all its
// in-neighbours, since an edge from inside the skipped component to outside it is seen
// only from the outside end. A vertex seen in the skipped component's tree stays in it
// (trees only merge), so an edge skipped from both ends joins two vertices of one tree.
func (r *run) finish(sampled, skip uint32) error {
	if c, ok := r.a.(*store.Compressed); ok {
		if r.serial {
			r.reached = make([]uint64, r.n/(64*64)+1)
		}
		return r.parallel(func(_ int, lo, hi uint32) error {
			err := r.linkOut(c, lo, hi, sampled, skip)
			if err != nil || !c.Directed() {
				return err
			}
			return r.linkLists(c, store.In, lo, hi, 0, ^uint32(0), &skip)
		})
	}
	keep := func(v uint32) bool { return atomic.LoadUint32(&r.comp[v]) != skip }
	return r.parallel(func(w int, lo, hi uint32) error {
		err := r.a.Range(store.Out, lo, hi, ^uint32(0), &r.bufs[w], keep, func(u uint32, nbrs []uint32) {
			for _, v := range nbrs[min(sampled, uint32(len(nbrs))):] {
				r.link(u, v)
			}
		})
		if err != nil || !r.a.Directed() {
			return err
		}
		return r.a.Range(store.In, lo, hi, ^uint32(0), &r.bufs[w], keep, func(u uint32, nbrs []uint32) {
			for _, v := range nbrs {
				r.link(u, v)
			}
		})
	})
}

// linkOut is the finish's linkLists of the out-lists of [lo, hi) from position from,
// passing over each run of 64 vertices (at multiples of 64) that r.settled holds
// whole, where skip is the anchor: the sampling found each of them labelled with the
// anchor (or without out-neighbours), a label that stays while the anchor is a root,
// as the skipped component's root is. The finish's scan would pass them one by one.
// Where settled holds less than an eighth of the vertices, the runs are not looked
// for: their search and the scan's restarts would cost more than they save.
func (r *run) linkOut(c *store.Compressed, lo, hi, from, skip uint32) error {
	settled := r.settled
	if uint64(r.settledN)*8 < uint64(r.n) || skip != r.anchor || !r.serial {
		return r.linkLists(c, store.Out, lo, hi, from, ^uint32(0), &skip)
	}
	for lo < hi {
		u := lo // the first vertex from lo in a settled run, or hi
		for u < hi && !(u%64 == 0 && u+64 <= hi && settled[u/64] == ^uint64(0)) {
			u = min(u+64-u%64, hi)
		}
		if u > lo {
			if err := r.linkLists(c, store.Out, lo, u, from, ^uint32(0), &skip); err != nil {
				return err
			}
		}
		for u+64 <= hi && settled[u/64] == ^uint64(0) {
			u += 64
		}
		lo = u
	}
	return nil
}

// linkLists links every vertex u of [lo, hi) with the neighbours at positions [from, to)
// of its list in direction d, skipping the vertices whose label is *skip (when skip is
// not nil). It decodes the lists where they lie, from the block holding position from,
// a block at a time into an array on the stack (only as far as position to), with no
// call per vertex: on low-degree graphs (roads, meshes) the per-vertex cost is most of
// Afforest's.
//
// The vertices inside the skipped component (most of them) are passed over in a loop
// of their own. On one goroutine that loop also compresses: Run does not compress
// between the sampling and the finish there, and a vertex's label becomes its
// parent's, which the scan reached first (parents are smaller) and so pointed at its
// root, unless a link moved that root since. A vertex whose label so found is *skip is
// in the skipped tree; one whose label is not, though it may be in that tree, costs
// only links that change nothing.
func (r *run) linkLists(c *store.Compressed, d store.Direction, lo, hi, from, to uint32, skip *uint32) error {
	serial, comp := r.serial, r.comp
	var sk uint32
	if skip != nil {
		sk = *skip
	}
	empty := r.empty // the vertices without out-neighbours, in the finish's out pass
	reached := r.reached
	if skip == nil {
		reached = nil
	}
	if skip == nil || d != store.Out {
		empty = nil
	}
	var dc store.DirCursor // decodes a directory group at its first vertex not skipped
	// In the finish, the vertices outside the skipped component are often a few a
	// group (a web graph's): the first readAlone lists of a group are read alone
	// (ListAt, one directory pair each) and dc decodes the group at the next. held is
	// the group dc holds, alone the group of the last list read alone and nalone how
	// many of its lists were.
	held, alone, nalone := ^uint32(0), ^uint32(0), uint32(0)
	var buf [store.BlockSize]uint32
	var ok bool
	for v := lo; v < hi; {
		s := c.Shard(d, v)
		dc.Reset(s)
		held, alone = ^uint32(0), ^uint32(0)
		for end := min(hi, s.Hi()); v < end; v++ {
			if skip != nil {
				if serial && empty == nil {
					v += passSkipped(comp, comp[v:end], sk)
				} else if serial {
					// a vertex without neighbours passes too: nothing to link, and
					// on graphs with many (Kronecker's), the loop's exit at each
					// would be a mispredicted branch
					for ; v < end; v++ {
						l := comp[comp[v]]
						if comp[v] = l; l != sk && empty[v/64]>>(v%64)&1 == 0 {
							break
						}
					}
				} else {
					for v < end && atomic.LoadUint32(&comp[v]) == sk {
						v++
					}
				}
				if v == end {
					break
				}
			}
			i := v - s.Lo
			if i%store.DirGroup == 0 && v+store.DirGroup <= end && s.GroupEmpty(i/store.DirGroup) {
				v += store.DirGroup - 1 // a group without neighbours: nothing to link
				continue
			}
			if reached != nil {
				reached[v/(64*64)] |= 1 << (v / 64 % 64)
			}
			// in the finish, a root (an isolated vertex, or the smallest of a small
			// tree) whose list ends before position from: nothing to link, known from
			// its degree alone without the cursor's decode of its group
			if skip != nil && atomic.LoadUint32(&comp[v]) == v && s.DegreeAt(i) <= from {
				continue
			}
			f := from
			if skip != nil && d == store.Out && r.once != nil && r.once[v/64]>>(v%64)&1 != 0 {
				f = 1 // the sampling linked the first neighbour alone: the list from its second
			}
			var dv uint32
			var list []byte
			if g := i / store.DirGroup; skip == nil || g == held || (g == alone && nalone >= readAlone) {
				dv, list = dc.At(i)
				held = g
			} else {
				if g != alone {
					alone, nalone = g, 0
				}
				dv, list = s.ListAt(i)
				nalone++
			}
			last := min(to, dv)
			if f >= last {
				continue
			}
			pos, err := store.BlockOffset(list, dv, f/store.BlockSize)
			if err != nil {
				return s.ListError(v)
			}
			// store.BlockEnds's checks: each block after the first where the index
			// says, and a list read to its last neighbour ending with its last block
			k0 := f / store.BlockSize
			for j, k := f&^(store.BlockSize-1), k0; j < last; k++ {
				if k > k0 && !store.BlockIndexed(list, k, pos) {
					return s.ListError(v)
				}
				c := store.BlockLen(dv, k)
				nbrs := buf[:min(c, last-j)]
				if pos, ok = store.DecodeBlock(nbrs, v, list, pos, c, r.n); !ok {
					return s.ListError(v)
				}
				for _, u := range nbrs[min(uint32(len(nbrs)), f-min(f, j)):] {
					if serial { // inlined: most of a low-degree graph's links
						linkFrom(labels(comp), comp[v], u) // u checked below r.n
					} else {
						linkAtomic(r.comp, v, u)
					}
				}
				j += c
			}
			if last == dv && pos != len(list) {
				return s.ListError(v)
			}
		}
	}
	return nil
}

// readAlone is how many lists of a directory group the finish reads through ListAt
// before it decodes the group's pairs (DirCursor, about 200 instructions a group
// against about 30 a pair read alone). On cnr-2000 the finish reads about 13,000
// lists a run, and the cursor decoded a group for most of them.
const readAlone = 3

// passSkipped compresses the labels of the vertices of tail (comp's, from a vertex
// on) in order, each to its parent's label, up to the first whose label is then not
// sk, and returns its index (len(tail) where there is none). The indices it loads at
// are labels, so below len(comp): loaded without a check each. Eight vertices a step,
// tested at once (most vertices the finish's scan passes are the skipped component's,
// and a branch at each vertex was most of the scan's cost); where a step finds one,
// its vertices are taken again one at a time (a second step up for those already
// moved, which keeps each in its tree). Each label is stored before the next is
// loaded: a vertex's parent is often the vertex before it. The steps of eight run in
// assembly where linkGroup's do (passEightAsm), else in the loop below.
func passSkipped(comp, tail []uint32, sk uint32) uint32 {
	c := labels(comp)
	at := func(v uint32) uint32 { return *(*uint32)(unsafe.Add(c, 4*uintptr(v))) }
	k, p := 0, unsafe.Pointer(unsafe.SliceData(tail))
	if haveLinkAsm {
		k = passEight(comp, tail, sk)
	}
	for ; !haveLinkAsm && k+8 <= len(tail); k += 8 {
		t := (*[8]uint32)(unsafe.Add(p, 4*k)) // tail[k:k+8]
		l0 := at(t[0])
		t[0] = l0
		l1 := at(t[1])
		t[1] = l1
		l2 := at(t[2])
		t[2] = l2
		l3 := at(t[3])
		t[3] = l3
		l4 := at(t[4])
		t[4] = l4
		l5 := at(t[5])
		t[5] = l5
		l6 := at(t[6])
		t[6] = l6
		l7 := at(t[7])
		t[7] = l7
		if (l0^sk)|(l1^sk)|(l2^sk)|(l3^sk)|(l4^sk)|(l5^sk)|(l6^sk)|(l7^sk) != 0 {
			break
		}
	}
	for ; k < len(tail); k++ {
		l := at(tail[k])
		if tail[k] = l; l != sk {
			break
		}
	}
	return uint32(k)
}

// linkHeads is linkLists for the default two sampling rounds: each vertex of [lo, hi)
// is linked with the first two of its out-neighbours, which store.Shard.HeadGroup (a
// store.HeadReader a shard) decodes for a directory group at a time without the rest
// of their blocks. On low-degree graphs (roads, meshes, social graphs' long tail) this
// per-vertex step is most of a run. On one goroutine a list of PackedMin or more neighbours gives its
// first alone (HeadGroup's first mode), and second decides whether the vertex needs
// its second: the decode of a packed block's second neighbour is most of a long
// list's cost here, and a vertex already in the large component does not need it.
func (r *run) linkHeads(c *store.Compressed, lo, hi uint32) error {
	var x [2][store.DirGroup]uint32 // each vertex's first and second neighbour
	x0, x1 := &x[0], &x[1]
	comp, serial := r.comp, r.serial
	far := uint64(r.n)*4 > uint64(touchBytes)
	var heads store.HeadReader
	for v := lo; v < hi; {
		s := c.Shard(store.Out, v)
		heads.Reset(s, r.n, &x)
		for end := min(hi, s.Hi()); v < end; {
			i := v - s.Lo
			g, j0 := i/store.DirGroup, i%store.DirGroup
			n := min(store.DirGroup-j0, end-v)
			if s.GroupEmpty(g) { // nothing to link
				v += n
				continue
			}
			once, empty, bad := heads.Group(g, j0, j0+n, serial && r.wait == 0)
			if bad >= 0 {
				return s.ListError(s.Lo + g*store.DirGroup + uint32(bad))
			}
			// a first neighbour of two far away (touchDistance): a group of a
			// graph without locality, whose labels are worth loading ahead
			if m := j0 + n/2; far && (x0[j0]^v)|(x0[m]^(v+m-j0)) >= touchDistance {
				touchLabels(comp, x0[j0:j0+n], x1[j0:j0+n])
			}
			if serial {
				if once == 0 {
					linkGroup(comp, v, x0[j0:j0+n], x1[j0:j0+n])
					r.wait -= min(r.wait, 1)
				} else {
					var in uint64 // first-mode vertices seen in the anchor's tree
					if all := (^uint64(0) >> (64 - n)) << j0; once|empty == all {
						// every list gave its first neighbour alone (meshes' groups):
						// no second links, each vertex's tree checked as it is linked
						in = linkFirsts(comp, v, x0[j0:j0+n], r.anchor) << j0
						if in|empty == all {
							r.settled = setBits(r.settled, r.n, s.Lo+g*store.DirGroup, all)
							r.settledN += n
						}
					} else if uint32(bits.OnesCount64(once))*8 >= 7*n {
						// nearly every list in first mode (social graphs' groups of hubs)
						in = linkMixed(comp, v, x0[j0:j0+n], x1[j0:j0+n], once>>j0, r.anchor) << j0
					} else {
						linkGroup(comp, v, x0[j0:j0+n], x1[j0:j0+n])
					}
					if once&^in == 0 { // second's outcome, without its climbs
						r.once = setBits(r.once, r.n, s.Lo+g*store.DirGroup, once)
						r.back = 0
					} else if err := r.second(s, g*store.DirGroup, once, in); err != nil {
						return err
					}
				}
				if empty != 0 {
					r.empty = setBits(r.empty, r.n, s.Lo+g*store.DirGroup, empty)
				}
			} else {
				for j := j0; j < j0+n; j++ {
					linkAtomic(comp, v+j-j0, x0[j])
					linkAtomic(comp, v+j-j0, x1[j])
				}
			}
			v += n
		}
	}
	return nil
}

// second completes the sampling of the vertices base+j of shard s for the bits j of
// once, whose lists HeadGroup's first mode gave their first neighbour alone. A vertex
// already in the anchor's tree or in r.last's (found within a few steps up) keeps it
// so: where that tree is or joins the large component, the finish skips the vertex,
// and otherwise it links the list from its second neighbour on (the bit in r.once).
// The anchor's tree is the large one on graphs whose hubs come first (social networks'
// and meshes' input orders, the degree order); r.last, the tree where the last vertex
// linked with its second neighbour led, is the one the vertices around it are building
// (a web graph's site, which joins the large component later). Each other vertex is
// linked with its second neighbour (linkSecond).
//
// Where that took more than an eighth of a group's lists, the first mode costs more
// than it saves, and the next groups (8, doubling up to maxBack while it keeps
// failing) decode both neighbours at once: the anchor's tree is not the large one, or
// not yet (on random graphs it becomes so within the first tenth of the vertices).
func (r *run) second(s *store.Shard, base uint32, once, in uint64) error {
	comp, a := r.comp, r.anchor
	var linked uint64
	for m := once &^ in; m != 0; m &= m - 1 {
		j := uint32(bits.TrailingZeros64(m))
		if p := top(comp, s.Lo+base+j, a); p == a || p == r.last {
			continue
		}
		if err := r.linkSecond(s, base+j); err != nil {
			return err
		}
		linked |= 1 << j
	}
	long := bits.OnesCount64(once)
	if once &^= linked; once != 0 {
		r.once = setBits(r.once, r.n, s.Lo+base, once)
	}
	if kept := bits.OnesCount64(once); 8*kept >= 7*long {
		r.back = 0
	} else {
		r.back = min(max(2*r.back, 8), maxBack)
		r.wait = r.back
	}
	return nil
}

// linkSecond links the shard's i-th vertex with its second neighbour (HeadSecond) and
// makes r.last the top of its tree. A call of its own, so that second's loop over the
// vertices it keeps at one neighbour holds its values in registers (measured: inlined,
// the loop's counter and mask went to the stack, +25% of second's instructions).
//
//go:noinline
func (r *run) linkSecond(s *store.Shard, i uint32) error {
	u := s.Lo + i
	x, ok := s.HeadSecond(i, r.n)
	if !ok {
		return s.ListError(u)
	}
	linkSerial(r.comp, u, x)
	r.last = top(r.comp, u, r.anchor)
	return nil
}

// setBits sets in the bitmap bm of n vertices (made when nil) the bits of vertices
// u+j for the bits j of m, and returns it.
func setBits(bm []uint64, n, u uint32, m uint64) []uint64 {
	if bm == nil {
		bm = make([]uint64, n/64+2)
	}
	bm[u/64] |= m << (u % 64)
	bm[u/64+1] |= m >> 1 >> (63 - u%64)
	return bm
}

// maxBack is the most groups second makes the first mode wait after a failure. Tests
// set it to 0 (no wait) to run the first mode on every group.
var maxBack = 256

// top climbs from u to its root, to a, or as far as 8 steps up (a bound on the loads
// a vertex's check costs), returns where it stopped and, where that is above u's
// parent, points u at it, so that later climbs through u take one step there (on
// facebook_combined second's instructions fell to a third). A vertex whose tree
// second misses so has its second neighbour linked, which is correct whichever tree
// it is in.
func top(comp []uint32, u, a uint32) uint32 {
	p := comp[u]
	if p == a {
		return p
	}
	q := comp[p]
	if q == p {
		return p
	}
	for k := 1; k < 8 && q != a; k++ { // the step from p to q was the first
		r := comp[q]
		if r == q {
			break
		}
		q = r
	}
	comp[u] = q
	return q
}

// anchor is the first vertex of c with out-neighbours, looking at the first 64
// groups (0 when they hold none): the vertices before it have none to link, so on an
// undirected graph it is the root of its tree, and links, which hook the larger root
// under the smaller, keep it so. The scan is bounded: where it finds none, anchor 0
// only makes second link more second neighbours, which is correct either way.
func anchor(c *store.Compressed) uint32 {
	for v := range min(c.NumVertices(), 64*store.DirGroup) {
		if c.Degree(store.Out, v) > 0 {
			return v
		}
	}
	return 0
}

// touchLabels loads the labels of a group's sampled neighbours together, before the
// links need them: where the labels outgrow the caches (touchBytes) and the graph has
// no locality (random, Kronecker in input order), each is a miss, and the links'
// chains of dependent loads let the processor overlap few of them by itself. A
// function of its own, so that linkHeads's loop keeps its registers.
//
//go:noinline
func touchLabels(comp, x0, x1 []uint32) {
	var t uint32
	for j, u := range x0 {
		t += atomic.LoadUint32(&comp[u]) + atomic.LoadUint32(&comp[x1[j]])
	}
	runtime.KeepAlive(t)
}

// touchBytes is the size of the labels from which linkHeads loads them ahead (about
// the caches a core has to itself), and touchDistance how far (ids XORed) a group's
// sampled first neighbours lie from their vertices for it to (a quarter MiB of labels).
// Tests set both to 0 to exercise the loads.
var touchBytes, touchDistance uint32 = 2 << 20, 1 << 16

// serialWork bounds the work (vertices plus stored edges) times the workers beyond the
// first for which a run stays on the calling goroutine: it then saves that many
// workers' share of the time, and on small graphs the workers' start at every phase and
// the atomic operations that let them share the labels cost more than that. Tests set
// it to 0 and to ^0 to exercise both paths.
var serialWork uint64 = 1 << 21

// link joins the trees of u and v: linkSerial on one goroutine, else linkAtomic.
func (r *run) link(u, v uint32) {
	if r.serial {
		linkSerial(r.comp, u, v)
		return
	}
	linkAtomic(r.comp, u, v)
}

// linkSerial is linkAtomic for a run on one goroutine, with plain loads and stores:
// hook the larger root under the smaller, and point each vertex climbed past at its
// grandparent (path halving).
func linkSerial(comp []uint32, u, v uint32) {
	_ = comp[v] // the one index not yet a label: checked here, not in linkFrom
	linkFrom(labels(comp), comp[u], v)
}

// linkFrom is linkSerial from u's parent p1 (comp[u]) on the labels at c (labels),
// loaded and stored without a check each: every index it loads at is v or a label (a
// vertex id), and its callers pass a v below the labels' count, a neighbour that its
// decoder checked below n (HeadGroup's and DecodeBlock's nv). The checks cost two
// instructions a load, a quarter of a road's links. A root whose parent is already
// low (the trees joined) takes a climb step, after which p1 == p2: a test of its own
// puts linkFrom past the inlining budget.
//
// It returns where it ended: the low label it hooked the high root under, or the
// label it found both sides share. That is in u's tree (the link joined the trees),
// so u's second link may start from it instead of loading u's label again: one load
// less a vertex in linkGroup, and where the first link hooked u itself (a root)
// under its neighbour's label, the label u now holds. A caller that drops it pays
// nothing: the inlined code is the same. The climb step loads into p1 and stores
// from it, not through a variable of its own: that keeps the cost within the
// inlining budget (78 of 80), which most of a low-degree graph's links need.
func linkFrom(c unsafe.Pointer, p1, v uint32) uint32 {
	p2 := *(*uint32)(unsafe.Add(c, 4*uintptr(v)))
	for p1 != p2 {
		high, low := max(p1, p2), min(p1, p2)
		h := (*uint32)(unsafe.Add(c, 4*uintptr(high)))
		ph := *h
		if ph == high {
			*h = low
			return low
		}
		p1 = *(*uint32)(unsafe.Add(c, 4*uintptr(ph)))
		*h = p1
		p2 = *(*uint32)(unsafe.Add(c, 4*uintptr(low)))
	}
	return p1
}

// labels is the address of comp's first label, for linkFrom.
func labels(comp []uint32) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(comp)) }

// linkGroup links each vertex v+j with x0[j] and then x1[j] (linkSerial; the second
// link from where the first ended, linkFrom's result), neighbours below len(comp)
// (linkFrom): linkGroupAsm where it runs, else linkGroupGo.
func linkGroup(comp []uint32, v uint32, x0, x1 []uint32) {
	if haveLinkAsm {
		linkGroupFast(comp, comp[v:][:len(x0)], x0, x1[:len(x0)])
		return
	}
	linkGroupGo(comp, v, x0, x1)
}

// linkGroupGo is linkGroup in Go. A function of its own, so that its loop keeps its
// values in registers.
//
//go:noinline
func linkGroupGo(comp []uint32, v uint32, x0, x1 []uint32) {
	x1 = x1[:len(x0)]
	cu := comp[v:][:len(x0)] // the vertices' own labels: checked once, not at each load
	c := labels(comp)
	for j, a := range x0 {
		linkFrom(c, linkFrom(c, cu[j], a), x1[j])
	}
}

// linkFirsts links each vertex v+j with x0[j] (linkSerial) and returns the mask of
// the j whose label is then a: the vertices that second would find in the anchor's
// tree at its first step (a vertex pointing at the anchor, the root of its tree,
// keeps pointing at it), checked here with the label the link just loaded instead
// of in a pass of second's of their own. For groups whose lists all gave their
// first neighbour alone, which need no second link. linkFirstsAsm where it runs,
// else linkFirstsGo (len(x0) <= 64).
func linkFirsts(comp []uint32, v uint32, x0 []uint32, a uint32) (in uint64) {
	if haveLinkAsm {
		return linkFirstsFast(comp, comp[v:][:len(x0)], x0, a)
	}
	return linkFirstsGo(comp, v, x0, a)
}

// linkFirstsGo is linkFirsts in Go.
//
//go:noinline
func linkFirstsGo(comp []uint32, v uint32, x0 []uint32, a uint32) (in uint64) {
	cu := comp[v:][:len(x0)] // checked once, not at each load
	c := labels(comp)
	for j, x := range x0 {
		linkFrom(c, cu[j], x)
		if cu[j] == a {
			in |= 1 << (j & 63)
		}
	}
	return in
}

// linkMixed is linkGroup for a group where the bits of once mark the lists that gave
// their first neighbour alone (x1[j] the vertex itself): those are not linked again,
// and their vertices are checked as linkFirsts checks them. For groups of nearly all
// such lists: where the two kinds alternate, the branch on the kind is mispredicted
// at many vertices (measured: soc-Slashdot0902's groups, 4-6% slower than linkGroup
// for 3% fewer instructions). linkMixedAsm where it runs, else linkMixedGo
// (len(x0) <= 64).
func linkMixed(comp []uint32, v uint32, x0, x1 []uint32, once uint64, a uint32) (in uint64) {
	if haveLinkAsm {
		return linkMixedFast(comp, comp[v:][:len(x0)], x0, x1[:len(x0)], once, a)
	}
	return linkMixedGo(comp, v, x0, x1, once, a)
}

// linkMixedGo is linkMixed in Go.
//
//go:noinline
func linkMixedGo(comp []uint32, v uint32, x0, x1 []uint32, once uint64, a uint32) (in uint64) {
	x1 = x1[:len(x0)]
	cu := comp[v:][:len(x0)] // checked once, not at each load
	c := labels(comp)
	for j, x := range x0 {
		linkFrom(c, cu[j], x)
		if once>>(j&63)&1 == 0 {
			linkFrom(c, cu[j], x1[j])
		} else if cu[j] == a {
			in |= 1 << (j & 63)
		}
	}
	return in
}

// linkAtomic joins the trees of u and v, hooking the larger root under the smaller with a
// compare-and-swap and retrying from the new roots when another worker got there first
// (GAPBS's Link). Each vertex it climbs past is pointed at its grandparent (path
// splitting, a compare-and-swap that may fail harmlessly: every pointer still leads to a
// smaller vertex of the same tree), so the chains that concurrent workers build on
// meshes in input order shrink as they are walked instead of being walked again whole.
func linkAtomic(comp []uint32, u, v uint32) {
	p1, p2 := atomic.LoadUint32(&comp[u]), atomic.LoadUint32(&comp[v])
	for p1 != p2 {
		high, low := max(p1, p2), min(p1, p2)
		ph := atomic.LoadUint32(&comp[high])
		if ph == low || (ph == high && atomic.CompareAndSwapUint32(&comp[high], high, low)) {
			return
		}
		p1 = atomic.LoadUint32(&comp[ph])
		if p1 != ph {
			atomic.CompareAndSwapUint32(&comp[high], ph, p1)
		}
		p2 = atomic.LoadUint32(&comp[low])
	}
}

// compress points every vertex straight at its root. It reads comp and writes spare,
// then swaps the two: while no worker writes what others read, the stores need no
// atomics (an atomic store is a locked instruction on x86, and with one per vertex
// that was not yet pointing at its root it cost most of a compress). A vertex whose
// parent lies in the same chunk copies the parent's new label (parents are smaller, so
// already done); one whose parent lies in another chunk climbs from there, at most
// maxClimb steps, and another pass follows while any stopped short of its root. A run
// on one goroutine compresses in place in one pass in vertex order: parents are
// smaller, so a vertex's parent already points at its root.
func (r *run) compress() {
	if r.serial {
		comp := r.comp
		for v, p := range comp {
			comp[v] = comp[p]
		}
		return
	}
	if r.spare == nil {
		r.spare = make([]uint32, r.n)
	}
	for {
		var short atomic.Bool
		src, dst := r.comp, r.spare
		r.parallel(func(_ int, lo, hi uint32) error {
			stopped := false
			for v := lo; v < hi; v++ {
				p := src[v]
				switch {
				case p == v:
					dst[v] = v
					continue
				case p >= lo:
					dst[v] = dst[p] // parents are smaller: done above
					continue
				}
				for k := 0; k < maxClimb && src[p] != p; k++ {
					p = src[p]
				}
				stopped = stopped || src[p] != p
				dst[v] = p
			}
			if stopped {
				short.Store(true)
			}
			return nil
		})
		r.comp, r.spare = dst, src
		if !short.Load() {
			return
		}
	}
}

// compressFinished is compress after the finish. On one goroutine the finish's scan
// (linkLists) left every vertex it passed as inside the skipped component labelled
// with that component's root, and those labels are final while it is still a root:
// the finish's links hook roots, and point a vertex they climb past at its
// grandparent, which for such a vertex is that root again. So where the root is one
// at the end, only the blocks of 64 vertices in r.reached are compressed, in vertex
// order (parents are smaller, so a vertex's parent is done or final). The vertices
// the scan passed for having no out-neighbours (r.empty, whole groups) are isolated
// on undirected graphs, and on directed ones the scan of the in-lists reached them.
// On roads and meshes, whose skipped component after the sampling is nearly every
// vertex, this takes out a pass over all labels.
func (r *run) compressFinished(skip uint32) {
	if !r.serial || r.reached == nil || skip >= r.n || r.comp[skip] != skip {
		r.compress()
		return
	}
	comp := r.comp
	for i, w := range r.reached {
		for ; w != 0; w &= w - 1 {
			lo := (64*i + bits.TrailingZeros64(w)) * 64
			b := comp[lo:min(lo+64, len(comp))]
			for k, p := range b {
				b[k] = comp[p]
			}
		}
	}
}

// maxClimb bounds the steps compress takes from one vertex in one pass, so that a deep
// tree costs more passes instead of one long walk per chunk that reaches into it.
// Tests lower it to exercise the further passes.
var maxClimb = 64

// mostFrequent estimates the largest intermediate component from a seeded sample. A poor
// estimate only costs time: the finish then processes more vertices. The labels are
// counted in an open-addressing table of at least twice the samples (a map costs more
// than the whole run on a graph of a few thousand vertices); at most MaxSamples are drawn.
//
// A label on more than half the draws (after the sampling rounds, the usual case) is
// the most frequent: Boyer and Moore's vote finds the one candidate in a pass, a
// second pass over the same draws counts it, and no table is made (its allocation was
// most of this step on small graphs). Up to DefaultSamples draws, their roots are kept
// from the first pass, so the later ones climb no trees.
//
// Where the first unanimous draws all find one root, that root is taken without the
// rest: a component of at most half the vertices gives so many in a row with
// probability at most 2^-unanimous, so the choice is the largest component's but for
// that chance, and on small graphs (a few thousand vertices, one component) the draws
// were a tenth of a run.
func (r *run) mostFrequent(samples int, seed uint64) uint32 {
	samples = min(samples, MaxSamples)
	var kept [DefaultSamples]uint32
	keep := samples <= len(kept)
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	cand, votes := uint32(0), 0
	for i := range samples {
		c := r.root(rng.Uint32N(r.n))
		if keep {
			kept[i] = c
		}
		if votes == 0 {
			cand = c
		}
		if c == cand {
			votes++
		} else {
			votes--
		}
		if i+1 == unanimous && votes == unanimous {
			return cand
		}
	}
	rng = rand.New(rand.NewPCG(seed, 0x5eed))
	n := 0
	for i := range samples {
		if r.drawn(&kept, keep, i, rng) == cand {
			n++
		}
	}
	if 2*n > samples {
		return cand
	}
	rng = rand.New(rand.NewPCG(seed, 0x5eed))
	shift := 32 - bits.Len(uint(2*samples-1)) // the table has 1<<(32-shift) slots
	slots := 1 << (32 - shift)
	labels, counts := make([]uint32, slots), make([]int32, slots)
	best, bestN := uint32(0), int32(0)
	for i := range samples {
		c := r.drawn(&kept, keep, i, rng)
		k := int((c * 0x9E3779B1) >> shift)
		for counts[k] != 0 && labels[k] != c {
			k = (k + 1) & (slots - 1)
		}
		labels[k] = c
		counts[k]++
		if counts[k] > bestN {
			best, bestN = c, counts[k]
		}
	}
	return best
}

// unanimous is how many first draws of mostFrequent, all in one component, settle it.
const unanimous = 64

// drawn is the root of mostFrequent's draw i: kept[i] when keep, else drawn again from
// rng, which a pass over the draws in order starts afresh.
func (r *run) drawn(kept *[DefaultSamples]uint32, keep bool, i int, rng *rand.Rand) uint32 {
	if keep {
		return kept[i]
	}
	return r.root(rng.Uint32N(r.n))
}

// root is the root of v's tree: its label once compressed.
func (r *run) root(v uint32) uint32 {
	for r.comp[v] != v {
		v = r.comp[v]
	}
	return v
}

// parallel runs body over vertex ranges on all workers and returns the first error.
func (r *run) parallel(body func(w int, lo, hi uint32) error) error {
	if r.bufs == nil {
		r.bufs = make([][]uint32, r.workers)
	}
	if r.workers == 1 { // the whole range in one call: no closure, no chunks
		return body(0, 0, r.n)
	}
	var failed atomic.Pointer[error]
	parallel.For(r.workers, int(r.n), 1<<11, func(w, lo, hi int) {
		if failed.Load() != nil {
			return
		}
		if err := body(w, uint32(lo), uint32(hi)); err != nil {
			e := err // on the heap only when a body fails
			failed.CompareAndSwap(nil, &e)
		}
	})
	if p := failed.Load(); p != nil {
		return *p
	}
	return nil
}
