//go:build !cuda

package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/internal/testgraph"
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

// TestSourcesBeforeEngine: bfs and sssp refuse a source (or sssp a bin width) that the
// graph cannot take before they open an engine, which on the GPU places the graph first:
// with --backend gpu in a build without CUDA the refusal names the source, not the build.
func TestSourcesBeforeEngine(t *testing.T) {
	g := testgraph.Dir(t, 3, []testgraph.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, false)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bfs", "--src", "99", "--backend", "gpu", g}, "99"},
		{[]string{"bfs", "--sources", "9", "--backend", "gpu", g}, "--sources 9"},
		{[]string{"sssp", "--unit-weights", "--src", "99", "--backend", "gpu", g}, "99"},
		{[]string{"sssp", "--unit-weights", "--delta", "0.5", "--backend", "gpu", g}, "--delta 0.5"},
	} {
		code, _, stderr := runCLI(t, "", c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "without") {
			t.Errorf("%v: exit %d, %q; want exit %d naming %q", c.args, code, stderr, exitUsage, c.want)
		}
	}
}
