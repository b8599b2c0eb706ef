package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/gen"
	"github.com/oocgraph/ooc/store"
)

func TestGenEdgeListStdout(t *testing.T) {
	code, out, stderr := runCLI(t, "", "gen", "kron", "--scale", "6", "--edgefactor", "4", "--seed", "3", "-o", "-", "-q")
	if code != exitOK {
		t.Fatalf("code %d: %s", code, stderr)
	}
	var want bytes.Buffer
	if _, err := gen.Write(&want, gen.Spec{Kind: "kron", Scale: 6, EdgeFactor: 4, Seed: 3}, gen.Text, 1); err != nil {
		t.Fatal(err)
	}
	if out != want.String() {
		t.Fatalf("stdout is not the generator's edge list")
	}
	if lines := strings.Count(out, "\n"); lines != 4<<6 {
		t.Fatalf("%d lines, want %d", lines, 4<<6)
	}
	if stderr != "" {
		t.Errorf("-q printed %q", stderr)
	}
}

func TestGenEdgeListFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "g.bin")
	code, out, stderr := runCLI(t, "", "gen", "urand", "--scale", "8", "--format", "bin32", "-o", path, "--json")
	if code != exitOK {
		t.Fatalf("code %d: %s", code, stderr)
	}
	var r genResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if r.Generated != 16<<8 || r.Bytes != 8*16<<8 || st.Size() != r.Bytes || r.Format != "bin32" || r.Vertices != 256 {
		t.Errorf("result %+v, file %d bytes", r, st.Size())
	}
	if !strings.Contains(stderr, "urand-s8-e16-seed1") {
		t.Errorf("summary %q", stderr)
	}
	// The output exists: refused without --force, replaced with it.
	if code, _, stderr := runCLI(t, "", "gen", "urand", "--scale", "8", "-o", path); code != exitUsage {
		t.Errorf("existing output: code %d, %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "", "gen", "urand", "--scale", "4", "-o", path, "--force", "-q"); code != exitOK {
		t.Errorf("--force: code %d, %s", code, stderr)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestGenEdgeListNames: an edge list named for a format is written in it or refused, so
// that ooc ingest, which reads .bin32 and .bin64 files by their extension, reads back
// the edges gen wrote. gen -o g.bin32 wrote text, which ingest read as binary pairs (a
// wrong graph, or with --relabel a graph of garbage ids, when the length was a multiple
// of 8), and -o g.mtx wrote text that ingest refused.
func TestGenEdgeListNames(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string // "" for success
	}{
		{[]string{"-o", "g.bin32"}, ""},
		{[]string{"-o", "g.bin64"}, ""},
		{[]string{"--format", "bin64", "-o", "h.bin32"}, "h.bin32: ooc ingest reads a .bin32 file as bin32"},
		{[]string{"--format", "text", "-o", "h.bin64"}, "h.bin64: ooc ingest reads a .bin64 file as bin64"},
		{[]string{"-o", "g.mtx"}, "g.mtx: ooc gen writes text, bin32 or bin64"},
		{[]string{"--format", "bin32", "-o", "g.gr"}, "g.gr: ooc gen writes text, bin32 or bin64"},
	} {
		args := append([]string{"gen", "kron", "--scale", "6", "-q"}, c.args...)
		args[len(args)-1] = filepath.Join(dir, args[len(args)-1])
		code, _, stderr := runCLI(t, "", args...)
		if c.want != "" {
			if code != exitUsage || !strings.Contains(stderr, c.want) {
				t.Errorf("%v: exit %d, %q; want exit %d and %q", c.args, code, stderr, exitUsage, c.want)
			}
			continue
		}
		if code != exitOK {
			t.Fatalf("%v: exit %d, %s", c.args, code, stderr)
		}
		g := args[len(args)-1] + ".ooc"
		if code, _, stderr := runCLI(t, "", "ingest", "-q", "-o", g, args[len(args)-1]); code != exitOK {
			t.Errorf("ingest of %s: %s", c.args[1], stderr)
		} else if m, err := store.ReadManifest(g); err != nil || m.InputEdges != 16<<6 || m.Vertices != 64 {
			t.Errorf("ingest of %s: %+v, %v; want 1024 input edges on 64 vertices", c.args[1], m, err)
		}
	}
}

func TestGenUsage(t *testing.T) {
	for _, args := range [][]string{
		{"gen"},
		{"gen", "kron", "-o", "-"},                  // no scale
		{"gen", "kron", "--scale", "4"},             // no -o
		{"gen", "rmat", "--scale", "4", "-o", "-"},  // unknown kind
		{"gen", "kron", "--scale", "40", "-o", "-"}, // scale too large
		{"gen", "kron", "--scale", "4", "--edgefactor", "0", "-o", "-"},
		{"gen", "kron", "--scale", "4", "--format", "csv", "-o", "-"},
		{"gen", "kron", "--scale", "4", "-o", "-", "--json"},
		{"gen", "kron", "urand", "--scale", "4", "-o", "-"},
		{"gen", "kron", "--scale", "4", "--mem", "lots", "-o", "x.ooc"},
		{"gen", "kron", "--scale", "4", "--directed", "-o", "-"},
		{"gen", "kron", "--scale", "4", "--format", "bin32", "-o", "x.ooc"},
	} {
		if code, _, stderr := runCLI(t, "", args...); code != exitUsage {
			t.Errorf("%q: code %d, want %d (%s)", args, code, exitUsage, stderr)
		}
	}
}

// TestHelpGen: the help states the limits gen refuses past: a grid's shortcuts at most
// (2^S)^2 (gen.Validate's ordered pairs of its vertices), in the grid's text and in the
// flag's.
func TestHelpGen(t *testing.T) {
	code, stdout, _ := runCLI(t, "", "help", "gen")
	if code != exitOK || strings.Count(stdout, "(2^S)^2") != 2 {
		t.Errorf("help gen: exit %d, want the shortcut bound (2^S)^2 stated for grid and for --shortcuts:\n%s", code, stdout)
	}
}

func TestGenGraph(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "k.ooc")
	code, out, stderr := runCLI(t, "", "gen", "kron", "--scale", "9", "--seed", "2", "-o", dest, "--json", "-q")
	if code != exitOK {
		t.Fatalf("code %d: %s", code, stderr)
	}
	var r genResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	g, err := store.Open(dest)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if g.NumVertices() != 512 || g.NumEdges() != r.Edges || g.Directed() {
		t.Fatalf("graph %d vertices %d edges, result %+v", g.NumVertices(), g.NumEdges(), r)
	}
	// Every generated edge not a self-loop is stored, both ways.
	loops := r.SelfLoopsDropped
	pairs := uint64(0)
	if r.ReciprocalPairs != nil {
		pairs = *r.ReciprocalPairs
	}
	if r.Generated != loops+r.DuplicatesDropped+pairs+r.Edges/2 || r.BitsPerEdge <= 0 || r.ReciprocalPairs == nil {
		t.Errorf("generated %d = %d loops + %d duplicates + %d reciprocal pairs + %d/2 stored?", r.Generated, loops, r.DuplicatesDropped, pairs, r.Edges)
	}
	if err := g.Check(); err != nil {
		t.Fatal(err)
	}
}

