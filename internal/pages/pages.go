// Package pages readies fresh memory for the stores a kernel is about to make.
//
// A fresh allocation's pages fault in one at a time on their first store: a trap each,
// about 3 us a 4 KiB page on the GPU machine's virtual machine (a 16 MiB parent array
// took 12.9 ms to fill there, GAPBS's init pays the same). Two kernel services cut that:
// transparent huge pages, asked for by MADV_HUGEPAGE where the system leaves them to
// madvise (2 MiB a fault, and fewer TLB misses on the random reads that follow), and
// MADV_POPULATE_WRITE (Linux 5.14), which maps a range in one call. Both are advice: a
// kernel that refuses them leaves the faults to the stores, and the contents stay as
// they are (zero).
//
// The huge-page advice stays on an address range until it is asked back, and the Go heap
// hands a freed range to later allocations: a sparse array there would fault in 2 MiB a
// touch, and khugepaged fills out every 2 MiB that holds one live page. So the advice is
// asked for only where the system gives huge pages to no range unasked, and asked back
// when the slice's allocation dies, from the parts no live advised slice holds.
package pages

import "unsafe"

// hugeMin is the smallest slice asked to be backed by huge pages: one whole 2 MiB page
// inside it at any alignment needs 4 MiB.
const hugeMin = 4 << 20

// Fill readies s, about to be written in full by one goroutine: huge pages where it is
// large enough, then every page mapped in one call where it spans populateMin or more.
// Workers that write parts of s in parallel fault their own ranges in parallel instead:
// call Reserve. s is memory from make (the Go heap): the huge-page advice is asked back
// when its allocation dies.
func Fill[T any](s []T) {
	b := bytes(s)
	if len(b) >= hugeMin {
		adviseHuge(b, unsafe.Pointer(unsafe.SliceData(s)))
	}
	if len(b) >= populateMin {
		advise(b, populate)
	}
}

// populateMin is the fewest bytes of whole pages that Fill maps in one call. The call
// costs about 5 us on the GPU machine's virtual machine and then about 0.6 us a page,
// a store's fault about 1 us a page: below 16 pages the stores fault them in for less
// (facebook_combined's 16 KiB of labels: 6.5 us mapped against 2.6 us faulted).
const populateMin = 64 << 10 // 16 pages of 4 KiB

// Reserve readies s for stores that may reach only part of it (a queue that a small
// component's search fills a little of): huge pages where it is large enough, nothing
// mapped ahead. s is memory from make, as for Fill.
func Reserve[T any](s []T) {
	if b := bytes(s); len(b) >= hugeMin {
		adviseHuge(b, unsafe.Pointer(unsafe.SliceData(s)))
	}
}

// span is an address range [lo, hi).
type span struct{ lo, hi uintptr }

// uncovered appends to dst the parts of s that no span of live covers, in address order.
func uncovered(dst []span, s span, live []span) []span {
	for lo := s.lo; lo < s.hi; {
		// the live span that covers lo reaching furthest, else the first to start after lo
		next, covered := s.hi, lo
		for _, l := range live {
			if l.lo <= lo && l.hi > covered {
				covered = l.hi
			} else if l.lo > lo && l.lo < next {
				next = l.lo
			}
		}
		if covered > lo {
			lo = covered
			continue
		}
		dst = append(dst, span{lo, next})
		lo = next
	}
	return dst
}

// bytes is the whole pages inside s.
func bytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	size := uintptr(len(s)) * unsafe.Sizeof(zero)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	lo, hi := (p+pageSize-1)&^(pageSize-1), (p+size)&^(pageSize-1)
	if hi <= lo {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), lo-p)), hi-lo)
}
