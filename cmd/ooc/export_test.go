package main

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// graphShards reads every shard file of a graph directory.
func graphShards(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.shard"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no shards in %s: %v", dir, err)
	}
	files := map[string][]byte{}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(n)] = b
	}
	return files
}

func sameShards(t *testing.T, what string, a, b map[string][]byte) {
	t.Helper()
	if len(a) != len(b) {
		t.Errorf("%s: %d shards, want %d", what, len(a), len(b))
	}
	for name, want := range b {
		if !bytes.Equal(a[name], want) {
			t.Errorf("%s: %s differs", what, name)
		}
	}
}

// randomEdgeText is m random edges over n vertices as "u v" lines, every vertex given
// an edge so that an edge list keeps the vertex count, with self-loops and repeats.
func randomEdgeText(rng *rand.Rand, n, m int) string {
	var b strings.Builder
	for v := range n {
		fmt.Fprintf(&b, "%d %d\n", v, rng.IntN(n))
	}
	for range m {
		fmt.Fprintf(&b, "%d %d\n", rng.IntN(n), rng.IntN(n))
	}
	return b.String()
}

// TestExportRoundTrip: what export writes, in each format and both ways, ingests back to
// byte-identical shards, undirected and directed.
func TestExportRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 22))
	dir := t.TempDir()
	in := writeFile(t, dir, "g.txt", randomEdgeText(rng, 3000, 20000))
	for _, directed := range []bool{false, true} {
		flags := []string{"--order", "input", "-q"}
		if directed {
			flags = append(flags, "--directed")
		}
		orig := filepath.Join(dir, fmt.Sprintf("orig-%v.ooc", directed))
		if code, _, stderr := runCLI(t, "", append([]string{"ingest", "-o", orig}, append(flags, in)...)...); code != exitOK {
			t.Fatalf("ingest: %s", stderr)
		}
		want := graphShards(t, orig)
		for _, c := range []struct {
			name string
			both bool
		}{{"e.parquet", false}, {"e.el", false}, {"e.mtx", false}, {"both.parquet", true}, {"both.mtx", true}} {
			if directed && c.both {
				continue
			}
			out := filepath.Join(dir, fmt.Sprintf("%v-%s", directed, c.name))
			args := []string{"export", "-o", out, orig}
			if c.both {
				args = append(args, "--both")
			}
			if code, _, stderr := runCLI(t, "", args...); code != exitOK {
				t.Fatalf("export %s: %s", c.name, stderr)
			}
			back := out + ".ooc"
			if code, _, stderr := runCLI(t, "", append([]string{"ingest", "-o", back}, append(flags, out)...)...); code != exitOK {
				t.Fatalf("ingest %s: %s", c.name, stderr)
			}
			sameShards(t, fmt.Sprintf("directed %v, %s", directed, c.name), graphShards(t, back), want)
		}
	}
}

// TestExportOnce: an undirected graph's edges once (self-loop once), in file ids; both
// ways with --both; MatrixMarket symmetric in the lower triangle, 1-based.
func TestExportOnce(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "g.txt", "5 7\n7 5\n7 7\n9 5\n")
	g := filepath.Join(dir, "g.ooc")
	if code, _, stderr := runCLI(t, "", "ingest", "--keep-self-loops", "--relabel", "-q", "-o", g, in); code != exitOK {
		t.Fatal(stderr)
	}
	lines := func(s string) []string {
		l := strings.Split(strings.TrimSpace(s), "\n")
		slices.Sort(l)
		return l
	}
	code, stdout, stderr := runCLI(t, "", "export", "-o", "-", g)
	if want := []string{"5 7", "5 9", "7 7"}; code != exitOK || !slices.Equal(lines(stdout), want) {
		t.Errorf("export -o -: %q (%s), want %q", stdout, stderr, want)
	}
	code, stdout, _ = runCLI(t, "", "export", "--both", "-o", "-", g)
	if want := []string{"5 7", "5 9", "7 5", "7 7", "9 5"}; code != exitOK || !slices.Equal(lines(stdout), want) {
		t.Errorf("export --both: %q, want %q", stdout, want)
	}
	mtx := filepath.Join(dir, "g.mtx")
	if code, _, stderr := runCLI(t, "", "export", "-o", mtx, g); code != exitOK {
		t.Fatal(stderr)
	}
	b, _ := os.ReadFile(mtx)
	head := "%%MatrixMarket matrix coordinate pattern symmetric\n%% written by ooc export\n10 10 3\n"
	body, ok := strings.CutPrefix(string(b), head)
	if want := []string{"10 6", "8 6", "8 8"}; !ok || !slices.Equal(lines(body), want) {
		t.Errorf("mtx export:\n%s\nwant the header %q and the entries %q", b, head, want)
	}
	for _, args := range [][]string{
		{"export", g}, // no -o
		{"export", "-o", filepath.Join(dir, "x.csv"), g}, // unknown extension
		{"export", "--json", "-o", "-", g},
	} {
		if code, _, stderr := runCLI(t, "", args...); code != exitUsage {
			t.Errorf("%v: code %d (%s), want a usage error", args, code, stderr)
		}
	}
}

