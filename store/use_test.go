package store

import (
	"errors"
	"testing"
	"time"
)

// TestUseHoldsClose: Close waits for a Use in flight before it unmaps, refuses new ones
// at once, and a second Close waits for the first; a done called twice counts once.
func TestUseHoldsClose(t *testing.T) {
	g := &Graph{Dir: "g.ooc"}
	done, err := g.Use()
	if err != nil {
		t.Fatal(err)
	}
	closed := make(chan struct{}, 2)
	for range 2 {
		go func() {
			g.Close()
			closed <- struct{}{}
		}()
	}
	for !g.Closed() {
		time.Sleep(time.Millisecond)
	}
	if _, err := g.Use(); !errors.Is(err, ErrClosed) {
		t.Errorf("Use after Close began: %v, want ErrClosed", err)
	}
	if err := g.Check(); !errors.Is(err, ErrClosed) {
		t.Errorf("Check after Close began: %v, want ErrClosed", err)
	}
	select {
	case <-closed:
		t.Fatal("Close returned while a Use was in flight")
	case <-time.After(50 * time.Millisecond):
	}
	done()
	done()
	for range 2 {
		select {
		case <-closed:
		case <-time.After(10 * time.Second):
			t.Fatal("Close did not return after the last Use ended")
		}
	}
	if !g.gone || g.users != 0 {
		t.Errorf("after Close: gone %v, users %d", g.gone, g.users)
	}
}
