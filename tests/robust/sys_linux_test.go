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

// mknodChar makes at path the character device of Linux's numbers major and minor (1
// and 3 are /dev/null, 1 and 7 /dev/full): major<<8|minor, Linux's dev_t for minors
// below 256.
func mknodChar(path string, major, minor int) error {
	return syscall.Mknod(path, syscall.S_IFCHR|0o666, major<<8|minor)
}

// remountReadOnly remounts the file system mounted at mnt read-only, or skips the test.
func remountReadOnly(t *testing.T, mnt string) {
	t.Helper()
	if err := syscall.Mount("", mnt, "", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		t.Skipf("cannot remount read-only (%v)", err)
	}
}
