package ingest

import "golang.org/x/sys/unix"

// releaseMapped drops the pages of a read-only file mapping from the process's resident
// set (MADV_DONTNEED): they stay in the page cache, and a later read maps them again
// from there, with the same bytes, whatever other goroutines are reading.
func releaseMapped(b []byte) {
	if len(b) > 0 {
		unix.Madvise(b, unix.MADV_DONTNEED)
	}
}
