package bfs

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/oocgraph/ooc/store"
)

// claimRoadsRef is claimRoads's rule in its plainest form: from batch[k] on while a
// list has 1 to 3 neighbours that store.DecodeShortWord decodes, each neighbour written
// to the queue at the tail and claimed where its parent is unreached.
func claimRoadsRef(ents []store.ListEntry, batch []uint32, k int, parent, queue []uint32, tail int, n uint32) (int, int, uint64) {
	var examined uint64
	for ; k < len(batch); k++ {
		e := ents[k]
		if e.Deg-1 >= store.PackedMin-1 {
			break
		}
		x0, x1, x2, ok := store.DecodeShortWord(batch[k], e.Deg, e.Head, int(e.End-e.Start), n)
		if !ok {
			break
		}
		examined += uint64(e.Deg)
		for _, v := range []uint32{x0, x1, x2}[:e.Deg] {
			queue[tail] = v
			if parent[v] == unreached {
				parent[v] = batch[k]
				tail++
			}
		}
	}
	return k, tail, examined
}

// TestClaimRoads holds claimRoads (claimRoads1 where it runs) to claimRoadsRef on batches
// of short lists of one-byte and several-byte values, lists of other degrees, lists
// whose bytes or whose extent are corrupted, lists of more than 8 bytes (the values
// followed by continuation bytes), from random parents: the lists it expands,
// the neighbours examined, the parents and the queue up to the tail. -short (CI's race
// run, where one goroutine has no race to find) draws a sixth of the batches.
func TestClaimRoads(t *testing.T) {
	seed := rand.Uint64()
	r := rand.New(rand.NewPCG(seed, 19))
	expanded, multi := 0, 0
	trials := 6000
	if testing.Short() {
		trials = 1000
	}
	for trial := 0; trial < trials; trial++ {
		n := uint32(2 + r.IntN(1<<(1+r.IntN(18))))
		var ents [serialBatch]store.ListEntry
		batch := make([]uint32, 1+r.IntN(serialBatch))
		for k := range batch {
			v := r.Uint32N(n)
			d := uint32(1 + r.IntN(3))
			if r.IntN(16) == 0 {
				d = uint32(r.IntN(6))
			}
			span := uint32(1 + r.IntN(200))
			if r.IntN(4) == 0 {
				span = n
			}
			nbrs := make([]uint32, d)
			for i := range nbrs {
				lo := int64(v) - int64(span)
				nbrs[i] = uint32(max(0, min(int64(n)-1, lo+int64(r.Uint32N(2*span+1)))))
			}
			slices.Sort(nbrs)
			list := store.AppendList(nil, v, nbrs)
			switch r.IntN(12) {
			case 0: // a bit flipped
				if len(list) > 0 {
					list[r.IntN(len(list))] ^= byte(1 << r.IntN(8))
				}
			case 1: // the same values, some in more bytes than they need (up to 6)
				list = list[:0]
				for i, x := range nbrs {
					g := uint64(x) - uint64(nbrs[max(i, 1)-1])
					if i == 0 {
						z := int64(x) - int64(v)
						g = uint64(z<<1) ^ uint64(z>>63)
					}
					list = appendVarint(list, g, 1+r.IntN(6))
				}
			case 3: // one value with a bit from 18 to 27 added (a varint of 3 or 4 bytes
				// whose bits past the first 18 or 21 put it out of range, or do not)
				list = list[:0]
				hi := r.IntN(max(1, len(nbrs)))
				for i, x := range nbrs {
					g := uint64(x) - uint64(nbrs[max(i, 1)-1])
					if i == 0 {
						z := int64(x) - int64(v)
						g = uint64(z<<1) ^ uint64(z>>63)
					}
					if i == hi {
						g |= 1 << (18 + r.IntN(10))
					}
					list = appendVarint(list, g, 1)
				}
			case 4: // the list, then bytes with their high bits set to 9 to 12 bytes in
				// all: the word holds the d values and continuation bytes, not the end
				for want := 9 + r.IntN(4); len(list) < want; {
					list = append(list, 0x80|byte(r.Uint32()))
				}
			case 2: // random bytes
				list = make([]byte, 1+r.IntN(8))
				for i := range list {
					list[i] = byte(r.Uint32())
				}
			}
			end := uint32(len(list))
			if r.IntN(12) == 0 {
				end = uint32(int(end) + r.IntN(5) - 2)
			}
			var head [8]byte
			for i := range head {
				head[i] = byte(r.Uint32())
			}
			copy(head[:], list)
			ents[k] = store.ListEntry{Deg: d, Start: 1000, End: 1000 + end, Head: binary.LittleEndian.Uint64(head[:])}
			batch[k] = v
			for _, b := range list {
				if b >= 0x80 {
					multi++
					break
				}
			}
		}
		parent := make([]uint32, n)
		open := 0
		for x := range parent {
			parent[x] = r.Uint32N(n)
			if r.IntN(2) == 0 {
				parent[x] = unreached
				open++
			}
		}
		// as in a search, the tail plus the vertices still unreached at most n: the
		// queue (n+1 entries) has room for every claim and the write past the last
		queue := make([]uint32, n+1)
		wantParent, wantQueue := slices.Clone(parent), slices.Clone(queue)
		tail0 := r.IntN(int(n) - open + 1)
		wantK, wantTail, wantEx := claimRoadsRef(ents[:], batch, 0, wantParent, wantQueue, tail0, n)
		for _, asm := range claimRoadsModes(t) {
			haveClaimRoads1 = asm
			parent, queue := slices.Clone(parent), slices.Clone(queue)
			k, tail, ex := claimRoads(&ents, batch, 0, parent, queue, tail0, n)
			if k != wantK || tail != wantTail || ex != wantEx || !slices.Equal(parent, wantParent) || !slices.Equal(queue[:tail], wantQueue[:tail]) {
				t.Fatalf("seed %d trial %d: claimRoads (assembly %v) of %v (entries %+v, n %d) = %d lists, tail %d, %d examined, want %d, %d, %d (or parents, queue differ)", seed, trial, asm, batch, ents[:len(batch)], n, k, tail, ex, wantK, wantTail, wantEx)
			}
		}
		expanded += wantK
	}
	if expanded < trials || multi < trials/4 {
		t.Fatalf("seed %d: %d lists expanded, %d of several-byte values: the test does not exercise claimRoads", seed, expanded, multi)
	}
}

// claimRoadsModes is the values of haveClaimRoads1 a test runs claimRoads with: false
// (the Go loop) and, where claimRoads1 runs, true; the test's end restores it.
func claimRoadsModes(t testing.TB) []bool {
	if !claimRoads1Runs {
		return []bool{false}
	}
	t.Cleanup(func() { haveClaimRoads1 = claimRoads1Runs })
	return []bool{false, true}
}

// claimRoads1Runs is haveClaimRoads1 as the processor sets it.
var claimRoads1Runs = haveClaimRoads1

// appendVarint appends x as a varint of at least l bytes (zero groups after its own,
// continued): the format's decoders read such a value as x up to 5 bytes.
func appendVarint(b []byte, x uint64, l int) []byte {
	for i := 1; x >= 0x80 || i < l; i++ {
		b = append(b, byte(x)|0x80)
		x >>= 7
	}
	return append(b, byte(x))
}