// TestGenGraphSlash: -o NAME.ooc/ (a directory's name as a shell completes it) is a
// graph, as ingest -o takes it, not an edge list file inside a directory NAME.ooc.
func TestGenGraphSlash(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "k.ooc")
	if code, _, stderr := runCLI(t, "", "gen", "kron", "--scale", "4", "-q", "-o", dest+"/"); code != exitOK {
		t.Fatalf("gen -o %s/: exit %d: %s", dest, code, stderr)
	}
	g, err := store.Open(dest)
	if err != nil {
		t.Fatal(err)
	}
	g.Close()
	if code, _, stderr := runCLI(t, "", "gen", "kron", "--scale", "4", "-q", "-o", dest+"/"); code != exitUsage || !strings.Contains(stderr, "exists") {
		t.Errorf("gen -o %s/ again: exit %d: %s; want exit %d, the graph exists", dest, code, stderr, exitUsage)
	}
}

// TestGenGraphDeterministic: the graph written straight through ingest does not depend
// on the thread count, and a directed graph keeps every non-loop edge once.
func TestGenGraphDeterministic(t *testing.T) {
	dir := t.TempDir()
	var files [][]byte
	for _, w := range []string{"1", "3"} {
		dest := filepath.Join(dir, "u"+w+".ooc")
		if code, _, stderr := runCLI(t, "", "gen", "urand", "--scale", "8", "--directed", "--workers", w, "-o", dest, "-q"); code != exitOK {
			t.Fatalf("code %d: %s", code, stderr)
		}
		m, err := store.ReadManifest(dest)
		if err != nil {
			t.Fatal(err)
		}
		if !m.Directed || m.Edges+m.SelfLoopsDropped+m.DuplicatesDropped != 16<<8 {
			t.Fatalf("manifest %+v", m)
		}
		b, err := os.ReadFile(filepath.Join(dest, m.Out[0].File))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, b)
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Error("the out shard differs between 1 and 3 workers")
	}
}

