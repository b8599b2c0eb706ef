package robust

import (
	"syscall"
	"testing"
)

// mountTmpfs mounts a tmpfs of size (mount's "size=" option) at mnt until the test ends,
// or skips the test where that is not allowed (mounting needs root).
func mountTmpfs(t *testing.T, mnt, size string) {
	t.Helper()
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size="+size); err != nil {
		t.Skipf("cannot mount a tmpfs of %s (%v)", size, err)
	}
	t.Cleanup(func() { syscall.Unmount(mnt, 0) })
}

// remountReadOnly remounts the file system mounted at mnt read-only, or skips the test.
func remountReadOnly(t *testing.T, mnt string) {
	t.Helper()
	if err := syscall.Mount("", mnt, "", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		t.Skipf("cannot remount read-only (%v)", err)
	}
}
