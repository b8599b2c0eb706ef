package pagerank

import (
	"bytes"
	"slices"
	"testing"

	"github.com/oocgraph/ooc/store"
)

// FuzzSumList checks PageRank's inline decoder (sumList) against store.DecodeList on
// arbitrary bytes: no panic (so no neighbour outside the vertex range is ever read), and
// wherever the list is well formed, success and the same sum, added in list order. Like
// the engines' other decoders it need not reject what only the strict decoder checks
// (trailing bytes, a block index that disagrees): the checksums cover those.
func FuzzSumList(f *testing.F) {
	f.Add(uint32(10), uint32(3), []byte{0x09, 0x02, 0xA5, 0x02}, byte(0x80))
	f.Add(uint32(10), uint32(3), []byte{0x06, 0, 0, 0, 0x09, 0x02, 0xC4, 0x04}, byte(0))
	nbrs := make([]uint32, 150)
	for i := range nbrs {
		nbrs[i] = uint32(5 * i)
	}
	f.Add(uint32(3), uint32(150), store.AppendList(nil, 3, nbrs), byte(0xff))
	const nv = 1000
	contrib := make([]float32, nv)
	for i := range contrib {
		contrib[i] = 1 / float32(i+1)
	}
	f.Fuzz(func(t *testing.T, v, d uint32, list []byte, pad byte) {
		v, d = v%nv, d%400
		if d == 0 {
			return // a vertex without edges has no list to decode
		}
		want, err := store.DecodeList(nil, v, d, list, nv)
		// In a shard the list's capacity runs on past its end (store.FastUvarint loads whole
		// words there); give it such a tail, of the fuzzed byte.
		tail := bytes.Repeat([]byte{pad}, 8)
		list = append(slices.Clip(list), tail...)[:len(list)]
		sum, ok := sumList(list, v, d, contrib, nv)
		if err != nil {
			return
		}
		if !ok {
			t.Fatalf("sumList rejects a list store.DecodeList reads as %v", want)
		}
		var ref float64
		for _, u := range want {
			ref += float64(contrib[u])
		}
		if sum != ref {
			t.Fatalf("sum %v, want %v over %v", sum, ref, want)
		}
	})
}
