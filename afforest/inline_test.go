package afforest

import (
	"os"
	"os/exec"
	"regexp"
	"testing"
)

// TestLinkFromInlined: the compiler inlines linkFrom, which most of a low-degree graph's
// links go through (linkSerial, linkLists's serial loop, the Go link loops). Its cost is
// 78 of the budget's 80, so an edit may lose the inlining, and pay a call a link, with
// every other test passing.
func TestLinkFromInlined(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to build the package")
	}
	out, err := exec.Command("go", "build", "-gcflags=-m", "-o", os.DevNull, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`(?m)afforest\.go:\d+:\d+: can inline linkFrom( |$)`).Match(out) {
		t.Fatal("linkFrom is not inlined: `go build -gcflags=-m=2 ./afforest` says its cost")
	}
}
