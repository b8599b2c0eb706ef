package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/store"
)

// TestUpgradeCLI: every command given a graph of an older format version fails with one
// line naming the path, its version and `ooc upgrade PATH`; upgrade rewrites it, after
// which the commands answer, and a second upgrade has nothing to do.
func TestUpgradeCLI(t *testing.T) {
	for _, fixture := range []string{"v2/undirected.ooc", "v3/directed-relabeled.ooc", "v4/weighted-undirected.ooc", "v5/degree-ordered.ooc", "v5/weighted-directed.ooc"} {
		dir := filepath.Join(t.TempDir(), "g.ooc")
		if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "store", "testdata", fixture))); err != nil {
			t.Fatal(err)
		}
		old, err := store.ReadManifest(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"info", dir}, {"verify", dir}, {"bfs", "--src", "random", dir}, {"cc", dir}} {
			code, stdout, stderr := runCLI(t, "", args...)
			want := []string{dir, "format version " + string(rune('0'+old.FormatVersion)), "run `ooc upgrade " + dir + "`"}
			if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 {
				t.Errorf("%s: %v: exit %d, stdout %q, stderr %q; want exit %d and one line", fixture, args, code, stdout, stderr, exitUsage)
			}
			for _, w := range want {
				if !strings.Contains(stderr, w) {
					t.Errorf("%s: %v: %q does not say %q", fixture, args, stderr, w)
				}
			}
		}
		code, stdout, stderr := runCLI(t, "", "upgrade", "--json", dir)
		var r upgradeJSON
		if code != exitOK || json.Unmarshal([]byte(stdout), &r) != nil || !r.Upgraded || r.From != old.FormatVersion || r.To != store.Version || r.Edges != old.Edges {
			t.Fatalf("%s: upgrade --json: exit %d, %q, %q", fixture, code, stdout, stderr)
		}
		if code, stdout, stderr := runCLI(t, "", "verify", dir); code != exitOK {
			t.Errorf("%s: verify after upgrade: exit %d, %q, %q", fixture, code, stdout, stderr)
		}
		if code, _, stderr := runCLI(t, "", "cc", dir); code != exitOK {
			t.Errorf("%s: cc after upgrade: exit %d, %q", fixture, code, stderr)
		}
		if code, stdout, _ := runCLI(t, "", "upgrade", dir); code != exitOK || !strings.Contains(stdout, "nothing to do") {
			t.Errorf("%s: second upgrade: exit %d, %q", fixture, code, stdout)
		}
		if leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), ".g.ooc.tmp-*")); len(leftovers) > 0 {
			t.Errorf("%s: upgrade left %v", fixture, leftovers)
		}
	}
}
