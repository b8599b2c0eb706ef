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

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
