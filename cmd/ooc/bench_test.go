package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oocgraph/ooc"
	"github.com/oocgraph/ooc/store"
)

// brokenEngine wraps the cpu engine and moves one reached vertex a level deeper, so the
// validation has something to catch.
type brokenEngine struct{ ooc.Engine }

func (b brokenEngine) BFS(src uint32) (*ooc.BFSResult, error) {
	r, err := b.Engine.BFS(src)
	if err != nil {
		return nil, err
	}
	for v, l := range r.Level {
		if l != ooc.Unreached && uint32(v) != src {
			r.Level[v]++
			break
		}
	}
	return r, nil
}

func init() {
	ooc.Register("broken-for-test", func(g *store.Graph, opt ooc.Options) (ooc.Engine, error) {
		e, err := ooc.Open(g, "cpu", opt)
		return brokenEngine{e}, err
	})
}

func benchJSON(t *testing.T, wantCode int, args ...string) (*benchReport, map[string]any) {
	t.Helper()
	code, out, stderr := runCLI(t, "", append([]string{"bench", "--json", "-q"}, args...)...)
	if code != wantCode {
		t.Fatalf("%q: code %d, want %d: %s", args, code, wantCode, stderr)
	}
	var r benchReport
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	return &r, m
}

func TestBenchKron(t *testing.T) {
	r, m := benchJSON(t, exitOK, "kron", "--scale", "8", "--seed", "5", "--backend", "cpu")
	// The fields a script on the GPU machine reads, by their JSON names.
	for _, k := range []string{"graph", "vertices", "edges", "bits_per_edge", "ingest", "backend", "bfs", "cc", "valid", "peak_rss", "params", "generator", "host"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	if r.Graph != "kron-s8-e16-seed5" || r.Vertices != 256 || r.Edges == 0 || r.BitsPerEdge <= 0 || r.Backend != "cpu" {
		t.Errorf("report %+v", r)
	}
	if r.Generator == nil || r.Generator.Edges != 16<<8 || r.Ingest == nil || r.Ingest.Seconds <= 0 || r.Ingest.EdgesPerSecond <= 0 {
		t.Errorf("generator %+v, ingest %+v", r.Generator, r.Ingest)
	}
	if r.InputEdges != 16<<8 || r.PeakRSS <= 0 || r.Dir != "" {
		t.Errorf("input edges %d, peak RSS %d, dir %q", r.InputEdges, r.PeakRSS, r.Dir)
	}
	if !r.Valid || len(r.Errors) > 0 || len(r.BFS.Runs) != 16 || r.CC == nil || r.CC.Valid == nil || !*r.CC.Valid {
		t.Fatalf("valid %v, errors %v, %d runs, cc %+v", r.Valid, r.Errors, len(r.BFS.Runs), r.CC)
	}
	seen := map[uint64]bool{}
	for _, run := range r.BFS.Runs {
		if run.Valid == nil || !*run.Valid || run.Reached < 2 || run.EdgesTraversed == 0 || seen[run.Source] {
			t.Errorf("run %+v (valid %v)", run.bfsRun, run.Valid)
		}
		seen[run.Source] = true
	}
	b := r.BFS
	if b.MedianSeconds < b.MinSeconds || b.MedianSeconds > b.MaxSeconds || b.MedianGTEPS <= 0 || b.HMeanGTEPS <= 0 {
		t.Errorf("bfs summary %+v", b)
	}
	// The graph is the one 'ooc gen' writes, and the sources those of 'ooc bfs'.
	r2, _ := benchJSON(t, exitOK, "kron", "--scale", "8", "--seed", "5", "--no-cc", "--sources", "3")
	for i := range r2.BFS.Runs {
		if a, b := r2.BFS.Runs[i], r.BFS.Runs[i]; a.Source != b.Source || a.Reached != b.Reached || a.EdgesTraversed != b.EdgesTraversed {
			t.Errorf("run %d differs between identical benches: %+v, %+v", i, a.bfsRun, b.bfsRun)
		}
	}
	if r2.CC != nil || r2.Edges != r.Edges {
		t.Errorf("--no-cc: cc %+v; edges %d vs %d", r2.CC, r2.Edges, r.Edges)
	}
}

func TestBenchGraphDirAndKeep(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "g.ooc")
	r, _ := benchJSON(t, exitOK, "grid", "--scale", "6", "--shortcuts", "0", "--keep", dir, "--sources", "2")
	if r.Dir != dir || r.CC.Components != 1 || r.BFS.Runs[0].Reached != 64 {
		t.Fatalf("kept %q, cc %+v, runs %+v", r.Dir, r.CC, r.BFS.Runs)
	}
	r2, m := benchJSON(t, exitOK, dir, "--sources", "2", "--validate=false")
	if m["generator"] != nil || m["ingest"] != nil || r2.Dir != dir || r2.Graph != "grid-s6-sc0-seed1" {
		t.Errorf("existing graph: generator %v, ingest %v, dir %q, graph %q", m["generator"], m["ingest"], r2.Dir, r2.Graph)
	}
	if r2.BFS.Runs[0].Valid != nil || r2.CC.Valid != nil || !r2.Valid {
		t.Errorf("--validate=false still validated: %+v", r2)
	}
	// A kept graph is not silently replaced.
	if code, _, stderr := runCLI(t, "", "bench", "grid", "--scale", "6", "--keep", dir, "-q"); code != exitUsage {
		t.Errorf("existing --keep: code %d, %s", code, stderr)
	}
}