// TestResultParquet: bfs, cc, kcore, pagerank and sssp -o x.parquet hold, row for row, what
// --text prints.
func TestResultParquet(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "g.txt", triangle+"10 11\n")
	g := filepath.Join(dir, "g.ooc")
	if code, _, stderr := runCLI(t, "", "ingest", "-q", "--relabel", "-o", g, in); code != exitOK {
		t.Fatal(stderr)
	}
	text := func(args ...string) []string {
		code, stdout, stderr := runCLI(t, "", append(args, "--text", "-o", "-", g)...)
		if code != exitOK {
			t.Fatalf("%v: %s", args, stderr)
		}
		l := strings.Split(strings.TrimSpace(stdout), "\n")
		slices.Sort(l)
		return l
	}
	table := func(format func(r map[string]any) string, args ...string) []string {
		out := filepath.Join(dir, args[0]+".parquet")
		if code, _, stderr := runCLI(t, "", append(args, "-o", out, g)...); code != exitOK {
			t.Fatalf("%v: %s", args, stderr)
		}
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		st, _ := f.Stat()
		var l []string
		for _, r := range readTable(t, f, st.Size()) {
			l = append(l, format(r))
		}
		slices.Sort(l)
		return l
	}
	str := func(x any) string {
		if x == nil {
			return "-"
		}
		return fmt.Sprint(x)
	}
	for _, c := range []struct {
		args   []string
		format func(r map[string]any) string
	}{
		{[]string{"bfs", "--src", "1"}, func(r map[string]any) string {
			return fmt.Sprintf("%v %s %s", r["id"], str(r["parent"]), str(r["level"]))
		}},
		{[]string{"cc"}, func(r map[string]any) string { return fmt.Sprintf("%v %v", r["id"], r["component"]) }},
		{[]string{"kcore"}, func(r map[string]any) string { return fmt.Sprintf("%v %v", r["id"], r["core"]) }},
		{[]string{"pagerank"}, func(r map[string]any) string { return fmt.Sprintf("%v %v", r["id"], r["score"]) }},
		{[]string{"sssp", "--unit-weights", "--src", "1"}, func(r map[string]any) string {
			return fmt.Sprintf("%v %s %s", r["id"], str(r["distance"]), str(r["parent"]))
		}},
	} {
		got, want := table(c.format, c.args...), text(c.args...)
		if c.args[0] == "pagerank" { // float32 text against the float64 the table holds
			for i := range got {
				var id int
				var s float64
				fmt.Sscanf(got[i], "%d %g", &id, &s)
				got[i] = fmt.Sprintf("%d %v", id, float32(s))
			}
			slices.Sort(got)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%v: the Parquet table\n%q\ndiffers from --text\n%q", c.args, got, want)
		}
	}
	if code, _, _ := runCLI(t, "", "bfs", "--text", "-o", filepath.Join(dir, "x.parquet"), g); code != exitUsage {
		t.Errorf("--text with a .parquet output: code %d, want a usage error", code)
	}
}

