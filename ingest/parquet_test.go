package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/parquetio"
	"github.com/oocgraph/ooc/store"
)

// writeParquet writes edges as a Parquet file with columns names (src, dst and a
// weight), in row groups of groupRows.
func writeParquet(t *testing.T, path string, edges []parse.Edge, names [2]string, groupRows int) {
	t.Helper()
	var buf bytes.Buffer
	w, err := parquetio.NewWriter(&buf, []parquetio.Column{{Name: "weight"}, {Name: names[0]}, {Name: names[1]}}, groupRows)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range edges {
		if err := w.Write(parquetio.Cell{V: uint64(i)}, parquetio.Cell{V: e.U}, parquetio.Cell{V: e.V}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestParquetSameGraph: a Parquet edge list ingests to the shards the same edges give as
// text, under the orders, directions and worker counts that take other paths (the scan
// for the degree order and --relabel, the plain parse).
func TestParquetSameGraph(t *testing.T) {
	rng, seed := seededRand(t, 7)
	edges := randomEdges(rng, 50_000, 40_000)
	dir := t.TempDir()
	var text strings.Builder
	for _, e := range edges {
		fmt.Fprintf(&text, "%d %d\n", e.U, e.V)
	}
	txt := filepath.Join(dir, "g.txt")
	if err := os.WriteFile(txt, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	pq := filepath.Join(dir, "g.parquet")
	writeParquet(t, pq, edges, [2]string{"src", "dst"}, 3_000)
	noExt := filepath.Join(dir, "g.data") // found by its magic
	writeParquet(t, noExt, edges, [2]string{"from", "to"}, 5_000)
	for _, opt := range []Options{
		{Order: store.OrderInput, Workers: 3},
		{Order: store.OrderDegree, Directed: true, Workers: 2},
		{Order: OrderAuto, Relabel: true, Workers: 1},
	} {
		name := fmt.Sprintf("order %s directed %v relabel %v", opt.Order, opt.Directed, opt.Relabel)
		opt.Dest = filepath.Join(dir, "txt.ooc")
		opt.Force = true
		if _, err := File(txt, opt); err != nil {
			t.Fatal(err)
		}
		want := shardFiles(t, opt.Dest)
		for _, in := range []struct {
			path string
			cols [2]string
		}{{pq, [2]string{}}, {noExt, [2]string{"from", "to"}}} {
			opt.Dest = filepath.Join(dir, "pq.ooc")
			opt.Columns = in.cols
			rep, err := File(in.path, opt)
			if err != nil {
				t.Fatalf("%s: %s: %v", name, in.path, err)
			}
			if rep.Manifest.Input.Format != "parquet" || rep.Manifest.InputEdges != uint64(len(edges)) {
				t.Errorf("%s: format %q, %d input edges", name, rep.Manifest.Input.Format, rep.Manifest.InputEdges)
			}
			sameShardFiles(t, fmt.Sprintf("%s: %s (seed %d)", name, in.path, seed), shardFiles(t, opt.Dest), want)
		}
	}
}

// sameShardFiles fails the test when the shards got differ from those of the text
// ingest, want; what names the case.
func sameShardFiles(t *testing.T, what string, got, want map[string][]byte) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d shards, %d from the text", what, len(got), len(want))
	}
	for f, b := range want {
		if !bytes.Equal(got[f], b) {
			t.Errorf("%s: %s differs from the text ingest's", what, f)
		}
	}
}

// TestParquetErrors: bad Parquet input is a ParseError naming the file and position.
func TestParquetErrors(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.parquet")
	writeParquet(t, big, []parse.Edge{{U: 1, V: 2}, {U: 3, V: 1 << 32}}, [2]string{"src", "dst"}, 1)
	notPq := filepath.Join(dir, "g.parquet")
	if err := os.WriteFile(notPq, []byte("0 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.parquet")
	writeParquet(t, empty, nil, [2]string{"src", "dst"}, 1)
	cases := []struct {
		path string
		opt  Options
		want string
	}{
		{empty, Options{}, "empty.parquet: no edges (the table has no rows)"},
		{empty, Options{Weights: true}, "empty.parquet: no edges (the table has no rows)"},
		{empty, Options{Relabel: true, Directed: true}, "empty.parquet: no edges (the table has no rows)"},
		{big, Options{}, "big.parquet: row group 1 of 2, column \"dst\", row 0: holds 4294967296, above the largest allowed id 4294967294; ids must be below 2^32-1 (use --relabel)"},
		{big, Options{Columns: [2]string{"a", "b"}}, `big.parquet: no column "a"; the file has weight, src, dst`},
		{notPq, Options{}, "g.parquet: not a Parquet file: 4 bytes"},
	}
	for _, c := range cases {
		c.opt.Dest = filepath.Join(dir, "out.ooc")
		_, err := File(c.path, c.opt)
		if !errors.Is(err, parse.ErrBadInput) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want a bad-input error containing %q", err, c.want)
		}
		if _, serr := os.Stat(c.opt.Dest); serr == nil {
			t.Errorf("%s: a graph was left behind", c.path)
		}
	}
	// relabeled, the large id is fine
	if _, err := File(big, Options{Dest: filepath.Join(dir, "r.ooc"), Relabel: true}); err != nil {
		t.Error(err)
	}
	// a stream is refused with the reason
	b, _ := os.ReadFile(big)
	_, err := FileFrom(bytes.NewReader(b), "-", -1, Options{Dest: filepath.Join(dir, "s.ooc")})
	if !errors.Is(err, parse.ErrBadInput) || !strings.Contains(err.Error(), "read from its end") {
		t.Errorf("Parquet on standard input: %v", err)
	}
}

// TestParquetDirectory: a Parquet dataset directory (part files, in key=value
// subfolders too, beside Spark's _SUCCESS, _temporary and .crc files) ingests to the
// shards its edges give as one text file, weighted or not; a directory with no part
// files (text files only, say), or with a file that is not Parquet beside its parts,
// is refused naming it, leaving no graph.
func TestParquetDirectory(t *testing.T) {
	rng, seed := seededRand(t, 11)
	edges := randomEdges(rng, 30_000, 20_000)
	dir := t.TempDir()
	var text, wtext strings.Builder
	for i, e := range edges {
		fmt.Fprintf(&text, "%d %d\n", e.U, e.V)
		fmt.Fprintf(&wtext, "%d %d %d\n", e.U, e.V, i) // writeParquet's weight column is the row
	}
	txt, wtxt := filepath.Join(dir, "g.txt"), filepath.Join(dir, "w.txt")
	for p, s := range map[string]string{txt: text.String(), wtxt: wtext.String()} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ds := filepath.Join(dir, "edges")
	cut := []int{0, 7_000, 7_001, 19_000, len(edges)}
	names := []string{"part-00000-c000.snappy.parquet", "part-00001-c000.snappy.parquet", "k=1/data_0.parquet", "k=2/data_0.parquet"}
	for i, n := range names {
		p := filepath.Join(ds, n)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		writeParquetFrom(t, p, edges[cut[i]:cut[i+1]], cut[i], 2_500) // weights: the row in edges
	}
	for p, b := range map[string]string{"_SUCCESS": "", ".part-00000-c000.snappy.parquet.crc": "crc", "_temporary/0/x": "junk", "k=1/.data_0.parquet.crc": "crc"} {
		p = filepath.Join(ds, p)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, opt := range []Options{
		{Order: store.OrderInput, Workers: 2},
		{Order: store.OrderDegree, Directed: true, Workers: 2},
		{Order: OrderAuto, Relabel: true, Workers: 1},
		{Order: store.OrderInput, Weights: true, Workers: 2},
	} {
		name := fmt.Sprintf("order %s directed %v relabel %v weights %v", opt.Order, opt.Directed, opt.Relabel, opt.Weights)
		opt.Dest, opt.Force = filepath.Join(dir, "txt.ooc"), true
		in := txt
		if opt.Weights {
			in = wtxt
		}
		if _, err := File(in, opt); err != nil {
			t.Fatal(err)
		}
		want := shardFiles(t, opt.Dest)
		opt.Dest = filepath.Join(dir, "ds.ooc")
		rep, err := File(ds, opt)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if rep.Manifest.Input.Format != "parquet" || rep.Manifest.Input.Name != "edges" || rep.Manifest.InputEdges != uint64(len(edges)) {
			t.Errorf("%s: input %+v, %d input edges", name, rep.Manifest.Input, rep.Manifest.InputEdges)
		}
		sameShardFiles(t, fmt.Sprintf("%s: the dataset (seed %d)", name, seed), shardFiles(t, opt.Dest), want)
	}

	empty := filepath.Join(dir, "empty")
	os.MkdirAll(filepath.Join(empty, "_temporary"), 0o755)
	os.WriteFile(filepath.Join(empty, "_SUCCESS"), nil, 0o644)
	os.MkdirAll(filepath.Join(dir, "plain"), 0o755)
	os.WriteFile(filepath.Join(dir, "plain", "g.txt"), []byte("0 1\n"), 0o644)
	stray := filepath.Join(dir, "stray")
	os.MkdirAll(stray, 0o755)
	writeParquet(t, filepath.Join(stray, "part-0.parquet"), edges[:10], [2]string{"src", "dst"}, 5)
	os.WriteFile(filepath.Join(stray, "part-1.csv"), []byte("0,1\n"), 0o644)
	for _, c := range []struct {
		path string
		opt  Options
		want string
	}{
		{empty, Options{}, "empty: is a directory and holds no Parquet part files"},
		{filepath.Join(dir, "plain"), Options{}, "plain: is a directory and holds no Parquet part files"},
		{stray, Options{}, "part-1.csv: not a Parquet file"},
		{ds, Options{Format: parse.FormatSNAP}, "edges: is a directory, read as a Parquet dataset of part files; --format snap does not apply"},
		{ds, Options{Columns: [2]string{"from", "to"}}, `k=1/data_0.parquet: no column "from"`},
	} {
		c.opt.Dest = filepath.Join(dir, "bad.ooc")
		_, err := File(c.path, c.opt)
		if !errors.Is(err, parse.ErrBadInput) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want a bad-input error containing %q", c.path, err, c.want)
		}
		if _, serr := os.Stat(c.opt.Dest); serr == nil {
			t.Errorf("%s: a graph was left behind", c.path)
		}
	}
}

// writeParquetFrom writes edges as writeParquet does, numbering the weight column from
// first.
func writeParquetFrom(t *testing.T, path string, edges []parse.Edge, first, groupRows int) {
	t.Helper()
	var buf bytes.Buffer
	w, err := parquetio.NewWriter(&buf, []parquetio.Column{{Name: "weight"}, {Name: "src"}, {Name: "dst"}}, groupRows)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range edges {
		if err := w.Write(parquetio.Cell{V: uint64(first + i)}, parquetio.Cell{V: e.U}, parquetio.Cell{V: e.V}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestParquetFloatWeights: a DOUBLE weight column gives float32 weights, the graph the
// same, file for file, as the text of the same edges read with FloatWeights (the
// weights in the fewest digits that round-trip the float32); an integer column read
// with FloatWeights gives the float graph of its whole numbers.
func TestParquetFloatWeights(t *testing.T) {
	edges := floatWEdges(t, 700, 5000)
	dir := t.TempDir()
	var ftext, itext strings.Builder
	var fbuf, ibuf bytes.Buffer
	fw, err := parquetio.NewWriter(&fbuf, []parquetio.Column{{Name: "src"}, {Name: "dst"}, {Name: "weight", Float: true}}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	iw, err := parquetio.NewWriter(&ibuf, []parquetio.Column{{Name: "src"}, {Name: "dst"}, {Name: "weight"}}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range edges {
		fmt.Fprintf(&ftext, "%d %d %s\n", e.U, e.V, floatText(e.W))
		fmt.Fprintf(&itext, "%d %d %d\n", e.U, e.V, i)
		// the double of a float32 rounds back to it
		if err := fw.Write(parquetio.Cell{V: e.U}, parquetio.Cell{V: e.V}, parquetio.Cell{F: float64(math.Float32frombits(e.W))}); err != nil {
			t.Fatal(err)
		}
		if err := iw.Write(parquetio.Cell{V: e.U}, parquetio.Cell{V: e.V}, parquetio.Cell{V: uint64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := errors.Join(fw.Close(), iw.Close()); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"f.txt": []byte(ftext.String()), "i.txt": []byte(itext.String()), "f.parquet": fbuf.Bytes(), "i.parquet": ibuf.Bytes()}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ text, pq string }{{"f.txt", "f.parquet"}, {"i.txt", "i.parquet"}} {
		opt := Options{Weights: true, FloatWeights: true, Order: store.OrderInput, Workers: 2, Force: true, Dest: filepath.Join(dir, "txt.ooc")}
		if _, err := File(filepath.Join(dir, c.text), opt); err != nil {
			t.Fatal(err)
		}
		opt.Dest, opt.FloatWeights = filepath.Join(dir, "pq.ooc"), c.pq == "i.parquet"
		rep, err := File(filepath.Join(dir, c.pq), opt)
		if err != nil {
			t.Fatalf("%s: %v", c.pq, err)
		}
		if !rep.Manifest.FloatWeights() {
			t.Fatalf("%s: weight_type %q", c.pq, rep.Manifest.WeightType)
		}
		sameShardFiles(t, c.pq, shardFiles(t, opt.Dest), shardFiles(t, filepath.Join(dir, "txt.ooc")))
	}
}
