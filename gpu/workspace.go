package gpu

import "fmt"

// A Workspace is device memory that algorithms carve into the typed buffers they own for
// one run. The memory plan reserves one workspace, as large as the largest state any
// algorithm declares (only one runs at a time), and each run carves it again from the
// start: an algorithm names and sizes its own buffers, and no algorithm reads another's.
//
// An algorithm writes its layout once, as a function that Takes its buffers from a
// workspace; run on Measure() it yields the Items the plan reserves, run on the device's
// workspace it yields the buffers (the two cannot disagree).
type Workspace struct {
	base, size int64 // device address and bytes; size < 0: measuring
	used       int64
	items      []Item
	err        error
}

// Measure returns a workspace that only records what is taken, for Items.
func Measure() *Workspace { return &Workspace{size: -1} }

// NewWorkspace returns a workspace over size bytes of device memory at address base.
func NewWorkspace(base uint64, size int64) *Workspace {
	return &Workspace{base: int64(base), size: size}
}

// Reset starts carving again from the start; buffers taken before must not be used.
func (w *Workspace) Reset() { w.used, w.items, w.err = 0, nil, nil }

// Items lists what was taken since the last Reset, each aligned as the plan counts it.
func (w *Workspace) Items() []Item { return w.items }

// Err is the first failure of Take since the last Reset.
func (w *Workspace) Err() error { return w.err }

// Bytes is the size of the workspace (what was taken, when measuring).
func (w *Workspace) Bytes() int64 {
	if w.size < 0 {
		return w.used
	}
	return w.size
}

// Buf is a device buffer of Len elements of T at device address Addr.
type Buf[T any] struct {
	Addr uint64
	Len  int64
}

// Take carves a buffer of n elements of T named name (for -v) from w. When w is too small
// it records the error (see Err) and returns an empty buffer.
func Take[T any](w *Workspace, name string, n int64) Buf[T] {
	var zero T
	bytes := n * int64(sizeOf(zero))
	at := w.used
	w.used += align(bytes)
	w.items = append(w.items, Item{Name: name, Bytes: bytes})
	if w.size >= 0 && w.used > w.size && w.err == nil {
		w.err = fmt.Errorf("gpu: workspace of %d bytes cannot hold %s (%d bytes at %d)", w.size, name, bytes, at)
	}
	if w.err != nil {
		return Buf[T]{}
	}
	return Buf[T]{Addr: uint64(w.base + at), Len: n}
}

// Bytes is the buffer's size in bytes.
func (b Buf[T]) Bytes() int64 {
	var zero T
	return b.Len * int64(sizeOf(zero))
}
