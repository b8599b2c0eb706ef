package store

import (
	"cmp"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/oocgraph/ooc/internal/bytesize"
)

// cleanStale removes what processes killed in dir left behind: temporary directories
// `.NAME.tmp-*` of builds (FORMAT.md, "Publishing") with their lock files `.NAME.lock`,
// and temporary files `.NAME.tmp-ooc-*` of CreateTempFile. A build holds its lock until
// its temporary directory is gone, and a writer holds its temporary file's own lock
// until the file is renamed, so one whose lock can be taken belongs to a dead process.
// own is the destination whose lock the caller holds; its leftovers go without asking.
// Each removal is reported on log.
func cleanStale(dir, own string, log io.Writer) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	tmps := map[string][]string{} // NAME -> its temporary directories
	for _, e := range ents {
		name := e.Name()
		if j := strings.LastIndex(name, tempFileMark); j >= 1 && e.Type().IsRegular() && strings.HasPrefix(name, ".") {
			cleanTempFile(dir, name, name[1:j], log)
			continue
		}
		i := strings.LastIndex(name, ".tmp-")
		if !e.IsDir() || !strings.HasPrefix(name, ".") || i < 1 {
			continue
		}
		tmps[name[1:i]] = append(tmps[name[1:i]], name)
	}
	for base, names := range tmps {
		if base != own {
			if !lockWorks {
				continue // no way to tell a live build from a dead one
			}
			lock, err := lockFile(filepath.Join(dir, "."+base+".lock"))
			if err != nil {
				continue // a live build
			}
			defer unlockFile(lock)
		}
		for _, n := range names {
			p := filepath.Join(dir, n)
			size := treeSize(p)
			if os.RemoveAll(p) == nil && log != nil {
				fmt.Fprintf(log, "store: removed %s (%s), left by a build of %s that did not finish\n",
					p, bytesize.Format(size), filepath.Join(dir, base))
			}
		}
	}
}

// buildsOf returns the temporary directories of builds of the graph dir beside it
// (`.NAME.tmp-*`), which a reader names where dir does not exist: an ingest still running
// or killed.
func buildsOf(dir string) []string {
	parent, base := filepath.Split(filepath.Clean(dir))
	ents, err := os.ReadDir(cmp.Or(parent, "."))
	if err != nil {
		return nil
	}
	var left []string
	for _, e := range ents {
		if e.IsDir() && strings.HasPrefix(e.Name(), "."+base+".tmp-") {
			left = append(left, filepath.Join(parent, e.Name()))
		}
	}
	return left
}

// tempFileYoung is how long an empty temporary file whose lock is free is kept: its
// writer may be alive, between CreateTempFile's create and its lock (a window of
// microseconds, in which another process's cleaner removed it and reported a live
// write as unfinished). A dead writer's empty file is removed by a later clean.
const tempFileYoung = time.Minute

// cleanTempFile removes the temporary file name of a write of dir/base when its lock
// can be taken: its writer is dead (or, for an empty file younger than
// tempFileYoung, may not have locked it yet: kept).
func cleanTempFile(dir, name, base string, log io.Writer) {
	if !lockWorks {
		return
	}
	p := filepath.Join(dir, name)
	f, err := os.Open(p)
	if err != nil {
		return
	}
	defer f.Close() // releases the lock, after the removal
	if !lockedSame(f, p) {
		return // a live writer
	}
	st, err := f.Stat()
	if err != nil {
		return
	}
	size := st.Size()
	if size == 0 && time.Since(st.ModTime()) < tempFileYoung {
		return
	}
	if os.Remove(p) == nil && log != nil {
		fmt.Fprintf(log, "store: removed %s (%s), left by a write of %s that did not finish\n",
			p, bytesize.Format(size), filepath.Join(dir, base))
	}
}

// treeSize is the size of the regular files under p.
func treeSize(p string) int64 {
	var n int64
	filepath.WalkDir(p, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}
