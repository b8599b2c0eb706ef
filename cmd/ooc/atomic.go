package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
)

// writeFileAtomic writes path through write under a temporary name in the same
// directory, syncs it and renames it into place, so a failed or killed run never leaves a
// truncated file under the final name (bfs -o, cc -o, gen -o for edge lists).
func writeFileAtomic(path string, write func(w *bufio.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(tmp, 1<<20)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
