package bfs

import (
	"math/bits"
	"unsafe"

	"github.com/oocgraph/ooc/internal/parallel"
	"github.com/oocgraph/ooc/store"
)

// visitedBitmap sets b.front for the first level of a run of bottom-up levels to the
// vertices visited so far, read from parent, rather than to the frontier's: every
// visited in-neighbour of an unvisited vertex is in the frontier (a vertex of an
// earlier level was expanded, which visited its out-neighbours), so a scan meets the
// same first neighbour in either bitmap and examines as many entries. Its words are
// also the first level's vertices to look at (bottomUpCompressed): 64 parents by one
// vector compare, where setting a large frontier's bits costs about 10 instructions a
// vertex (soc-Slashdot0902's: 39,997 of 82,168 vertices) and the level would read the
// parents again.
//
// The bitmaps lie in the queue's first entries where the frontier there is dead
// (queueWords), else in an allocation of their own, made once a search.
func (b *bfs) visitedBitmap() {
	words := (int(b.n) + 63) / 64
	k := 2
	if b.c != nil {
		k = 3
	}
	m := b.queueWords(k * words)
	if m == nil {
		if b.bits == nil {
			b.bits = make([]uint64, k*words)
		}
		m = b.bits
	}
	b.front, b.next = m[:words:words], m[words:2*words:2*words]
	if b.c != nil {
		b.done = m[2*words : 3*words : 3*words]
	}
	if b.workers == 1 {
		b.visitedWords(0, words)
		return
	}
	parallel.For(b.workers, words, 1<<10, func(_, lo, hi int) { b.visitedWords(lo, hi) })
}

// queueWords is w words of the queue's entries [0, tail) from the first 8-byte boundary,
// or nil where they do not hold w words or a later step reads them. In a search without
// levels the frontier of a top-down level lies at the queue's start (rewind), and
// once visitedBitmap reads the visited vertices from parent nothing reads it again:
// bitmapToQueue writes the next frontier from tail on, and the next top-down level
// rewinds over the bitmaps, which a run of bottom-up levels takes afresh. Those
// entries' pages are mapped and cached (the level just wrote them), where a fresh
// allocation's pages each faulted at their first store (soc-Slashdot0902: 30 KiB of
// bitmaps, 6 faults). With levels fillLevels reads every frontier again.
func (b *bfs) queueWords(w int) []uint64 {
	if b.level != nil {
		return nil
	}
	p := unsafe.Pointer(unsafe.SliceData(b.queue))
	skip := int(-uintptr(p) / 4 % 2) // an entry to the word boundary
	if b.tail < skip+2*w {
		return nil
	}
	return unsafe.Slice((*uint64)(unsafe.Add(p, 4*skip)), w)
}

// visitedWords sets the words [lo, hi) of b.front to the visited vertices among theirs:
// bit k of word w where parent[64w+k] is not unreached, none past the last vertex.
func (b *bfs) visitedWords(lo, hi int) {
	front, parent := b.front, b.parent
	whole := min(hi, int(b.n)/64)
	for w := lo; w < whole; w++ {
		if haveGroupWord {
			front[w] = ^unreachedAVX2(&parent[w*64 : w*64+64][0])
		} else {
			front[w] = ^unreachedMask(parent[w*64 : w*64+64])
		}
	}
	if whole < hi { // the last vertices, fewer than 64
		rest := parent[whole*64:]
		front[whole] = ^unreachedMask(rest) & (1<<len(rest) - 1)
	}
}

// bitmapToQueue appends the vertices of b.front to the queue as the next top-down
// frontier. One worker writes them to the queue directly, without a worker buffer.
func (b *bfs) bitmapToQueue() {
	if b.workers == 1 {
		tail := b.tail
		for i, word := range b.front {
			for ; word != 0; word &= word - 1 {
				b.queue[tail] = uint32(i*64 + bits.TrailingZeros64(word))
				tail++
			}
		}
		b.head, b.tail = b.tail, tail
		b.qtail.Store(int64(tail))
		return
	}
	b.qtail.Store(int64(b.tail))
	parallel.For(b.workers, len(b.front), 1<<10, func(w, lo, hi int) {
		ws := &b.ws[w]
		for i, word := range b.front[lo:hi] {
			for word != 0 {
				ws.out = append(ws.out, uint32((lo+i)*64+bits.TrailingZeros64(word)))
				word &= word - 1
				if len(ws.out) >= flushAt {
					b.flush(ws)
				}
			}
		}
	})
	b.collect()
}

