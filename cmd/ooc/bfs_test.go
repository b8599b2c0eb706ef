package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oocgraph/ooc"
	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
)

// bfsGraph writes a small undirected graph: the path 0-1-2-3, the edge 4-5 apart and the
// isolated vertex 6.
func bfsGraph(t *testing.T) string {
	return testgraph.Dir(t, 7, []testgraph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}, {U: 4, V: 5}}, false)
}

// TestBFSCommand checks the summary with --validate (the search writes levels) and
// without (parents alone: the reached vertices, depth and edges come from them and from
// the search).
func TestBFSCommand(t *testing.T) {
	dir := bfsGraph(t)
	for _, validate := range []bool{true, false} {
		args := []string{"bfs", "--src", "1", "--backend", "cpu", dir}
		want := []string{"source 1", "reached 4 vertices", "depth 2", "3 edges traversed", "GTEPS", "backend cpu"}
		if validate {
			args, want = append(args, "--validate"), append(want, "validated")
		}
		code, stdout, stderr := runCLI(t, "", args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		for _, w := range want {
			if !strings.Contains(stdout, w) {
				t.Errorf("%v: summary %q lacks %q", args, stdout, w)
			}
		}
	}
}

func TestBFSJSONSources(t *testing.T) {
	dir := bfsGraph(t)
	code, stdout, stderr := runCLI(t, "", "bfs", dir, "--sources", "3", "--seed", "5", "--json", "--validate", "--backend", "cpu", "--workers", "2")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v: %q", err, stdout)
	}
	for _, k := range []string{"source", "reached", "depth", "edges_traversed", "seconds", "gteps", "backend", "runs", "median_seconds", "median_gteps"} {
		if _, ok := got[k]; !ok {
			t.Errorf("json lacks %q: %s", k, stdout)
		}
	}
	runs := got["runs"].([]any)
	seen := map[float64]bool{}
	for _, r := range runs {
		src := r.(map[string]any)["source"].(float64)
		if src == 6 || seen[src] {
			t.Errorf("source %v: isolated or repeated (runs %v)", src, runs)
		}
		seen[src] = true
	}
	if len(runs) != 3 || got["backend"] != "cpu" {
		t.Fatalf("runs %d backend %v", len(runs), got["backend"])
	}
}

func TestBFSOutputFiles(t *testing.T) {
	dir := bfsGraph(t)
	bin := filepath.Join(t.TempDir(), "r.bin")
	if code, _, stderr := runCLI(t, "", "bfs", "--src", "0", "-o", bin, dir); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	n := 7
	if len(b) != 32+8*n || string(b[:8]) != bfsMagic || binary.LittleEndian.Uint64(b[8:]) != uint64(n) {
		t.Fatalf("binary result: %d bytes, header %q", len(b), b[:min(len(b), 32)])
	}
	level := func(v int) uint32 { return binary.LittleEndian.Uint32(b[32+4*n+4*v:]) }
	parent := func(v int) uint32 { return binary.LittleEndian.Uint32(b[32+4*v:]) }
	if level(3) != 3 || parent(3) != 2 || level(4) != ooc.Unreached || parent(0) != 0 {
		t.Fatalf("levels/parents wrong: level(3)=%d parent(3)=%d level(4)=%d", level(3), parent(3), level(4))
	}
	code, stdout, stderr := runCLI(t, "", "bfs", "--src", "0", "--text", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := "0 0 0\n1 0 1\n2 1 2\n3 2 3\n4 - -\n5 - -\n6 - -\n"
	if stdout != want || !strings.Contains(stderr, "reached 4") {
		t.Fatalf("text output %q (summary %q), want %q", stdout, stderr, want)
	}
}

func TestBFSBadSources(t *testing.T) {
	dir := bfsGraph(t)
	wantUsage(t, []string{"bfs", dir}, [][]string{
		{"--src", "6"},   // isolated
		{"--src", "7"},   // not a vertex
		{"--src", "abc"}, // not a number
		{"--sources", "0"},
		{"--sources", "2", "--src", "1"},
		{"--backend", "tpu"},
		{"--workers", "-1"},
	})
}

func TestBFSMTXIDs(t *testing.T) {
	// An id base of 1 (MatrixMarket): users type and read 1-based ids.
	dir := testgraph.Dir(t, 3, []testgraph.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, false)
	setIDBase(t, dir, 1)
	code, stdout, stderr := runCLI(t, "", "bfs", "--src", "1", "--text", dir)
	if code != exitOK || stdout != "1 1 0\n2 1 1\n3 2 2\n" {
		t.Fatalf("exit %d, %q, %q", code, stdout, stderr)
	}
	if code, _, _ := runCLI(t, "", "bfs", "--src", "0", dir); code != exitUsage {
		t.Fatalf("--src 0 in a 1-based graph: exit %d", code)
	}
}

// setIDBase rewrites a graph's manifest with another id base.
func setIDBase(t *testing.T, dir string, base uint32) {
	t.Helper()
	m, err := store.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	m.IDBase = base
	b, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, store.ManifestName), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBFSCorruptGraph(t *testing.T) {
	dir := bfsGraph(t)
	path := filepath.Join(dir, "out-00000.shard")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[4096] ^= 0xff // first byte of ADJ: its section checksum no longer matches
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"bfs", "cc"} {
		if code, _, stderr := runCLI(t, "", cmd, dir); code != exitCorrupt {
			t.Errorf("%s on a corrupt graph: exit %d, %q", cmd, code, stderr)
		}
	}
}