func TestBenchCatchesInvalid(t *testing.T) {
	r, _ := benchJSON(t, exitFailure, "urand", "--scale", "7", "--backend", "broken-for-test", "--sources", "2")
	if r.Valid || len(r.Errors) != 2 || *r.BFS.Runs[0].Valid || !*r.CC.Valid {
		t.Fatalf("valid %v, errors %q", r.Valid, r.Errors)
	}
}

func TestBenchTable(t *testing.T) {
	code, out, stderr := runCLI(t, "", "bench", "kron", "--scale", "7", "--sources", "2", "--backend", "cpu", "-q")
	if code != exitOK || stderr != "" {
		t.Fatalf("code %d, stderr %q", code, stderr)
	}
	for _, row := range []string{"graph ", "vertices ", "bits per edge", "gen+ingest ", "backend ", "bfs ", "GTEPS", "cc ", "validation  passed (", "peak RSS "} {
		if !strings.Contains(out, row) {
			t.Errorf("table lacks %q:\n%s", row, out)
		}
	}
}

func TestBenchUsage(t *testing.T) {
	for _, args := range [][]string{
		{"bench"},
		{"bench", "kron"}, // no scale
		{"bench", "kron", "--scale", "4", "--sources", "0"},
		{"bench", "kron", "--scale", "4", "--backend", "tpu"},
		{"bench", filepath.Join(t.TempDir(), "none.ooc")},
		{"bench", "x.ooc", "--keep", "y.ooc"},
		{"bench", "krom", "--scale", "4"},
	} {
		if code, _, stderr := runCLI(t, "", args...); code != exitUsage {
			t.Errorf("%q: code %d, want %d (%s)", args, code, exitUsage, stderr)
		}
	}
	// a graph of no edges (kron scale 0: one vertex, its self-loop dropped) has no source;
	// the refusal names no flag bench does not have (--src)
	code, _, stderr := runCLI(t, "", "bench", "kron", "--scale", "0", "--sources", "1", "-q")
	if code != exitUsage || strings.Contains(stderr, "--src") || !strings.Contains(stderr, "no edges") {
		t.Errorf("bench of a graph without edges: code %d, %q", code, stderr)
	}
	// --workers is refused by the CLI's rule before a graph is generated: -1 reached the
	// ingest's option check, 5000 was refused only after the graph was written
	for _, w := range []string{"-1", "5000"} {
		keep := filepath.Join(t.TempDir(), "k.ooc")
		code, _, stderr := runCLI(t, "", "bench", "kron", "--scale", "4", "-q", "--workers", w, "--keep", keep)
		if code != exitUsage || !strings.Contains(stderr, "--workers "+w+": want 0 (all cores)") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("--workers %s: code %d, %q", w, code, stderr)
		}
		if _, err := os.Stat(keep); err == nil {
			t.Errorf("--workers %s: %s generated before the refusal", w, keep)
		}
	}
	// more sources than the generated graph has vertices (2^scale, known before it is
	// made) is refused before it is generated: the graph was written and kept, then
	// refused; --keep names a directory, so - or an empty name is refused rather than
	// made a graph named "-" or taken as no --keep
	dir := t.TempDir()
	keep := filepath.Join(dir, "k3.ooc")
	code, _, stderr = runCLI(t, "", "bench", "kron", "--scale", "3", "-q", "--keep", keep)
	if code != exitUsage || !strings.Contains(stderr, "--sources 16: kron --scale 3 makes 8 vertices") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("16 sources of 8 vertices: code %d, %q", code, stderr)
	}
	if _, err := os.Stat(keep); err == nil {
		t.Errorf("%s generated before the refusal of --sources", keep)
	}
	t.Chdir(dir)
	for _, k := range []string{"-", ""} {
		code, _, stderr := runCLI(t, "", "bench", "kron", "--scale", "3", "--sources", "2", "-q", "--keep", k)
		if code != exitUsage || !strings.Contains(stderr, fmt.Sprintf("--keep %q: want a directory", k)) {
			t.Errorf("--keep %q: code %d, %q", k, code, stderr)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left in the working directory: %v", ents)
	}
}

