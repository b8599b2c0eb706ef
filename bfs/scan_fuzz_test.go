package bfs

import (
	"bytes"
	"slices"
	"testing"

	"github.com/oocgraph/ooc/store"
)

// FuzzScanFrontier checks bottom-up's decoder (store.ScanList) against
// store.DecodeList on arbitrary bytes: no panic, the first frontier neighbour wherever the
// list is well formed, and never a vertex outside the frontier.
func FuzzScanFrontier(f *testing.F) {
	f.Add(uint32(10), uint32(3), []byte{0x09, 0x02, 0xA5, 0x02}, byte(0x80))
	f.Add(uint32(10), uint32(3), []byte{0x06, 0, 0, 0, 0x09, 0x02, 0xC4, 0x04}, byte(0))
	nbrs := make([]uint32, 150)
	for i := range nbrs {
		nbrs[i] = uint32(5 * i)
	}
	f.Add(uint32(3), uint32(150), store.AppendList(nil, 3, nbrs), byte(0xff))
	const nv = 1000
	front := make([]uint64, (nv+63)/64)
	for i := range front {
		front[i] = 0x1111111111111111 // every fourth vertex is in the frontier
	}
	f.Fuzz(func(t *testing.T, v, d uint32, list []byte, pad byte) {
		v, d = v%nv, d%400
		want, err := store.DecodeList(nil, v, d, list, nv)
		// In a shard the list's capacity runs on past its end (store.FastUvarint loads whole
		// words there); give it such a tail, of the fuzzed byte.
		tail := bytes.Repeat([]byte{pad}, 8)
		list = append(slices.Clip(list), tail...)[:len(list)]
		u, checked, st := store.ScanList(list, v, d, nv, front)
		if st == store.Found && (u >= nv || front[u>>6]&(1<<(u&63)) == 0) {
			t.Fatalf("ScanList found %d, not in the frontier", u)
		}
		if err != nil {
			return
		}
		i := slices.IndexFunc(want, func(x uint32) bool { return x%4 == 0 })
		switch {
		case i < 0 && st != store.NotFound:
			t.Fatalf("ScanList status %d, want NotFound", st)
		case i >= 0 && (st != store.Found || u != want[i] || checked != uint32(i+1)):
			t.Fatalf("ScanList = %d after %d (status %d), want %d after %d", u, checked, st, want[i], i+1)
		}
	})
}
