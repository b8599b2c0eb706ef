package robust

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestTruncatedUnderReader: a shard truncated while bfs, cc, kcore or pagerank runs on
// it ends the command with exit 3 and one line naming the shard, never a crash (issue
// 21: a SIGBUS dump of 179 lines and exit 2). A command that finished before the
// truncation may exit 0; each command gets a few tries, longer each time, to be caught
// in the act, and at least one catch in all is required.
func TestTruncatedUnderReader(t *testing.T) {
	dir := t.TempDir()
	if r := ooc(t, dir, nil, "gen", "kron", "--scale", "15", "--edgefactor", "16", "-q", "-o", "src.ooc"); r.code != 0 {
		t.Fatalf("gen: %s", r)
	}
	cmds := [][]string{
		{"bfs", "--backend", "cpu", "--sources", "%d"},
		{"cc", "--backend", "cpu", "--validate"},
		{"pagerank", "--tolerance", "1e-12", "--max-iters", "%d"},
		{"kcore", "--validate"},
	}
	caught := 0
	for _, c := range cmds {
		for try, n := 0, 200; try < 3; try, n = try+1, n*4 {
			g := filepath.Join(dir, "t.ooc")
			os.RemoveAll(g)
			copyDir(t, filepath.Join(dir, "src.ooc"), g)
			args := make([]string, len(c))
			for i, a := range c {
				args[i] = strings.ReplaceAll(a, "%d", itoa(n))
			}
			args = append(args, "t.ooc")
			cmd := exec.Command(oocBin, args...)
			cmd.Dir = dir
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(150 * time.Millisecond)
			shard := filepath.Join(g, "out-00000.shard")
			os.Truncate(shard, 8192)
			cmd.Wait()
			r := result{code: cmd.ProcessState.ExitCode(), stdout: out.String(), stderr: errb.String()}
			noPanic(t, r, args)
			if r.code == 0 {
				continue // finished first: try a longer run
			}
			if r.code != 3 || !oneLine(r.stderr) || !strings.Contains(r.stderr, "out-00000.shard") {
				t.Errorf("%v: want exit 3 and one line naming the shard, got %s", args, r)
			}
			caught++
			break
		}
	}
	if caught == 0 {
		t.Errorf("no command was still running when its shard was truncated")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestTruncatedToOneByte: a graph's shard or ids.bin cut to one byte is named with its
// size in words ("file is 1 byte", not "1 bytes"), exit 3 and one line from every reader.
func TestTruncatedToOneByte(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "e.txt"), []byte("10 20\n20 30\n"))
	if r := ooc(t, dir, nil, "ingest", "-q", "--relabel", "-o", "src.ooc", "e.txt"); r.code != 0 {
		t.Fatalf("ingest: %s", r)
	}
	for _, c := range []struct{ file, want string }{
		{"out-00000.shard", "file is 1 byte, shorter than a header"},
		{"ids.bin", "ids.bin: is 1 byte, expected"},
	} {
		g := filepath.Join(dir, "t.ooc")
		os.RemoveAll(g)
		copyDir(t, filepath.Join(dir, "src.ooc"), g)
		if err := os.Truncate(filepath.Join(g, c.file), 1); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"info"}, {"verify"}, {"bfs", "--src", "10"}, {"cc"}} {
			args = append(args, "t.ooc")
			r := ooc(t, dir, nil, args...)
			noPanic(t, r, args)
			if r.code != 3 || !oneLine(r.stderr) || !strings.Contains(r.stderr, c.want) {
				t.Errorf("%s cut to 1 byte, %v: want exit 3 and one line with %q, got %s", c.file, args, c.want, r)
			}
		}
	}
}
