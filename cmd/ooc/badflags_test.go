package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestBadCommandLines runs every command with flag values and paths a user may mistype:
// negative, huge and non-numeric numbers, sources past the graph, a missing file, a file
// where a graph directory belongs and a directory where a file belongs, outputs that
// cannot be written. Each must exit non-zero with one line on stderr that names the flag
// or path (want) and says what was expected (expect), print no panic, and leave nothing
// in the work directory. (Malformed inputs of every format: tests/robust's TestBadInput.)
func TestBadCommandLines(t *testing.T) {
	dir := t.TempDir()
	g, gw := filepath.Join(dir, "g.ooc"), filepath.Join(dir, "gw.ooc")
	for _, args := range [][]string{
		{"gen", "kron", "--scale", "6", "-q", "-o", g},
		{"gen", "kron", "--scale", "6", "-q", "--weights", "uniform:1:9", "-o", gw},
	} {
		if code, _, stderr := runCLI(t, "", args...); code != exitOK {
			t.Fatalf("%v: code %d, %s", args, code, stderr)
		}
	}
	edges := writeFile(t, dir, "e.txt", "0 1\n1 2\n")
	notGraph := writeFile(t, dir, "plain.ooc", "not a graph\n")
	out := filepath.Join(dir, "out.bin")
	missing := filepath.Join(dir, "missing.ooc")
	newGraph := filepath.Join(dir, "new.ooc")

	type badLine struct {
		args   []string
		want   string // the flag or path the message names
		expect string // what the message says was expected
	}
	cases := []badLine{
		// sources
		{[]string{"bfs", "--src", "-1", g}, "--src", "want a vertex id"},
		{[]string{"bfs", "--src", "64", g}, "--src 64", "not in the graph"},
		{[]string{"bfs", "--src", "18446744073709551616", g}, "--src", "want a vertex id"},
		{[]string{"bfs", "--src", "x", g}, "--src", "want a vertex id"},
		{[]string{"sssp", "--src", "-1", gw}, "--src", "want a vertex id"},
		{[]string{"sssp", "--src", "1000", gw}, "--src 1000", "not in the graph"},
		{[]string{"bfs", "--sources", "0", g}, "--sources 0", "want at least 1"},
		{[]string{"bfs", "--sources", "-2", g}, "--sources -2", "want at least 1"},
		{[]string{"bfs", "--sources", "1000", g}, "--sources 1000", "the graph has 64 vertices"},
		{[]string{"bench", g, "--sources", "0", "-q"}, "--sources 0", "want at least 1"},
		{[]string{"bfs", "--src", "1", "--src", "2", g}, "-src", "given twice"},
		{[]string{"sssp", "--src", "1", gw, "--src", "1"}, "-src", "given twice"},
		{[]string{"bfs", "-v", g, "-v"}, "flag v", "given twice"},
		{[]string{"ingest", "--workers", "1", "--workers", "2", "-o", newGraph, edges}, "-workers", "given twice"},
		// workers and memory
		{[]string{"bfs", "--workers", "-1", g}, "--workers -1", "want 0 (all cores) to"},
		{[]string{"cc", "--workers", "100000", g}, "--workers 100000", "want 0 (all cores) to"},
		{[]string{"pagerank", "--workers", "-3", g}, "--workers -3", "want 0 (all cores) to"},
		{[]string{"kcore", "--workers", "x", g}, "-workers", "want a whole number in decimal digits"},
		{[]string{"sssp", "--workers", "-1", gw}, "--workers -1", "want 0 (all cores) to"},
		{[]string{"bfs", "--vram", "-1", g}, "-vram", "want a number of bytes"},
		{[]string{"cc", "--vram", "lots", g}, "-vram", "want a number of bytes"},
		{[]string{"bfs", "--backend", "tpu", g}, "tpu", "expected auto, cpu or gpu"},
		{[]string{"ingest", "--mem", "1", "-o", newGraph, edges}, "memory budget of 1 B", "allow at least"},
		{[]string{"ingest", "--shard-size", "1", "-o", newGraph, edges}, "--shard-size 1 B", "want 4 KiB to 4 GiB less one byte"},
		{[]string{"ingest", "--shard-size", "4GiB", "-o", newGraph, edges}, "--shard-size 4.0 GiB", "want 4 KiB to 4 GiB less one byte"},
		{[]string{"ingest", "--order", "random", "-o", newGraph, edges}, "--order", "want auto, degree"},
		// enumerated values are lower case, every flag's alike
		{[]string{"ingest", "--order", "DEGREE", "-o", newGraph, edges}, "--order", "want auto, degree"},
		{[]string{"ingest", "--format", "SNAP", "-o", newGraph, edges}, `"SNAP"`, "want snap, mtx"},
		{[]string{"ingest", "--backend", "CPU", "-o", newGraph, edges}, "CPU", "cpu"},
		{[]string{"gen", "kron", "--scale", "6", "--format", "TEXT", "-o", newGraph + ".txt"}, `"TEXT"`, "want text, bin32 or bin64"},
		{[]string{"gen", "kron", "--scale", "6", "--mem", "1", "-q", "-o", newGraph}, "memory budget of 1 B", "allow at least"},
		// algorithm parameters
		{[]string{"pagerank", "--top", "-1", g}, "--top -1", "want 0 or more"},
		{[]string{"pagerank", "--max-iters", "0", g}, "--max-iters 0", "want at least 1"},
		{[]string{"pagerank", "--tolerance", "-1", g}, "--tolerance -1", "want a positive number"},
		{[]string{"pagerank", "--tolerance", "NaN", g}, "--tolerance NaN", "want a positive number"},
		{[]string{"sssp", "--delta", "-1", gw}, "--delta -1", "want a non-negative bin width"},
		{[]string{"sssp", "--delta", "0.5", gw}, "--delta 0.5", "want a whole number"},
		{[]string{"sssp", "--delta", "1e30", gw}, "--delta", "want a whole number"},
		{[]string{"sssp", g}, "no edge weights", "--unit-weights"},
		// gen's sizes
		{[]string{"gen", "kron", "--scale", "-1", "-o", newGraph}, "scale -1", "want 0 to 31"},
		{[]string{"gen", "kron", "--scale", "64", "-o", newGraph}, "scale 64", "want 0 to 31"},
		{[]string{"gen", "urand", "--scale", "99999999999999999999", "-o", newGraph}, "-scale", "value out of range"},
		{[]string{"gen", "kron", "--scale", "31", "--edgefactor", "1000000", "-o", newGraph}, "edgefactor 1000000", "more than 2^48 edges"},
		{[]string{"gen", "kron", "--scale", "6", "--edgefactor", "0", "-o", newGraph}, "edgefactor 0", "want at least 1"},
		{[]string{"gen", "grid", "--scale", "31", "--shortcuts", "999999999999999", "-o", newGraph}, "shortcuts",
			"more than 2^48 edges|value out of range"}, // the flag is an int: 32 bits on 386
		{[]string{"gen", "grid", "--scale", "3", "--shortcuts", "1000000", "-o", newGraph}, "1000000 shortcuts on 8 vertices",
			"want at most 64"},
		{[]string{"gen", "kron", "--scale", "6", "--weights", "uniform:9:1", "-o", newGraph}, "--weights", "want uniform:LO:HI"},
		{[]string{"gen", "kron", "--scale", "6", "--seed", "-1", "-o", newGraph}, "-seed", "want a whole number of 0 or more in decimal digits"},
		// integers are decimal, as --src and the sizes are: Go's prefixes made --scale
		// 010 scale 8 and --sources 0x10 16
		{[]string{"gen", "kron", "--scale", "0x6", "-o", newGraph}, "-scale", "want a whole number in decimal digits"},
		{[]string{"bfs", "--sources", "0b11", g}, "-sources", "want a whole number in decimal digits"},
		{[]string{"pagerank", "--top", "1_0", g}, "-top", "want a whole number in decimal digits"},
		{[]string{"bench", "--source-seed", "0o7", g}, "-source-seed", "want a whole number of 0 or more in decimal digits"},
		{[]string{"gen", "cube", "--scale", "6", "-o", newGraph}, "cube", "want kron, urand or grid"},
		{[]string{"gen", "grid", "--scale", "6", "--edgefactor", "0", "-o", newGraph}, "--edgefactor", "applies to kron and urand"},
		{[]string{"gen", "kron", "--scale", "6", "--shortcuts", "3", "-o", newGraph}, "--shortcuts", "applies to grid, not to kron"},
		{[]string{"gen", "grid", "--scale", "6", "--shortcuts", "-5", "-o", newGraph}, "--shortcuts -5", "want 0 or more, or -1"},
		{[]string{"bench", "grid", "--scale", "6", "--edgefactor", "4", "-q"}, "--edgefactor", "applies to kron and urand"},
		{[]string{"bench", "kron", "--scale", "40", "-q"}, "scale 40", "want 0 to 31"},
		// paths
		{[]string{"bfs", missing}, "missing.ooc", "no such graph directory"},
		{[]string{"cc", notGraph}, "plain.ooc", "not a graph directory"},
		{[]string{"info", dir}, dir, "no manifest.json"},
		{[]string{"verify", edges}, "e.txt", "not a graph directory"},
		{[]string{"upgrade", missing}, "missing.ooc", "no such graph directory"},
		{[]string{"export", "-o", filepath.Join(dir, "x.txt"), missing}, "missing.ooc", "no such graph directory"},
		{[]string{"ingest", "-o", newGraph, filepath.Join(dir, "nope.txt")}, "nope.txt", "cannot read the input"},
		{[]string{"ingest", "-o", g, edges}, "g.ooc", "use --force"},
		{[]string{"ingest", "-o", "", edges}, "-o", "an empty name; give a graph directory"},
		{[]string{"cc", "-o", "", g}, "-o", "an empty name"},
		{[]string{"export", "-o", "", g}, "-o", "an empty name"},
		{[]string{"bfs", "-o", "", g}, "-o", "an empty name"},
		// an enumerated flag given empty, as --order "" is refused: each took it for its default
		{[]string{"bfs", "--backend", "", g}, "--backend", "an empty value"},
		{[]string{"bench", "--backend=", g}, "--backend", "an empty value"},
		{[]string{"ingest", "--backend", "", "-o", newGraph, edges}, "--backend", "an empty value"},
		{[]string{"ingest", "--format", "", "-o", newGraph, edges}, "--format", "an empty value"},
		{[]string{"ingest", "--columns", "", "-o", newGraph, edges}, "--columns", "an empty value"},
		{[]string{"ingest", "-o", filepath.Join(g, "in.ooc"), edges}, "in.ooc", "nothing is written inside a graph directory"},
		{[]string{"ingest", "-o", filepath.Join(dir, "no", "dir.ooc"), edges}, "dir.ooc", "directory does not exist"},
		{[]string{"bfs", "-o", dir, g}, "-o " + dir, "is a directory"},
		{[]string{"cc", "-o", filepath.Join(g, "labels.bin"), g}, "labels.bin", "nothing is written inside a graph directory"},
		{[]string{"pagerank", "-o", filepath.Join(dir, "no", "pr.bin"), g}, "pr.bin", "directory does not exist"},
		{[]string{"kcore", "-o", edges, g}, "e.txt", "use --force"},
		{[]string{"gen", "kron", "--scale", "6", "-o", g}, "g.ooc", "use --force"},
		{[]string{"export", "-o", filepath.Join(dir, "x.csvx"), g}, "x.csvx", "the extension picks the format"},
		{[]string{"bench", missing, "-q"}, "missing.ooc", "no such graph directory"},
		// an empty name ("store: : no such graph directory" and ": cannot read the input")
		{[]string{"info", ""}, "an empty graph name", "name a graph directory"},
		{[]string{"verify", ""}, "an empty graph name", "name a graph directory"},
		{[]string{"bfs", "--src", "1", ""}, "an empty graph name", "name a graph directory"},
		{[]string{"sssp", "--src", "1", ""}, "an empty graph name", "name a graph directory"},
		{[]string{"upgrade", ""}, "an empty graph name", "name a graph directory"},
		{[]string{"export", "-o", "-", ""}, "an empty graph name", "name a graph directory"},
		{[]string{"ingest", "-o", newGraph, ""}, "an empty input name", "give an edge list file"},
	}
	// the /dev/full cases need the device (Linux)
	if st, err := os.Stat("/dev/full"); err == nil && st.Mode()&os.ModeDevice != 0 {
		cases = append(cases, badLine{[]string{"gen", "kron", "--scale", "10", "-q", "-o", "/dev/full"}, "/dev/full", "no space left"},
			badLine{[]string{"bfs", "--text", "-o", "/dev/full", g}, "/dev/full", "no space left"})
	}
	before := listDir(t, dir)
	for _, c := range cases {
		name := strings.Join(c.args, " ")
		code, stdout, stderr := runGuardedCLI(t, c.args...)
		switch {
		case code == exitOK:
			t.Errorf("%s: exit 0, stdout %q", name, stdout)
		case strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine "):
			t.Errorf("%s: a panic: %s", name, stderr)
		case strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n"):
			t.Errorf("%s: stderr %q, want one line", name, stderr)
		case !strings.Contains(stderr, c.want) || !slices.ContainsFunc(strings.Split(c.expect, "|"), func(x string) bool { return strings.Contains(stderr, x) }):
			t.Errorf("%s: stderr %q, want it to name %q and say %q", name, stderr, c.want, c.expect)
		}
		if after := listDir(t, dir); !slices.Equal(after, before) {
			t.Errorf("%s: the work directory changed: %v, was %v", name, after, before)
			before = after
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: %s written", name, out)
		}
	}
}

// runGuardedCLI is runCLI with a panic reported as exit 99 and its value on stderr.
func runGuardedCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			code, stderr = 99, fmt.Sprintf("panic: %v\n", r)
		}
	}()
	return runCLI(t, "", args...)
}

// listDir is every name under dir (hidden ones too), sorted.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		names = append(names, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}
