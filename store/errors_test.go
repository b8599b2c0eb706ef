package store

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"testing"
)

// TestNoSpace: a full disk, an exhausted quota or the open-file limit (the process's or
// the system's) under any wrapping is its errno, and an upgrade's such failure names
// the graph, not the temporary file, and still matches it; other errors are 0 and pass
// upgradeNoSpace unchanged.
func TestNoSpace(t *testing.T) {
	tmp := ".u.ooc.tmp-123/ids.bin"
	for _, errno := range []syscall.Errno{syscall.ENOSPC, syscall.EDQUOT, syscall.EMFILE, syscall.ENFILE} {
		err := fmt.Errorf("store: writing %s: %w", tmp, &fs.PathError{Op: "write", Path: tmp, Err: errno})
		if got := NoSpace(err); got != errno {
			t.Errorf("NoSpace(%v) = %v, want %v", err, got, errno)
		}
		up := upgradeNoSpace("u.ooc", err)
		if want := fmt.Sprintf("store: upgrading u.ooc: %v (the graph is left as it was)", errno); up.Error() != want || !errors.Is(up, errno) {
			t.Errorf("upgradeNoSpace: %v, want %q matching the errno", up, want)
		}
	}
	for _, err := range []error{nil, &fs.PathError{Op: "write", Path: tmp, Err: syscall.EIO}, errors.New("no space left on device")} {
		if got := NoSpace(err); got != 0 {
			t.Errorf("NoSpace(%v) = %v, want 0", err, got)
		}
		if up := upgradeNoSpace("u.ooc", err); up != err {
			t.Errorf("upgradeNoSpace(%v) = %v, want it unchanged", err, up)
		}
	}
}
