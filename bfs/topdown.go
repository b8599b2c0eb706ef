package bfs

import (
	"math/bits"
	"sync/atomic"
	"unsafe"

	"github.com/oocgraph/ooc/internal/parallel"
	"github.com/oocgraph/ooc/store"
)

// flush moves a worker's discovered vertices into the shared queue with one atomic add.
func (b *bfs) flush(ws *workerState) {
	if len(ws.out) == 0 {
		return
	}
	pos := b.qtail.Add(int64(len(ws.out))) - int64(len(ws.out))
	copy(b.queue[pos:], ws.out)
	ws.out = ws.out[:0]
}

// collect flushes every worker, advances the queue window to the new frontier and
// returns the sums of the per-worker counters (resetting them).
func (b *bfs) collect() (scout, examined, awake uint64) {
	for i := range b.ws {
		ws := &b.ws[i]
		b.flush(ws)
		scout += ws.scout
		examined += ws.examined
		awake += ws.awake
		ws.scout, ws.examined, ws.awake = 0, 0, 0
	}
	b.head, b.tail = b.tail, int(b.qtail.Load())
	return
}

// topDown expands the queue's frontier: every unvisited out-neighbour is claimed with a
// compare-and-swap on its parent, so exactly one worker enqueues it. Lists longer than
// pieceSize (the hubs of skewed graphs) are cut at block boundaries into pieces that
// other workers expand in a second pass, so one hub does not serialize a level. A level
// whose frontier has at most serialEdges out-edges (edges; ^0 when unknown) runs on the
// calling goroutine: high-diameter graphs run thousands of such levels, and waking the
// workers for each would cost more than the level's work. So does every level of a
// search on one worker.
func (b *bfs) topDown(depth uint32, edges uint64) (scout, examined uint64) {
	frontier := b.queue[b.head:b.tail]
	serial := edges <= serialEdges || b.workers == 1
	if serial && b.c != nil {
		// claims queue their discoveries directly and sum no degree (b.maxDeg is
		// known): no worker buffer or counter to collect
		tail, examined := b.expandSerial(&b.ws[0], frontier, b.tail)
		b.head, b.tail = b.tail, tail
		b.qtail.Store(int64(tail))
		return 0, examined
	}
	if serial && b.f != nil {
		tail, scout, examined := b.expandFlat(frontier, b.tail)
		b.head, b.tail = b.tail, tail
		b.qtail.Store(int64(tail))
		return scout, examined
	}
	b.qtail.Store(int64(b.tail))
	if serial {
		b.serial = true
		ws := &b.ws[0]
		for _, u := range frontier {
			for lo := uint32(0); !b.failed.Load(); lo += pieceSize {
				if b.expand(ws, u, lo, depth) < int(pieceSize) {
					break
				}
			}
		}
		b.serial = false
		scout, examined, _ = b.collect()
		return scout, examined
	}
	b.pieces = b.pieces[:0]
	chunk := min(64, max(1, len(frontier)/(8*b.workers)))
	parallel.For(b.workers, len(frontier), chunk, func(w, lo, hi int) {
		ws := &b.ws[w]
		for _, u := range frontier[lo:hi] {
			if b.failed.Load() || b.expand(ws, u, 0, depth) < int(pieceSize) {
				continue
			}
			if d := b.a.Degree(store.Out, u); d > pieceSize {
				b.piecesMu.Lock()
				for lo := pieceSize; lo < d; lo += pieceSize {
					b.pieces = append(b.pieces, piece{u, lo})
				}
				b.piecesMu.Unlock()
			}
		}
	})
	parallel.For(b.workers, len(b.pieces), 1, func(w, lo, hi int) {
		for _, p := range b.pieces[lo:hi] {
			if !b.failed.Load() {
				b.expand(&b.ws[w], p.u, p.lo, depth)
			}
		}
	})
	scout, examined, _ = b.collect()
	return scout, examined
}

