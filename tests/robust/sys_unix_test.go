//go:build unix

package robust

import (
	"os"
	"syscall"
)

// oNonblock opens a FIFO for writing without waiting for a reader.
const oNonblock = syscall.O_NONBLOCK

func umask() os.FileMode {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return os.FileMode(m)
}

// mknodChar makes a character device of the given major and minor numbers at path.
func mknodChar(path string, major, minor int) error {
	return syscall.Mknod(path, syscall.S_IFCHR|0o666, major<<8|minor)
}

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
