package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// tempFileMark is in the name of every temporary file CreateTempFile makes,
// `.BASE.tmp-ooc-N`, and tells it from other programs' files for cleanStale.
const tempFileMark = ".tmp-ooc-"

// CreateTempFile creates a new file beside path, to be renamed over it when complete, with
// mode 0644 less the umask (the kernel applies the umask to the mode given to open). The
// file is locked for as long as it is open (on systems with flock), so that a temporary
// file whose lock can be taken was left by a dead process: the next CleanStale or Create
// in its directory removes it. The caller renames it before closing it.
func CreateTempFile(path string) (*os.File, error) {
	dir, base := filepath.Dir(path), filepath.Base(path)
	for range 1000 {
		name := filepath.Join(dir, "."+base+tempFileMark+strconv.FormatUint(rand.Uint64()%1e12, 10))
		f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if lockedSame(f, name) {
			return f, nil
		}
		// A cleaner held the lock between the create and ours, and removed the file or
		// (as young and empty) kept it: ours to remove if still there; take another name.
		if held, err := f.Stat(); err == nil {
			if now, err := os.Stat(name); err == nil && os.SameFile(held, now) {
				os.Remove(name)
			}
		}
		f.Close()
	}
	return nil, fmt.Errorf("no unused temporary name beside %s", path)
}

// lockedSame takes f's lock without waiting and says whether it got it while f is still
// the file at name.
func lockedSame(f *os.File, name string) bool {
	if !tryLock(f) {
		return false
	}
	held, err1 := f.Stat()
	now, err2 := os.Stat(name)
	return err1 == nil && err2 == nil && os.SameFile(held, now)
}

// CleanStale removes what killed processes left in dir: the temporary directories of
// builds and the temporary files of CreateTempFile whose owner is dead, reporting each
// removal on log.
func CleanStale(dir string, log io.Writer) { cleanStale(dir, "", log) }
