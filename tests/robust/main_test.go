// Package robust holds the command-level robustness suites of issue 5: malformed inputs,
// interrupted ingests, corrupted graphs and resource limits, each run against the real
// ooc binary, which TestMain builds once.
//
// The fast part runs in CI (go test ./tests/robust); the long campaigns run with
// OOC_LONG=1 (or -long): 50 kills, more corruption trials. go test cannot see that the
// binary depends on cmd/ooc, so run with -count=1 after changing it.
package robust

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var long = flag.Bool("long", false, "run the long campaigns (50 kills, more corruption trials)")

func longMode() bool { return *long || os.Getenv("OOC_LONG") != "" }

// oocBin is the ooc binary under test.
var oocBin string

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "ooc-robust-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	oocBin = filepath.Join(dir, "ooc")
	build := exec.Command("go", "build", "-o", oocBin, "github.com/oocgraph/ooc/cmd/ooc")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "robust: building ooc:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is what one ooc run did.
type result struct {
	code           int
	stdout, stderr string
}

func (r result) String() string {
	return fmt.Sprintf("exit %d, stdout %q, stderr %q", r.code, clip(r.stdout), clip(r.stderr))
}

func clip(s string) string {
	if len(s) > 600 {
		return s[:600] + "..."
	}
	return s
}

// ooc runs the binary in dir with args and returns its exit code and output.
func ooc(t *testing.T, dir string, stdin []byte, args ...string) result {
	t.Helper()
	cmd := exec.Command(oocBin, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String()}
	if cmd.ProcessState == nil {
		t.Fatalf("ooc %s: %v", strings.Join(args, " "), err)
	}
	r.code = cmd.ProcessState.ExitCode()
	noPanic(t, r, args)
	return r
}

// noPanic fails the test when the process died of a Go panic or a signal.
func noPanic(t *testing.T, r result, args []string) {
	t.Helper()
	if strings.Contains(r.stderr, "panic:") || strings.Contains(r.stderr, "goroutine ") || r.code < 0 {
		t.Fatalf("ooc %s crashed: %s", strings.Join(args, " "), r)
	}
}

// oneLine requires stderr to be exactly one non-empty line.
func oneLine(s string) bool {
	return strings.HasSuffix(s, "\n") && strings.Count(s, "\n") == 1 && len(strings.TrimSpace(s)) > 0
}

// listDir returns the names in dir (hidden ones too), sorted.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// leftovers lists what an ingest left in dir besides the files named in keep: any graph
// directory, temporary directory, spill file or lock file counts.
func leftovers(t *testing.T, dir string, keep map[string]bool) []string {
	t.Helper()
	var left []string
	for _, n := range listDir(t, dir) {
		if keep[n] {
			continue
		}
		left = append(left, n)
	}
	return left
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// copyDir copies the regular files of a graph directory.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range listDir(t, from) {
		f, err := os.Open(filepath.Join(from, n))
		if err != nil {
			t.Fatal(err)
		}
		g, err := os.Create(filepath.Join(to, n))
		if err == nil {
			_, err = io.Copy(g, f)
			g.Close()
		}
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
}

// gen writes a seeded uniform random edge list with `ooc gen`.
func gen(t *testing.T, dir, name string, scale, edgefactor int, format string) string {
	t.Helper()
	r := ooc(t, dir, nil, "gen", "urand", "--scale", fmt.Sprint(scale), "--edgefactor", fmt.Sprint(edgefactor),
		"--seed", "1", "--format", format, "-q", "-o", name)
	if r.code != 0 {
		t.Fatalf("ooc gen: %s", r)
	}
	return filepath.Join(dir, name)
}
