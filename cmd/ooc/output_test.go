package main

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/store"
)

// TestOutputAppearedMeanwhile: a file made at -o's name after checkOutput looked (by
// another command given the same -o) is not replaced without --force: the write fails
// as an existing output does (exit 2) and leaves that file and nothing else; with
// --force it is replaced.
func TestOutputAppearedMeanwhile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	e := &env{stdout: io.Discard, stderr: io.Discard}
	ours := func(w *bufio.Writer) error { _, err := w.WriteString("ours\n"); return err }
	for _, force := range []bool{false, true} {
		os.Remove(path)
		o, err := checkOutput(e, path, force)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("theirs\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		err = o.write(ours)
		got, _ := os.ReadFile(path)
		want := "theirs\n"
		if force {
			want = "ours\n"
		}
		switch {
		case !force && (!errors.Is(err, store.ErrExists) || exitCode(err) != exitUsage):
			t.Errorf("write over a file made meanwhile: %v (exit %d), want ErrExists, exit %d", err, exitCode(err), exitUsage)
		case force && err != nil:
			t.Errorf("write with --force over a file made meanwhile: %v", err)
		}
		if string(got) != want {
			t.Errorf("force %v: %s holds %q, want %q", force, path, got, want)
		}
		var names []string
		ents, _ := os.ReadDir(dir)
		for _, n := range ents {
			names = append(names, n.Name())
		}
		if !slices.Equal(names, []string{"out.txt"}) {
			t.Errorf("force %v: the directory holds %v, want out.txt alone", force, names)
		}
	}
}

// TestOutputNameTooLong: an -o name the file system refuses is named once, with the
// cause ("-o NAME: stat NAME: file name too long" named it twice).
func TestOutputNameTooLong(t *testing.T) {
	g := bfsGraph(t)
	t.Chdir(t.TempDir())
	long := strings.Repeat("x", 300)
	for _, args := range [][]string{{"bfs", "--src", "1", "-o", long, g}, {"export", "-o", long, g}, {"gen", "kron", "--scale", "3", "-o", long}} {
		code, _, stderr := runCLI(t, "", args...)
		if code == exitOK || !strings.Contains(stderr, "-o "+long+": file name too long\n") || strings.Count(stderr, long) != 1 {
			t.Errorf("%s: exit %d, %q; want the name once and the cause", args[0], code, stderr)
		}
	}
}
