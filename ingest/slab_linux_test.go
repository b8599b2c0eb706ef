package ingest

import (
	"bytes"
	"testing"
	"unsafe"
)

// TestAllocSlab maps slabs below, at and above a huge page, with huge pages allowed and
// not: each is n zero bytes that take writes, and freeSlab unmaps it.
func TestAllocSlab(t *testing.T) {
	defer slabHuge.Store(slabHuge.Load())
	for _, huge := range []bool{true, false} {
		for _, n := range []int64{4096, hugePage, 3*hugePage + 5} {
			slabHuge.Store(huge)
			b := allocSlab(n)
			if int64(len(b)) != n {
				t.Fatalf("huge %v: slab of %d bytes has %d", huge, n, len(b))
			}
			if !bytes.Equal(b, make([]byte, n)) {
				t.Fatalf("huge %v: slab of %d bytes not zeroed", huge, n)
			}
			for i := range b {
				b[i] = byte(i)
			}
			_, mapped := hugeSlabs.Load(unsafe.Pointer(&b[0]))
			if mapped && (n < hugePage || !huge) {
				t.Errorf("huge %v: slab of %d bytes mapped for huge pages", huge, n)
			}
			freeSlab(b)
			if _, still := hugeSlabs.Load(unsafe.Pointer(&b[0])); still {
				t.Errorf("huge %v: slab of %d bytes still registered after freeSlab", huge, n)
			}
		}
	}
}
