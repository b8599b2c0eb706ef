package testgraph

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// The real graphs of the tests are the files of shared/data (MANIFEST.md there names
// them and their answers). Real finds one the same way in every package:
//
//   - in $OOC_DATA when it is set (a test binary run on another machine);
//   - else in ../shared/data beside the repository, where CI and the team keep them;
//   - else, for the one graph every clone carries, in the repository's testdata/.
//
// A test whose graph is nowhere is skipped, and Main lists those skips when the package's
// tests end.

// Bundled is the real graph shipped in testdata/ (see testdata/README.md).
const Bundled = "facebook_combined.txt.gz"

// repoRoot is the repository this file was compiled from.
func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// RealDirs are the directories Real looks in, in order.
func RealDirs() []string {
	root := repoRoot()
	shared := filepath.Join(root, "..", "shared", "data")
	if d := os.Getenv("OOC_DATA"); d != "" {
		shared = d
	}
	return []string{shared, filepath.Join(root, "testdata")}
}

var (
	skipsMu sync.Mutex
	skips   []string
)

// Real returns the path of the real graph file, or skips the test (and records the skip
// for Main) when no directory holds it.
func Real(tb testing.TB, file string) string {
	tb.Helper()
	dirs := RealDirs()
	for _, d := range dirs {
		p := filepath.Join(d, file)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	skipsMu.Lock()
	skips = append(skips, tb.Name())
	skipsMu.Unlock()
	tb.Skipf("no %s in %s (set OOC_DATA to the directory of the real graphs)", file, strings.Join(dirs, " or "))
	return ""
}

// Main runs the tests and then lists the tests Real skipped. A passing package's output is
// hidden by `go test ./...`, so the list goes to the terminal (/dev/tty) when there is one,
// and to stderr (shown with -v and on failure) otherwise.
//
//	func TestMain(m *testing.M) { testgraph.Main(m) }
func Main(m *testing.M) {
	code := m.Run()
	if len(skips) > 0 {
		tests := "tests"
		if len(skips) == 1 {
			tests = "test"
		}
		msg := fmt.Sprintf("note: %d real-graph %s skipped (graph not in %s): %s\n",
			len(skips), tests, strings.Join(RealDirs(), " or "), strings.Join(skips, ", "))
		if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
			tty.WriteString(msg)
			tty.Close()
		} else {
			os.Stderr.WriteString(msg)
		}
	}
	os.Exit(code)
}
