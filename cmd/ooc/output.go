package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/oocgraph/ooc/store"
)

// Every command that writes a result file (bfs -o, cc -o, gen -o, and any later one)
// opens it through checkOutput and writes it through output.write, so all follow one
// set of rules (outputRules, which the help texts quote):
const outputRules = `
Output files: - is standard output. A device, a FIFO or an open descriptor (/dev/stdout,
/dev/fd/N) is written into, as the shell's > would. A symbolic link is followed: the
rules apply to the file it names, and the link stays. An existing regular file is
replaced only with --force, atomically (a temporary file renamed over it when complete),
as is one that another process makes there while the command runs (without --force that
is an error, exit 2, and the other's file stays); nothing is ever written inside a graph
directory. New files get mode 0644 less the umask. A failed write, flush or close is an
error (exit 1) and leaves no partial file.`

// outputKind is how an output is written.
type outputKind int

const (
	toStdout  outputKind = iota // env.stdout
	inPlace                     // an existing device or FIFO, opened for writing as it is
	atomicNew                   // a regular file, built under a temporary name and renamed
)

// output is a checked destination, ready to be written once the result exists.
type output struct {
	name   string // as the user gave it, for messages
	path   string // the file written: name with symbolic links followed
	kind   outputKind
	stdout io.Writer
	force  bool // an atomicNew output may replace a file (--force)
}

// checkOutput resolves and checks name before any work is done, so that a bad -o fails
// at once rather than after the computation.
func checkOutput(e *env, name string, force bool) (*output, error) {
	if name == "-" {
		return &output{name: "standard output", kind: toStdout, stdout: e.stdout}, nil
	}
	if name == "" {
		return nil, usagef("empty output name (give a file, or - for standard output)")
	}
	if descriptorPath(name) {
		// an open descriptor (/dev/stdout of a pipe, /dev/fd/3): its links name no file
		// a temporary one could replace ("pipe:[N]"), and the shell has opened it
		st, err := os.Stat(name)
		switch {
		case err != nil:
			return nil, fmt.Errorf("-o %s: %w", name, unnamed(err))
		case st.IsDir():
			return nil, usagef("-o %s: is a directory", name)
		}
		return &output{name: name, path: name, kind: inPlace}, nil
	}
	path, err := followLinks(name)
	if err != nil {
		return nil, err
	}
	if g := store.GraphAbove(path); g != "" {
		return nil, fmt.Errorf("-o %s lies in the graph directory %s: %w", name, g, store.ErrInsideGraph)
	}
	o := &output{name: name, path: path, kind: atomicNew, force: force}
	st, err := os.Stat(path)
	switch {
	case err == nil && st.IsDir():
		return nil, usagef("-o %s: is a directory", name)
	case err == nil && st.Mode()&(fs.ModeDevice|fs.ModeNamedPipe) != 0:
		o.kind = inPlace // written into, like > /dev/null; never replaced
		return o, nil
	case err == nil && !st.Mode().IsRegular():
		return nil, usagef("-o %s: not a regular file, a device or a FIFO (%s)", name, st.Mode().Type())
	case err == nil && !force:
		return nil, fmt.Errorf("-o %s: %w (use --force to replace it)", name, store.ErrExists)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("-o %s: %w", name, unnamed(err))
	}
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("-o %s: %w", name, store.ErrNoParent)
	}
	store.CleanStale(dir, e.stderr)          // what killed writes (or builds) left there
	probe, err := store.CreateTempFile(path) // what write will do: fails now on a read-only or full place
	if pe, ok := err.(*fs.PathError); ok {
		err = pe.Err
	}
	if err != nil {
		return nil, fmt.Errorf("-o %s: cannot create a file in %s: %w", name, dir, err)
	}
	probe.Close()
	os.Remove(probe.Name())
	return o, nil
}

// stdoutName reports whether name is this process's standard output by a path
// (/dev/stdout, /dev/fd/1, /proc/self/fd/1), which -o reads as -.
func stdoutName(name string) bool {
	switch filepath.Clean(name) {
	case "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", "/proc/" + strconv.Itoa(os.Getpid()) + "/fd/1":
		return true
	}
	return false
}

// descriptorPath reports whether name names an open file descriptor: /dev/stdout,
// /dev/stderr, /dev/fd/N or /proc/PID/fd/N, written into as the shell's > would.
func descriptorPath(name string) bool {
	p := filepath.Clean(name)
	if p == "/dev/stdout" || p == "/dev/stderr" || strings.HasPrefix(p, "/dev/fd/") {
		return true
	}
	f := strings.Split(p, "/") // "", "proc", PID or self, "fd", N
	return len(f) == 5 && f[0] == "" && f[1] == "proc" && f[3] == "fd"
}

