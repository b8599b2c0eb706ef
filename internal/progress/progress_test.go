package progress

import (
	"strings"
	"testing"
	"time"
)

func TestNilLine(t *testing.T) {
	var l *Line = New(nil, "x")
	if l != nil || l.Due() {
		t.Fatal("a line on no writer must be nil and never due")
	}
	l.Show("step %d", 1) // no panic, no output
	l.Done()
}

func TestDelay(t *testing.T) {
	var b strings.Builder
	l := NewAfter(&b, "sssp", time.Hour, 0)
	l.Show("bin %d", 3)
	l.Done()
	if b.Len() != 0 {
		t.Fatalf("a run shorter than the delay printed %q", b.String())
	}
}

func TestRedrawAndErase(t *testing.T) {
	var b strings.Builder
	l := NewAfter(&b, "pagerank", 0, 0)
	l.Show("iteration %d, L1 change %.3g", 12, 0.0031)
	first := b.String()
	if !strings.HasPrefix(first, "\rpagerank: iteration 12, L1 change 0.0031, ") || !strings.HasSuffix(first, " s") {
		t.Fatalf("first draw %q", first)
	}
	l.Show("iteration %d", 13) // shorter: the rest of the old line is blanked
	second := strings.TrimPrefix(b.String(), first)
	if len(second) != len(first) || !strings.HasPrefix(second, "\rpagerank: iteration 13, ") {
		t.Fatalf("second draw %q does not cover the first %q", second, first)
	}
	l.Done()
	erase := strings.TrimPrefix(b.String(), first+second)
	if erase != "\r"+strings.Repeat(" ", len(first)-1)+"\r" {
		t.Fatalf("erase %q", erase)
	}
	l.Done() // nothing drawn: nothing to erase
	if b.Len() != len(first)+len(second)+len(erase) {
		t.Fatal("a second Done printed")
	}
}

func TestInterval(t *testing.T) {
	var b strings.Builder
	l := NewAfter(&b, "kcore", 0, time.Hour)
	l.Show("core %d", 1)
	n := b.Len()
	l.Show("core %d", 2)
	if b.Len() != n || l.Due() {
		t.Fatal("drew again within the interval")
	}
}

func TestImmediate(t *testing.T) {
	var b strings.Builder
	l := New(Immediate(&b), "sssp")
	for i := range 3 {
		l.Show("bin %d", i)
	}
	if got := strings.Count(b.String(), "\rsssp: bin "); got != 3 {
		t.Fatalf("%d draws of 3 on an immediate writer: %q", got, b.String())
	}
}
