package store

import (
	"math/rand"
	"slices"
	"testing"
)

// TestLegacyDecodeList checks the codec of versions 2 to 4 against lists written by
// that codec's encoder, and against truncation and trailing bytes.
func TestLegacyDecodeList(t *testing.T) {
	seed := testSeed(t)
	r := rand.New(rand.NewSource(int64(seed)))
	for iter := 0; iter < 200; iter++ {
		nv := uint32(1 + r.Intn(1<<20))
		v := uint32(r.Intn(int(nv)))
		var nbrs []uint32
		for range r.Intn(300) {
			nbrs = append(nbrs, uint32(r.Intn(int(nv))))
		}
		slices.Sort(nbrs)
		list := legacyAppendList(nil, v, nbrs)
		got, err := legacyDecodeList(nil, v, uint32(len(nbrs)), list, nv)
		if err != nil || !slices.Equal(got, nbrs) && len(nbrs) > 0 {
			t.Fatalf("seed %d: decoded %v, %v; want %v", seed, got, err, nbrs)
		}
		if len(list) > 0 {
			if _, err := legacyDecodeList(nil, v, uint32(len(nbrs)), list[:len(list)-1], nv); err == nil {
				t.Fatalf("seed %d: a truncated list decoded", seed)
			}
		}
		if _, err := legacyDecodeList(nil, v, uint32(len(nbrs)), append(list, 0), nv); err == nil {
			t.Fatalf("seed %d: a list with a trailing byte decoded", seed)
		}
	}
	// FORMAT.md's worked example, B = 64: vertex 10, [5, 7, 300].
	got, err := legacyDecodeList(nil, 10, 3, []byte{0x09, 0x02, 0xA5, 0x02}, 1000)
	if err != nil || !slices.Equal(got, []uint32{5, 7, 300}) {
		t.Fatalf("worked example: %v, %v", got, err)
	}
}

// legacyAppendList is the encoder of versions 2 to 4, for tests.
func legacyAppendList(dst []byte, v uint32, nbrs []uint32) []byte {
	nb := (len(nbrs) + BlockSize - 1) / BlockSize
	start := len(dst)
	dst = append(dst, make([]byte, 4*max(0, nb-1))...)
	for k := 0; k < nb; k++ {
		if k > 0 {
			off := uint32(len(dst) - start)
			dst[start+4*(k-1)], dst[start+4*(k-1)+1], dst[start+4*(k-1)+2], dst[start+4*(k-1)+3] = byte(off), byte(off>>8), byte(off>>16), byte(off>>24)
		}
		blk := nbrs[k*BlockSize : min(len(nbrs), (k+1)*BlockSize)]
		x := int64(blk[0]) - int64(v)
		dst = appendUvarintLegacy(dst, uint64(x<<1)^uint64(x>>63))
		for i := 1; i < len(blk); i++ {
			dst = appendUvarintLegacy(dst, uint64(blk[i]-blk[i-1]))
		}
	}
	return dst
}

func appendUvarintLegacy(b []byte, x uint64) []byte {
	for x >= 0x80 {
		b = append(b, byte(x)|0x80)
		x >>= 7
	}
	return append(b, byte(x))
}
