package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNoLockLeft: a build leaves no lock file beside its graph, committed or aborted.
func TestNoLockLeft(t *testing.T) {
	dir := t.TempDir()
	buildGraph(t, filepath.Join(dir, "g.ooc"), 10, map[uint32][]uint32{1: {2}, 2: {1}}, CreateOptions{})
	b, err := Create(filepath.Join(dir, "h.ooc"), CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b.Abort()
	for _, n := range dirNames(t, dir) {
		if n != "g.ooc" {
			t.Errorf("left behind: %s", n)
		}
	}
}

// TestCleanStale: a build removes the temporary directories that dead builds left in its
// directory, whatever their name, says so, and keeps those of a live build.
func TestCleanStale(t *testing.T) {
	dir := t.TempDir()
	mk := func(name string) {
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name, "out.spill"), make([]byte, 5000), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mk(".dead.ooc.tmp-123")                                                    // killed: its lock file stayed
	os.WriteFile(filepath.Join(dir, ".dead.ooc.lock"), nil, 0o644)             //
	mk(".gone.ooc.tmp-7")                                                      // killed before... or its lock lost
	mk(".live.ooc.tmp-9")                                                      // a build in progress
	os.WriteFile(filepath.Join(dir, ".user.tmp-1"), []byte("not ours"), 0o644) // a file, not a build
	live, err := lockFile(filepath.Join(dir, ".live.ooc.lock"))
	if err != nil {
		t.Fatal(err)
	}
	defer unlockFile(live)
	var log bytes.Buffer
	b, err := Create(filepath.Join(dir, "new.ooc"), CreateOptions{Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	b.Abort()
	got := strings.Join(dirNames(t, dir), " ")
	if want := ".live.ooc.lock .live.ooc.tmp-9 .user.tmp-1"; got != want {
		t.Errorf("left %q, want %q", got, want)
	}
	if !strings.Contains(log.String(), ".dead.ooc.tmp-123 (4.9 KiB)") || !strings.Contains(log.String(), ".gone.ooc.tmp-7") {
		t.Errorf("log %q does not name both removals", log.String())
	}
}

func dirNames(t *testing.T, dir string) []string {
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

// TestShardCountBounded: a shard size that would cut more than MaxShards shards stops
// the build with ErrTooManyShards and leaves nothing (issue 21: --shard-size 1 wrote
// 111,655 files that no reader could map).
func TestShardCountBounded(t *testing.T) {
	defer func(m int) { maxShards = m }(maxShards)
	maxShards = 50
	dir := t.TempDir()
	b, err := Create(filepath.Join(dir, "g.ooc"), CreateOptions{ShardBytes: 1})
	if err != nil {
		t.Fatal(err)
	}
	w := b.Writer(Out)
	for v := uint32(0); v <= uint32(maxShards)+1 && err == nil; v++ {
		err = w.AppendList(v, []uint32{v + 1})
	}
	if err == nil {
		err = b.Commit(&Manifest{Vertices: uint32(maxShards) + 3})
	}
	b.Abort()
	if !errors.Is(err, ErrTooManyShards) {
		t.Fatalf("got %v, want ErrTooManyShards", err)
	}
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("left behind: %v", names)
	}
}

// TestCleanStaleYoungEmptyTempFile: an empty temporary file whose lock is free and which
// is younger than tempFileYoung is kept (its writer may be between CreateTempFile's
// create and its lock: a concurrent `ooc upgrade` removed a live export's file there
// and reported it unfinished); an older one, or one holding bytes, is removed.
func TestCleanStaleYoungEmptyTempFile(t *testing.T) {
	if !lockWorks {
		t.Skip("no file locks here")
	}
	dir := t.TempDir()
	young := filepath.Join(dir, ".y.txt"+tempFileMark+"1")
	old := filepath.Join(dir, ".o.txt"+tempFileMark+"2")
	full := filepath.Join(dir, ".f.txt"+tempFileMark+"3")
	for p, b := range map[string][]byte{young: nil, old: nil, full: []byte("0 1\n")} {
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	past := time.Now().Add(-2 * tempFileYoung)
	if err := os.Chtimes(old, past, past); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	CleanStale(dir, &log)
	if got := strings.Join(dirNames(t, dir), " "); got != filepath.Base(young) {
		t.Errorf("left %q, want only %s", got, filepath.Base(young))
	}
	if strings.Contains(log.String(), filepath.Base(young)) || strings.Count(log.String(), "\n") != 2 {
		t.Errorf("log %q: want the two removals alone", log.String())
	}
}

// TestMissingGraphNamesBuild: opening a graph that does not exist, where a build of it
// left its temporary directory beside it (an ingest running, or killed), names that
// directory; without one, or with another graph's, the error is the plain one.
func TestMissingGraphNamesBuild(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{".g.ooc.tmp-5", ".g.ooc2.tmp-6"} {
		if err := os.Mkdir(filepath.Join(dir, n), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]string{"g.ooc": ".g.ooc.tmp-5 beside it", "g.ooc/": ".g.ooc.tmp-5 beside it", "h.ooc": "no such graph directory: "} {
		_, err := Open(filepath.Join(dir, name))
		if !errors.Is(err, ErrNotGraph) || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "g.ooc2") {
			t.Errorf("Open %s: %v, want ErrNotGraph naming %q", name, err, want)
		}
	}
}

// TestOpenEmptyName: Open("") says the name is empty (ErrNotGraph).
func TestOpenEmptyName(t *testing.T) {
	_, err := Open("")
	if !errors.Is(err, ErrNotGraph) || !strings.Contains(err.Error(), "an empty name") {
		t.Errorf("Open(\"\"): %v", err)
	}
}

// TestCreateDotRefused: Create of ".", "..", "/" or a path that cleans to one of them
// is refused as an existing output, --force or not, and leaves nothing: with Force, "."
// took its lock inside itself ("...lock") and was then refused for holding it.
func TestCreateDotRefused(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, dest := range []string{".", "./", "..", "/", "x/..", "./."} {
		for _, force := range []bool{false, true} {
			b, err := Create(dest, CreateOptions{Force: force})
			if err == nil {
				b.Abort()
			}
			if !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), "name the graph directory to create") {
				t.Errorf("Create(%q, force %v): %v", dest, force, err)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Fatalf("Create(%q, force %v) left %v", dest, force, ents)
			}
		}
	}
}
