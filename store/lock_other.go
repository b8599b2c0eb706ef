//go:build !unix

package store

import "os"

func lockFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
}

func unlockFile(f *os.File) {
	f.Close()
	os.Remove(f.Name())
}

const lockWorks = false

func tryLock(f *os.File) bool { return true }
