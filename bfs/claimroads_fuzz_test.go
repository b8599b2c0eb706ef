package bfs

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/oocgraph/ooc/store"
)

// FuzzClaimRoads feeds claimRoads (claimRoads1's assembly on amd64) a batch of arbitrary
// entries (13 bytes of data each: the vertex's low 16 bits, its degree, the list's
// length, its first 8 bytes; 1 more ignored), a vertex count, a first list and parents:
// no panic, and claimRoadsRef's lists, tail, neighbours examined, parents and queue.
func FuzzClaimRoads(f *testing.F) {
	road := func(v uint32, nbrs ...uint32) []byte {
		l := store.AppendList(nil, v, nbrs)
		var e [13]byte
		e[0], e[1], e[2], e[3] = byte(v), byte(v>>8), byte(len(nbrs)), byte(len(l))
		copy(e[4:], l)
		return e[:]
	}
	f.Add(uint32(300), uint8(0), uint64(1), slices.Concat(road(10, 9, 11), road(11, 10, 12, 13), road(12, 11), road(20, 5, 300)))
	f.Add(uint32(300), uint8(1), uint64(2), slices.Concat(road(10, 9, 11), road(11, 10, 200, 201), road(2, 0, 1), road(5, 4)))
	f.Add(uint32(300), uint8(0), uint64(3), slices.Concat(road(1, 2), road(2, 1, 3), []byte{3, 0, 1, 1, 0x07, 9, 9, 9, 9, 9, 9, 9, 0}))
	f.Add(uint32(300), uint8(0), uint64(4), slices.Concat(road(1, 2), []byte{2, 0, 2, 1, 0x03, 0x05, 0, 0, 0, 0, 0, 0, 0}))
	f.Fuzz(func(t *testing.T, n uint32, k uint8, seed uint64, data []byte) {
		n = 1 + n%(1<<16)
		var ents [serialBatch]store.ListEntry
		var batch []uint32
		for ; len(data) >= 13 && len(batch) < serialBatch; data = data[13:] {
			i := len(batch)
			ents[i] = store.ListEntry{Deg: uint32(data[2] % 5), Start: 5, End: 5 + uint32(data[3]%10), Head: binary.LittleEndian.Uint64(data[4:12])}
			batch = append(batch, (uint32(data[0])|uint32(data[1])<<8)%n)
		}
		start := int(k) % (len(batch) + 1)
		r := rand.New(rand.NewPCG(seed, 45))
		parent := make([]uint32, n)
		for x := range parent {
			parent[x] = unreached
			if r.IntN(4) == 0 {
				parent[x] = r.Uint32N(n)
			}
		}
		queue := make([]uint32, n+1)
		wantParent, wantQueue := slices.Clone(parent), slices.Clone(queue)
		wantK, wantTail, wantEx := claimRoadsRef(ents[:], batch, start, wantParent, wantQueue, 0, n)
		for _, asm := range claimRoadsModes(t) {
			haveClaimRoads1 = asm
			parent, queue := slices.Clone(parent), slices.Clone(queue)
			gotK, gotTail, gotEx := claimRoads(&ents, batch, start, parent, queue, 0, n)
			if gotK != wantK || gotTail != wantTail || gotEx != wantEx || !slices.Equal(parent, wantParent) || !slices.Equal(queue[:gotTail], wantQueue[:gotTail]) {
				t.Fatalf("claimRoads (assembly %v) of %v from %d (entries %+v, n %d): list %d, tail %d, examined %d, want %d, %d, %d (or parents, queue differ)",
					asm, batch, start, ents[:len(batch)], n, gotK, gotTail, gotEx, wantK, wantTail, wantEx)
			}
		}
	})
}
