package main

import (
	"testing"
	"time"
)

func TestChain(t *testing.T) {
	for _, n := range []int64{0, 1, 1000} {
		if got := chain(n); got < 0 || (n > 0 && got == 0) {
			t.Errorf("chain(%d) = %d", n, got)
		}
	}
}

func TestMeasure(t *testing.T) {
	if ns := measure(time.Millisecond); ns <= 0 {
		t.Errorf("measure = %d ns, want > 0", ns)
	}
}
