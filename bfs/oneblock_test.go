package bfs

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
)

// TestOneBlock holds oneBlock's parts to their lengths, to cache lines of their own
// and to memory of their own: stores to each leave the others as they were.
func TestOneBlock(t *testing.T) {
	for _, n := range []uint32{1, 2, 15, 16, 17, 4039, smallSearch - 1} {
		for _, levels := range []bool{false, true} {
			b := &bfs{n: n}
			b.oneBlock(levels)
			type part struct {
				name string
				p    []uint32
				want int
			}
			parts := []part{{"parent", b.parent, int(n)}, {"queue", b.queue, int(n) + 1}}
			if levels {
				parts = append(parts, part{"level", b.level, int(n)})
			} else if b.level != nil {
				t.Errorf("n %d: a level array without levels", n)
			}
			for _, x := range parts {
				name, p := x.name, x.p
				if len(p) != x.want {
					t.Fatalf("n %d levels %v: %s has %d entries, want %d", n, levels, name, len(p), x.want)
				}
				if a := uintptr(unsafe.Pointer(unsafe.SliceData(p))); a%64 != 0 {
					t.Errorf("n %d levels %v: %s starts at %#x, not on a cache line", n, levels, name, a)
				}
			}
			for k, x := range parts {
				for i := range x.p {
					x.p[i] = uint32(k+1)<<24 | uint32(i)
				}
			}
			for k, x := range parts {
				for i, v := range x.p {
					if v != uint32(k+1)<<24|uint32(i) {
						t.Fatalf("n %d levels %v: %s[%d] = %#x after the other parts' stores", n, levels, x.name, i, v)
					}
				}
			}
		}
	}
}

// TestWorkerStatePage holds one worker's state to a page of its own, as newBFS allocates
// it, and its scratch to both of its views, a batch's entries and a group's scan, which
// must hold no pointers: the collector sees the scratch as words.
func TestWorkerStatePage(t *testing.T) {
	const page = 4096
	var ws workerState
	if size := unsafe.Sizeof(ws); size > page {
		t.Fatalf("a worker's state takes %d bytes, more than a page", size)
	}
	// The allocator starts each object of its 4096-byte size class (more than 3456
	// bytes) on a page; a 32-bit build's smaller state takes a smaller class, which may
	// straddle two.
	if unsafe.Sizeof(uintptr(0)) == 8 {
		b := newBFS(store.NewCompressed(testgraph.Build(t, 4, testgraph.Pairs(0, 1, 2, 3), false, 0)), 1, false)
		lo := uintptr(unsafe.Pointer(&b.ws[0]))
		if hi := lo + unsafe.Sizeof(ws) - 1; lo/page != hi/page {
			t.Errorf("one worker's state at [%#x, %#x] spans two pages", lo, hi)
		}
	}
	scratch := uintptr(unsafe.Pointer(&ws.scratch))
	for name, v := range map[string]struct{ at, size uintptr }{
		"ents":  {uintptr(unsafe.Pointer(ws.ents())), unsafe.Sizeof(*ws.ents())},
		"group": {uintptr(unsafe.Pointer(ws.group())), unsafe.Sizeof(*ws.group())},
	} {
		if v.at != scratch || v.size > unsafe.Sizeof(ws.scratch) {
			t.Errorf("%s: %d bytes at scratch+%d, the scratch holds %d", name, v.size, v.at-scratch, unsafe.Sizeof(ws.scratch))
		}
	}
	for _, v := range []any{*ws.ents(), *ws.group()} {
		if p := pointerIn(reflect.TypeOf(v)); p != "" {
			t.Errorf("%T holds a pointer (%s), which the scratch's words would hide from the collector", v, p)
		}
	}
}

// pointerIn names a type within t that holds a pointer ("" when none does).
func pointerIn(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Array:
		return pointerIn(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if p := pointerIn(t.Field(i).Type); p != "" {
				return t.Field(i).Name + ": " + p
			}
		}
		return ""
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return ""
	}
	return t.String()
}
