package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputDescriptors: -o /dev/stdout is -o - (the result on stdout, the summary on
// stderr), and -o /dev/fd/N of an open pipe is written into. Both failed: the links were
// followed to /proc/self/fd/1 and "pipe:[N]", names of no file a temporary one could
// replace ("cannot create a file in /proc/self/fd"), or into the result file where the
// summary had been written first.
func TestOutputDescriptors(t *testing.T) {
	if _, err := os.Stat("/dev/fd/0"); err != nil {
		t.Skip("no /dev/fd here")
	}
	dir := t.TempDir()
	in := writeFile(t, dir, "g.txt", triangle)
	g := filepath.Join(dir, "g.ooc")
	if code, _, stderr := runCLI(t, "", "ingest", "-q", "-o", g, in); code != exitOK {
		t.Fatal(stderr)
	}
	for _, cmd := range [][]string{{"cc"}, {"export"}, {"bfs", "--src", "0", "--text"}} {
		_, want, _ := runCLI(t, "", append(cmd, "-o", "-", g)...)
		code, got, stderr := runCLI(t, "", append(cmd, "-o", "/dev/stdout", g)...)
		if code != exitOK || got != want || want == "" || !strings.Contains(stderr, cmd[0]) {
			t.Errorf("%s -o /dev/stdout: code %d, stdout %q, stderr %q; want -o -'s stdout %q and the summary on stderr", cmd[0], code, got, stderr, want)
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	read := make(chan string)
	go func() { b, _ := io.ReadAll(r); read <- string(b) }()
	code, _, stderr := runCLI(t, "", "export", "-o", fmt.Sprintf("/dev/fd/%d", w.Fd()), g)
	w.Close()
	got := <-read
	r.Close()
	_, want, _ := runCLI(t, "", "export", "-o", "-", g)
	if code != exitOK || got != want {
		t.Errorf("export -o /dev/fd/N of a pipe: code %d, stderr %q, read %q; want %q", code, stderr, got, want)
	}
}

// TestIngestStdoutRefused: ingest's -o is a graph directory: -o - made one named "-" in
// the working directory, and once -o /dev/stdout read as -o -, so did that; both are
// refused, nothing made.
func TestIngestStdoutRefused(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	in := writeFile(t, dir, "g.txt", triangle)
	for _, out := range []string{"-", "/dev/stdout"} {
		code, _, stderr := runCLI(t, "", "ingest", "-q", "-o", out, in)
		if code != exitUsage || strings.Count(stderr, "\n") != 1 {
			t.Errorf("-o %s: code %d, %q; want a usage error", out, code, stderr)
		}
		if names, _ := filepath.Glob(filepath.Join(dir, "*")); len(names) != 1 {
			t.Errorf("-o %s: left %v", out, names)
		}
	}
}