// readTable reads a Parquet table's rows as maps from column name to value (nil for
// null), with the library's own reader.
func readTable(t *testing.T, r io.ReaderAt, size int64) []map[string]any {
	t.Helper()
	f, err := parquet.OpenFile(r, size)
	if err != nil {
		t.Fatal(err)
	}
	names := f.Schema().Columns()
	var out []map[string]any
	for _, rg := range f.RowGroups() {
		rows := rg.Rows()
		buf := make([]parquet.Row, 64)
		for {
			n, err := rows.ReadRows(buf)
			for _, row := range buf[:n] {
				m := map[string]any{}
				for _, v := range row {
					name := names[v.Column()][0]
					switch {
					case v.IsNull():
						m[name] = nil
					case v.Kind() == parquet.Double:
						m[name] = v.Double()
					default:
						m[name] = v.Int64()
					}
				}
				out = append(out, m)
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		rows.Close()
	}
	return out
}

// TestExportWeights: a weighted graph's edge list and Parquet table carry the weights (a
// third column) and ingest back (--weights) to byte-identical shards, undirected and
// directed; its MatrixMarket file carries them as integer values, which ingest back to
// the same weighted edges, ids shifted by one. Parquet and MatrixMarket dropped them
// (src and dst alone, a pattern matrix) with exit 0.
func TestExportWeights(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 22))
	dir := t.TempDir()
	var b strings.Builder
	for range 20000 {
		fmt.Fprintf(&b, "%d %d %d\n", rng.IntN(3000), rng.IntN(3000), 1+rng.IntN(1000))
	}
	in := writeFile(t, dir, "w.txt", b.String())
	for _, directed := range []bool{false, true} {
		flags := []string{"--order", "input", "--weights", "-q"}
		if directed {
			flags = append(flags, "--directed")
		}
		orig := filepath.Join(dir, fmt.Sprintf("w-%v.ooc", directed))
		if code, _, stderr := runCLI(t, "", append([]string{"ingest", "-o", orig}, append(flags, in)...)...); code != exitOK {
			t.Fatalf("ingest: %s", stderr)
		}
		var el string
		for _, ext := range []string{"el", "parquet", "mtx"} {
			out := filepath.Join(dir, fmt.Sprintf("w-%v.%s", directed, ext))
			if code, _, stderr := runCLI(t, "", "export", "-o", out, orig); code != exitOK {
				t.Fatalf("export: %s", stderr)
			}
			if ext == "el" {
				text, err := os.ReadFile(out)
				if err != nil {
					t.Fatal(err)
				}
				if el = string(text); len(strings.Fields(strings.SplitN(el, "\n", 2)[0])) != 3 {
					t.Fatalf("directed %v: %s has no weight column", directed, out)
				}
			}
			back := out + ".ooc"
			if code, _, stderr := runCLI(t, "", append([]string{"ingest", "-o", back}, append(flags, out)...)...); code != exitOK {
				t.Fatalf("ingest of %s: %s", out, stderr)
			}
			if ext != "mtx" {
				sameShards(t, fmt.Sprintf("weighted %s, directed %v", ext, directed), graphShards(t, back), graphShards(t, orig))
				continue
			}
			code, text, stderr := runCLI(t, "", "export", "-o", "-", back)
			if code != exitOK {
				t.Fatalf("export: %s", stderr)
			}
			var want []string
			for _, line := range strings.Split(strings.TrimSpace(el), "\n") {
				var u, v, w uint64
				fmt.Sscan(line, &u, &v, &w)
				want = append(want, fmt.Sprintf("%d %d %d", u+1, v+1, w))
			}
			got := strings.Split(strings.TrimSpace(text), "\n")
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("mtx, directed %v: %d weighted edges back, want the %d of the edge list shifted by one", directed, len(got), len(want))
			}
		}
	}
}

// readSG parses a GAPBS serialized graph's first direction: its directed flag, vertex
// count, and every list as "u v" or "u v w" strings.
func readSG(t *testing.T, path string, weighted bool) (directed bool, n int64, edges []string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	le := func(i int64) int64 {
		return int64(uint64(b[i]) | uint64(b[i+1])<<8 | uint64(b[i+2])<<16 | uint64(b[i+3])<<24)
	}
	le64 := func(i int64) int64 { return le(i) | le(i+4)<<32 }
	m, n := le64(1), le64(9)
	off := func(v int64) int64 { return le64(17 + 8*v) }
	if off(0) != 0 || off(n) != m {
		t.Fatalf("%s: offsets run from %d to %d, %d entries", path, off(0), off(n), m)
	}
	entry := int64(4)
	if weighted {
		entry = 8
	}
	lists := 17 + 8*(n+1)
	for u := range n {
		for k := off(u); k < off(u+1); k++ {
			at := lists + entry*k
			if weighted {
				edges = append(edges, fmt.Sprintf("%d %d %d", u, le(at), le(at+4)))
			} else {
				edges = append(edges, fmt.Sprintf("%d %d", u, le(at)))
			}
		}
	}
	return b[0] == 1, n, edges
}

