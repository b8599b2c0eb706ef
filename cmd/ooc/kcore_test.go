package main

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/internal/testgraph"
)

// kcoreGraph writes a triangle 0-1-2 with a pendant vertex 3 on 0 and an isolated
// vertex 4: core numbers 2, 2, 2, 1, 0.
func kcoreGraph(t *testing.T) string {
	return testgraph.Dir(t, 5, []testgraph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 0}, {U: 0, V: 3}}, false)
}

func TestKCoreCommand(t *testing.T) {
	dir := kcoreGraph(t)
	code, stdout, stderr := runCLI(t, "", "kcore", "--validate", "--backend", "cpu", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"max core 2 (3 vertices)", "3 levels", "backend cpu", "validated"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary %q lacks %q", stdout, want)
		}
	}
	code, stdout, stderr = runCLI(t, "", "kcore", "--text", "-v", "--backend", "cpu", dir)
	if code != exitOK || stdout != "0 2\n1 2\n2 2\n3 1\n4 0\n" {
		t.Fatalf("text: exit %d, %q (%s)", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "plan: cpu") || !strings.Contains(stderr, "edges read") {
		t.Errorf("-v: %q", stderr)
	}
}

func TestKCoreJSONAndFile(t *testing.T) {
	dir := kcoreGraph(t)
	out := filepath.Join(t.TempDir(), "core.bin")
	code, stdout, stderr := runCLI(t, "", "kcore", "--backend", "cpu", "--json", "--validate", "-o", out, dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got kcoreJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v: %q", err, stdout)
	}
	if got.MaxCore != 2 || got.MaxCoreVertices != 3 || got.Levels != 3 || !got.Validated || got.Backend != "cpu" {
		t.Fatalf("%+v", got)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 24+4*5 || string(b[:8]) != kcoreMagic || binary.LittleEndian.Uint64(b[8:]) != 5 {
		t.Fatalf("core file: %d bytes, header %q", len(b), b[:min(len(b), 24)])
	}
	for v, want := range []uint32{2, 2, 2, 1, 0} {
		if k := binary.LittleEndian.Uint32(b[24+4*v:]); k != want {
			t.Errorf("core of %d: %d, want %d", v, k, want)
		}
	}
}

func TestKCoreBadArgs(t *testing.T) {
	dir := kcoreGraph(t)
	wantUsage(t, []string{"kcore", dir}, [][]string{
		{"--backend", "tpu"},
		{"--workers", "-1"},
		{"--text", "--json"},
		{"--top", "3"},
	})
}