// expandFlat expands a frontier on the calling goroutine on a flat CSR as GAPBS's TDStep
// does, without its compare-and-swap (one goroutine claims): the claims queued at tail
// with no worker buffer, and the claimed vertices' out-degrees summed as they are claimed
// (the scout: b.maxDeg is not known on a flat CSR). It returns the new tail, the scout
// and the entries examined.
func (b *bfs) expandFlat(frontier []uint32, tail int) (int, uint64, uint64) {
	off, adj := b.f.OutOff, b.f.OutAdj
	parent, queue := b.parent, b.queue
	var scout, examined uint64
	for _, u := range frontier {
		lo, hi := off[u], off[u+1]
		examined += hi - lo
		for _, v := range adj[lo:hi] {
			if parent[v] == unreached {
				parent[v] = u
				queue[tail] = v
				tail++
				scout += off[v+1] - off[v]
			}
		}
	}
	return tail, scout, examined
}

// serialEdges is the most out-edges a frontier may have for its top-down level to run
// on one goroutine; tests set it to 0 and to ^0 to exercise both paths.
var serialEdges uint64 = 1 << 11

// pieceSize is the number of neighbours one top-down work item expands at most; a
// multiple of store.BlockSize. Tests lower it to exercise the split.
var pieceSize uint32 = 64 * store.BlockSize

// piece is the part of u's list that starts at position lo.
type piece struct{ u, lo uint32 }

// expand claims the unvisited vertices among u's out-neighbours at positions
// [lo, lo+pieceSize) and returns how many neighbours it read.
func (b *bfs) expand(ws *workerState, u, lo, depth uint32) int {
	if b.c != nil {
		return b.expandCompressed(ws, u, lo, depth)
	}
	nbrs, err := b.a.Slice(store.Out, u, lo, lo+pieceSize, nil)
	if err != nil {
		b.fail(err)
		return 0
	}
	ws.examined += uint64(len(nbrs))
	for _, v := range nbrs {
		if atomic.LoadUint32(&b.parent[v]) == unreached {
			b.claim(ws, v, u, depth)
		}
	}
	return len(nbrs)
}

// serialBatch is the number of frontier vertices whose directory entries and first list
// bytes expandSerial reads before it expands any of them: a level of a road map (about
// a hundred vertices) in one batch, so that Entries, claimRoads and their calls run
// once a level rather than seven times. The entries live in the worker's state, not
// zeroed per level.
const serialBatch = 128

// smallList is the largest degree whose list expandSerial decodes in one block and claims
// inline, in the worker's buffer: one block (store.BlockSize) without claimList's call,
// block loop and index checks.
const smallList = store.BlockSize

