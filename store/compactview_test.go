package store

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCompactViewRoom decodes and scans compact blocks whose stream is near its longest
// (63 gaps of 28 to 32 bits, 63 exceptions of 7 + 32 bits: more than 520 of
// compactMaxBytes' 561 bytes) with no room past the list (compactView's copy) and with
// room (in place): both must give the same answer, and refuse the block exactly where
// its last exception's high part, in the stream's last bytes, is not zero.
func TestCompactViewRoom(t *testing.T) {
	const v, nv = 1000, 1 << 20
	r := rand.New(rand.NewPCG(testSeed(t), 41))
	for trial := range 200 {
		w := 28 + r.IntN(5)
		var bw bitAppender
		for range BlockSize - 1 {
			bw.put(r.Uint64N(256), w) // gaps of 1 to 256: the last neighbour stays below nv
		}
		bw.put(BlockSize-1|7<<excCountBits|31<<(excCountBits+excStepBits), excHeader) // 63 exceptions, wi 7, wh 32
		var hi uint64
		if trial%2 == 1 {
			hi = 1 << r.IntN(32) // any high part sends the gap past nv
		}
		for e := range BlockSize - 1 {
			bw.put(0, 7) // steps of 0: the exceptions name gaps 0 to 62
			if e < BlockSize-2 {
				bw.put(0, 32)
			} else {
				bw.put(hi, 32)
			}
		}
		if len(bw.b) <= 520 {
			t.Fatalf("stream of %d bytes, want more than 520", len(bw.b))
		}
		list := append([]byte{2<<1 | 1, hdrCompact | hdrExceptions | byte(w)}, bw.b...) // v+1, packed
		front := randomBits(r, nv)
		tight, roomy := withTail(r, list, 0), withTail(r, list, compactArea+16)
		var got [2][BlockSize]uint32
		var next [2]int
		var ok [2]bool
		var x, checked [2]uint32
		var st [2]int
		for i, l := range [][]byte{tight, roomy} {
			next[i], ok[i] = DecodeBlock(got[i][:], v, l, 0, BlockSize, nv)
			x[i], checked[i], st[i] = ScanList(l, v, BlockSize, nv, front)
		}
		if ok[0] != (hi == 0) || ok[1] != ok[0] || next[0] != next[1] || (ok[0] && got[0] != got[1]) {
			t.Fatalf("trial %d (w %d, high part %#x): DecodeBlock without room %v %d, with room %v %d; values equal %v",
				trial, w, hi, ok[0], next[0], ok[1], next[1], got[0] == got[1])
		}
		if x[0] != x[1] || checked[0] != checked[1] || st[0] != st[1] {
			t.Fatalf("trial %d (w %d, high part %#x): ScanList without room %d %d %d, with room %d %d %d",
				trial, w, hi, x[0], checked[0], st[0], x[1], checked[1], st[1])
		}
		if i := slices.IndexFunc(got[0][:], func(u uint32) bool { return front[u>>6]&(1<<(u&63)) != 0 }); ok[0] && (i < 0) != (st[0] == NotFound) {
			t.Fatalf("trial %d: ScanList status %d, first neighbour in the bitmap at %d", trial, st[0], i)
		}
	}
}

// bitAppender appends fields to b least significant bit first, as the compact stream
// holds them.
type bitAppender struct {
	b []byte
	n int // bits written
}

func (a *bitAppender) put(x uint64, w int) {
	for i := range w {
		if a.n%8 == 0 {
			a.b = append(a.b, 0)
		}
		a.b[a.n/8] |= byte(x>>i&1) << (a.n % 8)
		a.n++
	}
}
