package main

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/internal/testgraph"
)

// prGraph writes the directed graph 0 -> 1, 2 -> 1: vertices 0 and 2 keep (1-d)/3, and
// vertex 1 gets (1-d)/3 + d·2·(1-d)/3 once the first iteration has passed.
func prGraph(t *testing.T) string {
	return testgraph.Dir(t, 3, []testgraph.Edge{{U: 0, V: 1}, {U: 2, V: 1}}, true)
}

var prWant = []float32{float32(0.15 / 3), float32(0.05 + 0.85*2*0.05), float32(0.15 / 3)}

func TestPageRankCommand(t *testing.T) {
	dir := prGraph(t)
	code, stdout, stderr := runCLI(t, "", "pagerank", "--backend", "cpu", "--text", "--top", "2", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if want := "0 0.05\n1 0.135\n2 0.05\n"; stdout != want {
		t.Fatalf("text %q, want %q", stdout, want)
	}
	for _, want := range []string{"3 iterations", "(converged)", "backend cpu", "     1              1          0.135", "     2              0           0.05"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("summary %q lacks %q", stderr, want)
		}
	}
}

func TestPageRankJSONValidate(t *testing.T) {
	dir := prGraph(t)
	code, stdout, stderr := runCLI(t, "", "pagerank", "--backend", "cpu", "--json", "--validate", "--top", "1", "--tolerance", "1e-6", "-v", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got pagerankJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v: %q", err, stdout)
	}
	if got.Iterations != 3 || !got.Converged || !got.Validated || got.L1FromRef == nil || *got.L1FromRef > 1e-6 ||
		len(got.Top) != 1 || got.Top[0].Vertex != 1 || got.Top[0].Score != prWant[1] || got.Backend != "cpu" || got.Tolerance != 1e-6 {
		t.Fatalf("%+v", got)
	}
	for _, want := range []string{"plan: cpu", "L1 change", "validated"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}
	if code, stdout, _ := runCLI(t, "", "pagerank", "--max-iters", "1", dir); code != exitOK || !strings.Contains(stdout, "not converged") {
		t.Fatalf("--max-iters 1: exit %d, %q", code, stdout)
	}
}

func TestPageRankOutputFile(t *testing.T) {
	dir := prGraph(t)
	setIDBase(t, dir, 1)
	out := filepath.Join(t.TempDir(), "pr.bin")
	if code, _, stderr := runCLI(t, "", "pagerank", "-o", out, dir); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 24+4*3 || string(b[:8]) != pagerankMagic || binary.LittleEndian.Uint64(b[8:]) != 3 || binary.LittleEndian.Uint32(b[16:]) != 1 {
		t.Fatalf("scores file: %d bytes, header %q", len(b), b[:min(len(b), 24)])
	}
	for v, want := range prWant {
		if s := math.Float32frombits(binary.LittleEndian.Uint32(b[24+4*v:])); s != want {
			t.Errorf("score of %d: %v, want %v", v, s, want)
		}
	}
	// the text names the file's own (1-based) ids
	if code, stdout, _ := runCLI(t, "", "pagerank", "--text", "--top", "0", dir); code != exitOK || stdout != "1 0.05\n2 0.135\n3 0.05\n" {
		t.Fatalf("text with id base 1: exit %d, %q", code, stdout)
	}
}

func TestPageRankBadArgs(t *testing.T) {
	dir := prGraph(t)
	wantUsage(t, []string{"pagerank", dir}, [][]string{
		{"--tolerance", "0"},
		{"--tolerance", "-1"},
		{"--tolerance", "NaN"},
		{"--max-iters", "0"},
		{"--top", "-1"},
		{"--backend", "tpu"},
		{"--workers", "-1"},
		{"--text", "--json"},
	})
}

// corruptGraph flips the first adjacency byte of the first out-shard of dir, so that
// the section checksum no longer matches.
func corruptGraph(t *testing.T, dir string) {
	t.Helper()
	path := filepath.Join(dir, "out-00000.shard")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[4096] ^= 0xff
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestPageRankKCoreCorruptGraph(t *testing.T) {
	dir := prGraph(t)
	corruptGraph(t, dir)
	for _, cmd := range []string{"pagerank", "kcore"} {
		if code, _, stderr := runCLI(t, "", cmd, dir); code != exitCorrupt {
			t.Errorf("%s on a corrupt graph: exit %d, %q", cmd, code, stderr)
		}
	}
}

func TestHelpPageRankKCore(t *testing.T) {
	for _, c := range []string{"pagerank", "kcore", "sssp"} {
		code, stdout, _ := runCLI(t, "", "help", c)
		if code != exitOK || !strings.Contains(stdout, "Examples:") || !strings.Contains(stdout, "-validate") {
			t.Errorf("help %s: exit %d\n%s", c, code, stdout)
		}
	}
}
