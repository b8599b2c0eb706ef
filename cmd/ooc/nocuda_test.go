//go:build !cuda

package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestGPUBackendNotBuilt: --backend gpu in a build without CUDA is a usage error (exit
// 2) for every command, naming the missing build; ingest and gen exited 1, as for a
// failure of the machine, where bfs and the engines exit 2.
func TestGPUBackendNotBuilt(t *testing.T) {
	dir := t.TempDir()
	edges := writeFile(t, dir, "e.txt", "0 1\n1 2\n")
	g := filepath.Join(dir, "g.ooc")
	if code, _, stderr := runCLI(t, "", "ingest", "-q", "-o", g, edges); code != exitOK {
		t.Fatalf("ingest: %d %s", code, stderr)
	}
	for _, args := range [][]string{
		{"ingest", "--backend", "gpu", "-o", filepath.Join(dir, "x.ooc"), edges},
		{"gen", "kron", "--scale", "5", "--backend", "gpu", "-o", filepath.Join(dir, "k.ooc")},
		{"gen", "kron", "--scale", "5", "--weights", "uniform:1:3", "--backend", "gpu", "-o", filepath.Join(dir, "k.ooc")},
		{"bfs", "--backend", "gpu", g},
		{"cc", "--backend", "gpu", g},
		{"kcore", "--backend", "gpu", g},
		{"pagerank", "--backend", "gpu", g},
		{"sssp", "--unit-weights", "--backend", "gpu", g},
	} {
		code, _, stderr := runCLI(t, "", args...)
		if code != exitUsage || !strings.Contains(stderr, "without") {
			t.Errorf("%v: exit %d, %q; want exit %d naming the build", args, code, stderr, exitUsage)
		}
	}
}
