package testgraph

import (
	"encoding/binary"
	"testing"

	"github.com/oocgraph/ooc/store"
)

// DamagedKinds are the damaged lists Damaged writes: bytes whose checksums hold (the
// writer computes them) but that do not decode to their vertex's degree of neighbours
// below the vertex count, which only a graph written outside ooc's builder holds.
var DamagedKinds = []string{"short", "range", "head", "index", "long", "trailing", "early"}

// ShortDamagedKinds are the damaged kinds of a list of one or two neighbours, which
// Afforest's sampling (store.HeadGroup) and bottom-up's first step (store.ScanGroup)
// read whole without a block index: "trailing1", DamagedNeighbour's list of one with a
// zero byte after it, and "trailing2", the same on ring vertex DamagedRing's list of
// two. DamagedAt names the vertex damaged. The CPU's and the GPU's damaged-list tests run
// them as they run DamagedKinds.
var ShortDamagedKinds = []string{"trailing1", "trailing2"}

// DamagedVertex is the vertex whose list Damaged damages, and DamagedNeighbour one of its
// neighbours (whose only neighbour it is).
const (
	DamagedVertex    = 700
	DamagedNeighbour = 701
	DamagedRing      = 300
)

// DamagedAt is the vertex whose list Damaged damages for kind: DamagedVertex but for
// ShortDamagedKinds.
func DamagedAt(kind string) uint32 {
	switch kind {
	case "trailing1":
		return DamagedNeighbour
	case "trailing2":
		return DamagedRing
	}
	return DamagedVertex
}

// Damaged writes an undirected graph of 1,000 vertices: a ring of 600 (the largest
// component), vertex DamagedVertex with 100 neighbours in 701..903, each of which has it
// as its only neighbour, the rest isolated. DamagedVertex's list is written pre-encoded
// and damaged as kind says (DamagedAt's list for ShortDamagedKinds); every other list
// is valid. All but "head" damage only its
// second block, so that only a decoder that reads the whole list finds it (the GPU's
// first-neighbour array reads the first block alone):
//
//   - "short": the list's last 3 bytes cut off (fewer bytes than its degree needs);
//   - "range": its last neighbour 1,007, past the vertex count;
//   - "head": every neighbour 1,000 above its own, past the vertex count from the first;
//   - "index": the block index pointing past the list;
//   - "long": 65,536 zero bytes after the list: two blocks of more than 65,535 bytes,
//     whose length's low 16 bits are the valid list's (bfs.cu's gathered levels pack a
//     length in 16 bits);
//   - "trailing": a zero byte after the list's last block, which a decoder of that block
//     alone does not see (store.BlockEnds);
//   - "early": the block index putting the second block one byte before the first
//     block's end, inside the list: each block decodes, but not where the index says
//     (store.BlockIndexed).
//
// Check finds "index" and "long" (a list's length and block index); the others need a
// decoder. The graph is not checked here, and is closed when the test ends.
func Damaged(tb testing.TB, kind string) *store.Graph {
	tb.Helper()
	const n, ring, bad = 1000, 600, DamagedVertex
	at := DamagedAt(kind)
	lists := make([][]uint32, n)
	for v := uint32(0); v < ring; v++ {
		a, b := (v+ring-1)%ring, (v+1)%ring
		lists[v] = []uint32{min(a, b), max(a, b)}
	}
	for k := uint32(0); k < 100; k++ {
		u := bad + 1 + 2*k + k%3
		lists[bad] = append(lists[bad], u)
		lists[u] = []uint32{bad}
	}
	degrees, enc := make([]uint32, n), make([][]byte, n)
	for v := uint32(0); v < n; v++ {
		l := lists[v]
		if v == bad {
			l = append([]uint32(nil), l...)
			switch kind {
			case "range":
				l[len(l)-1] = n + 7
			case "head":
				for i := range l {
					l[i] += n
				}
			}
		}
		e := store.AppendList(nil, v, l)
		if v == at && at != bad { // ShortDamagedKinds
			e = append(e, 0)
		}
		if v == bad && at == bad {
			switch kind {
			case "short":
				e = e[:len(e)-3]
			case "index":
				binary.LittleEndian.PutUint32(e, uint32(len(e)+16))
			case "long":
				e = append(e, make([]byte, 1<<16)...)
			case "trailing":
				e = append(e, 0)
			case "early":
				binary.LittleEndian.PutUint32(e, binary.LittleEndian.Uint32(e)-1)
			case "range", "head":
			default:
				tb.Fatalf("testgraph: no damaged kind %q", kind)
			}
		}
		degrees[v], enc[v] = uint32(len(l)), e
	}
	return BuildEncoded(tb, degrees, enc)
}
