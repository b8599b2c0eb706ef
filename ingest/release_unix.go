//go:build unix

package ingest

import (
	"os"
	"syscall"
)

var pageSize = int64(os.Getpagesize())

// releasePages drops the whole pages of m's bytes [from, to) from the process
// (MADV_DONTNEED on a read-only file mapping: the next touch reads the page cache
// again, so dropping a page still in use would only cost a fault).
func releasePages(m []byte, from, to int64) {
	from = from / pageSize * pageSize
	to = min(to/pageSize*pageSize, int64(len(m)))
	if to > from {
		_ = syscall.Madvise(m[from:to], syscall.MADV_DONTNEED)
	}
}
