//go:build unix

package ingest

import "syscall"

// freeBytes is the room an unprivileged writer has left on dir's file system; ok is
// false where it cannot be read.
func freeBytes(dir string) (free int64, ok bool) {
	var st syscall.Statfs_t
	if syscall.Statfs(dir, &st) != nil {
		return 0, false
	}
	return int64(st.Bavail) * int64(st.Bsize), true
}
