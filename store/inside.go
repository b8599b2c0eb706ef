package store

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
)

// ErrInsideGraph is matched by errors for outputs that would land inside a graph
// directory, where a file of the graph could be replaced or a stray file would make
// the directory something --force may no longer replace.
var ErrInsideGraph = errors.New("nothing is written inside a graph directory")

// GraphAbove returns the graph directory that holds path (path's directory or one of
// its ancestors, after resolving symbolic links), or "" when there is none. A directory
// is taken for a graph when it holds a manifest.json that starts with the manifest's
// magic; the checksum is not read, so a damaged graph still counts.
func GraphAbove(path string) string {
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return ""
	}
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		dir = r
	}
	for {
		if isGraphDir(dir) {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// isGraphDir says whether dir holds a manifest.json that starts like one.
func isGraphDir(dir string) bool {
	f, err := graphDir{path: dir}.open(ManifestName)
	if err != nil {
		return false
	}
	defer f.Close()
	want := `{"magic":"` + manifestMagic + `"`
	b := make([]byte, len(want))
	_, err = io.ReadFull(f, b)
	return err == nil && string(b) == want
}

// checkNotInsideGraph refuses a destination inside a graph directory.
func checkNotInsideGraph(dest string) error {
	if g := GraphAbove(dest); g != "" {
		return fmt.Errorf("store: %s lies in the graph directory %s: %w", dest, g, ErrInsideGraph)
	}
	return nil
}
