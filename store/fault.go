package store

import (
	"fmt"
	"os"
	"sync"
	"unsafe"

	"github.com/oocgraph/ooc/internal/fault"
	"github.com/oocgraph/ooc/internal/plural"
)

// mappings records every graph file mapped by this process, so that a memory fault
// (internal/fault) can be reported as the file it happened in. Entries outlive Unmap:
// a fault unwinds through the deferred Close of the graph before it is reported. A new
// mapping replaces the entries whose addresses it reuses.
var mappings struct {
	sync.Mutex
	m map[uintptr]mapped
}

type mapped struct {
	size int
	path string
}

func registerMapping(b []byte, path string) {
	if len(b) == 0 {
		return
	}
	base := uintptr(unsafe.Pointer(&b[0]))
	mappings.Lock()
	defer mappings.Unlock()
	if mappings.m == nil {
		mappings.m = map[uintptr]mapped{}
	}
	for at, m := range mappings.m {
		if at < base+uintptr(len(b)) && base < at+uintptr(m.size) {
			delete(mappings.m, at)
		}
	}
	mappings.m[base] = mapped{len(b), path}
}

// CatchFault, deferred, turns a memory fault on a mapped graph file, raised on this
// goroutine or re-raised by a fault.Group's Wait, into a CorruptError naming the file
// in *err. Any other panic goes on.
func CatchFault(err *error) {
	p := recover()
	if p == nil {
		return
	}
	addr, ok := fault.Addr(p)
	if !ok {
		panic(p)
	}
	*err = faultError(addr)
}

func faultError(addr uintptr) error {
	mappings.Lock()
	defer mappings.Unlock()
	for base, m := range mappings.m {
		if addr >= base && addr < base+uintptr(m.size) {
			now := "is gone"
			if st, err := os.Stat(m.path); err == nil {
				now = "is now " + plural.Of(st.Size(), "byte")
			}
			return corrupt(m.path, int64(addr-base), "the file changed while it was read: it was %s and %s (truncated or rewritten in use?)", plural.Of(m.size, "byte"), now)
		}
	}
	return &CorruptError{Path: "(a graph file)", Offset: -1, Reason: fmt.Sprintf("memory fault at %#x reading a mapped file that changed while in use", addr)}
}

// CheckSize says whether the shard's file still has the size it was mapped with. Code
// that hands the mapping to C (the CUDA driver copies and pins it) calls it first: a
// fault inside C cannot be turned into an error (internal/fault), so a file truncated
// since it was opened is refused here, before the call, where it is cheap to look.
func (s *Shard) CheckSize() error {
	st, err := os.Stat(s.Path)
	if err != nil {
		return corrupt(s.Path, -1, "the file is gone since it was opened: %v", err)
	}
	if st.Size() != int64(len(s.data)) {
		return corrupt(s.Path, -1, "the file changed while in use: it was %s and is now %d (truncated or rewritten?)", plural.Of(len(s.data), "byte"), st.Size())
	}
	return nil
}
