package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/ingest"
	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
)

const triangle = "# a triangle and a tail\n0 1\n1 2\n2 0\n2 3\n3 3\n1 0\n"

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestIngestInfoVerify(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "tri.txt", triangle)
	out := filepath.Join(dir, "tri.ooc")
	code, stdout, stderr := runCLI(t, "", "ingest", "--json", "-o", out, in)
	if code != exitOK {
		t.Fatalf("ingest: code %d, stderr %q", code, stderr)
	}
	var rep map[string]any
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("ingest --json: %v in %q", err, stdout)
	}
	if rep["vertices"] != 4.0 || rep["edges"] != 8.0 || rep["self_loops_dropped"] != 1.0 || rep["duplicates_dropped"] != 0.0 ||
		rep["reciprocal_pairs_merged"] != 1.0 { // 1 0 after 0 1
		t.Errorf("ingest --json: %v", rep)
	}
	if rep["backend"] != "cpu" { // a file this small stays on the CPU, GPU or not
		t.Errorf("ingest --json: backend %v, want cpu", rep["backend"])
	}
	if !strings.Contains(stderr, "4 vertices, 8 edges") {
		t.Errorf("summary missing: %q", stderr)
	}

	code, stdout, stderr = runCLI(t, "", "info", "--json", out)
	if code != exitOK {
		t.Fatalf("info: code %d, stderr %q", code, stderr)
	}
	var info map[string]any
	if err := json.Unmarshal([]byte(stdout), &info); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"vertices", "edges", "directed", "self_loops_dropped", "duplicates_dropped", "bytes", "bits_per_edge", "shards"} {
		if _, ok := info[k]; !ok {
			t.Errorf("info --json lacks %q: %s", k, stdout)
		}
	}
	if d := info["degree"].(map[string]any); d["max"] != 3.0 || d["zero"] != 0.0 || d["mean"] != 2.0 {
		t.Errorf("degree summary %v, want max 3, mean 2, zero 0", d)
	}
	code, stdout, _ = runCLI(t, "", "info", out)
	if code != exitOK || !strings.Contains(stdout, "max 3, mean 2.00") {
		t.Errorf("info: code %d, %q", code, stdout)
	}
	code, stdout, _ = runCLI(t, "", "verify", out)
	if code != exitOK || stdout != "ok: 4 vertices, 8 edges, 1 shard, checksums verified\n" {
		t.Errorf("verify: code %d, %q", code, stdout)
	}
	code, stdout, _ = runCLI(t, "", "verify", "--json", out)
	if code != exitOK || strings.TrimSpace(stdout) != `{"ok":true,"vertices":4,"edges":8,"shards":1}` {
		t.Errorf("verify --json: code %d, %q", code, stdout)
	}
}

func TestIngestStdinDirected(t *testing.T) {
	out := filepath.Join(t.TempDir(), "g.ooc")
	code, _, stderr := runCLI(t, triangle, "ingest", "-q", "--format", "snap", "--directed", "-o", out, "-")
	if code != exitOK || stderr != "" {
		t.Fatalf("code %d, stderr %q (want none with -q)", code, stderr)
	}
	code, stdout, _ := runCLI(t, "", "info", "--json", out)
	var info struct {
		Vertices, Edges, Shards uint64
		Directed                bool
	}
	if code != exitOK || json.Unmarshal([]byte(stdout), &info) != nil || info.Edges != 5 || !info.Directed || info.Shards != 2 {
		t.Fatalf("code %d, info %+v from %q", code, info, stdout)
	}
}

