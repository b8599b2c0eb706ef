package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/gen"
	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/store"
)

// writeWeightedInput writes edges as a weighted file of the format: "u v w" text, DIMACS
// ("a u v w", 1-based) or MatrixMarket (1-based; integer, or real with whole values,
// general or symmetric).
func writeWeightedInput(t *testing.T, path, format string, edges []parse.WEdge) {
	t.Helper()
	var b bytes.Buffer
	var n uint64
	for _, e := range edges {
		n = max(n, e.U+1, e.V+1)
	}
	switch format {
	case "gr":
		fmt.Fprintf(&b, "c weighted\np sp %d %d\n", n, len(edges))
	case "mtx":
		fmt.Fprintf(&b, "%%%%MatrixMarket matrix coordinate integer general\n%% a comment\n%d %d %d\n", n, n, len(edges))
	case "mtx-sym":
		fmt.Fprintf(&b, "%%%%MatrixMarket matrix coordinate real symmetric\n%d %d %d\n", n, n, len(edges))
	case "mtx-real":
		fmt.Fprintf(&b, "%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n", n, n, len(edges))
	}
	for _, e := range edges {
		switch format {
		case "gr":
			fmt.Fprintf(&b, "a %d %d %d\n", e.U+1, e.V+1, e.W)
		case "mtx":
			fmt.Fprintf(&b, "%d %d %d\n", e.U+1, e.V+1, e.W)
		case "mtx-sym":
			fmt.Fprintf(&b, "%d %d %d.0\n", e.U+1, e.V+1, e.W)
		case "mtx-real":
			fmt.Fprintf(&b, "%d %d %s\n", e.U+1, e.V+1, floatText(e.W))
		case "ftxt":
			fmt.Fprintf(&b, "%d %d %s\n", e.U, e.V, floatText(e.W))
		default:
			fmt.Fprintf(&b, "%d %d %d\n", e.U, e.V, e.W)
		}
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sameGraphFiles compares two graph directories file by file, byte for byte, and their
// manifests but for the creation time and the checksum that covers it.
func sameGraphFiles(t *testing.T, where, a, b string) {
	t.Helper()
	ea, err := os.ReadDir(a)
	if err != nil {
		t.Fatal(err)
	}
	eb, err := os.ReadDir(b)
	if err != nil {
		t.Fatal(err)
	}
	names := func(es []os.DirEntry) (n []string) {
		for _, e := range es {
			n = append(n, e.Name())
		}
		return n
	}
	if !slices.Equal(names(ea), names(eb)) {
		t.Fatalf("%s: files %v, two passes %v", where, names(ea), names(eb))
	}
	for _, name := range names(ea) {
		x, err1 := os.ReadFile(filepath.Join(a, name))
		y, err2 := os.ReadFile(filepath.Join(b, name))
		if err := errors.Join(err1, err2); err != nil {
			t.Fatal(err)
		}
		if name == "manifest.json" {
			x, y = manifestSansTime(t, x), manifestSansTime(t, y)
		}
		if !bytes.Equal(x, y) {
			t.Fatalf("%s: %s differs:\n%.600s\n%.600s", where, name, x, y)
		}
	}
}

// floatText is the float32 weight whose bits are w, in the fewest digits that read back
// to it.
func floatText(w uint32) string {
	return strconv.FormatFloat(float64(math.Float32frombits(w)), 'g', -1, 32)
}

// floatWEdges is randomWEdges with float32 weights (their bits): fractions, a few zeros,
// tiny and huge magnitudes.
func floatWEdges(t *testing.T, n uint64, m int) []parse.WEdge {
	edges, _ := randomWEdges(t, n, m)
	for i := range edges {
		x := float32(edges[i].W) / 7
		switch i % 50 {
		case 0:
			x = 0
		case 1:
			x *= 1e-40 // subnormal
		case 2:
			x *= 1e30
		}
		edges[i].W = math.Float32bits(x)
	}
	return edges
}

// TestWeighFileFloat: float32 weights (a real MatrixMarket file, and text read with
// FloatWeights) give the same graph through the in-memory path and the two-pass path
// (windows of lists, the arcs spilled), version 7 with "weight_type":"float32", and every
// stored weight is the smallest of its edge's copies, as a float.
func TestWeighFileFloat(t *testing.T) {
	edges := floatWEdges(t, 1500, 20_000)
	dir := t.TempDir()
	for _, format := range []string{"mtx-real", "ftxt"} {
		for _, directed := range []bool{false, true} {
			in := filepath.Join(dir, "in."+map[string]string{"mtx-real": "mtx", "ftxt": "txt"}[format])
			writeWeightedInput(t, in, format, edges)
			opt := Options{Weights: true, FloatWeights: format == "ftxt", Directed: directed, ShardBytes: 16 << 10, Workers: 2, Force: true,
				Order: store.OrderInput, Dest: filepath.Join(dir, "mem.ooc")}
			rep, err := File(in, opt)
			if err != nil {
				t.Fatalf("%s directed %v: %v", format, directed, err)
			}
			if m := rep.Manifest; !m.FloatWeights() || m.FormatVersion != store.FloatVersion {
				t.Fatalf("%s: weight_type %q version %d", format, m.WeightType, m.FormatVersion)
			}
			two := opt
			two.Dest, two.weighWindow = filepath.Join(dir, "two.ooc"), 64<<10
			if _, err := File(in, two); err != nil {
				t.Fatalf("%s directed %v, two passes: %v", format, directed, err)
			}
			where := fmt.Sprintf("%s directed %v", format, directed)
			sameGraphFiles(t, where, opt.Dest, two.Dest)
			if _, err := store.Verify(two.Dest); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			smallest := map[[2]uint64]float32{}
			for _, e := range edges {
				if e.U == e.V {
					continue
				}
				k := [2]uint64{e.U, e.V}
				if !directed {
					k = [2]uint64{min(e.U, e.V), max(e.U, e.V)}
				}
				if w, ok := smallest[k]; !ok || math.Float32frombits(e.W) < w {
					smallest[k] = math.Float32frombits(e.W)
				}
			}
			g, err := store.Open(two.Dest)
			if err != nil {
				t.Fatal(err)
			}
			var stored int
			a := store.NewCompressed(g)
			for u := range g.M.Vertices {
				nbrs, err := a.List(store.Out, u, math.MaxUint32, nil)
				if err != nil {
					t.Fatal(err)
				}
				ws := g.Out().ShardOf(u).WeightsOf(u)
				for k, v := range nbrs {
					key := [2]uint64{uint64(u), uint64(v)}
					if !directed {
						key = [2]uint64{uint64(min(u, v)), uint64(max(u, v))}
					}
					if got := math.Float32frombits(ws[k]); got != smallest[key] {
						t.Fatalf("%s: edge %d->%d weighs %g, want the smallest copy's %g", where, u, v, got, smallest[key])
					}
					stored++
				}
			}
			g.Close()
			if want := len(smallest) * map[bool]int{false: 2, true: 1}[directed]; stored != want {
				t.Fatalf("%s: %d stored edges, want %d", where, stored, want)
			}
		}
	}
}

func manifestSansTime(t *testing.T, b []byte) []byte {
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "created")
	delete(m, "crc32c")
	out, _ := json.Marshal(m)
	return out
}

// TestWeighFileSameGraph: the two-pass weighted ingest of a file (forced; windows small
// enough for several, each reading its spill or the file again, or one window) writes the graph the in-memory path writes, file
// for file and byte for byte: text, DIMACS and MatrixMarket (integer and real,
// general and symmetric) inputs with self-loops and repeated edges of differing weights,
// directed or not, self-loops and duplicates kept or dropped, --relabel, the input and
// the degree order.
func TestWeighFileSameGraph(t *testing.T) {
	edges, _ := randomWEdges(t, 1500, 20_000)
	wide := slices.Clone(edges)
	for i := range wide {
		wide[i].U, wide[i].V = sparse(wide[i].U)>>1, sparse(wide[i].V)>>1
	}
	dir := t.TempDir()
	type tcase struct {
		format                         string
		directed, loops, dups, relabel bool
		order                          string
	}
	var cases []tcase
	for _, order := range []string{store.OrderInput, store.OrderDegree} {
		for _, directed := range []bool{false, true} {
			for _, kept := range []bool{false, true} {
				for _, relabel := range []bool{false, true} {
					cases = append(cases, tcase{"txt", directed, kept, kept, relabel, order})
				}
				cases = append(cases, tcase{"txt", directed, kept, !kept, false, order})
			}
			for _, f := range []string{"gr", "mtx", "mtx-sym"} {
				cases = append(cases, tcase{f, directed, directed, !directed, order == store.OrderDegree, order})
			}
		}
	}
	defer func(n int) { maxSpillFiles = n }(maxSpillFiles)
	for i, c := range cases {
		in := filepath.Join(dir, "in."+strings.TrimSuffix(c.format, "-sym"))
		if c.relabel && c.format == "txt" {
			writeWeightedInput(t, in, c.format, wide)
		} else {
			writeWeightedInput(t, in, c.format, edges)
		}
		opt := Options{Weights: true, Directed: c.directed, KeepSelfLoops: c.loops, KeepDuplicates: c.dups, Relabel: c.relabel,
			Order: c.order, ShardBytes: 16 << 10, Workers: 2, Force: true}
		opt.Dest = filepath.Join(dir, "mem.ooc")
		if _, err := File(in, opt); err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		// windows of 64 KiB, each reading its spill or the file again, or one window
		for mode, how := range []string{"windows of lists, the file read once more, its arcs spilled",
			"windows of lists, the file read once a window", "weights: 1 window of lists"} {
			if testing.Short() && mode != i%3 { // -short (the race run): one mode a case, in turn
				continue
			}
			window := []int64{64 << 10, 64 << 10, 1 << 30}[mode]
			maxSpillFiles = []int{512, 0, 512}[mode]
			where := fmt.Sprintf("%+v window %d spill files %d", c, window, maxSpillFiles)
			var log bytes.Buffer
			two := opt
			two.Dest, two.weighWindow, two.Log, two.Verbose = filepath.Join(dir, "two.ooc"), window, &log, true
			rep, err := File(in, two)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if !strings.Contains(log.String(), "pass 2 reads") || !strings.Contains(log.String(), how) {
				t.Fatalf("%s: the log does not say two passes, %q:\n%s", where, how, log.String())
			}
			if len(rep.Manifest.Out) < 2 {
				t.Fatalf("%s: %d out-shards, want several", where, len(rep.Manifest.Out))
			}
			sameGraphFiles(t, where, opt.Dest, two.Dest)
			if _, err := store.Verify(two.Dest); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
		}
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left behind in %s: %s", dir, e.Name())
		}
	}
}

