// Package fault keeps a memory fault on a mapped graph file from crashing the process.
//
// The shards are read through mmap. When a file shrinks under a reader (truncated or
// rewritten while in use), touching the lost pages raises SIGBUS, which the Go runtime
// turns into a fatal crash unless the goroutine asked for a panic instead
// (debug.SetPanicOnFault). Every goroutine that reads mapped graph bytes runs in a
// Group, which asks for the panic, catches it and re-raises it on the goroutine that
// waits; the command catches it there (store.CatchFault) and reports the file as
// corrupt, exit 3, in one line.
package fault

import (
	"runtime"
	"runtime/debug"
	"sync"
)

// Group is a sync.WaitGroup whose goroutines panic on a memory fault instead of
// crashing, and whose Wait re-raises the first such panic on the caller's goroutine.
// Any other panic crashes the process as it would have.
type Group struct {
	wg    sync.WaitGroup
	mu    sync.Mutex
	fault any
}

// Go runs f on a new goroutine of the group.
func (g *Group) Go(f func()) {
	g.wg.Go(func() {
		defer g.catch()
		debug.SetPanicOnFault(true)
		f()
	})
}

func (g *Group) catch() {
	p := recover()
	if p == nil {
		return
	}
	if _, ok := Addr(p); !ok {
		panic(p)
	}
	g.mu.Lock()
	if g.fault == nil {
		g.fault = p
	}
	g.mu.Unlock()
}

// Wait waits for the group's goroutines and re-raises the first fault one of them hit.
func (g *Group) Wait() {
	g.wg.Wait()
	if g.fault != nil {
		panic(g.fault)
	}
}

// Addr returns the faulting address when p, a recovered panic value, is a memory fault.
func Addr(p any) (uintptr, bool) {
	e, ok := p.(interface {
		runtime.Error
		Addr() uintptr
	})
	if !ok {
		return 0, false
	}
	return e.Addr(), true
}
