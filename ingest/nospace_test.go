package ingest

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"testing"
)

// TestNamedNoSpace: a full disk (or the open-file limit) under any wrapping names the
// graph, not the temporary file that failed, and still matches its errno; an outer
// ingest's name replaces an inner one's (WeighEdges builds through FromEdges into a
// temporary graph); other errors pass unchanged.
func TestNamedNoSpace(t *testing.T) {
	tmp := "/d/.g.ooc.tmp-123/out-00000.shard"
	full := fmt.Errorf("store: writing %s: %w", tmp, &fs.PathError{Op: "write", Path: tmp, Err: syscall.ENOSPC})
	err := namedNoSpace("/d/g.ooc", full)
	if want := "ingest: writing /d/g.ooc: no space left on device (the partial graph was removed)"; err == nil || err.Error() != want {
		t.Errorf("%v, want %q", err, want)
	}
	if !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("%v does not match ENOSPC", err)
	}
	inner := namedNoSpace("/d/.g.ooc.lists-9/g.ooc", &fs.PathError{Op: "write", Path: tmp, Err: syscall.EDQUOT})
	if err := namedNoSpace("/d/g.ooc", fmt.Errorf("ingest: weighing: %w", inner)); err == nil ||
		err.Error() != "ingest: writing /d/g.ooc: disk quota exceeded (the partial graph was removed)" {
		t.Errorf("renamed: %v", err)
	}
	spill := "/d/.g.ooc.tmp-1/.input.ooc.tmp-2/out.spill"
	if err := namedNoSpace("/d/g.ooc", fmt.Errorf("spill file: %w", &fs.PathError{Op: "open", Path: spill, Err: syscall.EMFILE})); err == nil ||
		err.Error() != "ingest: writing /d/g.ooc: too many open files (the partial graph was removed)" || !errors.Is(err, syscall.EMFILE) {
		t.Errorf("the open-file limit: %v", err)
	}
	other := &fs.PathError{Op: "write", Path: tmp, Err: syscall.EIO}
	if err := namedNoSpace("/d/g.ooc", other); err != other {
		t.Errorf("an I/O error became %v", err)
	}
	if err := namedNoSpace("/d/g.ooc", nil); err != nil {
		t.Errorf("nil became %v", err)
	}
}