// TestShardSizeBounds: --shard-size below 4 KiB or above 4 GiB is a usage error, before
// any file is written (issue 21: --shard-size 1 wrote 111,655 shards).
func TestShardSizeBounds(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "e.txt")
	os.WriteFile(in, []byte("0 1\n1 2\n"), 0o644)
	for _, size := range []string{"1", "4095", "5GiB"} {
		for _, args := range [][]string{
			{"gen", "kron", "--scale", "6", "--shard-size", size, "-o", filepath.Join(dir, "k.ooc")},
			{"ingest", "--shard-size", size, "-o", filepath.Join(dir, "i.ooc"), in},
		} {
			if code, _, stderr := runCLI(t, "", args...); code != exitUsage || !strings.Contains(stderr, "shard-size") {
				t.Errorf("%v: exit %d, %q", args, code, stderr)
			}
		}
	}
	if names, _ := os.ReadDir(dir); len(names) != 1 {
		t.Errorf("left %d entries, want only the input", len(names))
	}
}

// TestGenWeightedGraph: gen --weights writes a weighted graph whose every stored weight
// is that of one of the generated copies of its edge (the lightest), in the range.
func TestGenWeightedGraph(t *testing.T) {
	for _, directed := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "w.ooc")
		args := []string{"gen", "urand", "--scale", "7", "--edgefactor", "4", "--seed", "5", "--weights", "uniform:3:40", "-q", "-o", dir}
		if directed {
			args = append(args, "--directed")
		}
		if code, _, stderr := runCLI(t, "", args...); code != exitOK {
			t.Fatalf("code %d: %s", code, stderr)
		}
		if _, err := store.Verify(dir); err != nil {
			t.Fatal(err)
		}
		g, err := store.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer g.Close()
		ws := gen.WeightSpec{Lo: 3, Hi: 40}
		if !g.M.Weighted {
			t.Fatal("the graph has no weights")
		}
		for _, s := range g.Out().Shards {
			for v := s.Lo; v < s.Hi(); v++ {
				nb, _ := s.Neighbors(nil, v)
				for k, u := range nb {
					w := s.WeightsOf(v)[k]
					a, b := ws.Weight(5, uint64(v), uint64(u)), ws.Weight(5, uint64(u), uint64(v))
					if w < 3 || w > 40 || (w != a && (directed || w != b)) {
						t.Fatalf("directed=%v: edge %d->%d weighs %d; generated copies weigh %d (and %d reversed)", directed, v, u, w, a, b)
					}
				}
			}
		}
	}
	if code, _, stderr := runCLI(t, "", "gen", "urand", "--scale", "4", "--weights", "uniform:1:9", "--format", "bin32", "-o", filepath.Join(t.TempDir(), "x.bin")); code != exitUsage || !strings.Contains(stderr, "text only") {
		t.Errorf("--weights with bin32: code %d, %q", code, stderr)
	}
}

