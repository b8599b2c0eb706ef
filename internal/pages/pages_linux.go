package pages

import (
	"os"

	"golang.org/x/sys/unix"
)

const (
	huge     = unix.MADV_HUGEPAGE
	populate = unix.MADV_POPULATE_WRITE
)

var pageSize = uintptr(os.Getpagesize())

func advise(b []byte, advice int) {
	if len(b) > 0 {
		_ = unix.Madvise(b, advice) // advice only: a refusal leaves the faults to the stores
	}
}
