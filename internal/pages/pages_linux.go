package pages

import (
	"os"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

const (
	huge     = unix.MADV_HUGEPAGE
	populate = unix.MADV_POPULATE_WRITE
)

var pageSize = uintptr(os.Getpagesize())

func advise(b []byte, advice int) {
	if len(b) > 0 {
		_ = unix.Madvise(b, advice) // advice only: a refusal leaves the faults to the stores
	}
}

// hugeOnRequest reports whether the system gives transparent huge pages only to ranges
// that ask (enabled = madvise). Under "always" every range has them unasked, and asking
// back there (MADV_NOHUGEPAGE) would take them from later allocations; under "never"
// the advice does nothing.
var hugeOnRequest = sync.OnceValue(func() bool {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && strings.Contains(string(b), "[madvise]")
})

// advised holds the ranges advised huge whose allocations live, by registration.
var advised struct {
	sync.Mutex
	next uint64
	live map[uint64]span
}

// adviseHuge asks for huge pages on b, inside the allocation that obj points into, and
// asks them back when that allocation dies. The advice and its withdrawal run under
// advised's lock, so a withdrawal never takes the advice from a live slice that a later
// allocation placed on the same range.
func adviseHuge(b []byte, obj unsafe.Pointer) {
	if !hugeOnRequest() {
		return
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	advised.Lock()
	if advised.live == nil {
		advised.live = make(map[uint64]span)
	}
	advised.next++
	id := advised.next
	advised.live[id] = span{p, p + uintptr(len(b))}
	advise(b, huge)
	advised.Unlock()
	runtime.AddCleanup((*byte)(obj), withdraw, id)
}

// withdraw asks back the huge-page advice of registration id from the parts of its
// range that no live registration holds.
func withdraw(id uint64) {
	advised.Lock()
	defer advised.Unlock()
	s := advised.live[id]
	delete(advised.live, id)
	live := make([]span, 0, len(advised.live))
	for _, l := range advised.live {
		live = append(live, l)
	}
	for _, u := range uncovered(nil, s, live) {
		// the range is held as addresses (a pointer would keep the allocation alive)
		_, _, _ = unix.Syscall(unix.SYS_MADVISE, u.lo, u.hi-u.lo, unix.MADV_NOHUGEPAGE)
	}
}
