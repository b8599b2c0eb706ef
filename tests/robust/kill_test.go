package robust

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/oocgraph/ooc/internal/testseed"
)

// counts is what `ooc info --json` says about a graph, less what differs between runs.
type counts struct {
	Vertices          uint32 `json:"vertices"`
	Edges             uint64 `json:"edges"`
	Directed          bool   `json:"directed"`
	InputEdges        uint64 `json:"input_edges"`
	SelfLoopsDropped  uint64 `json:"self_loops_dropped"`
	DuplicatesDropped uint64 `json:"duplicates_dropped"`
	Bytes             int64  `json:"bytes"`
	Shards            int    `json:"shards"`
}

func info(t *testing.T, dir, graph string) counts {
	t.Helper()
	r := ooc(t, dir, nil, "info", "--json", graph)
	var c counts
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &c) != nil {
		t.Fatalf("ooc info --json %s: %s", graph, r)
	}
	return c
}

// killInput generates the input of the interruption tests (2^scale vertices, 16 edges
// each: at scale 18 about 55 MB of text, an ingest of about a second here) and ingests
// it once without interruption.
func killInput(t *testing.T, scale int, opts ...string) (dir, input string, want counts, clean time.Duration) {
	dir = t.TempDir()
	input = gen(t, dir, "in.txt", scale, 16, "text")
	start := time.Now()
	if r := ooc(t, dir, nil, append(append([]string{"ingest", "-q", "-o", "ref.ooc"}, opts...), input)...); r.code != 0 {
		t.Fatalf("clean ingest: %s", r)
	}
	clean = time.Since(start)
	return dir, input, info(t, dir, "ref.ooc"), clean
}

// TestKillIngest SIGKILLs ingests at random moments. Afterwards the destination is either
// absent or a graph that `ooc verify` accepts and that holds what a clean ingest gives;
// never a directory that opens and is wrong. The next ingest into the same place works
// and clears what the killed one left. The relabeling ingest of a directed graph takes
// another path (two passes, ids.bin, in-shards) and is killed as often.
func TestKillIngest(t *testing.T) {
	t.Run("undirected", func(t *testing.T) { killIngest(t, 18) })
	t.Run("directed-relabel", func(t *testing.T) { killIngest(t, 17, "--directed", "--relabel") })
}

func killIngest(t *testing.T, scale int, opts ...string) {
	kills := 3
	if longMode() {
		kills = 50
	}
	dir, input, want, clean := killInput(t, scale, opts...)
	seed := testseed.Seed(t)
	t.Logf("%d kills, a clean ingest takes %v", kills, clean)
	r := rand.New(rand.NewPCG(seed, 7))
	published := 0
	for k := 0; k < kills; k++ {
		dest := filepath.Join(dir, "g.ooc")
		os.RemoveAll(dest)
		// Every other kill lands near the end, where the shards are finished and the
		// manifest and the rename happen.
		delay := time.Duration(r.Int64N(int64(clean) * 11 / 10))
		if k%2 == 1 {
			delay = clean*85/100 + time.Duration(r.Int64N(int64(clean)*20/100))
		}
		args := append(append([]string{"ingest", "-q", "-o", "g.ooc"}, opts...), input)
		exited := killAfter(t, dir, delay, syscall.SIGKILL, args...)
		if _, err := os.Stat(dest); err == nil {
			published++
			if v := ooc(t, dir, nil, "verify", "g.ooc"); v.code != 0 {
				t.Fatalf("seed %d kill %d after %v: a published graph does not verify: %s", seed, k, delay, v)
			}
			if got := info(t, dir, "g.ooc"); got != want {
				t.Fatalf("seed %d kill %d after %v: published graph %+v, a clean ingest gives %+v", seed, k, delay, got, want)
			}
		} else if exited {
			t.Fatalf("seed %d kill %d: ingest finished before the kill but published nothing", seed, k)
		}
	}
	t.Logf("%d of %d killed ingests had published their graph; the rest left none", published, kills)
	os.RemoveAll(filepath.Join(dir, "g.ooc"))
	if res := ooc(t, dir, nil, append(append([]string{"ingest", "-q", "-o", "g.ooc"}, opts...), input)...); res.code != 0 {
		t.Fatalf("ingest after the kills: %s", res)
	}
	if got := info(t, dir, "g.ooc"); got != want {
		t.Fatalf("ingest after the kills gives %+v, want %+v", got, want)
	}
	for _, n := range listDir(t, dir) {
		if strings.Contains(n, ".tmp-") {
			t.Errorf("the next ingest left the killed ones' temporary %s", n)
		}
	}
}

// killAfter starts ooc with args in dir, sends sig after delay, and waits. It reports
// whether the process had already exited by itself.
func killAfter(t *testing.T, dir string, delay time.Duration, sig syscall.Signal, args ...string) (exited bool) {
	t.Helper()
	cmd := exec.Command(oocBin, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
		exited = true
	case <-time.After(delay):
		cmd.Process.Signal(sig)
		<-done
	}
	if exited && cmd.ProcessState.ExitCode() != 0 {
		t.Fatalf("ooc %v failed by itself: %s", args, stderr.String())
	}
	return exited
}

// TestSignalStopsCleanly sends SIGINT and SIGTERM in the middle of an ingest: it must
// stop with a non-zero exit and one line saying why, and leave no graph, no temporary
// directory and no spill file.
func TestSignalStopsCleanly(t *testing.T) {
	dir, input, _, clean := killInput(t, 18)
	for i, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGINT, syscall.SIGTERM} {
		before := map[string]bool{}
		for _, n := range listDir(t, dir) {
			before[n] = true
		}
		cmd := exec.Command(oocBin, "ingest", "-q", "--shard-size", "1MiB", "-o", "g.ooc", input)
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Early in the parse (the temporary directory exists), then late (the shards
		// are being written).
		stage := ".tmp-*"
		if i%2 == 1 {
			stage = ".tmp-*/out-*.shard"
		}
		waitFor(filepath.Join(dir, ".g.ooc"+stage), 3*clean)
		cmd.Process.Signal(sig)
		cmd.Wait()
		code := cmd.ProcessState.ExitCode()
		if code == 0 {
			t.Logf("%v (signal %d) arrived after the ingest finished; nothing to check", sig, i)
			os.RemoveAll(filepath.Join(dir, "g.ooc"))
			continue
		}
		if code < 0 || !oneLine(stderr.String()) || strings.Contains(stderr.String(), "panic") {
			t.Errorf("%v: exit %d, stderr %q; want a non-zero exit and one line", sig, code, stderr.String())
		}
		if left := leftovers(t, dir, before); len(left) > 0 {
			t.Errorf("%v: left behind %v", sig, left)
		}
	}
}

// waitFor polls until a file matching pattern exists or timeout passes.
func waitFor(pattern string, timeout time.Duration) bool {
	for end := time.Now().Add(timeout); time.Now().Before(end); time.Sleep(2 * time.Millisecond) {
		if m, _ := filepath.Glob(pattern); len(m) > 0 {
			return true
		}
	}
	return false
}
