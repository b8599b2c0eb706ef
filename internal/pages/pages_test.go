package pages

import (
	"testing"
	"unsafe"
)

// TestBytes holds bytes to the whole pages inside a slice: page-aligned ends, nothing
// outside the slice, nothing for a slice inside one page.
func TestBytes(t *testing.T) {
	buf := make([]uint32, 3*int(pageSize))
	for _, c := range []struct{ lo, hi int }{{0, len(buf)}, {1, len(buf) - 1}, {5, 5 + int(pageSize)/4}, {7, 9}, {0, 0}} {
		s := buf[c.lo:c.hi]
		b := bytes(s)
		if len(b) == 0 {
			if len(s) > 0 && uintptr(len(s))*4 >= 2*pageSize {
				t.Errorf("[%d:%d]: no page inside %d bytes", c.lo, c.hi, len(s)*4)
			}
			continue
		}
		lo, hi := uintptr(unsafe.Pointer(&b[0])), uintptr(unsafe.Pointer(&b[0]))+uintptr(len(b))
		slo, shi := uintptr(unsafe.Pointer(&s[0])), uintptr(unsafe.Pointer(&s[0]))+uintptr(len(s))*4
		if lo%pageSize != 0 || hi%pageSize != 0 || lo < slo || hi > shi || lo-slo >= pageSize || shi-hi >= pageSize {
			t.Errorf("[%d:%d]: pages %#x-%#x of slice %#x-%#x", c.lo, c.hi, lo, hi, slo, shi)
		}
	}
}

// TestFillKeepsZero: the advice never changes contents, and the slice takes stores.
func TestFillKeepsZero(t *testing.T) {
	for _, n := range []int{0, 1, 1000, 3 << 20} {
		s := make([]uint32, n)
		Fill(s)
		r := make([]uint64, n/2)
		Reserve(r)
		for i, x := range s {
			if x != 0 {
				t.Fatalf("n=%d: s[%d] = %d after Fill", n, i, x)
			}
			s[i] = uint32(i)
		}
		for i := range r {
			r[i] = uint64(i)
		}
	}
}

// TestUncovered: the parts of a range outside a set of live ranges, which may overlap
// each other and the range, in address order.
func TestUncovered(t *testing.T) {
	for _, c := range []struct {
		s          span
		live, want []span
	}{
		{span{10, 20}, nil, []span{{10, 20}}},
		{span{10, 20}, []span{{0, 10}, {20, 30}}, []span{{10, 20}}},
		{span{10, 20}, []span{{5, 25}}, nil},
		{span{10, 20}, []span{{10, 20}}, nil},
		{span{10, 20}, []span{{12, 14}}, []span{{10, 12}, {14, 20}}},
		{span{10, 20}, []span{{15, 30}, {0, 11}}, []span{{11, 15}}},
		{span{10, 20}, []span{{12, 16}, {13, 14}, {14, 18}}, []span{{10, 12}, {18, 20}}},
		{span{10, 20}, []span{{16, 18}, {12, 14}}, []span{{10, 12}, {14, 16}, {18, 20}}},
		{span{10, 20}, []span{{10, 12}, {12, 20}}, nil},
		{span{10, 10}, []span{{0, 5}}, nil},
	} {
		got := uncovered(nil, c.s, c.live)
		if len(got) != len(c.want) {
			t.Errorf("uncovered(%v, %v) = %v, want %v", c.s, c.live, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("uncovered(%v, %v) = %v, want %v", c.s, c.live, got, c.want)
				break
			}
		}
	}
}
