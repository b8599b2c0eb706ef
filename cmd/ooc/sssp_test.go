package main

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oocgraph/ooc"
)

// The graph of bfsGraph: the path 0-1-2-3, the edge 4-5 apart and the isolated vertex 6.

func TestSSSPCommand(t *testing.T) {
	dir := bfsGraph(t)
	code, stdout, stderr := runCLI(t, "", "sssp", "--backend", "cpu", "--unit-weights", "--src", "0", "--text", "-v", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if want := "0 0 0\n1 1 0\n2 2 1\n3 3 2\n4 - -\n5 - -\n6 - -\n"; stdout != want {
		t.Fatalf("text %q, want %q", stdout, want)
	}
	for _, want := range []string{"source 0", "reached 4 vertices", "largest distance 3", "delta 1", "backend cpu", "plan: cpu", "edges relaxed"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}
}

func TestSSSPJSONAndFile(t *testing.T) {
	dir := bfsGraph(t)
	out := filepath.Join(t.TempDir(), "dist.bin")
	code, stdout, stderr := runCLI(t, "", "sssp", "--backend", "cpu", "--unit-weights", "--src", "5", "--json", "--validate", "--delta", "3", "-o", out, dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got ssspJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v: %q", err, stdout)
	}
	if got.Source != 5 || got.Reached != 2 || got.MaxDistance != 1 || got.Delta != 3 || !got.Validated || !got.UnitWeights || got.Backend != "cpu" {
		t.Fatalf("%+v", got)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 32+8*7 || string(b[:8]) != ssspMagic || binary.LittleEndian.Uint64(b[8:]) != 7 || binary.LittleEndian.Uint64(b[16:]) != 5 {
		t.Fatalf("distance file: %d bytes, header %q", len(b), b[:min(len(b), 32)])
	}
	none := ^uint32(0)
	for v, want := range []uint32{none, none, none, none, 1, 0, none} {
		if d := binary.LittleEndian.Uint32(b[32+4*v:]); d != want {
			t.Errorf("distance of %d: %d, want %d", v, d, want)
		}
	}
	for v, want := range []uint32{none, none, none, none, 5, 5, none} {
		if p := binary.LittleEndian.Uint32(b[32+4*7+4*v:]); p != want {
			t.Errorf("parent of %d: %d, want %d", v, p, want)
		}
	}
}

func TestSSSPBadArgs(t *testing.T) {
	dir := bfsGraph(t)
	code, _, stderr := runCLI(t, "", "sssp", "--src", "0", dir)
	if code != exitUsage || !strings.Contains(stderr, "--unit-weights") || !strings.Contains(stderr, "ingest it with --weights") {
		t.Errorf("no weights: exit %d, %q; want exit 2 naming --weights and --unit-weights", code, stderr)
	}
	for _, args := range [][]string{
		{"--src", "6"}, // isolated
		{"--src", "7"}, // not a vertex
		{"--backend", "tpu"},
		{"--workers", "-1"},
		{"--delta", "-1"},
		{"--delta", "4294967296"},
		{"--text", "--json"},
	} {
		code, _, stderr := runCLI(t, "", append([]string{"sssp", "--unit-weights", dir}, args...)...)
		if code != exitUsage || !strings.HasPrefix(stderr, "ooc sssp: ") {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 with a message", args, code, stderr)
		}
	}
	if code, _, stderr := runCLI(t, "", "sssp", "--unit-weights", "--backend", "gpu", dir); code != exitUsage || !strings.Contains(stderr, "without CUDA") {
		if len(ooc.Backends()) < 2 { // a cuda build has a gpu backend
			t.Errorf("--backend gpu without CUDA: exit %d, %q", code, stderr)
		}
	}
	corruptGraph(t, dir)
	if code, _, stderr := runCLI(t, "", "sssp", "--unit-weights", "--src", "0", dir); code != exitCorrupt {
		t.Errorf("corrupt graph: exit %d, %q", code, stderr)
	}
}

// TestSSSPWeighted ingests a DIMACS file with --weights (a repeated arc: the lighter
// counts) and checks the distances sssp prints.
func TestSSSPWeighted(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "road.gr", "p sp 4 5\na 1 2 70\na 1 2 3\na 2 3 5\na 1 3 9\na 3 4 1\n")
	g := dir + "/road.ooc"
	if code, _, stderr := runCLI(t, "", "ingest", "-q", "--weights", "--directed", "-o", g, in); code != 0 {
		t.Fatalf("ingest: exit %d: %s", code, stderr)
	}
	if code, stdout, stderr := runCLI(t, "", "verify", g); code != 0 || !strings.Contains(stdout, "weighted") {
		t.Fatalf("verify: exit %d: %s%s", code, stdout, stderr)
	}
	code, stdout, stderr := runCLI(t, "", "sssp", "--src", "1", "--validate", "--text", g)
	if code != 0 {
		t.Fatalf("sssp: exit %d: %s", code, stderr)
	}
	if want := "1 0 1\n2 3 1\n3 8 2\n4 9 3\n"; stdout != want {
		t.Fatalf("sssp printed %q, want %q", stdout, want)
	}
}