// TestWeighFileFallback: a regular file whose edges exceed the in-memory path's budget
// is read twice (-v says so: found while reading it, where the file's size did not
// plainly exceed the budget, unlike TestWeighFilePeakRSS's) and gives the graph the in-memory path gives with a larger
// budget; from a pipe the same input is refused, naming the budget.
func TestWeighFileFallback(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests 1.5M edges twice in -short")
	}
	edges, _ := randomWEdges(t, 50_000, 1_500_000)
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	writeWeightedInput(t, in, "txt", edges)
	opt := Options{Weights: true, Order: store.OrderDegree, ShardBytes: 64 << 10, Workers: 2}
	opt.Dest = filepath.Join(dir, "mem.ooc")
	if _, err := File(in, opt); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	opt.Dest, opt.Mem, opt.Log, opt.Verbose = filepath.Join(dir, "two.ooc"), 48<<20, &log, true
	if _, err := File(in, opt); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "exceed 48.0 MiB (found while reading it)") || !strings.Contains(log.String(), "pass 2 reads") {
		t.Fatalf("the log does not say two passes:\n%s", log.String())
	}
	sameGraphFiles(t, "fallback", filepath.Join(dir, "mem.ooc"), opt.Dest)

	f, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	opt.Dest, opt.Log = filepath.Join(dir, "pipe.ooc"), nil
	_, err = FileFrom(struct{ *bytes.Reader }{mustRead(t, in)}, "-", -1, opt)
	if !errors.Is(err, parse.ErrBadInput) || !strings.Contains(err.Error(), "holds its edges in memory") {
		t.Fatalf("from a pipe: %v, want the in-memory refusal", err)
	}
	if _, err := os.Stat(opt.Dest); err == nil {
		t.Errorf("%s written", opt.Dest)
	}
}