// expandSerial expands a frontier on the calling goroutine (compressed graphs),
// serialBatch vertices at a time: first each one's directory entry and the first word
// of its list (store.Shard.Entries), then the lists. On graphs of small degrees (roads,
// meshes) a vertex's expansion is mostly waiting for those loads, one after the other;
// the loads of different vertices do not depend on each other, so reading them in a
// loop of their own lets the processor wait for several at once. A list of fewer than
// store.PackedMin neighbours is decoded from that word, inline where its values are one
// byte each (most lists of roads), else by store.DecodeShortWord, and claimed right
// here; so is a mirrored block of 4 (a mesh's list); other lists of at most smallList
// neighbours (one block) are decoded into a buffer and claimed here, longer ones by
// claimList. The claims queue what they discover at tail, without discovered's call
// and buffer: on a compressed graph b.maxDeg is known (a graph without edges claims
// nothing), so no degree is summed per vertex. Every path reads a list to its end and
// refuses it where store.ListIter does, bytes past its last block included. On a graph
// whose parents do not stay in the caches, a batch whose lists are mostly one varint
// (a top-down level after a bottom-up run on a skewed graph) has them decoded first
// (oneVarints) and their parents asked for at once: the claims then find them on the
// way, where each list's test waited on its own miss. It returns the new tail and the
// entries examined.
func (b *bfs) expandSerial(ws *workerState, frontier []uint32, tail int) (int, uint64) {
	ents := ws.ents()
	buf := &ws.buf // a short list's neighbours (not cleared per list)
	parent, queue, n := b.parent, b.queue, b.n
	pp, qp := unsafe.Pointer(unsafe.SliceData(parent)), unsafe.Pointer(unsafe.SliceData(queue))
	branchFree := n <= claimAllMax
	var examined uint64
	for len(frontier) > 0 && !b.failed.Load() {
		s := ws.outShard(b.c, frontier[0])
		k := s.Entries(ents[:], frontier)
		batch := frontier[:k]
		frontier = frontier[k:]
		// the lists of one varint decoded first, their parents asked for, while the
		// batch before claimed at least serialBatch/4 such lists
		pass := n >= prefetchParentsMin && ws.ones >= serialBatch/4
		if pass {
			var idx [serialBatch]uint32
			m := oneVarints(ents, batch, &ws.oneNbrs, &idx, n)
			store.PrefetchIndexed(parent, idx[:m])
		}
		ws.ones = 0
		for k := 0; k < len(batch); k++ {
			if branchFree && ents[k].Deg-1 < store.PackedMin-1 { // a road's list, maybe
				var ex uint64
				k, tail, ex = claimRoads(ents, batch, k, parent, queue, tail, n)
				examined += ex
				if k == len(batch) {
					break
				}
			}
			if ents[k].Deg == 4 { // a mesh's list, maybe (claimMeshes takes every one)
				var ex uint64
				k, tail, ex = claimMeshes(ents, batch, k, parent, queue, tail, n)
				examined += ex
				if k == len(batch) {
					break
				}
			}
			u, e := batch[k], &ents[k]
			d := e.Deg
			examined += uint64(d)
			if d < store.PackedMin && d > 0 {
				if pass && ws.oneNbrs[k%serialBatch] < n {
					// one varint, decoded by oneVarints
					ws.ones++
					if v := ws.oneNbrs[k%serialBatch]; parent[v] == unreached {
						parent[v] = u
						queue[tail] = v
						tail++
					}
					continue
				}
				// a block of d varints: in d bytes, one byte each when none has its high
				// bit (most lists of roads), the first a zigzag delta from u, the others
				// gaps; else values of several bytes, in one word too
				var nb [store.PackedMin - 1]uint32
				w := e.Head & (1<<(8*d) - 1)
				x := int64(u) + store.Unzigzag(w&0xff)
				g1, g2 := uint32(w>>8&0xff), uint32(w>>16)
				ok := e.End-e.Start == d && w&0x8080808080808080 == 0 && x >= 0 && x+int64(g1)+int64(g2) < int64(n)
				if ok {
					nb = [...]uint32{uint32(x), uint32(x) + g1, uint32(x) + g1 + g2}
				} else if v := store.OneVarint(u, e, n); v != ^uint32(0) {
					// one varint of several bytes
					ws.ones++
					if parent[v] == unreached {
						parent[v] = u
						queue[tail] = v
						tail++
					}
					continue
				} else {
					nb[0], nb[1], nb[2], ok = store.DecodeShortWord(u, d, e.Head, int(e.End-e.Start), n)
				}
				if ok && branchFree { // a road's list
					for _, v := range nb[:d] {
						p := parent[v]
						np, inc := p, 0
						if p == unreached {
							np, inc = u, 1
						}
						parent[v] = np
						queue[tail] = v
						tail += inc
					}
					continue
				}
				if ok {
					for _, v := range nb[:d] {
						if parent[v] == unreached {
							parent[v] = u
							queue[tail] = v
							tail++
						}
					}
					continue
				}
			}
			if d == 0 {
				continue
			}
			list := s.Adj[e.Start:e.End]
			if d > smallList {
				var ok bool
				if tail, ok = b.claimList(ws, u, d, list, tail); !ok {
					b.fail(s.ListError(u))
					return tail, examined
				}
				continue
			}
			nbrs := buf[:d]
			if haveGather && d >= 8 {
				// as claimList: the unvisited found by gathers as the block decodes (from
				// 8 neighbours: shorter lists are mostly not compact blocks, and the
				// call cost more than it saved on luxembourg_osm), or by unvisited
				// after DecodeUnvisited past 16 (up to 16, by the loop below)
				next, m, st := store.UnvisitedBlock(nbrs, list, 0, u, d, n, parent)
				tested, ok := st == 1, st == 1
				if st == 0 {
					next, m, tested, ok = store.DecodeUnvisited(nbrs, u, list, 0, d, n, parent)
					if ok && !tested && d > 16 {
						m, tested = unvisited(parent, buf, int(d)), true
					}
				}
				if !ok || next != len(list) {
					b.fail(s.ListError(u))
					return tail, examined
				}
				if tested {
					tail = claimMask(m, buf, pp, qp, u, tail)
					continue
				}
			} else if next, ok := store.DecodeBlock(nbrs, u, list, 0, d, n); !ok || next != len(list) {
				b.fail(s.ListError(u))
				return tail, examined
			}
			for _, v := range nbrs {
				if parent[v] == unreached {
					parent[v] = u
					queue[tail] = v
					tail++
				}
			}
		}
	}
	return tail, examined
}