// followLinks follows symbolic links from name to the file they end at, which need
// not exist (a dangling link is followed to the file it would create, as > does).
func followLinks(name string) (string, error) {
	p := name
	for range 40 {
		st, err := os.Lstat(p)
		if err != nil || st.Mode()&fs.ModeSymlink == 0 {
			return p, nil
		}
		t, err := os.Readlink(p)
		if err != nil {
			return "", fmt.Errorf("-o %s: %w", name, unnamed(err))
		}
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(p), t)
		}
		p = t
	}
	return "", usagef("-o %s: too many levels of symbolic links", name)
}

// write writes the output through fill and checks every step: the writes (fill's
// error and the buffer's), the flush, the sync and the close of a file. A regular file
// appears under its name only when all of them succeeded.
func (o *output) write(fill func(w *bufio.Writer) error) error {
	var err error
	switch o.kind {
	case toStdout:
		w := bufio.NewWriterSize(o.stdout, 1<<16)
		if err = fill(w); err == nil {
			err = w.Flush()
		}
	case inPlace:
		err = o.writeInPlace(fill)
	default:
		err = o.writeAtomic(fill)
	}
	var se stdoutError
	if err != nil && !errors.As(err, &se) { // standard output's writes name it already
		return fmt.Errorf("writing %s: %w", o.name, err)
	}
	return err
}

func (o *output) writeInPlace(fill func(w *bufio.Writer) error) error {
	f, err := os.OpenFile(o.path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(unnamedWriter{f}, 1<<20)
	if err = fill(w); err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = unnamed(cerr)
	}
	return err
}

// unnamedWriter is w whose errors do not name the file (unnamed): write names it once.
type unnamedWriter struct{ w io.Writer }

func (u unnamedWriter) Write(b []byte) (int, error) {
	n, err := u.w.Write(b)
	return n, unnamed(err)
}

func (o *output) writeAtomic(fill func(w *bufio.Writer) error) error {
	tmp, err := store.CreateTempFile(o.path)
	if err != nil {
		return err
	}
	// A SIGINT, SIGTERM or SIGHUP fails the next write, so the temporary file is removed
	// below rather than left for CleanStale (gen's edge lists run to gigabytes).
	ctx, stop := signalContext(context.Background())
	defer stop()
	w := bufio.NewWriterSize(interruptible{ctx, tmp}, 1<<20)
	if err = fill(w); err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = unnamed(tmp.Sync())
	}
	// Named while still open, so locked (store.CreateTempFile): a cleaner in another
	// process never takes it for a dead write's leftover.
	if err == nil {
		err = publish(tmp.Name(), o.path, o.force)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	if cerr := tmp.Close(); err == nil {
		err = unnamed(cerr)
	}
	return err
}

// publish gives the temporary file tmp the name path. With force it is renamed over
// whatever is there; otherwise it is linked to path, which fails when path exists, so
// that a file another process made there since checkOutput looked (two commands given
// the same -o) is not replaced without --force. A file system without hard links gets
// the rename.
func publish(tmp, path string, force bool) error {
	if force {
		return os.Rename(tmp, path)
	}
	err := os.Link(tmp, path)
	switch {
	case err == nil:
		os.Remove(tmp)
		return nil
	case errors.Is(err, fs.ErrExist):
		return fmt.Errorf("another process made it while this one ran: %w (use --force to replace it)", store.ErrExists)
	}
	return os.Rename(tmp, path)
}

// interruptible writes to the temporary file w until ctx is done, then fails every
// write. Its errors do not name w (unnamed).
type interruptible struct {
	ctx context.Context
	w   io.Writer
}

func (i interruptible) Write(b []byte) (int, error) {
	if i.ctx.Err() != nil {
		return 0, fmt.Errorf("interrupted: %w", context.Cause(i.ctx))
	}
	n, err := i.w.Write(b)
	return n, unnamed(err)
}

// unnamed is err without the temporary file's name that an *fs.PathError carries: the
// message names the output ("writing NAME: no space left on device"), and the
// temporary file, removed on failure, is nothing the user can act on.
func unnamed(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// checkedWriter remembers the first error of the writes to a command's stdout, so that
// a result lost on a full disk or a closed pipe is a failure, not exit 0.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(b []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(b)
	if err != nil {
		c.err = stdoutError{unnamed(err)} // "write /dev/stdout": the message names standard output itself
	}
	return n, c.err
}

// stdoutError is a failed write to standard output.
type stdoutError struct{ err error }

func (e stdoutError) Error() string { return "writing standard output: " + e.err.Error() }
func (e stdoutError) Unwrap() error { return e.err }
