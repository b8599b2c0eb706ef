package gpu

import (
	"errors"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/store"
)

// TestRunError: a run that read its fault word reports the refused list in preference to
// its own error, which the ListError carries (errors.Is finds both); its own error alone
// when no list was refused or the word could not be read.
func TestRunError(t *testing.T) {
	errRun := errors.New("cuda: an illegal memory access was encountered")
	errRead := errors.New("cuda: DtoH failed")
	list := func() *ListError {
		return &ListError{Graph: "g.ooc", Vertex: 7, Reason: "a neighbour at or past the vertex count", Shards: []string{"out/0"}}
	}
	if err := runError(nil, nil); err != nil {
		t.Errorf("no fault, no run error: %v", err)
	}
	if err := runError(nil, errRun); err != errRun {
		t.Errorf("no fault: %v, want the run's error", err)
	}
	if err := runError(errRead, errRun); err != errRun {
		t.Errorf("word unread: %v, want the run's error", err)
	}
	if err := runError(errRead, nil); err != errRead {
		t.Errorf("word unread, run fine: %v, want the read's error", err)
	}
	err := runError(list(), nil)
	var le *ListError
	if !errors.As(err, &le) || le.Run != nil || strings.Contains(err.Error(), "the run then failed") {
		t.Errorf("fault alone: %v", err)
	}
	err = runError(list(), errRun)
	if !errors.As(err, &le) || le.Vertex != 7 || !errors.Is(err, errRun) || !errors.Is(err, store.ErrCorrupt) {
		t.Fatalf("fault and run error: %v, want the ListError carrying the run's error", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "vertex 7") || !strings.Contains(msg, errRun.Error()) ||
		!strings.Contains(msg, "ooc verify g.ooc") || strings.Contains(msg, "\n") {
		t.Errorf("message %q: want one line naming the vertex, the run's error and ooc verify", msg)
	}
}
