//go:build unix

package store

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestOpenSpecialFiles: a graph whose manifest or shard is a FIFO, a directory or a
// symbolic link out of the graph directory, and a FIFO named as the graph, are refused
// at once with an error naming the file, never waited on (the open of a FIFO waits for
// a writer) nor read.
func TestOpenSpecialFiles(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	base := filepath.Join(t.TempDir(), "g.ooc")
	buildGraph(t, base, 500, randomLists(r, 500, 40), CreateOptions{ShardBytes: 2000})
	shard := filepath.Base(mustGlob(t, filepath.Join(base, "out-*.shard"))[0])
	outside := filepath.Join(t.TempDir(), "outside")
	if err := os.WriteFile(outside, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, file, kind, want string }{
		{"manifest FIFO", ManifestName, "fifo", "is a FIFO, expected a regular file"},
		{"shard FIFO", shard, "fifo", "is a FIFO, expected a regular file"},
		{"shard directory", shard, "dir", "is a directory, expected a regular file"},
		{"manifest directory", ManifestName, "dir", "is a directory, expected a regular file"},
		{"shard link out", shard, "link", "a symbolic link out of the graph directory"},
		{"graph FIFO", "", "fifo", "is a file, not a graph directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "c.ooc")
			victim := dir
			if c.file != "" {
				copyDir(t, base, dir)
				victim = filepath.Join(dir, c.file)
				if err := os.Remove(victim); err != nil {
					t.Fatal(err)
				}
			}
			var err error
			switch c.kind {
			case "fifo":
				err = syscall.Mkfifo(victim, 0o644)
			case "dir":
				err = os.Mkdir(victim, 0o755)
			case "link":
				err = os.Symlink(outside, victim)
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, op := range []struct {
				name string
				f    func(string) error
			}{
				{"Open", func(d string) error {
					g, err := Open(d)
					if err == nil {
						g.Close()
					}
					return err
				}},
				{"Verify", func(d string) error { _, err := Verify(d); return err }},
			} {
				done := make(chan error, 1)
				go func() { done <- op.f(dir) }()
				select {
				case err := <-done:
					if err == nil || !strings.Contains(err.Error(), victim) || !strings.Contains(err.Error(), c.want) {
						t.Errorf("%s: %v, want an error naming %s: %q", op.name, err, victim, c.want)
					}
					if c.file != "" && !errors.Is(err, ErrCorrupt) {
						t.Errorf("%s: %v is not ErrCorrupt", op.name, err)
					}
				case <-time.After(10 * time.Second):
					t.Fatalf("%s waits on %s", op.name, victim)
				}
			}
		})
	}
}

func mustGlob(t *testing.T, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil || len(m) == 0 {
		t.Fatalf("glob %s: %v %v", pattern, m, err)
	}
	return m
}

// copyDir copies the regular files of directory src into a new directory dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.Mkdir(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	es, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestUpgradeThroughLink: 'ooc upgrade link.ooc', the link naming an old graph, upgrades
// the graph it names in place and leaves the link; it was refused as output that exists
// (Create will not replace a link), while every other command told the user to run it.
func TestUpgradeThroughLink(t *testing.T) {
	root := t.TempDir()
	real, link := filepath.Join(root, "real.ooc"), filepath.Join(root, "link.ooc")
	copyDir(t, filepath.Join("testdata", "v4", "weighted-directed.ooc"), real)
	if err := os.Symlink("real.ooc", link); err != nil {
		t.Fatal(err)
	}
	if _, err := Upgrade(link, UpgradeOptions{}); err != nil {
		t.Fatalf("Upgrade through a link: %v", err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link is gone or no longer a link: %v", err)
	}
	m, err := Verify(link)
	if err != nil || m.FormatVersion != Version {
		t.Fatalf("after the upgrade: %v (version %v)", err, m)
	}
}