// bottomUp visits every unvisited vertex in vertex order and gives it the first
// in-neighbour found in the frontier bitmap (Beamer et al.: most vertices find one within
// their first few neighbours, so the rest of the list is never decoded). Chunks are whole
// bitmap words, so each worker owns the words of b.next it writes.
func (b *bfs) bottomUp(depth uint32) (awake, examined, scout uint64) {
	if b.workers == 1 { // the whole range at once, no closure to allocate
		b.bottomUpWords(&b.ws[0], 0, len(b.next), depth)
	} else {
		parallel.For(b.workers, len(b.next), 64, func(w, lo, hi int) {
			b.bottomUpWords(&b.ws[w], lo, hi, depth)
		})
	}
	scout, examined, awake = b.collect()
	return awake, examined, scout
}

// bottomUpWords is bottomUp's level for the vertices of the bitmap words [lo, hi).
func (b *bfs) bottomUpWords(ws *workerState, lo, hi int, depth uint32) {
	clear(b.next[lo:hi])
	if b.failed.Load() {
		return
	}
	vlo, vhi := uint32(lo*64), uint32(min(uint64(hi)*64, uint64(b.n)))
	if b.c != nil {
		b.bottomUpCompressed(ws, vlo, vhi, depth)
	} else if b.f != nil {
		b.bottomUpFlat(ws, vlo, vhi, depth)
	} else {
		b.bottomUpGeneric(ws, vlo, vhi, depth)
	}
}

func (b *bfs) visit(ws *workerState, v, u, depth uint32) {
	b.parent[v] = u
	if b.level != nil {
		b.level[v] = depth + 1
	}
	b.next[v>>6] |= 1 << (v & 63)
	ws.awake++
}

// bottomUpCompressed is bottomUp on compressed shards, a 64-vertex word of the bitmaps
// at a time. The vertices to look at are the unvisited ones, read from b.front (the
// visited vertices, visitedBitmap) on the first level of a run of bottom-up levels and
// from b.done after it: a word of vertices all visited, or never reachable, costs one
// load. On a Kronecker graph in input order 43% of the vertices have no neighbour, and
// the later levels of a search looked up each one's directory entry again. The first
// level skips a word that is a directory group without neighbours (degree order
// numbers those vertices last) from its header.
func (b *bfs) bottomUpCompressed(ws *workerState, vlo, vhi, depth uint32) {
	var s *store.Shard
	var cur store.DirCursor // decodes a directory group at its first vertex looked at
	var ahead store.GroupScan
	asked := ^uint32(0) // the word whose heads were asked for last
	parent := b.parent
	seen := b.front
	if b.doneValid {
		seen = b.done
	}
	for w := vlo / 64; w*64 < vhi; w++ {
		base := w * 64
		n := min(64, vhi-base)
		todo := ^seen[w] & (^uint64(0) >> (64 - n))
		if todo == 0 {
			b.done[w] = ^uint64(0)
			continue
		}
		if s == nil || base >= s.Hi() {
			s = b.c.Shard(store.In, base)
			cur.Reset(s)
		}
		if i := base - s.Lo; i%store.DirGroup == 0 && base+n <= s.Hi() { // the word is one directory group
			if !b.doneValid && base+64 <= s.Hi() && s.GroupEmpty(i/store.DirGroup) { // 64 dead at once
				b.done[w] = ^uint64(0)
				continue
			}
			if !b.doneValid && len(s.Adj) >= prefetchMin {
				s.PrefetchGroup(i/store.DirGroup + prefetchAhead)
			}
			if b.doneValid && len(s.Adj) >= prefetchMin {
				// after the first level the unvisited vertices are few and their lists
				// far apart: their first words are asked for a group ahead of the scan
				// (and the chunk's first group's before its own)
				if asked != w {
					s.PrefetchHeads(i/store.DirGroup, todo, &ahead)
				}
				if (w+1)*64 < vhi {
					s.PrefetchHeads(i/store.DirGroup+1, ^b.done[w+1], &ahead)
					asked = w + 1
				}
			}
			r := ws.group()
			if bad := s.ScanGroup(i/store.DirGroup, todo, b.n, b.front, r); bad >= 0 {
				b.fail(s.ListError(base + uint32(bad)))
				return
			}
			awake := bits.OnesCount64(r.Found)
			if awake >= applyVecMin && n == 64 && haveGroupWord {
				var lv *uint32
				if b.level != nil {
					lv = &b.level[base : base+64][0]
				}
				applyFoundAVX2(&parent[base : base+64][0], &r.Parent[0], lv, r.Found, depth+1)
			} else {
				for t := r.Found; t != 0; t &= t - 1 {
					k := bits.TrailingZeros64(t)
					parent[base+uint32(k)] = r.Parent[k]
				}
				if b.level != nil {
					for t := r.Found; t != 0; t &= t - 1 {
						b.level[base+uint32(bits.TrailingZeros64(t))] = depth + 1
					}
				}
			}
			b.next[w] |= r.Found
			ws.awake += uint64(awake)
			ws.examined += r.Checked
			ws.scout += r.Degrees
			b.done[w] = ^todo | r.Empty | r.Found
			continue
		}
		var dead uint64
		for t := todo; t != 0; t &= t - 1 {
			k := uint32(bits.TrailingZeros64(t))
			v := base + k
			if s == nil || v >= s.Hi() {
				s = b.c.Shard(store.In, v)
				cur.Reset(s)
			}
			d, list := cur.At(v - s.Lo)
			if d == 0 {
				dead |= 1 << k
				continue
			}
			u, checked, st := store.ScanList(list, v, d, b.n, b.front)
			ws.examined += uint64(checked)
			switch st {
			case store.Found:
				b.visit(ws, v, u, depth)
				ws.scout += uint64(d)
			case store.Malformed:
				b.fail(s.ListError(v))
				return
			}
		}
		b.done[w] = ^todo | dead | b.next[w]
	}
}

