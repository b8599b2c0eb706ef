package gpu

import "testing"

func TestWorkspace(t *testing.T) {
	layout := func(w *Workspace) (Buf[uint32], Buf[uint64]) {
		return Take[uint32](w, "a", 10), Take[uint64](w, "b", 3)
	}
	m := Measure()
	layout(m)
	if m.Bytes() != 2*Align || len(m.Items()) != 2 || m.Items()[0].Bytes != 40 || m.Items()[1].Bytes != 24 {
		t.Fatalf("measured %d bytes, items %v", m.Bytes(), m.Items())
	}
	if Sum(m.Items()) != m.Bytes() {
		t.Fatalf("Sum(items) %d, measured %d", Sum(m.Items()), m.Bytes())
	}
	w := NewWorkspace(1<<20, m.Bytes())
	a, b := layout(w)
	if w.Err() != nil || a.Addr != 1<<20 || a.Len != 10 || b.Addr != 1<<20+Align || b.Bytes() != 24 {
		t.Fatalf("carved %+v %+v (%v)", a, b, w.Err())
	}
	w.Reset()
	if a2, _ := layout(w); a2 != a {
		t.Fatalf("after Reset: %+v, want %+v", a2, a)
	}
	small := NewWorkspace(0, Align)
	if layout(small); small.Err() == nil {
		t.Fatal("a workspace too small gave no error")
	}
}