func TestInfoWeighted(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "w.ooc")
	if code, _, stderr := runCLI(t, "", "gen", "grid", "--scale", "4", "--weights", "uniform:1:2", "-q", "-o", dir); code != exitOK {
		t.Fatalf("code %d: %s", code, stderr)
	}
	code, out, _ := runCLI(t, "", "info", dir)
	if code != exitOK || !strings.Contains(out, "weights     an integer weight per stored edge") {
		t.Errorf("info: %d %q", code, out)
	}
	code, out, _ = runCLI(t, "", "info", "--json", dir)
	var m map[string]any
	if code != exitOK || json.Unmarshal([]byte(out), &m) != nil || m["weighted"] != true {
		t.Errorf("info --json: %d %q", code, out)
	}
}

// TestInfoIDsLayout: info says which layout ids.bin has: facebook_combined in its
// default (bisection) order keeps runs of the file's ids, stored as differences; four
// ids 10^9 and more apart are stored raw.
func TestInfoIDsLayout(t *testing.T) {
	dir := t.TempDir()
	fb, raw := filepath.Join(dir, "fb.ooc"), filepath.Join(dir, "raw.ooc")
	spread := filepath.Join(dir, "spread.txt")
	if err := os.WriteFile(spread, []byte("4000000000 100\n2000000000 3000000000\n100 2000000000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"ingest", "-q", "../../testdata/facebook_combined.txt.gz", "-o", fb}, {"ingest", "-q", "--relabel", spread, "-o", raw}} {
		if code, _, stderr := runCLI(t, "", args...); code != exitOK {
			t.Fatalf("%v: code %d: %s", args, code, stderr)
		}
	}
	for _, c := range []struct{ dir, text, layout string }{{fb, "ids.bin (differences) ", "differences"}, {raw, "ids.bin 52 B", "raw"}} {
		code, out, _ := runCLI(t, "", "info", c.dir)
		if code != exitOK || !strings.Contains(out, c.text) {
			t.Errorf("info %s: %d %q, want %q", c.dir, code, out, c.text)
		}
		code, out, _ = runCLI(t, "", "info", "--json", c.dir)
		var m struct {
			Sections struct {
				IDsLayout string `json:"ids_layout"`
			} `json:"sections"`
		}
		if code != exitOK || json.Unmarshal([]byte(out), &m) != nil || m.Sections.IDsLayout != c.layout {
			t.Errorf("info --json %s: %d %q, want ids_layout %q", c.dir, code, out, c.layout)
		}
	}
}

// TestGenEdgeListIngestFlags: the flags of a .ooc output's ingest are refused with an
// edge list output, each named: --backend gpu and -v were taken and did nothing there.
func TestGenEdgeListIngestFlags(t *testing.T) {
	dir := t.TempDir()
	for _, f := range [][]string{{"--directed"}, {"--order", "degree"}, {"--shard-size", "4KiB"}, {"--mem", "1GiB"},
		{"--backend", "gpu"}, {"--backend", "cpu"}, {"-v"}} {
		for _, out := range []string{"-", filepath.Join(dir, "k.txt")} {
			args := append([]string{"gen", "kron", "--scale", "4", "-o", out}, f...)
			code, stdout, stderr := runCLI(t, "", args...)
			want := "ooc gen: " + f[0] + " applies to graph directory outputs"
			if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, want) {
				t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", args, code, stderr, want)
			}
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("written: %v", ents)
	}
}

// TestGenEmptyWeights: --weights given empty (a script's unset variable) is refused, as
// an empty -o or --keep is, where it wrote an unweighted graph; and LO:HI are decimal.
func TestGenEmptyWeights(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "k.txt")
	code, stdout, stderr := runCLI(t, "", "gen", "kron", "--scale", "3", "--weights", "", "-o", out)
	if code != exitUsage || stdout != "" || !strings.Contains(stderr, "--weights: an empty spec") {
		t.Errorf("--weights '': exit %d, %q", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("--weights '': %s written", out)
	}
	code, stdout, stderr = runCLI(t, "", "gen", "kron", "--scale", "6", "--weights", "uniform:010:010", "-o", "-")
	if code != exitOK || strings.Count(stdout, "\n") == 0 || strings.Count(stdout, " 10\n") != strings.Count(stdout, "\n") {
		t.Errorf("uniform:010:010: exit %d, %q; want every weight 10", code, stderr)
	}
}
