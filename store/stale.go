package store

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/oocgraph/ooc/internal/bytesize"
)

// cleanStale removes what builds killed in dir left behind: temporary directories
// `.NAME.tmp-*` (FORMAT.md, "Publishing") and their lock files `.NAME.lock`. A build
// holds its lock until its temporary directory is gone, so a temporary directory whose
// lock can be taken belongs to a dead process. own is the destination whose lock the
// caller holds; its leftovers go without asking. Each removal is reported on log.
func cleanStale(dir, own string, log io.Writer) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	tmps := map[string][]string{} // NAME -> its temporary directories
	for _, e := range ents {
		name := e.Name()
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
