package robust

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestKillOutputCleaned SIGKILLs a `gen -o FILE` while it writes its temporary file. The
// next command writing into that directory removes the dead write's leftover and says
// so on stderr, while the temporary file of a write still running there is kept and
// that write completes.
func TestKillOutputCleaned(t *testing.T) {
	dir := t.TempDir()
	start := func(out string) *exec.Cmd {
		cmd := exec.Command(oocBin, "gen", "urand", "--scale", "20", "--edgefactor", "16", "-q", "-o", out)
		cmd.Dir = dir
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	temps := func(name string) []string {
		m, _ := filepath.Glob(filepath.Join(dir, "."+name+".tmp-*"))
		return m
	}
	written := func(name string) bool { // its temporary file holds some data
		for _, p := range temps(name) {
			if st, err := os.Stat(p); err == nil && st.Size() > 0 {
				return true
			}
		}
		return false
	}
	wait := func(name string) {
		for end := time.Now().Add(30 * time.Second); !written(name); time.Sleep(2 * time.Millisecond) {
			if time.Now().After(end) {
				t.Fatalf("no temporary file of %s with data appeared", name)
			}
		}
	}

	dead := start("dead.txt")
	wait("dead.txt")
	dead.Process.Signal(syscall.SIGKILL)
	dead.Wait()
	left := temps("dead.txt")
	if len(left) != 1 {
		t.Fatalf("the killed write left %v, want one temporary file", left)
	}

	r := ooc(t, dir, nil, "gen", "urand", "--scale", "8", "-q", "-o", "next.txt")
	if r.code != 0 {
		t.Fatalf("the next write: %s", r)
	}
	if _, err := os.Stat(left[0]); err == nil {
		t.Errorf("the dead write's %s is still there", filepath.Base(left[0]))
	}
	if !strings.Contains(r.stderr, "removed "+filepath.Base(left[0])) || !strings.Contains(r.stderr, "dead.txt that did not finish") {
		t.Errorf("stderr %q does not report removing %s", r.stderr, left[0])
	}

	live := start("live.txt")
	wait("live.txt")
	if r := ooc(t, dir, nil, "gen", "urand", "--scale", "8", "-q", "-o", "again.txt"); r.code != 0 || r.stderr != "" {
		t.Errorf("a write beside a running one: %s", r)
	}
	if err := live.Wait(); err != nil {
		t.Fatalf("the running write failed: %v", err)
	}
	if st, err := os.Stat(filepath.Join(dir, "live.txt")); err != nil || st.Size() == 0 {
		t.Fatalf("the running write's result: %v", err)
	}
	if got := strings.Join(listDir(t, dir), " "); got != "again.txt live.txt next.txt" {
		t.Errorf("left %q, want only the three results", got)
	}
}