// TestBenchGraphGenFlags: bench of a graph directory refuses every flag that shapes a
// generated graph, naming it and the directory, as it refuses --keep: such a flag would
// change nothing, and `bench g.ooc --order degree` reported g.ooc's own order as if it
// were degree order. The flags both kinds of bench use are taken.
func TestBenchGraphGenFlags(t *testing.T) {
	g := bfsGraph(t)
	for _, f := range [][]string{{"--scale", "5"}, {"--edgefactor", "4"}, {"--seed", "3"}, {"--shortcuts", "2"},
		{"--directed"}, {"--order", "degree"}, {"--shard-size", "4KiB"}, {"--mem", "1GiB"}, {"--force"},
		{"--keep", "k.ooc"}} {
		args := append([]string{"bench", "--sources", "1", g}, f...)
		code, stdout, stderr := runCLI(t, "", args...)
		want := f[0] + " applies to generated graphs, and " + g + " is a graph directory"
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", args, code, stdout, stderr, want)
		}
	}
	for _, f := range [][]string{{"-q"}, {"--json"}, {"--workers", "1"}, {"--source-seed", "2"}, {"--validate=false"}, {"--no-cc"}, {"-v"}} {
		args := append([]string{"bench", "--sources", "1", g}, f...)
		if code, _, stderr := runCLI(t, "", args...); code != exitOK {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}
}

// TestBenchTempDirMissing: a $TMPDIR bench cannot make its temporary graph in is named
// as $TMPDIR with the way around it, in one line ("stat /nonexist: no such file or
// directory" did not say what the path was).
func TestBenchTempDirMissing(t *testing.T) {
	for _, tmp := range []string{filepath.Join(t.TempDir(), "none"), os.DevNull} {
		t.Setenv("TMPDIR", tmp)
		code, stdout, stderr := runCLI(t, "", "bench", "kron", "--scale", "3", "--sources", "1", "-q")
		want := "ooc bench: cannot make a temporary graph directory in " + tmp + " ($TMPDIR; or give --keep DIR): "
		if code != exitFailure || stdout != "" || !strings.HasPrefix(stderr, want) || strings.Count(stderr, tmp) != 1 || strings.Count(stderr, "\n") != 1 {
			t.Errorf("TMPDIR=%s: exit %d, stderr %q; want exit 1 and %q", tmp, code, stderr, want)
		}
	}
}

// TestBenchBackendBeforeGenerating: a --backend that no engine of this build opens is
// refused before the graph is generated (bench kron --scale 16 --backend tpu wrote 2 MiB
// of graph and then refused the name; at scale 30, an hour).
func TestBenchBackendBeforeGenerating(t *testing.T) {
	backends := []string{"tpu", "CPU"}
	if !slices.Contains(ooc.Backends(), "gpu") {
		backends = append(backends, "gpu")
	}
	for _, b := range backends {
		keep := filepath.Join(t.TempDir(), "k.ooc")
		code, stdout, stderr := runCLI(t, "", "bench", "kron", "--scale", "4", "-q", "--backend", b, "--keep", keep)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, "backend") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("--backend %s: exit %d, %q; want exit 2 and one line", b, code, stderr)
		}
		if _, err := os.Stat(keep); err == nil {
			t.Errorf("--backend %s: %s generated before the refusal", b, keep)
		}
	}
}
