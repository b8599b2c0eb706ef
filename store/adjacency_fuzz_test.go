package store

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// FuzzDecode checks the inline decoder (decodePrefix) against DecodeList on arbitrary bytes: no
// panic, the same neighbours wherever the list is well formed, a refusal wherever it is
// not, and never a neighbour outside the graph.
func FuzzDecode(f *testing.F) {
	f.Add(uint32(10), uint32(3), []byte{0x09, 0x02, 0xA5, 0x02}, byte(0x80))
	f.Add(uint32(10), uint32(3), []byte{0x06, 0, 0, 0, 0x09, 0x02, 0xC4, 0x04}, byte(0))
	nbrs := make([]uint32, 150)
	for i := range nbrs {
		nbrs[i] = uint32(5 * i)
	}
	f.Add(uint32(3), uint32(150), AppendList(nil, 3, nbrs), byte(0xff))
	f.Add(uint32(10), uint32(6), []byte{0x13, 0xC1, 0x20, 0xD8, 0x61, 0x24}, byte(0)) // compact, exceptions
	f.Add(uint32(10), uint32(4), []byte{0x1F, 0xFF, 0x07}, byte(0x80))                // mirrored
	f.Add(uint32(0), uint32(1), []byte{0x02, 0x00}, byte(0))                          // a byte past the list
	const nv = 1000
	f.Fuzz(func(t *testing.T, v, d uint32, list []byte, pad byte) {
		v, d = v%nv, d%400
		want, err := DecodeList(nil, v, d, list, nv)
		// In a shard the list's capacity runs on past its end (uvarint loads whole
		// words there); give it such a tail, of the fuzzed byte.
		tail := bytes.Repeat([]byte{pad}, 8)
		list = append(slices.Clip(list), tail...)[:len(list)]
		got := make([]uint32, d)
		ok := decodePrefix(got, v, list, d, nv)
		if err == nil && (!ok || !slices.Equal(got, want)) {
			t.Fatalf("decodePrefix = %v, %v; DecodeList = %v", got, ok, want)
		}
		// a list decoded to its end is refused where DecodeList refuses it (but a list
		// of degree 0, which no decoder reads)
		if err != nil && ok && d > 0 {
			t.Fatalf("decodePrefix of all %d neighbours = %v; DecodeList: %v", d, got, err)
		}
		if ref, rok := refDecode(v, d, list, nv); (err == nil) != rok || (rok && !slices.Equal(ref, want)) {
			t.Fatalf("reference decoder = %v, %v; DecodeList = %v, %v", ref, rok, want, err)
		}
		if ok {
			for _, x := range got {
				if x >= nv {
					t.Fatalf("decoded %d >= %d", x, nv)
				}
			}
		}
	})
}

// TestDecodePrefixMalformed feeds truncated and out-of-range lists to decodePrefix: it
// must report malformed bytes, never panic or return neighbours outside the graph.
func TestDecodePrefixMalformed(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	nbrs := make([]uint32, 200)
	for i := range nbrs {
		nbrs[i] = uint32(3 * i)
	}
	good := AppendList(nil, 5, nbrs)
	for trial := 0; trial < 2000; trial++ {
		list := slices.Clone(good)
		switch trial % 3 {
		case 0:
			list = list[:r.IntN(len(list))]
		case 1:
			list[r.IntN(len(list))] = byte(r.Uint32())
		case 2:
			list[r.IntN(len(list))] |= 0x80
		}
		nv := uint32(600)
		dst := make([]uint32, len(nbrs))
		if decodePrefix(dst, 5, list, uint32(len(nbrs)), nv) {
			for _, x := range dst {
				if x >= nv {
					t.Fatalf("trial %d: decoded %d >= %d", trial, x, nv)
				}
			}
		}
	}
}