// claimRoads is expandSerial's expansion of the lists of batch[k:] (ents[k:] their
// entries) while each is a block of one to three varints whose neighbours lie in the
// graph (the lists of roads), for graphs of at most claimAllMax vertices, whose claims
// take no branch on a parent (see claimAllMax). Where the values are one byte each (most
// lists), a list's neighbours are its first value's vertex and then one per gap byte,
// up to the last nonzero one: a zero gap past it (a byte past the list, masked, or a
// duplicate's) names the vertex just claimed; other lists go through
// store.DecodeShortWord. It returns the index of the first list it left (len(batch) when
// none), the new tail and the neighbours examined. A function of its own, so that its
// few values stay in registers, and with unchecked parent and queue accesses: inside
// expandSerial a list of one-byte values took about 130 instructions, most of them
// spills and checks, and one of several-byte values about 90 besides DecodeShortWord.
// On amd64 with BMI1, BMI2 and POPCNT such runs go through claimRoads1, the same steps
// in assembly with every value in registers, and DecodeShortWord's for values of up to
// 3 bytes without a branch on their lengths.
func claimRoads(ents *[serialBatch]store.ListEntry, batch []uint32, k int, parent, queue []uint32, tail int, n uint32) (int, int, uint64) {
	var examined uint64
	// every neighbour claimed is checked below n <= len(parent), and tail stays within
	// the queue (a vertex enters it at most once, and one spare entry follows: tail <= n
	// < len(queue)): loads and stores without a check each
	pp := unsafe.Pointer(unsafe.SliceData(parent))
	qp := unsafe.Pointer(unsafe.SliceData(queue))
	_, _ = parent[n-1], queue[n]
	for ; k < len(batch); k++ {
		e := &ents[uint(k)%serialBatch] // k < len(batch) <= serialBatch
		if haveClaimRoads1 && e.Deg-1 < store.PackedMin-1 {
			// a road's list, maybe: it and those after it in assembly, the one that
			// ends the run below
			var ex uint64
			k, tail, ex = claimRoads1(&ents[0], unsafe.SliceData(batch), k, min(len(batch), serialBatch), (*uint32)(pp), (*uint32)(qp), tail, int(n), &roadMask[0])
			examined += ex
			if k >= len(batch) {
				break
			}
			e = &ents[uint(k)%serialBatch]
		}
		d := e.Deg
		if d-1 >= store.PackedMin-1 {
			break
		}
		if e.End-e.Start != d {
			// values of several bytes (a fifth of a road's lists)
			x0, x1, x2, ok := store.DecodeShortWord(batch[k], d, e.Head, int(e.End-e.Start), n)
			if !ok {
				break
			}
			u := batch[k]
			examined += uint64(d)
			for _, v := range [3]uint32{x0, x1, x2} {
				tail += claimAll(pp, qp, v, u, tail)
				if d--; d == 0 {
					break
				}
			}
			continue
		}
		w := e.Head & roadMask[d&3] // the list's d bytes
		u := batch[k]
		x := int64(u) + store.Unzigzag(w&0xff)
		if w&0x808080 != 0 || x < 0 || x+int64(w>>8&0xff)+int64(w>>16) >= int64(n) {
			break
		}
		examined += uint64(d)
		for v := uint32(x); ; {
			tail += claimAll(pp, qp, v, u, tail)
			if w >>= 8; w == 0 {
				break
			}
			v += uint32(w & 0xff)
		}
	}
	return k, tail, examined
}