// TestIngestStdinBin32Star: a bin32 star on vertex 0 (every second id 0) on standard
// input, which has no .bin32 name, is refused as bin64 content read at the wrong width,
// the refusal naming --width-meant, which reads it; --width-meant without --format
// bin32 is a usage error.
func TestIngestStdinBin32Star(t *testing.T) {
	dir := t.TempDir()
	star := string([]byte{1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0})
	out := filepath.Join(dir, "star.ooc")
	code, _, stderr := runCLI(t, star, "ingest", "-q", "--format", "bin32", "-o", out, "-")
	if code != exitUsage || !strings.Contains(stderr, "<stdin>") || !strings.Contains(stderr, "--width-meant") || strings.Count(stderr, "\n") != 1 {
		t.Fatalf("without --width-meant: code %d, stderr %q; want 2 and one line naming <stdin> and --width-meant", code, stderr)
	}
	for _, args := range [][]string{{"--width-meant"}, {"--width-meant", "--format", "bin64"}, {"--width-meant", "--format", "snap"}} {
		code, _, stderr := runCLI(t, star, append(append([]string{"ingest", "-q"}, args...), "-o", out, "-")...)
		if code != exitUsage || !strings.Contains(stderr, "--width-meant") || !strings.Contains(stderr, "--format bin32") {
			t.Fatalf("%v: code %d, stderr %q; want a usage error naming --format bin32", args, code, stderr)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatalf("%s left behind by a refusal", out)
	}
	if code, _, stderr := runCLI(t, star, "ingest", "-q", "--format", "bin32", "--width-meant", "-o", out, "-"); code != exitOK {
		t.Fatalf("--width-meant: code %d, stderr %q", code, stderr)
	}
	code, stdout, _ := runCLI(t, "", "info", "--json", out)
	var info struct{ Vertices, Edges uint64 }
	if code != exitOK || json.Unmarshal([]byte(stdout), &info) != nil || info.Vertices != 5 || info.Edges != 8 {
		t.Fatalf("code %d, info %+v from %q; want the star of 5 vertices, 8 stored edges", code, info, stdout)
	}
}

// TestIngestDefaultOutput: the graph lands in the current directory, named after the
// input without its extensions, and info/verify find it there unnamed.
func TestIngestDefaultOutput(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, t.TempDir(), "road.net.txt", "0 1\n")
	t.Chdir(dir)
	if code, _, stderr := runCLI(t, "", "ingest", "-q", in); code != exitOK {
		t.Fatalf("code %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "road.net.ooc", "manifest.json")); err != nil {
		t.Fatal(err)
	}
	if code, stdout, _ := runCLI(t, "", "verify"); code != exitOK || !strings.HasPrefix(stdout, "ok: 2 vertices") {
		t.Fatalf("verify: %d %q", code, stdout)
	}
	if code, _, _ := runCLI(t, "", "info"); code != exitOK {
		t.Fatalf("info: %d", code)
	}
}

func TestDefaultOutputName(t *testing.T) {
	for in, want := range map[string]string{
		"friendster.txt":         "friendster.ooc",
		"/data/web-graph.mtx.gz": "web-graph.ooc",
		"roads.gr.zst":           "roads.ooc",
		"kron.bin32":             "kron.ooc",
		"plain":                  "plain.ooc",
		"v1.2.edges":             "v1.2.ooc",
		".txt":                   "graph.ooc",
	} {
		if got := defaultOutput(in); got != want {
			t.Errorf("defaultOutput(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestIngestErrors: bad input and bad usage exit 2 with a one-line message and leave no
// output behind.
func TestIngestErrors(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.txt", "0 1\n")
	bad := writeFile(t, dir, "bad.txt", "0 1\n2 x\n")
	huge := writeFile(t, dir, "huge.txt", "0 4294967295\n")
	out := filepath.Join(dir, "out.ooc")
	for _, tc := range []struct {
		name  string
		args  []string
		stdin string
		want  string
	}{
		{"missing input", []string{"ingest", "-o", out, filepath.Join(dir, "nope.txt")}, "", "nope.txt"},
		{"directory input", []string{"ingest", "-o", out, dir}, "", "directory"},
		{"bad line", []string{"ingest", "-o", out, bad}, "", "bad.txt:2"},
		{"id too large", []string{"ingest", "-o", out, huge}, "", "huge.txt:1"},
		{"bad format", []string{"ingest", "--format", "csvx", "-o", out, good}, "", "csvx"},
		{"bad mem", []string{"ingest", "--mem", "12XB", "-o", out, good}, "", "mem"},
		{"mem too small", []string{"ingest", "--mem", "1MiB", "-o", out, good}, "", "too small"},
		{"bad shard size", []string{"ingest", "--shard-size", "-5", "-o", out, good}, "", "shard-size"},
		{"stdin without -o", []string{"ingest", "-"}, "0 1\n", "-o"},
		{"no input", []string{"ingest", "-o", out}, "", "one input"},
		{"two inputs", []string{"ingest", "-o", out, good, good}, "", "one input"},
		{"empty stdin", []string{"ingest", "-o", out, "-"}, "", "stdin"},
	} {
		code, _, stderr := runCLI(t, tc.stdin, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s: code %d, stderr %q; want 2 and one line mentioning %q", tc.name, code, stderr, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%s: %s left behind", tc.name, out)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".out.ooc.tmp-*")); len(left) > 0 {
		t.Errorf("temporary directories left: %v", left)
	}
}

func TestIngestExisting(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "g.txt", "0 1\n")
	out := filepath.Join(dir, "g.ooc")
	if code, _, _ := runCLI(t, "", "ingest", "-q", "-o", out, in); code != exitOK {
		t.Fatal(code)
	}
	code, _, stderr := runCLI(t, "", "ingest", "-q", "-o", out, in)
	if code != exitUsage || !strings.Contains(stderr, "--force") {
		t.Fatalf("second ingest: code %d, %q", code, stderr)
	}
	if code, _, stderr := runCLI(t, "", "ingest", "-q", "--force", "-o", out, in); code != exitOK {
		t.Fatalf("--force: code %d, %q", code, stderr)
	}
}

func TestVerifyCorrupt(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "g.txt", triangle)
	out := filepath.Join(dir, "g.ooc")
	if code, _, _ := runCLI(t, "", "ingest", "-q", "-o", out, in); code != exitOK {
		t.Fatal(code)
	}
	shard := filepath.Join(out, "out-00000.shard")
	b, err := os.ReadFile(shard)
	if err != nil {
		t.Fatal(err)
	}
	b[4096] ^= 0x40 // the first byte of ADJ
	if err := os.WriteFile(shard, b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "", "verify", out)
	if code != exitCorrupt || stdout != "" || !strings.Contains(stderr, "out-00000.shard") {
		t.Fatalf("code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if code, _, _ := runCLI(t, "", "verify", filepath.Join(dir, "none.ooc")); code != exitUsage {
		t.Errorf("verify of a missing graph: code %d, want 2", code)
	}
}

func TestHelpIngest(t *testing.T) {
	for _, name := range []string{"ingest", "info", "verify"} {
		code, stdout, _ := runCLI(t, "", "help", name)
		if code != exitOK || !strings.Contains(stdout, "Examples:") {
			t.Errorf("help %s: code %d, %q", name, code, stdout)
		}
	}
	_, stdout, _ := runCLI(t, "", "help", "ingest")
	for _, f := range []string{"-mem", "-shard-size", "-relabel", "-keep-duplicates", "-format", "-json"} {
		if !strings.Contains(stdout, f) {
			t.Errorf("help ingest lacks %s", f)
		}
	}
}

// TestMemAboveMachineWarns: a --mem above the machine's memory is allowed, with a warning.
func TestMemAboveMachineWarns(t *testing.T) {
	if ingest.MachineMem() <= 0 {
		t.Skip("the machine's memory is unknown here")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "g.txt")
	if err := os.WriteFile(in, []byte("0 1\n1 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(t, "", "ingest", "-q", "--mem", "1000TiB", "-o", filepath.Join(dir, "g.ooc"), in)
	if code != exitOK || !strings.Contains(stderr, "warning: --mem 1000.0 TiB is more than this machine's") {
		t.Fatalf("code %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCLI(t, "", "ingest", "-q", "--force", "--mem", "64MiB", "-o", filepath.Join(dir, "g.ooc"), in)
	if code != exitOK || stderr != "" {
		t.Fatalf("--mem 64MiB: code %d, stderr %q", code, stderr)
	}
}

// TestIngestBackendFlag: an unknown --backend is a usage error; --backend cpu builds.
func TestIngestBackendFlag(t *testing.T) {
	in := filepath.Join(t.TempDir(), "tri.txt")
	if err := os.WriteFile(in, []byte("0 1\n1 2\n2 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "g.ooc")
	if code, _, stderr := runCLI(t, "", "ingest", "--backend", "tpu", "-o", out, in); code != exitUsage || !strings.Contains(stderr, "--backend") {
		t.Errorf("--backend tpu: code %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runCLI(t, "", "ingest", "-q", "--backend", "cpu", "-o", out, in); code != exitOK {
		t.Errorf("--backend cpu: code %d, stderr %q", code, stderr)
	}
}

// TestInfoCorruptDirectory: info prints degree summaries, so a flipped byte anywhere in a
// DIRECTORY section (out or in) is exit 3, never a summary from bad bytes.
func TestInfoCorruptDirectory(t *testing.T) {
	for _, directed := range []bool{false, true} {
		dir := testgraph.Dir(t, 7, []testgraph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}, {U: 4, V: 5}}, directed)
		g, err := store.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		var cases []struct {
			path string
			off  int64
		}
		for _, s := range g.Shards() {
			sec, _ := s.SectionBytes(store.SecDirectory)
			if len(sec) == 0 {
				t.Fatalf("%s has no DIRECTORY section", s.Path)
			}
			off := int64(0)
			for _, x := range s.Sections {
				if x.ID == store.SecDirectory {
					off = x.Offset
				}
			}
			for i := range int64(len(sec)) {
				cases = append(cases, struct {
					path string
					off  int64
				}{s.Path, off + i})
			}
		}
		g.Close()
		for _, c := range cases {
			b, err := os.ReadFile(c.path)
			if err != nil {
				t.Fatal(err)
			}
			b[c.off] ^= 0x53
			os.WriteFile(c.path, b, 0o644)
			code, stdout, stderr := runCLI(t, "", "info", dir)
			if code != exitCorrupt {
				t.Errorf("directed %v, %s byte %d flipped: exit %d, stdout %q, stderr %q", directed, filepath.Base(c.path), c.off, code, stdout, stderr)
			}
			b[c.off] ^= 0x53
			os.WriteFile(c.path, b, 0o644)
		}
		if code, _, stderr := runCLI(t, "", "info", dir); code != 0 {
			t.Fatalf("restored graph: exit %d, %q", code, stderr)
		}
	}
}

// TestIngestSparseIDs: an id range of more than 64 vertices an input edge is refused
// (exit 2, pointing at --relabel, nothing written) unless --sparse-ids; --relabel takes
// it (issue 21: 17 bytes of input became a 32 GiB graph).
func TestIngestSparseIDs(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "sparse.txt", "0 1\n1 1048576\n")
	code, _, stderr := runCLI(t, "", "ingest", "-q", "-o", filepath.Join(dir, "a.ooc"), in)
	if code != exitUsage || !strings.Contains(stderr, "--relabel") || !strings.Contains(stderr, "1048577 vertices") {
		t.Errorf("sparse ids: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.ooc")); err == nil {
		t.Errorf("a graph was written")
	}
	for _, flag := range []string{"--sparse-ids", "--relabel"} {
		if code, _, stderr := runCLI(t, "", "ingest", "-q", flag, "-o", filepath.Join(dir, flag[2:]+".ooc"), in); code != 0 {
			t.Errorf("%s: exit %d, %q", flag, code, stderr)
		}
	}
	if names, _ := os.ReadDir(dir); len(names) != 3 {
		t.Errorf("%d entries left, want the input and two graphs", len(names))
	}
}

// TestReciprocalPairs: an undirected ingest counts repeated lines and reciprocal pairs
// (u v and v u) apart, in its summary, its --json, info's text and info --json; a
// directed one has no reciprocal pairs to merge, only the same repeated lines.
func TestReciprocalPairs(t *testing.T) {
	dir := t.TempDir()
	// {1,2}: 1 2 twice, 2 1 once; {3,4}: 3 4 twice; {5,6}: each way twice; 7 7 a
	// self-loop; 8 9 once: 4 repeated lines, 2 reciprocal pairs
	in := writeFile(t, dir, "pairs.txt", "1 2\n2 1\n1 2\n3 4\n3 4\n5 6\n6 5\n6 5\n5 6\n7 7\n8 9\n")
	const text = "1 self-loop and 4 duplicate edges dropped, 2 reciprocal pairs merged"
	for _, directed := range []bool{false, true} {
		out := filepath.Join(dir, fmt.Sprintf("g%v.ooc", directed))
		args := []string{"ingest", "--json", "-o", out, in}
		if directed {
			args = append(args, "--directed")
		}
		code, stdout, stderr := runCLI(t, "", args...)
		if code != exitOK {
			t.Fatalf("ingest: code %d, stderr %q", code, stderr)
		}
		var rep map[string]any
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatalf("ingest --json: %v in %q", err, stdout)
		}
		pairs, ok := rep["reciprocal_pairs_merged"]
		if rep["duplicates_dropped"] != 4.0 || rep["self_loops_dropped"] != 1.0 || ok == directed || !directed && pairs != 2.0 {
			t.Errorf("directed %v: ingest --json: %v", directed, rep)
		}
		code, stdout, stderr = runCLI(t, "", "info", out)
		if code != exitOK {
			t.Fatalf("info: code %d, stderr %q", code, stderr)
		}
		if got := strings.Contains(stdout, text); got == directed {
			t.Errorf("directed %v: info says %q; want %q exactly when undirected", directed, stdout, text)
		}
		if directed && !strings.Contains(stdout, "1 self-loop and 4 duplicates dropped\n") {
			t.Errorf("directed: info says %q", stdout)
		}
	}
	code, _, stderr := runCLI(t, "", "ingest", "-o", filepath.Join(dir, "s.ooc"), in)
	if code != exitOK || !strings.Contains(stderr, "11 input edges, "+text) {
		t.Errorf("ingest summary %q (code %d) lacks %q", stderr, code, text)
	}
}

// TestCountsInWords: counts of one read in the singular in the summaries ("1 worker", not
// "1 workers"): ingest's last line and -v's budget, bench's parameters, gen's line.
func TestCountsInWords(t *testing.T) {
	dir := t.TempDir()
	edges := writeFile(t, dir, "e.txt", "0 1\n1 2\n")
	g := filepath.Join(dir, "g.ooc")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"ingest", "--workers", "1", "-o", g, edges}, ", 1 worker)\n"},
		{[]string{"ingest", "-v", "--force", "--workers", "1", "-o", g, edges}, "phase 1 buffers "},
		{[]string{"bench", "--workers", "1", "--sources", "1", g}, "1 worker on "},
		{[]string{"gen", "kron", "--scale", "0", "--edgefactor", "1", "-o", filepath.Join(dir, "k0.ooc")}, ": 1 generated edge into "},
	} {
		code, stdout, stderr := runCLI(t, "", c.args...)
		if code != exitOK || !strings.Contains(stdout+stderr, c.want) || strings.Contains(stdout+stderr, " 1 workers") ||
			strings.Contains(stdout+stderr, " 1 generated edges") {
			t.Errorf("%v: exit %d, want %q and no plural after 1:\n%s%s", c.args, code, c.want, stdout, stderr)
		}
	}
}

// TestInputReadFailure: a read of the input that fails (the machine's fault: exit 1)
// names the input once ("read /proc/self/mem: read /proc/self/mem: input/output
// error"), and nothing is written.
func TestInputReadFailure(t *testing.T) {
	const mem = "/proc/self/mem" // reading offset 0 of one's own memory: EIO
	if _, err := os.Stat(mem); err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	for _, f := range [][]string{nil, {"--format", "snap"}, {"--weights"}} {
		args := append(append([]string{"ingest", "-q"}, f...), "-o", filepath.Join(dir, "g.ooc"), mem)
		code, _, stderr := runCLI(t, "", args...)
		if code != exitFailure || strings.Count(stderr, mem) != 1 || !strings.Contains(stderr, "input/output error") {
			t.Errorf("%v: exit %d, %q; want exit 1 naming %s once", args, code, stderr, mem)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}
