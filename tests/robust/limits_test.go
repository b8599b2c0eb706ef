package robust

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// watch is what a poller saw of a running process.
type watch struct {
	hwmKB      int64 // largest VmHWM read from /proc/PID/status
	maxFDs     int   // most open file descriptors at once
	maxScratch int   // most files in the temporary directory other than shards and manifest
	samples    int
}

// runWatched runs ooc with args in dir, sampling /proc/PID every few milliseconds, and
// returns the result and what the samples saw.
func runWatched(t *testing.T, dir string, args ...string) (result, watch) {
	t.Helper()
	cmd := exec.Command(oocBin, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var w watch
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		proc := fmt.Sprintf("/proc/%d", cmd.Process.Pid)
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			w.sample(proc, dir)
		}
	}()
	cmd.Wait()
	close(stop)
	wg.Wait()
	r := result{code: cmd.ProcessState.ExitCode(), stdout: out.String(), stderr: errb.String()}
	noPanic(t, r, args)
	return r, w
}

func (w *watch) sample(proc, dir string) {
	if kb := vmHWM(proc); kb > w.hwmKB {
		w.hwmKB = kb
	}
	if fds, err := os.ReadDir(proc + "/fd"); err == nil {
		w.maxFDs = max(w.maxFDs, len(fds))
		w.samples++
	}
	tmps, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*"))
	for _, tmp := range tmps {
		ents, _ := os.ReadDir(tmp)
		n := 0
		for _, e := range ents {
			if !strings.HasSuffix(e.Name(), ".shard") && e.Name() != "manifest.json" && e.Name() != "ids.bin" {
				n++
			}
		}
		w.maxScratch = max(w.maxScratch, n)
	}
}

func vmHWM(proc string) int64 {
	f, err := os.Open(proc + "/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb
		}
	}
	return 0
}