// claimAll is a claim without a branch on the parent (see claimAllMax): v's parent,
// at pp (a parent array's data) plus 4*v, is written back, u where it was unreached,
// and v is written to the queue at qp plus 4*tail; it returns 1 where v was claimed,
// else 0, which the caller adds to the tail: that add is an instruction of the call's
// own line, which takes the place of the inline mark (returned whole, the tail left a
// NOP a claim). The caller has checked v and tail against the arrays' lengths.
func claimAll(pp, qp unsafe.Pointer, v, u uint32, tail int) int {
	pv := (*uint32)(unsafe.Add(pp, 4*uintptr(v)))
	p := *pv
	np, inc := p, 0
	if p == unreached {
		np, inc = u, 1
	}
	*pv = np
	*(*uint32)(unsafe.Add(qp, 4*uintptr(tail))) = v
	return inc
}

// prefetchParentsMin is the fewest vertices for which expandSerial asks for the parents
// of a batch's lists of one varint before it claims them (oneVarints): 4 MiB of
// parents, past a core's own caches. A top-down level after a bottom-up run on a
// skewed graph (kron22: 178,414 vertices, 1.2 neighbours each) otherwise waits on a
// parent's miss a list. Tests lower it.
var prefetchParentsMin uint32 = 1 << 20

// oneVarints sets ones[k], for each list of batch (ents its entries), to its neighbour
// where the list is one varint of at most 5 bytes whose vertex lies below n
// (store.OneVarint), else to ^0; it writes those
// neighbours to idx in order and returns how many. A loop of its own, without the
// claims' loads, so that the neighbours' parents can be asked for before any is tested.
func oneVarints(ents *[serialBatch]store.ListEntry, batch []uint32, ones, idx *[serialBatch]uint32, n uint32) int {
	m := 0
	for k, u := range batch[:min(len(batch), serialBatch)] {
		x := store.OneVarint(u, &ents[k], n)
		ones[k] = x
		idx[m&(serialBatch-1)] = x
		if x != ^uint32(0) {
			m++
		}
	}
	return m
}

// roadMask[d] keeps the low d bytes of a word: a list of d one-byte values. A load
// instead of 1<<(8*d)-1, whose shift by a variable count ties up CX.
var roadMask = [4]uint64{0, 0xff, 0xffff, 0xffffff}

// claimMeshes is expandSerial's expansion of the lists of batch[k:] (ents[k:] their
// entries) while each is one mirrored block of 4 that store.DecodeMirror4Word decodes
// (a mesh's list): store.ClaimMirror4s decodes and claims them in one loop. It returns
// the index of the first list it left (len(batch) when none), the new tail and the
// neighbours examined.
func claimMeshes(ents *[serialBatch]store.ListEntry, batch []uint32, k int, parent, queue []uint32, tail int, n uint32) (int, int, uint64) {
	m, tail := store.ClaimMirror4s(ents[k:], batch[k:], parent, queue, tail, n)
	return k + m, tail, 4 * uint64(m)
}

// claimList is expandSerial's expansion of u's list of d > smallList neighbours: each
// block decoded into the worker's buffer, the unvisited neighbours claimed and queued
// at tail in the same loop, as for short lists (no claim call, nothing in ws.out). With
// AVX2 the block's parents are tested 8 at a time by gathers (unvisited) and the loop
// visits only the unvisited neighbours. It returns the new tail, and false when a
// block does not decode or does not end where the list says (store.BlockEnds).
func (b *bfs) claimList(ws *workerState, u, d uint32, list []byte, tail int) (int, bool) {
	pos := store.FirstBlock(d)
	parent, queue := b.parent, b.queue
	for k := uint32(0); k*store.BlockSize < d; k++ {
		// store.BlockEnds's checks, the list's end once after the loop
		if k > 0 && !store.BlockIndexed(list, k, pos) {
			return tail, false
		}
		nbrs := ws.buf[:store.BlockLen(d, k)]
		var ok bool
		if haveGather {
			// the block's unvisited neighbours found by gathers, 8 a step (by the
			// compact decoder as it makes them, else by unvisited), and only they
			// looked at again (twice for a vertex the list holds twice, with
			// --keep-duplicates: the second finds it claimed)
			// (most blocks in one call, store.UnvisitedBlock; the others by
			// DecodeUnvisited)
			next, m, st := store.UnvisitedBlock(nbrs, list, pos, u, uint32(len(nbrs)), b.n, parent)
			if st == 2 {
				return tail, false
			}
			if st == 0 {
				var tested bool
				if next, m, tested, ok = store.DecodeUnvisited(nbrs, u, list, pos, uint32(len(nbrs)), b.n, parent); !ok {
					return tail, false
				}
				if !tested {
					m = unvisited(parent, &ws.buf, len(nbrs))
				}
			}
			pos = next
			tail = claimMask(m, &ws.buf, unsafe.Pointer(unsafe.SliceData(parent)), unsafe.Pointer(unsafe.SliceData(queue)), u, tail)
			continue
		}
		if pos, ok = store.DecodeBlock(nbrs, u, list, pos, uint32(len(nbrs)), b.n); !ok {
			return tail, false
		}
		// four neighbours a step: the loop's count, compare and branch once for four;
		// i is a multiple of 4 below BlockSize, so the view of four stays in buf
		i := 0
		for ; i+3 < len(nbrs); i += 4 {
			q := (*[4]uint32)(ws.buf[i&(store.BlockSize-4):])
			if v := q[0]; parent[v] == unreached {
				parent[v] = u
				queue[tail] = v
				tail++
			}
			if v := q[1]; parent[v] == unreached {
				parent[v] = u
				queue[tail] = v
				tail++
			}
			if v := q[2]; parent[v] == unreached {
				parent[v] = u
				queue[tail] = v
				tail++
			}
			if v := q[3]; parent[v] == unreached {
				parent[v] = u
				queue[tail] = v
				tail++
			}
		}
		for _, v := range nbrs[i:] {
			if parent[v] == unreached {
				parent[v] = u
				queue[tail] = v
				tail++
			}
		}
	}
	return tail, pos == len(list)
}

