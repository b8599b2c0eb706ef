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
