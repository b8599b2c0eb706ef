//go:build !linux

package robust

import (
	"errors"
	"testing"
)

// mountTmpfs skips the test: mounting a tmpfs is Linux's.
func mountTmpfs(t *testing.T, mnt, size string) {
	t.Helper()
	t.Skipf("no tmpfs of %s to mount at %s on this system", size, mnt)
}

// remountReadOnly skips the test: remounting is Linux's.
func remountReadOnly(t *testing.T, mnt string) {
	t.Helper()
	t.Skipf("cannot remount %s read-only on this system", mnt)
}

// mknodChar fails: the device numbers the tests ask for are Linux's, so the callers take
// the system's own /dev/null and /dev/full.
func mknodChar(path string, major, minor int) error { return errors.ErrUnsupported }
