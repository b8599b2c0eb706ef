package ingest

import (
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// allocSlab maps a slab outside the Go heap with its pages populated in one call:
// touching fresh heap pages one fault at a time cost 3.7 µs a page on the 2-core
// development VM (256 MiB: 965 ms), populating them 45 ms. It falls back to the heap.
//
// A slab of at least a huge page asks for transparent huge pages first (allocHuge):
// phase 2 reads the spill's runs from anywhere in it, and with 4 KiB pages almost every
// run missed the TLB. On the H100 host (kron23 text, medians of 5 input-order and 3-4
// degree-order runs, interleaved, two leases) the input order took 1.547 -> 1.520 s and
// 1.482 -> 1.413 s, the degree order 2.61 -> 2.48 s and 2.59 -> 2.35 s.
func allocSlab(n int64) []byte {
	if n >= hugePage && slabHuge.Load() {
		if b := allocHuge(n); b != nil {
			return b
		}
	}
	b, err := syscall.Mmap(-1, 0, int(n), syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_ANON|syscall.MAP_PRIVATE|syscall.MAP_POPULATE)
	if err != nil {
		return make([]byte, n)
	}
	return b
}

const (
	hugePage = 2 << 20
	// hugeMinRate is the slowest populating of a huge-page slab (bytes per second)
	// that allocSlab lets pass hugeSlowMax times before it maps plain pages from then
	// on: where free memory is fragmented, the kernel compacts it at each fault of a
	// region advised for huge pages, and the development VM populated them at 0.5 GB/s
	// against 7 GB/s plain.
	hugeMinRate = 1 << 30
)

// slabHuge says whether slabs still ask for huge pages; cleared for good by the
// hugeSlowMax-th slow one. One slow slab is not enough: a mapping goroutine that waits
// for a core among 16 busy workers looks slow too, and turned huge pages off early in a
// kron26 ingest (2.1B edges), which then got 316 huge pages where kron23 got ~700.
var (
	slabHuge atomic.Bool
	slowHuge atomic.Int32
)

const hugeSlowMax = 4

func init() { slabHuge.Store(true) }

// allocHuge maps n bytes aligned to a huge page, advises huge pages and populates them,
// or returns nil where the kernel refuses a step.
func allocHuge(n int64) []byte {
	t0 := time.Now()
	size := uintptr(n) + hugePage
	base, err := unix.MmapPtr(-1, 0, nil, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return nil
	}
	// keep the aligned n bytes, unmap the rest
	skip := (hugePage - uintptr(base)%hugePage) % hugePage
	if skip > 0 {
		_ = unix.MunmapPtr(base, skip)
	}
	if end := skip + uintptr(n); end < size {
		_ = unix.MunmapPtr(unsafe.Add(base, end), size-end)
	}
	p := unsafe.Add(base, skip)
	b := unsafe.Slice((*byte)(p), n)
	if unix.Madvise(b, unix.MADV_HUGEPAGE) != nil || unix.Madvise(b, unix.MADV_POPULATE_WRITE) != nil {
		_ = unix.MunmapPtr(p, uintptr(n))
		slabHuge.Store(false)
		return nil
	}
	if d := time.Since(t0); d > time.Duration(n)*time.Second/hugeMinRate && slowHuge.Add(1) >= hugeSlowMax {
		slabHuge.Store(false)
	}
	hugeSlabs.Store(p, uintptr(n))
	return b
}

// hugeSlabs holds the start and length of every slab allocHuge mapped and freeSlab has
// not unmapped: syscall.Munmap unmaps only what syscall.Mmap mapped.
var hugeSlabs sync.Map

// freeSlab unmaps a slab of allocSlab; for a heap slab Munmap finds no mapping and
// does nothing, and the collector takes it.
func freeSlab(b []byte) {
	if len(b) == 0 {
		return
	}
	p := unsafe.Pointer(unsafe.SliceData(b))
	if n, ok := hugeSlabs.LoadAndDelete(p); ok {
		_ = unix.MunmapPtr(p, n.(uintptr))
		return
	}
	_ = syscall.Munmap(b)
}
