//go:build !cuda

package main

import (
	"path/filepath"
	"slices"
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

// TestVRAMWithoutGPU: --vram budgets the GPU engine alone; a run of the CPU engine with it
// answers (a script may pass it to every build) and says on stderr, in one line, that it
// had no effect and why; bench's report says so too. Without --vram, or with --vram 0
// (the default), nothing is said.
func TestVRAMWithoutGPU(t *testing.T) {
	g := testgraph.Dir(t, 3, []testgraph.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, false)
	for _, args := range [][]string{
		{"bfs", "--src", "0"}, {"cc"}, {"kcore"}, {"pagerank"}, {"sssp", "--unit-weights", "--src", "0"},
		{"bench", "--sources", "1"},
	} {
		for _, backend := range []string{"auto", "cpu"} {
			why := map[string]string{"auto": "built without CUDA", "cpu": "--backend cpu runs the CPU engine"}[backend]
			line := append(slices.Clone(args), "--backend", backend, "--vram", "3GiB", g)
			code, stdout, stderr := runCLI(t, "", line...)
			want := "ooc " + args[0] + ": note: --vram 3.0 GiB has no effect: "
			if code != exitOK || !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, why) || strings.Count(stderr, "--vram") != 1 {
				t.Errorf("%v: exit %d, stderr %q; want exit 0 and one line %q naming %q", line, code, stderr, want, why)
			}
			if args[0] == "bench" && !strings.Contains(stdout, "vram 3.0 GiB (unused by the cpu engine)") {
				t.Errorf("%v: the report does not say --vram was unused:\n%s", line, stdout)
			}
			for _, v := range []string{"", "0"} {
				line := append(slices.Clone(args), "--backend", backend, g)
				if v != "" {
					line = append(slices.Clone(args), "--backend", backend, "--vram", v, g)
				}
				if code, _, stderr := runCLI(t, "", line...); code != exitOK || strings.Contains(stderr, "vram") {
					t.Errorf("%v: exit %d, stderr %q; want exit 0 and no note", line, code, stderr)
				}
			}
		}
	}
}