// claimMask claims, for each set bit i of m (lowest first), the neighbour nbrs[i] where
// its parent (at pp, a parent array's data) is still unreached, and queues it at qp (the
// queue's data) plus 4*tail; it returns the new tail. The masks of UnvisitedBlock,
// DecodeUnvisited and unvisited set bits only for neighbours below the parent array's
// length, and a vertex claimed enters the queue once (tail <= n < len(queue)): loads
// and stores without a check each, the parent's test the loop's only other branch.
func claimMask(m uint64, nbrs *[store.BlockSize]uint32, pp, qp unsafe.Pointer, u uint32, tail int) int {
	for ; m != 0; m &= m - 1 {
		v := nbrs[uint(bits.TrailingZeros64(m))%store.BlockSize]
		pv := (*uint32)(unsafe.Add(pp, 4*uintptr(v)))
		if *pv == unreached {
			*pv = u
			*(*uint32)(unsafe.Add(qp, 4*uintptr(tail))) = v
			tail++
		}
	}
	return tail
}

// claimAllMax is the most vertices for which expandSerial claims a list of one-byte
// varints (most lists of roads) without a branch on the parent: whether a road vertex's
// neighbour is unvisited is a coin toss (one is its parent, one the next), and each
// mispredicted branch flushes the pipeline, so every neighbour's parent is written back
// (its own or the claiming vertex's) and every neighbour written to the queue, the tail
// advancing for the claimed ones (the queue has a spare entry past the n that vertices
// can fill). With a parent array of at most 1 MiB, which stays in the caches, the added
// stores cost less than the mispredictions (luxembourg_osm 0.88-0.91 of the branch's
// time); beyond it they would dirty lines that are otherwise only read. Tests set it to
// 0 and ^0.
var claimAllMax uint32 = 1 << 18

// expandCompressed is expand on compressed shards.
func (b *bfs) expandCompressed(ws *workerState, u, lo, depth uint32) int {
	s := ws.outShard(b.c, u)
	d, list := s.ListAt(u - s.Lo)
	return b.expandList(ws, u, d, list, lo, depth)
}