// TestExportSG: a .wsg (.sg) holds every stored edge of every list, both ways, in file
// ids, with its weight: the same lines as export --both's edge list.
func TestExportSG(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 22))
	dir := t.TempDir()
	var b strings.Builder
	for v := range 2000 { // every id 0..1999 has an edge: the ids are 0..n-1
		fmt.Fprintf(&b, "%d %d %d\n", v, rng.IntN(2000), 1+rng.IntN(255))
	}
	for range 10000 {
		fmt.Fprintf(&b, "%d %d %d\n", rng.IntN(2000), rng.IntN(2000), 1+rng.IntN(255))
	}
	in := writeFile(t, dir, "w.txt", b.String())
	g := filepath.Join(dir, "w.ooc")
	if code, _, stderr := runCLI(t, "", "ingest", "-o", g, "--weights", "-q", in); code != exitOK { // degree order: ids permuted
		t.Fatalf("ingest: %s", stderr)
	}
	el := filepath.Join(dir, "both.el")
	if code, _, stderr := runCLI(t, "", "export", "--both", "-o", el, g); code != exitOK {
		t.Fatalf("export: %s", stderr)
	}
	text, err := os.ReadFile(el)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSpace(string(text)), "\n")
	for _, weighted := range []bool{true, false} {
		name := filepath.Join(dir, "g.sg")
		if weighted {
			name = filepath.Join(dir, "g.wsg")
		}
		if code, _, stderr := runCLI(t, "", "export", "-o", name, g); code != exitOK {
			t.Fatalf("export %s: %s", name, stderr)
		}
		directed, n, got := readSG(t, name, weighted)
		if directed || n != 2000 {
			t.Errorf("%s: directed %v, %d vertices; want undirected, 2000", name, directed, n)
		}
		w := want
		if !weighted {
			w = nil
			for _, l := range want {
				f := strings.Fields(l)
				w = append(w, f[0]+" "+f[1])
			}
		}
		slices.Sort(got)
		w = slices.Sorted(slices.Values(w))
		if !slices.Equal(got, w) {
			t.Errorf("%s: %d entries differ from the %d of the edge list", name, len(got), len(w))
		}
	}
	// ids that are not 0..n-1 cannot be numbered as GAPBS numbers vertices
	sparse := writeFile(t, dir, "sparse.txt", "5 10 1\n10 2000000000 2\n")
	sg := filepath.Join(dir, "sparse.ooc")
	if code, _, stderr := runCLI(t, "", "ingest", "-o", sg, "--weights", "--relabel", "-q", sparse); code != exitOK {
		t.Fatalf("ingest: %s", stderr)
	}
	if code, _, stderr := runCLI(t, "", "export", "-o", filepath.Join(dir, "sparse.wsg"), sg); code != exitUsage || !strings.Contains(stderr, "vertex id 5") {
		t.Errorf("export of ids 5, 10, 2000000000 to .wsg: exit %d, %q; want exit %d (the graph does not suit the format, as a float graph's .wsg)", code, stderr, exitUsage)
	}
	// GAPBS's weights are int32: one past 2^31-1 would read back negative (its sssp then
	// died with SIGSEGV), so it is refused and no file is left; 2^31-1 itself is written
	heavy := writeFile(t, dir, "heavy.txt", "0 1 2147483648\n1 2 3\n")
	hg := filepath.Join(dir, "heavy.ooc")
	if code, _, stderr := runCLI(t, "", "ingest", "-o", hg, "--weights", "-q", heavy); code != exitOK {
		t.Fatalf("ingest: %s", stderr)
	}
	hw := filepath.Join(dir, "heavy.wsg")
	if code, _, stderr := runCLI(t, "", "export", "-o", hw, hg); code != exitUsage || !strings.Contains(stderr, "weighs 2147483648") {
		t.Errorf("export of a weight of 2^31 to .wsg: exit %d, %q; want exit %d naming the weight", code, stderr, exitUsage)
	}
	if _, err := os.Stat(hw); !os.IsNotExist(err) {
		t.Errorf("%s left after a refused export: %v", hw, err)
	}
	fits := writeFile(t, dir, "fits.txt", "0 1 2147483647\n1 2 3\n")
	fg := filepath.Join(dir, "fits.ooc")
	if code, _, stderr := runCLI(t, "", "ingest", "-o", fg, "--weights", "-q", fits); code != exitOK {
		t.Fatalf("ingest: %s", stderr)
	}
	if code, _, stderr := runCLI(t, "", "export", "-o", filepath.Join(dir, "fits.wsg"), fg); code != exitOK {
		t.Errorf("export of a weight of 2^31-1 to .wsg: %s", stderr)
	}
}