func TestCCCommand(t *testing.T) {
	dir := bfsGraph(t)
	code, stdout, stderr := runCLI(t, "", "cc", "--validate", "--json", "--backend", "cpu", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got ccJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if got.Components != 3 || got.Largest != 4 || got.Backend != "cpu" || !got.Validated {
		t.Fatalf("%+v", got)
	}
	out := filepath.Join(t.TempDir(), "labels.bin")
	if code, stdout, stderr = runCLI(t, "", "cc", "-o", out, dir); code != exitOK || !strings.Contains(stdout, "3 components, largest 4") {
		t.Fatalf("exit %d: %q %q", code, stdout, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 24+4*7 || string(b[:8]) != ccMagic {
		t.Fatalf("labels file: %d bytes", len(b))
	}
	l := func(v int) uint32 { return binary.LittleEndian.Uint32(b[24+4*v:]) }
	if l(0) != l(3) || l(4) != l(5) || l(0) == l(4) || l(6) == l(4) {
		t.Fatalf("labels %v", b[24:])
	}
	if code, stdout, _ = runCLI(t, "", "cc", "--text", dir); code != exitOK || !strings.HasPrefix(stdout, "0 0\n1 0\n") {
		t.Fatalf("text: exit %d %q", code, stdout)
	}
}

func TestHelpBFSCC(t *testing.T) {
	for _, c := range []string{"bfs", "cc"} {
		code, stdout, _ := runCLI(t, "", "help", c)
		if code != exitOK || !strings.Contains(stdout, "Examples:") || !strings.Contains(stdout, "-backend") {
			t.Errorf("help %s: exit %d\n%s", c, code, stdout)
		}
	}
}

// TestMemoryCheck: a command whose per-vertex state exceeds the machine's memory fails
// at once (exit 1), naming the need, the memory and the fix, instead of meeting the
// out-of-memory killer half-way (issue 21: bfs on a 2^32-vertex graph of 2 edges).
func TestMemoryCheck(t *testing.T) {
	dir := bfsGraph(t) // 7 vertices
	defer func(f func() int64) { machineMem = f }(machineMem)
	machineMem = func() int64 { return 50 }
	for _, args := range [][]string{{"bfs", "--src", "1"}, {"cc"}, {"pagerank"}, {"kcore"}, {"bfs", "--src", "1", "--validate"}} {
		code, stdout, stderr := runCLI(t, "", append(args, dir)...)
		if code != exitFailure || stdout != "" || !strings.Contains(stderr, "needs about") || !strings.Contains(stderr, "this machine has 50 B") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
	machineMem = func() int64 { return 7 * 44 }
	for _, args := range [][]string{{"bfs", "--src", "1"}, {"cc"}, {"pagerank", "--validate"}, {"kcore"}} {
		if code, _, stderr := runCLI(t, "", append(args, dir)...); code != 0 {
			t.Errorf("%v within the memory: exit %d, %q", args, code, stderr)
		}
	}
}

// TestReadersCheckSections: every command that reads a graph's lists checks their
// checksums before its first output: a flipped ADJ byte is exit 3 and no output file.
func TestReadersCheckSections(t *testing.T) {
	dir := bfsGraph(t)
	path := filepath.Join(dir, "out-00000.shard")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[4096+2] ^= 0x01 // a neighbour of vertex 0 that still decodes: only the checksum tells
	os.WriteFile(path, b, 0o644)
	out := filepath.Join(t.TempDir(), "x.el")
	for _, args := range [][]string{{"export", "-o", out}, {"sssp", "--unit-weights", "--src", "1"}, {"kcore"}, {"pagerank"}, {"cc"}, {"bfs", "--src", "1"}} {
		code, stdout, stderr := runCLI(t, "", append(args, dir)...)
		if code != exitCorrupt || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("export wrote %s from a corrupt graph", out)
	}
}

// TestUserCountsBounded: counts a user gives that would multiply memory or time past
// any use (issue 21: "check every product of user-given numbers") are usage errors:
// more sources than vertices (bfs allocated them all before the first search), more
// workers than maxWorkers (kcore allocated per-worker queues for 10^8 workers).
func TestUserCountsBounded(t *testing.T) {
	dir := bfsGraph(t)
	in := filepath.Join(t.TempDir(), "e.txt")
	os.WriteFile(in, []byte("0 1\n"), 0o644)
	for _, args := range [][]string{
		{"bfs", "--sources", "100000000000", dir},
		{"bfs", "--sources", "8", dir},
		{"kcore", "--workers", "100000000", dir},
		{"pagerank", "--workers", "4097", dir},
		{"cc", "--workers", "100000000", dir},
		{"ingest", "--workers", "100000000", "-o", filepath.Join(t.TempDir(), "x.ooc"), in},
		{"gen", "kron", "--scale", "4", "--workers", "100000000", "-o", "-"},
	} {
		if code, _, stderr := runCLI(t, "", args...); code != exitUsage || !oneLineErr(stderr) {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}
}

func oneLineErr(s string) bool { return strings.Count(s, "\n") == 1 && strings.HasSuffix(s, "\n") }

// TestValidateVerboseTiming: with -v, --validate says how long each check took.
func TestValidateVerboseTiming(t *testing.T) {
	dir := bfsGraph(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bfs", "--src", "1", "--validate", "-v"}, "bfs: check of the search from 1 took "},
		{[]string{"cc", "--validate", "-v"}, "cc: check took "},
	} {
		code, _, stderr := runCLI(t, "", append(c.args, "--backend", "cpu", dir)...)
		if code != exitOK || !strings.Contains(stderr, c.want) || !strings.Contains(stderr[strings.Index(stderr, c.want):], " s\n") {
			t.Errorf("%v: exit %d, stderr %q lacks %q... s", c.args, code, stderr, c.want)
		}
	}
}

// TestBFSEmptyGraph: a search on a graph of no vertices is refused by the flag the user
// gave: --src 0 was "--sources 1: the graph has 0 vertices" (a flag not given), and the
// store's message said "ids run from 0 to 18446744073709551615".
func TestBFSEmptyGraph(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "empty.ooc")
	b, err := store.Create(dir, store.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b.Writer(store.Out)
	if err := b.Commit(&store.Manifest{}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bfs", "--src", "0", dir}, "--src 0: vertex 0 is not in the graph (it has no vertices)"},
		{[]string{"bfs", dir}, "--src random: the graph has no edges"},
		{[]string{"bfs", "--sources", "2", dir}, "--sources 2: the graph has 0 vertices"},
	} {
		code, _, stderr := runCLI(t, "", c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("ooc %s: exit %d, %q; want exit %d and one line with %q", strings.Join(c.args, " "), code, stderr, exitUsage, c.want)
		}
	}
}

// TestPickSourcesDistinct: on a graph whose vertices with edges are few among many
// isolated ones, --sources N draws N distinct vertices with edges for every seed while
// that many exist (the walk after 64N misses repeated them), and refuses more, naming
// the count (they were drawn with repeats, under a help that says distinct).
func TestPickSourcesDistinct(t *testing.T) {
	g := testgraph.Build(t, 5000, []testgraph.Edge{{U: 0, V: 4999}, {U: 1000, V: 2000}, {U: 3000, V: 4000}}, false, 0)
	withEdges := map[uint32]bool{0: true, 4999: true, 1000: true, 2000: true, 3000: true, 4000: true}
	for seed := range uint64(20) {
		srcs, err := pickSources(context.Background(), g, "random", 6, seed)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		seen := map[uint32]bool{}
		for _, v := range srcs {
			if !withEdges[v] || seen[v] {
				t.Errorf("seed %d: sources %v: %d isolated or repeated", seed, srcs, v)
			}
			seen[v] = true
		}
	}
	// more sources than edges are refused before any draw: a graph of 2*10^8 vertices,
	// two of them with edges, drew 6.4*10^9 times for --sources 10^8 and then read every
	// vertex's degree (past 100 s)
	if srcs, err := pickSources(context.Background(), g, "random", 7, 1); err == nil || !strings.Contains(err.Error(), "--sources 7: the graph has at most 6 vertices with edges (it stores 6 directed edges)") {
		t.Errorf("7 sources of 6: %v, %v", srcs, err)
	}
	star := testgraph.Build(t, 5000, []testgraph.Edge{{U: 7, V: 1}, {U: 7, V: 2}, {U: 7, V: 3}}, false, 0)
	if srcs, err := pickSources(context.Background(), star, "random", 5, 1); err == nil || !strings.Contains(err.Error(), "--sources 5: the graph has 4 vertices with edges") {
		t.Errorf("5 sources of a star of 4: %v, %v", srcs, err)
	}
	// a count past n is refused before the draws (bench passed 10^12 here: 64 draws a
	// source, hours, deaf to SIGTERM)
	done := make(chan error, 1)
	go func() { _, err := pickSources(context.Background(), g, "random", 1<<30, 1); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "--sources 1073741824: the graph has 5000 vertices") {
			t.Errorf("2^30 sources of 5000 vertices: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("2^30 sources of 5000 vertices: no answer in 30 s")
	}
}

// cancelAfter is a context whose Err is nil for its first n calls and
// context.Canceled from then on: a signal that comes while the work runs.
type cancelAfter struct {
	context.Context
	n, calls int
}

func (c *cancelAfter) Err() error {
	if c.calls++; c.calls > c.n {
		return context.Canceled
	}
	return nil
}

// TestPickSourcesInterrupted: the draws and the pass over every vertex after them stop
// once the context is done (bench's SIGINT), with its cause; a graph of 2^18 vertices,
// six with edges, --sources 6: 384 draws find a few, the pass finds the rest.
func TestPickSourcesInterrupted(t *testing.T) {
	const n = 1 << 18
	g := testgraph.Build(t, n, []testgraph.Edge{{U: 0, V: n - 1}, {U: 1000, V: 2000}, {U: 3000, V: 4000}}, false, 0)
	for _, after := range []int{0, 1} { // before the first draw; in the pass after the draws
		ctx := &cancelAfter{Context: context.Background(), n: after}
		srcs, err := pickSources(ctx, g, "random", 6, 1)
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted while picking sources") {
			t.Errorf("cancelled after %d looks: %v, %v; want interrupted", after, srcs, err)
		}
	}
	// the pass over 2^18 vertices looks at the context more than once
	ctx := &cancelAfter{Context: context.Background(), n: 1 << 30}
	if srcs, err := pickSources(ctx, g, "random", 6, 1); err != nil || len(srcs) != 6 || ctx.calls < 2 {
		t.Errorf("not cancelled: %v, %v, %d looks", srcs, err, ctx.calls)
	}
}

// TestSourcesDamagedDirectory: bfs and sssp read degrees to pick or check a source
// before the engine checks the graph; a byte flipped in the directory is refused as a
// corrupt graph (exit 3) naming the shard, where some flips died with "slice bounds out
// of range" in DegreeAt.
func TestSourcesDamagedDirectory(t *testing.T) {
	dir := t.TempDir()
	g := filepath.Join(dir, "g.ooc")
	if code, _, stderr := runCLI(t, "", "gen", "kron", "--scale", "6", "--weights", "uniform:1:9", "-q", "-o", g); code != exitOK {
		t.Fatalf("gen: %s", stderr)
	}
	sg, err := store.Open(g)
	if err != nil {
		t.Fatal(err)
	}
	s := sg.Out().Shards[0]
	var off, length uint64
	for _, sec := range s.Sections {
		if sec.ID == store.SecDirectory {
			off, length = uint64(sec.Offset), uint64(sec.Length)
		}
	}
	path := s.Path
	sg.Close()
	good, err := os.ReadFile(path)
	if err != nil || length == 0 {
		t.Fatalf("%v, directory of %d bytes", err, length)
	}
	for i := off; i < off+length; i++ {
		bad := slices.Clone(good)
		bad[i] ^= 0x10
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"bfs", g}, {"bfs", "--src", "3", g}, {"sssp", g}} {
			if code, _, stderr := runCLI(t, "", args...); code != exitCorrupt || !strings.Contains(stderr, "out-00000.shard") {
				t.Errorf("byte %d flipped: %v: exit %d, %q; want exit %d naming the shard", i, args, code, stderr, exitCorrupt)
			}
		}
	}
}
