package ingest

import (
	"errors"
	"fmt"

	"github.com/oocgraph/ooc/store"
)

// noSpaceError is a write of an ingest that failed for want of space, named by the
// graph being written: the file that failed (a spill, a shard or ids.bin under the
// graph's temporary directory) is one the ingest made and removes, whose name tells
// the user nothing they can act on.
type noSpaceError struct {
	dest string
	err  error // the errno, for errors.Is
}

func (e *noSpaceError) Error() string {
	return fmt.Sprintf("ingest: writing %s: %v (the partial graph was removed)", e.dest, e.err)
}

func (e *noSpaceError) Unwrap() error { return e.err }

// namedNoSpace returns err, or, where err is a full disk, an exhausted quota or the
// limit of open files reached (store.NoSpace), one that names the graph dest instead of
// the temporary file that failed. An error named already is named again: an ingest
// that builds through another into a temporary graph (WeighEdges) names its own.
func namedNoSpace(dest string, err error) error {
	var named *noSpaceError
	if errors.As(err, &named) {
		return &noSpaceError{dest: dest, err: named.err}
	}
	if errno := store.NoSpace(err); errno != 0 {
		return &noSpaceError{dest: dest, err: errno}
	}
	return err
}
