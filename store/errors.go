package store

import (
	"errors"
	"fmt"
	"syscall"
)

// ErrCorrupt is matched (errors.Is) by every error that reports bytes of a graph
// directory that do not follow FORMAT.md.
var ErrCorrupt = errors.New("corrupt graph")

// CorruptError says which file is corrupt, where, and what was expected.
type CorruptError struct {
	Path   string
	Offset int64 // byte offset in Path, -1 when the whole file is concerned
	Reason string
}

func (e *CorruptError) Error() string {
	if e.Offset < 0 {
		return fmt.Sprintf("store: corrupt %s: %s", e.Path, e.Reason)
	}
	return fmt.Sprintf("store: corrupt %s at offset %d: %s", e.Path, e.Offset, e.Reason)
}

func (e *CorruptError) Is(target error) bool { return target == ErrCorrupt }

func corrupt(path string, off int64, format string, args ...any) error {
	return &CorruptError{Path: path, Offset: off, Reason: fmt.Sprintf(format, args...)}
}

// NoSpace is the errno that err matches where a write failed for want of room (a full
// disk, ENOSPC, or an exhausted quota, EDQUOT) or of file descriptors (the process's
// limit of open files, EMFILE, or the system's, ENFILE), else 0. The writers of a graph
// name such a failure by the graph rather than by the file of its temporary directory
// that failed, which the failure removes.
func NoSpace(err error) syscall.Errno {
	for _, errno := range [...]syscall.Errno{syscall.ENOSPC, syscall.EDQUOT, syscall.EMFILE, syscall.ENFILE} {
		if errors.Is(err, errno) {
			return errno
		}
	}
	return 0
}

// ErrOldVersion is matched (errors.Is) by the error of opening a graph written in an
// older format version, which only Upgrade reads.
var ErrOldVersion = errors.New("older format version")

// OldVersionError says that the graph at Dir has an older format version than the one
// the engines read, and how to upgrade it.
type OldVersionError struct {
	Dir     string
	Version uint32
}

func (e *OldVersionError) Error() string {
	return fmt.Sprintf("store: %s is a graph of format version %d, this ooc reads version %d: run `ooc upgrade %s`", e.Dir, e.Version, Version, e.Dir)
}

func (e *OldVersionError) Is(target error) bool { return target == ErrOldVersion }

// ErrNewVersion is matched (errors.Is) by the error of opening a graph whose manifest,
// its checksum valid, names a format version newer than this ooc reads: written by a
// later ooc, not damaged.
var ErrNewVersion = errors.New("newer format version")

// NewVersionError says that the manifest at Path names format version Version, newer
// than MaxVersion.
type NewVersionError struct {
	Path    string
	Version uint32
}

func (e *NewVersionError) Error() string {
	return fmt.Sprintf("store: %s is of format version %d, newer than this ooc reads (%d to %d): read it with a newer ooc", e.Path, e.Version, MinVersion, MaxVersion)
}

func (e *NewVersionError) Is(target error) bool { return target == ErrNewVersion }