// TestMemBudget ingests an input four times the --mem budget and requires the peak
// resident set (VmHWM, sampled while it ran and reported by the process at exit) to stay within the budget
// plus 10%, and file descriptors and scratch files to stay few. A small ingest under the
// same budget gives the baseline for descriptors and scratch files: they must not grow
// with the input.
func TestMemBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the 4x ingest takes about 15 s on two cores")
	}
	const budgetMiB = 42
	dir := t.TempDir()
	big := gen(t, dir, "big.bin32", 20, 21, "bin32")
	small := gen(t, dir, "small.bin32", 14, 8, "bin32")
	st, _ := os.Stat(big)
	if ratio := float64(st.Size()) / (budgetMiB << 20); ratio < 4 {
		t.Fatalf("input is only %.1fx the budget", ratio)
	}
	var seen [2]watch
	for i, in := range []string{small, big} {
		r, w := runWatched(t, dir, "ingest", "-q", "--json", "--mem", fmt.Sprintf("%dMiB", budgetMiB), "--shard-size", "16MiB",
			"-o", fmt.Sprintf("g%d.ooc", i), in)
		if r.code != 0 {
			t.Fatalf("ingest %s: %s", in, r)
		}
		// wait4's maxrss is no use here: exec carries the forking test process's
		// high-water mark over into the child's. VmHWM belongs to the new image.
		var rep struct {
			PeakRSS int64 `json:"peak_rss"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || rep.PeakRSS <= 0 {
			t.Fatalf("ingest --json gives no peak_rss: %v: %s", err, r)
		}
		peak := max(rep.PeakRSS, w.hwmKB<<10)
		limit := int64(budgetMiB<<20) * 11 / 10
		t.Logf("%s (%d MiB): VmHWM sampled %.1f MiB, reported at exit %.1f MiB, limit %.1f MiB; at most %d fds, %d scratch files (%d samples)",
			filepath.Base(in), fileMiB(in), mib(w.hwmKB<<10), mib(rep.PeakRSS), mib(limit), w.maxFDs, w.maxScratch, w.samples)
		if peak > limit {
			t.Errorf("%s: peak RSS %.1f MiB exceeds the budget + 10%% (%.1f MiB)", in, mib(peak), mib(limit))
		}
		seen[i] = w
	}
	// A few more descriptors for the large input are the extra shards and spill files
	// open at once during the sort (how many overlap depends on the workers' timing:
	// 9 more were seen), not a growth with the input.
	if seen[1].maxFDs > seen[0].maxFDs+16 || seen[1].maxFDs > 64 {
		t.Errorf("open files grow with the input: %d for the small input, %d for the large", seen[0].maxFDs, seen[1].maxFDs)
	}
	if seen[1].maxScratch > 8 {
		t.Errorf("spill files grow with the input: %d for the small input, %d for the large", seen[0].maxScratch, seen[1].maxScratch)
	}
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

func fileMiB(p string) int64 {
	st, _ := os.Stat(p)
	return st.Size() >> 20
}

// TestConcurrentReaders runs two BFS, a CC and a verify on one graph at once: shared
// read-only mappings must not get in each other's way, and each must give the answer it
// gives alone.
func TestConcurrentReaders(t *testing.T) {
	dir := t.TempDir()
	in := gen(t, dir, "in.txt", 14, 8, "text")
	if r := ooc(t, dir, nil, "ingest", "-q", "--shard-size", "64KiB", "-o", "g.ooc", in); r.code != 0 {
		t.Fatalf("ingest: %s", r)
	}
	jobs := [][]string{{"bfs", "--src", "3", "--validate", "g.ooc"}, {"bfs", "--src", "3", "--validate", "g.ooc"},
		{"cc", "--validate", "g.ooc"}, {"verify", "g.ooc"}}
	alone := make([]string, len(jobs))
	for i, j := range jobs {
		r := ooc(t, dir, nil, j...)
		if r.code != 0 || r.stdout == "" {
			t.Fatalf("ooc %s: %s", strings.Join(j, " "), r)
		}
		alone[i] = stable(r.stdout)
		t.Logf("%s", alone[i])
	}
	for round := 0; round < 3; round++ {
		results := make([]result, len(jobs))
		var wg sync.WaitGroup
		for i, j := range jobs {
			wg.Add(1)
			go func() { defer wg.Done(); results[i] = ooc(t, dir, nil, j...) }()
		}
		wg.Wait()
		for i, r := range results {
			if r.code != 0 || stable(r.stdout) != alone[i] {
				t.Errorf("ooc %s alongside the others: %s; alone it printed %q", strings.Join(jobs[i], " "), r, alone[i])
			}
		}
	}
}

// stable drops the timings from a summary line, which differ from run to run.
func stable(s string) string {
	if i := strings.Index(s, " s,"); i > 0 {
		if j := strings.LastIndex(s[:i], ", "); j > 0 {
			return s[:j]
		}
	}
	return s
}

// TestSecondIngestLocked starts a second ingest into a destination that one is writing:
// it must fail at once with a clear message, and the first must finish unharmed.
func TestSecondIngestLocked(t *testing.T) {
	dir := t.TempDir()
	in := gen(t, dir, "in.txt", 17, 16, "text")
	first := exec.Command(oocBin, "ingest", "-q", "-o", "g.ooc", in)
	first.Dir = dir
	var stderr bytes.Buffer
	first.Stderr = &stderr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	if !waitFor(filepath.Join(dir, ".g.ooc.tmp-*"), 20*time.Second) {
		t.Fatal("the first ingest never created its temporary directory")
	}
	second := ooc(t, dir, nil, "ingest", "-q", "--force", "-o", "g.ooc", in)
	if err := first.Wait(); err != nil {
		t.Fatalf("the first ingest failed: %v: %s", err, stderr.String())
	}
	if second.code == 0 || !oneLine(second.stderr) || !strings.Contains(second.stderr, "g.ooc") ||
		!strings.Contains(second.stderr, "being written by another process") {
		t.Fatalf("second ingest into the same destination: %s; want a failure naming the lock", second)
	}
	if r := ooc(t, dir, nil, "verify", "g.ooc"); r.code != 0 {
		t.Fatalf("the first ingest's graph: %s", r)
	}
}

// TestFullDisk ingests onto a 1 MiB tmpfs: an input whose estimate exceeds the free
// space fails before writing; an input that passes the estimate but then runs out of
// space (two edges between vertices five million apart: 40 MB of degrees and offsets)
// fails on the write, weighted or not. Each says why in one line naming the graph, not
// the temporary file that failed (".g.ooc.tmp-N/out-00000.shard", which the write's
// named), and leaves nothing on the file system. Mounting needs root; elsewhere the
// test is skipped.
func TestFullDisk(t *testing.T) {
	dir := t.TempDir()
	mnt := filepath.Join(dir, "mnt")
	os.Mkdir(mnt, 0o755)
	mountTmpfs(t, mnt, "1m")
	writeFile(t, filepath.Join(dir, "big.txt"), edgeText(150000))
	writeFile(t, filepath.Join(dir, "wide.txt"), []byte("0 1\n5000000 5000001\n"))
	writeFile(t, filepath.Join(dir, "widew.txt"), []byte("0 1 3\n5000000 5000001 4\n"))
	g := filepath.Join(mnt, "g.ooc")
	for _, c := range []struct {
		in, flag, want string
	}{
		{"big.txt", "--order=auto", "free"},
		{"wide.txt", "--order=auto", "writing " + g + ": no space left on device"},
		{"wide.txt", "--directed", "writing " + g + ": no space left on device"},
		{"widew.txt", "--weights", "writing " + g + ": no space left on device"},
	} {
		r := ooc(t, dir, nil, "ingest", "--sparse-ids", "-q", c.flag, "-o", g, c.in)
		if r.code != 1 || !oneLine(r.stderr) || !strings.Contains(r.stderr, c.want) || !strings.Contains(r.stderr, mnt) ||
			strings.Contains(r.stderr, ".tmp-") {
			t.Errorf("ingest %s of %s onto a full disk: %s; want exit 1 and one line naming %s and saying %q", c.flag, c.in, r, mnt, c.want)
		}
		if left := leftovers(t, mnt, nil); len(left) > 0 {
			t.Errorf("ingest of %s onto a full disk left %v", c.in, left)
		}
	}
}

// TestReadOnlyFileSystem: a graph on a read-only file system (a tmpfs remounted
// read-only) answers every command that reads it, and every write there fails with
// exit 1 and one line naming what it would have written and why, not the lock file
// made beside it (an ingest, a gen or an upgrade of a version-5 graph). Mounting needs
// root; elsewhere the test is skipped.
func TestReadOnlyFileSystem(t *testing.T) {
	dir := t.TempDir()
	mnt := filepath.Join(dir, "mnt")
	os.Mkdir(mnt, 0o755)
	mountTmpfs(t, mnt, "4m")
	gen(t, mnt, "e.txt", 6, 4, "text")
	if r := ooc(t, mnt, nil, "ingest", "-q", "-o", "g.ooc", "e.txt"); r.code != 0 {
		t.Fatalf("ingest: %s", r)
	}
	if err := os.CopyFS(filepath.Join(mnt, "v5.ooc"), os.DirFS(filepath.Join("..", "..", "store", "testdata", "v5", "undirected.ooc"))); err != nil {
		t.Fatal(err)
	}
	remountReadOnly(t, mnt)
	before := listDir(t, mnt)
	for _, args := range [][]string{
		{"verify", "g.ooc"}, {"info", "g.ooc"}, {"bfs", "--src", "1", "--validate", "g.ooc"}, {"cc", "g.ooc"},
		{"pagerank", "g.ooc"}, {"kcore", "g.ooc"}, {"sssp", "--unit-weights", "--src", "1", "g.ooc"},
		{"export", "-q", "-o", "-", "g.ooc"}, {"bench", "--sources", "2", "g.ooc"},
	} {
		if r := ooc(t, mnt, nil, args...); r.code != 0 {
			t.Errorf("%v on a read-only file system: %s", args, r)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"ingest", "-q", "-o", "x.ooc", "e.txt"}, "cannot write x.ooc in .: read-only file system"},
		{[]string{"gen", "kron", "--scale", "4", "-q", "-o", "y.ooc"}, "cannot write y.ooc in .: read-only file system"},
		{[]string{"cc", "-o", "c.bin", "g.ooc"}, "read-only file system"},
		{[]string{"upgrade", "v5.ooc"}, "cannot write v5.ooc in .: read-only file system"},
		{[]string{"gen", "kron", "--scale", "4", "-q", "-o", "k.txt"}, "read-only file system"},
	} {
		r := ooc(t, mnt, nil, c.args...)
		if r.code != 1 || !oneLine(r.stderr) || !strings.Contains(r.stderr, c.want) || strings.Contains(r.stderr, ".lock") {
			t.Errorf("%v: %s; want exit 1 and one line saying %q", c.args, r, c.want)
		}
	}
	if after := listDir(t, mnt); !slices.Equal(after, before) {
		t.Errorf("the read-only directory changed: %v, was %v", after, before)
	}
}

// TestUpgradeFullDisk: an upgrade that runs out of room (a tmpfs filled but for 0 to 28
// KiB, the new graph's two shards 12 KiB each) fails with exit 1 and one line naming
// the graph, not the file of its temporary directory that failed; the old graph is left
// byte for byte and nothing beside it. Mounting needs root; elsewhere the test is
// skipped.
func TestUpgradeFullDisk(t *testing.T) {
	mnt := filepath.Join(t.TempDir(), "mnt")
	os.Mkdir(mnt, 0o755)
	mountTmpfs(t, mnt, "1m")
	fixture := os.DirFS(filepath.Join("..", "..", "store", "testdata", "v5", "weighted-directed.ooc"))
	g := filepath.Join(mnt, "u.ooc")
	failed := 0
	for free := int64(0); free <= 28<<10; free += 4 << 10 {
		os.RemoveAll(g)
		if err := os.CopyFS(g, fixture); err != nil {
			t.Fatal(err)
		}
		before := map[string][]byte{}
		for _, n := range listDir(t, g) {
			before[n] = readFile(t, filepath.Join(g, n))
		}
		filler := filepath.Join(mnt, "filler")
		fill(t, filler, free)
		r := ooc(t, mnt, nil, "upgrade", "u.ooc")
		os.Remove(filler)
		if left := leftovers(t, mnt, map[string]bool{"u.ooc": true}); len(left) > 0 {
			t.Errorf("upgrade with %d bytes free left %v", free, left)
		}
		if r.code == 0 {
			if v := ooc(t, mnt, nil, "verify", "u.ooc"); v.code != 0 {
				t.Errorf("upgrade with %d bytes free: %s, then verify: %s", free, r, v)
			}
			continue
		}
		failed++
		if r.code != 1 || !oneLine(r.stderr) || !strings.Contains(r.stderr, "upgrading u.ooc: no space left on device") || strings.Contains(r.stderr, ".tmp-") {
			t.Errorf("upgrade with %d bytes free: %s; want exit 1 and one line naming u.ooc and saying no space left on device", free, r)
		}
		after := listDir(t, g)
		for _, n := range after {
			if !bytes.Equal(readFile(t, filepath.Join(g, n)), before[n]) {
				t.Errorf("upgrade with %d bytes free changed %s", free, n)
			}
		}
		if len(after) != len(before) {
			t.Errorf("upgrade with %d bytes free: the graph holds %v", free, after)
		}
	}
	if failed == 0 {
		t.Error("no upgrade met a full disk")
	}
}

// fill writes path until its file system is full, then gives back free bytes of it.
func fill(t *testing.T, path string, free int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var size int64
	for buf := make([]byte, 4096); ; size += 4096 {
		if _, err := f.Write(buf); err != nil {
			break
		}
	}
	if err := f.Truncate(max(size-free, 0)); err != nil {
		t.Fatal(err)
	}
}

// TestOpenFileLimit: an ingest that meets the limit of open files (ulimit -n 8 to 16,
// spread over the lock, the spills and the shards of 16 KiB each) fails with exit 1 and
// one line naming the graph, not the temporary file it could not open, and leaves
// nothing beside its input.
func TestOpenFileLimit(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "big.txt"), edgeText(150000))
	failed := 0
	for _, n := range []int{8, 10, 12, 14, 16} {
		cmd := exec.Command("sh", "-c", fmt.Sprintf(`ulimit -n %d && exec "$0" "$@"`, n),
			oocBin, "ingest", "-q", "--shard-size", "16KiB", "-o", "g.ooc", "big.txt")
		cmd.Dir = dir
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Run(); cmd.ProcessState == nil {
			t.Skip("sh:", err)
		}
		r := result{code: cmd.ProcessState.ExitCode(), stderr: errb.String()}
		noPanic(t, r, cmd.Args)
		if r.code == 0 {
			os.RemoveAll(filepath.Join(dir, "g.ooc"))
			continue
		}
		failed++
		if r.code != 1 || !oneLine(r.stderr) || !strings.Contains(r.stderr, "writing g.ooc: too many open files") || strings.Contains(r.stderr, ".tmp-") {
			t.Errorf("ingest under ulimit -n %d: %s; want exit 1 and one line naming g.ooc", n, r)
		}
		if left := leftovers(t, dir, map[string]bool{"big.txt": true}); len(left) > 0 {
			t.Errorf("ingest under ulimit -n %d left %v", n, left)
		}
	}
	if failed == 0 {
		t.Error("no ingest met the limit")
	}
}
