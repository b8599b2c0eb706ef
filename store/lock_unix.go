//go:build unix

package store

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive, non-blocking flock on path; the kernel releases it when
// the process dies, so a killed ingest never leaves a held lock. The file is removed by
// unlockFile while still locked, so a process may find, after its flock succeeded, that
// the file it locked is no longer the one at path: it then starts over on the new one.
func lockFile(path string) (*os.File, error) {
	for range 100 {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			return nil, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			return nil, ErrLocked
		}
		held, err1 := f.Stat()
		now, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			return f, nil
		}
		f.Close() // removed (or replaced) by its previous holder: lock the current one
	}
	return nil, ErrLocked
}

// unlockFile removes the lock file, then releases it: a lock leaves nothing behind.
func unlockFile(f *os.File) {
	os.Remove(f.Name())
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	f.Close()
}

const lockWorks = true

// tryLock takes an exclusive flock on the open file f without waiting.
func tryLock(f *os.File) bool {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}