// The first level of a run of bottom-up levels reads nearly every list of a shard in
// order (most vertices are unvisited, and most lists miss their first neighbour and
// read on): on a shard whose lists do not stay in the caches (prefetchMin bytes or
// more), it asks for the lists of the group prefetchAhead groups on while it scans
// one, so that the scan's gathers of list heads do not wait on memory one group at a
// time (urand22's first bottom-up level spent half its time in that wait). The later
// levels ask for the next group's list heads alone (PrefetchHeads). A smaller shard's
// lists stay in the caches: neither is asked.
const (
	prefetchAhead = 2
	prefetchMin   = 16 << 20
)

// applyVecMin is the fewest vertices a group found for bottomUpCompressed to write their
// parents and levels by applyFoundAVX2's masked stores (a fixed 40 instructions for the
// 64 entries) rather than one at a time (about 9 instructions a vertex and a
// mispredicted loop exit).
const applyVecMin = 6

// unreachedMask has bit k set where p[k] (k < 64) is unreached. It tests without a
// branch, since on the first level of a run of bottom-up levels whether a vertex is
// visited is a coin toss, and in a frame of its own, so that the mask stays in a register.
//
//go:noinline
func unreachedMask(p []uint32) (m uint64) {
	for k, x := range p {
		m |= (uint64(^x) - 1) >> 63 << (k & 63) // 1 exactly when x is all ones
	}
	return m
}

// bottomUpFlat is bottomUp on a flat CSR, the baseline that shows what the compression
// costs, so as tight as GAPBS's BUStep: the unvisited vertices found 64 at a time
// (unreachedAVX2, as visitedWords), the arrays and counts in locals rather than reached
// through b and ws each entry, and the levels of a word's vertices written after it
// (their bits in b.next).
func (b *bfs) bottomUpFlat(ws *workerState, vlo, vhi, depth uint32) {
	off, adj, parent, front, next := b.f.InOff, b.f.InAdj, b.parent, b.front, b.next
	var examined, scout uint64
	for w := vlo / 64; w*64 < vhi; w++ {
		base := w * 64
		var todo uint64
		if vhi-base >= 64 && haveGroupWord {
			todo = unreachedAVX2(&parent[base : base+64][0])
		} else {
			todo = unreachedMask(parent[base:min(vhi, base+64)])
		}
		var found uint64
		for ; todo != 0; todo &= todo - 1 {
			k := bits.TrailingZeros64(todo)
			v := base + uint32(k)
			nbrs := adj[off[v]:off[v+1]]
			examined += uint64(len(nbrs))
			for i, u := range nbrs {
				if front[u>>6]&(1<<(u&63)) != 0 {
					parent[v] = u
					found |= 1 << k
					scout += uint64(len(nbrs))
					examined -= uint64(len(nbrs) - i - 1) // the entries after u
					break
				}
			}
		}
		next[w] = found
		ws.awake += uint64(bits.OnesCount64(found))
		if b.level != nil {
			for t := found; t != 0; t &= t - 1 {
				b.level[base+uint32(bits.TrailingZeros64(t))] = depth + 1
			}
		}
	}
	ws.examined += examined
	ws.scout += scout
}

// bottomUpGeneric serves other store.Adjacency implementations (decoding whole lists).
func (b *bfs) bottomUpGeneric(ws *workerState, vlo, vhi, depth uint32) {
	for v := vlo; v < vhi; v++ {
		if b.parent[v] != unreached {
			continue
		}
		nbrs, err := b.a.List(store.In, v, ^uint32(0), nil)
		if err != nil {
			b.fail(err)
			return
		}
		for _, u := range nbrs {
			ws.examined++
			if b.front[u>>6]&(1<<(u&63)) != 0 {
				b.visit(ws, v, u, depth)
				ws.scout += uint64(len(nbrs))
				break
			}
		}
	}
}