// expandList claims the unvisited vertices among the neighbours of u at positions [lo,
// lo+pieceSize) of its list (degree d, encoded list) and returns how many it read. It
// decodes the list where it lies, a block at a time, with no interface call per vertex;
// each block it decodes whole must end where the list says (store.BlockEnds).
func (b *bfs) expandList(ws *workerState, u, d uint32, list []byte, lo, depth uint32) int {
	hi := min(d, lo+pieceSize)
	if lo >= hi {
		return 0
	}
	pos := 0 // a list of one block has no block index
	if d > store.BlockSize {
		var err error
		if pos, err = store.BlockOffset(list, d, lo/store.BlockSize); err != nil {
			b.fail(b.c.Shard(store.Out, u).ListError(u))
			return 0
		}
	}
	for j, k := lo, lo/store.BlockSize; j < hi; k++ {
		c := store.BlockLen(d, k)
		nbrs := ws.buf[:min(c, hi-j)]
		var ok bool
		if pos, ok = store.DecodeBlock(nbrs, u, list, pos, c, b.n); !ok || uint32(len(nbrs)) == c && !store.BlockEnds(list, d, k, pos) {
			b.fail(b.c.Shard(store.Out, u).ListError(u))
			return 0
		}
		for _, v := range nbrs {
			if atomic.LoadUint32(&b.parent[v]) == unreached { // most are visited: skip the call
				b.claim(ws, v, u, depth)
			}
		}
		j += uint32(len(nbrs))
	}
	ws.examined += uint64(hi - lo)
	return int(hi - lo)
}

// claim makes u the parent of v if v has none yet (one compare-and-swap decides between
// workers; a level on one goroutine needs none, and a locked instruction per
// discovered vertex is much of a small level's cost) and queues v for the next level.
func (b *bfs) claim(ws *workerState, v, u, depth uint32) {
	if b.serial {
		if b.parent[v] != unreached {
			return
		}
		b.parent[v] = u
	} else if !atomic.CompareAndSwapUint32(&b.parent[v], unreached, u) {
		return
	}
	b.discovered(ws, v)
}

// discovered queues v, just claimed, for the next level and adds its out-degree to the
// scout count where the level may go bottom-up.
func (b *bfs) discovered(ws *workerState, v uint32) {
	if b.maxDeg == 0 {
		ws.scout += uint64(b.outDegree(ws, v))
	}
	ws.out = append(ws.out, v)
	if len(ws.out) >= flushAt {
		b.flush(ws)
	}
}

// outDegree is v's out-degree, read from the worker's cached shard on compressed
// graphs (the vertices a worker discovers mostly share one shard).
func (b *bfs) outDegree(ws *workerState, v uint32) uint32 {
	if b.c == nil {
		return b.a.Degree(store.Out, v)
	}
	s := ws.degShard
	if s == nil || v < s.Lo || v >= s.Hi() {
		s = b.c.Shard(store.Out, v)
		ws.degShard = s
	}
	return s.DegreeAt(v - s.Lo)
}

// sumOutDegrees is the sum of the out-degrees of vs, on compressed graphs a run of
// vertices of one shard a call (store.Shard.SumDegrees; the worker's cached shard first).
func (b *bfs) sumOutDegrees(ws *workerState, vs []uint32) uint64 {
	var sum uint64
	if b.c == nil {
		for _, v := range vs {
			sum += uint64(b.a.Degree(store.Out, v))
		}
		return sum
	}
	for len(vs) > 0 {
		s := ws.degShard
		if s == nil || vs[0] < s.Lo || vs[0] >= s.Hi() {
			s = b.c.Shard(store.Out, vs[0])
			ws.degShard = s
		}
		d, k := s.SumDegrees(vs)
		sum += d
		vs = vs[k:]
	}
	return sum
}

// sumOutDegreesEvery is the sum of the out-degrees of vs[0], vs[stride], vs[2*stride],
// ... (stride > 0) on a compressed graph (frontierScout runs where b.maxDeg is known):
// sumOutDegrees over every stride-th vertex.
func (b *bfs) sumOutDegreesEvery(ws *workerState, vs []uint32, stride int) uint64 {
	var sum uint64
	for len(vs) > 0 {
		s := ws.degShard
		if s == nil || vs[0] < s.Lo || vs[0] >= s.Hi() {
			s = b.c.Shard(store.Out, vs[0])
			ws.degShard = s
		}
		d, k := s.SumDegreesEvery(vs, stride)
		sum += d
		vs = vs[min(k*stride, len(vs)):]
	}
	return sum
}

// outShard is the out-shard holding u, cached per worker.
func (ws *workerState) outShard(c *store.Compressed, u uint32) *store.Shard {
	s := ws.listShard
	if s == nil || u < s.Lo || u >= s.Hi() {
		s = c.Shard(store.Out, u)
		ws.listShard = s
	}
	return s
}