func mustRead(t *testing.T, path string) *bytes.Reader {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.NewReader(b)
}

// TestWeighFileBadInput: a bad line found by the second pass (a weight the first,
// unweighted, pass does not read) is one error naming the file and line, and nothing
// is left behind: no graph, no temporary directory.
func TestWeighFileBadInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "bad.txt")
	os.WriteFile(in, []byte("0 1 5\n1 2 3\n2 3 x7\n3 0 1\n"), 0o644)
	opt := Options{Weights: true, Dest: filepath.Join(dir, "g.ooc"), weighWindow: 1 << 10}
	_, err := File(in, opt)
	var pe *parse.ParseError
	if !errors.As(err, &pe) || pe.Line != 3 || !strings.Contains(err.Error(), "bad.txt") {
		t.Fatalf("error %v, want a ParseError at bad.txt line 3", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
}

// TestWeighFilePeakRSS ingests, in a child process, a weighted Kronecker text edge list
// (scale 18, 4M edges, "u v w") whose edges the in-memory path would hold in 160 MB,
// under a 48 MiB budget, undirected in the degree order and directed with --relabel,
// and checks the child's peak resident set (VmHWM) against the budget plus 10% (as
// TestPeakRSS does for the unweighted pipeline). Both peak at about 42 MiB; the
// directed case peaked at 50-53 MiB while the windows kept both shards of the first
// pass mapped (TestWindowReleasesShards).
func TestWeighFilePeakRSS(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests 60 MB twice in -short")
	}
	if PeakRSS() == 0 {
		t.Skip("no /proc/self/status")
	}
	t.Parallel()
	const mem = 48 << 20
	dir := t.TempDir()
	in := filepath.Join(dir, "kw.txt")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	spec := gen.Spec{Kind: "kron", Scale: 18, EdgeFactor: 16, Seed: 1}
	if _, err := gen.WriteWeighted(f, spec, gen.WeightSpec{Lo: 1, Hi: 255}, 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	st, _ := os.Stat(in)
	for _, c := range []struct {
		order             string
		directed, relabel bool
	}{{store.OrderDegree, false, false}, {store.OrderInput, true, true}} {
		t.Run(fmt.Sprintf("%s-directed=%v-relabel=%v", c.order, c.directed, c.relabel), func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWeighRSS$", "-test.v")
			cmd.Env = append(os.Environ(), fmt.Sprintf("OOC_WEIGH_RSS=%s|%s|%d|%s|%t|%t", in, filepath.Join(dir, "g.ooc"), mem, c.order, c.relabel, c.directed))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("child: %v\n%s", err, out)
			}
			var peak, edges, windows int64
			i := strings.Index(string(out), "peak-rss=")
			if i < 0 {
				t.Fatalf("child printed no peak:\n%s", out)
			}
			fmt.Sscanf(string(out[i:]), "peak-rss=%d edges=%d windows=%d", &peak, &edges, &windows)
			t.Logf("peak RSS %s for a %s budget, %s input, %d edges stored, %d windows", bytesize.Format(peak), bytesize.Format(mem),
				bytesize.Format(st.Size()), edges, windows)
			if st.Size() < mem || windows < 3 {
				t.Errorf("%d edges in %d windows: want several", edges, windows)
			}
			if limit := int64(mem) * 11 / 10; peak > limit {
				t.Errorf("peak RSS %s exceeds %s (a %s budget)", bytesize.Format(peak), bytesize.Format(limit), bytesize.Format(mem))
			}
		})
	}
}

// TestHelperWeighRSS is the child of TestWeighFilePeakRSS.
func TestHelperWeighRSS(t *testing.T) {
	arg := os.Getenv("OOC_WEIGH_RSS")
	if arg == "" {
		t.Skip("run by TestWeighFilePeakRSS")
	}
	parts := strings.Split(arg, "|")
	var mem int64
	fmt.Sscan(parts[2], &mem)
	var log bytes.Buffer
	rep, err := File(parts[0], Options{Dest: parts[1], Force: true, Mem: mem, Workers: 2, Weights: true, Order: parts[3],
		Relabel: parts[4] == "true", Directed: parts[5] == "true", Log: &log, Verbose: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "(estimated from its first MiB)") || !strings.Contains(log.String(), "pass 2 reads") {
		t.Fatalf("not the two-pass path, chosen from the file's size:\n%s", log.String())
	}
	var windows int64
	if i := strings.LastIndex(log.String(), "weights: "); i >= 0 {
		fmt.Sscanf(log.String()[i:], "weights: %d windows", &windows)
	}
	fmt.Printf("peak-rss=%d edges=%d windows=%d\n", PeakRSS(), rep.Manifest.Edges, windows)
}
