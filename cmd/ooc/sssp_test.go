package main

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The graph of bfsGraph: the path 0-1-2-3, the edge 4-5 apart and the isolated vertex 6.

func TestSSSPCommand(t *testing.T) {
	dir := bfsGraph(t)
	code, stdout, stderr := runCLI(t, "", "sssp", "--backend", "cpu", "--unit-weights", "--src", "0", "--text", "-v", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if want := "0 0 0\n1 1 0\n2 2 1\n3 3 2\n4 - -\n5 - -\n6 - -\n"; stdout != want {
		t.Fatalf("text %q, want %q", stdout, want)
	}
	for _, want := range []string{"source 0", "reached 4 vertices", "largest distance 3", "delta 1", "backend cpu", "plan: cpu", "edges relaxed"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}
}

func TestSSSPJSONAndFile(t *testing.T) {
	dir := bfsGraph(t)
	out := filepath.Join(t.TempDir(), "dist.bin")
	code, stdout, stderr := runCLI(t, "", "sssp", "--backend", "cpu", "--unit-weights", "--src", "5", "--json", "--validate", "--delta", "3", "-o", out, dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got ssspJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v: %q", err, stdout)
	}
	if got.Source != 5 || got.Reached != 2 || got.MaxDistance != 1 || got.Delta != 3 || !got.Validated || !got.UnitWeights || got.Backend != "cpu" {
		t.Fatalf("%+v", got)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 32+8*7 || string(b[:8]) != ssspMagic || binary.LittleEndian.Uint64(b[8:]) != 7 || binary.LittleEndian.Uint64(b[16:]) != 5 {
		t.Fatalf("distance file: %d bytes, header %q", len(b), b[:min(len(b), 32)])
	}
	none := ^uint32(0)
	for v, want := range []uint32{none, none, none, none, 1, 0, none} {
		if d := binary.LittleEndian.Uint32(b[32+4*v:]); d != want {
			t.Errorf("distance of %d: %d, want %d", v, d, want)
		}
	}
	for v, want := range []uint32{none, none, none, none, 5, 5, none} {
		if p := binary.LittleEndian.Uint32(b[32+4*7+4*v:]); p != want {
			t.Errorf("parent of %d: %d, want %d", v, p, want)
		}
	}
}

func TestSSSPBadArgs(t *testing.T) {
	dir := bfsGraph(t)
	code, _, stderr := runCLI(t, "", "sssp", "--src", "0", dir)
	if code != exitUsage || !strings.Contains(stderr, "--unit-weights") || !strings.Contains(stderr, "ingest it with --weights") {
		t.Errorf("no weights: exit %d, %q; want exit 2 naming --weights and --unit-weights", code, stderr)
	}
	wantUsage(t, []string{"sssp", "--unit-weights", dir}, [][]string{
		{"--src", "6"}, // isolated
		{"--src", "7"}, // not a vertex
		{"--backend", "tpu"},
		{"--workers", "-1"},
		{"--delta", "-1"},
		{"--delta", "4294967296"},
		{"--text", "--json"},
	})
	corruptGraph(t, dir)
	if code, _, stderr := runCLI(t, "", "sssp", "--unit-weights", "--src", "0", dir); code != exitCorrupt {
		t.Errorf("corrupt graph: exit %d, %q", code, stderr)
	}
}

// TestSSSPWeighted ingests a DIMACS file with --weights (a repeated arc: the lighter
// counts) and checks the distances sssp prints.
func TestSSSPWeighted(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "road.gr", "p sp 4 5\na 1 2 70\na 1 2 3\na 2 3 5\na 1 3 9\na 3 4 1\n")
	g := dir + "/road.ooc"
	if code, _, stderr := runCLI(t, "", "ingest", "-q", "--weights", "--directed", "-o", g, in); code != 0 {
		t.Fatalf("ingest: exit %d: %s", code, stderr)
	}
	if code, stdout, stderr := runCLI(t, "", "verify", g); code != 0 || !strings.Contains(stdout, "weighted") {
		t.Fatalf("verify: exit %d: %s%s", code, stdout, stderr)
	}
	code, stdout, stderr := runCLI(t, "", "sssp", "--src", "1", "--validate", "--text", g)
	if code != 0 {
		t.Fatalf("sssp: exit %d: %s", code, stderr)
	}
	if want := "1 0 1\n2 3 1\n3 8 2\n4 9 3\n"; stdout != want {
		t.Fatalf("sssp printed %q, want %q", stdout, want)
	}
}

// TestSSSPFloatWeights ingests a real MatrixMarket file (fractional values; a repeated
// entry: the lighter counts) and checks that the graph says float32 weights and that
// sssp gives float32 distances: in --text, the summary, --json and the -o file (its
// float flag), validated against Dijkstra.
func TestSSSPFloatWeights(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "road.mtx", "%%MatrixMarket matrix coordinate real general\n4 4 6\n1 2 70.5\n1 2 0.1\n2 3 0.2\n1 3 0.35\n3 4 1e-3\n4 1 2.5\n")
	g := dir + "/road.ooc"
	if code, _, stderr := runCLI(t, "", "ingest", "-q", "--weights", "--directed", "-o", g, in); code != 0 {
		t.Fatalf("ingest: exit %d: %s", code, stderr)
	}
	if code, stdout, stderr := runCLI(t, "", "info", g); code != 0 || !strings.Contains(stdout, "a float32 weight per stored edge") {
		t.Fatalf("info: exit %d: %s%s", code, stdout, stderr)
	}
	if code, stdout, stderr := runCLI(t, "", "verify", g); code != 0 || !strings.Contains(stdout, "5 float32-weighted edges") {
		t.Fatalf("verify: exit %d: %s%s", code, stdout, stderr)
	}
	if code, stdout, stderr := runCLI(t, "", "upgrade", g); code != 0 || !strings.Contains(stdout, "already format version 7") {
		t.Fatalf("upgrade: exit %d: %s%s", code, stdout, stderr)
	}
	f := func(x float32) string { return strconv.FormatFloat(float64(x), 'g', -1, 32) }
	d3 := float32(0.1) + float32(0.2) // less than 0.35: the path through 2
	d4 := d3 + float32(1e-3)
	code, stdout, stderr := runCLI(t, "", "sssp", "--src", "1", "--validate", "--text", "-v", g)
	if code != 0 {
		t.Fatalf("sssp: exit %d: %s", code, stderr)
	}
	if want := "1 0 1\n2 0.1 1\n3 " + f(d3) + " 2\n4 " + f(d4) + " 3\n"; stdout != want {
		t.Fatalf("sssp printed %q, want %q", stdout, want)
	}
	for _, want := range []string{"largest distance " + f(d4), "validated"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}
	out := filepath.Join(dir, "dist.bin")
	code, stdout, stderr = runCLI(t, "", "sssp", "--src", "1", "--json", "--delta", "0.05", "-o", out, g)
	if code != 0 {
		t.Fatalf("sssp --json: exit %d: %s", code, stderr)
	}
	var got ssspJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v: %q", err, stdout)
	}
	if wantMax, _ := strconv.ParseFloat(f(d4), 64); !got.Float || got.MaxDistance != wantMax || got.Delta != 0.05 || got.Reached != 4 {
		t.Fatalf("%+v (%s)", got, stdout)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 32+8*4 || binary.LittleEndian.Uint32(b[28:]) != ssspFloatFlag {
		t.Fatalf("distance file: %d bytes, flags %x", len(b), b[28:32])
	}
	for v, want := range []float32{0, 0.1, d3, d4} {
		if d := math.Float32frombits(binary.LittleEndian.Uint32(b[32+4*v:])); d != want {
			t.Errorf("distance of %d: %g, want %g", v, d, want)
		}
	}
	pq := filepath.Join(dir, "dist.parquet")
	if code, _, stderr := runCLI(t, "", "sssp", "--src", "1", "-o", pq, g); code != 0 {
		t.Fatalf("sssp -o .parquet: exit %d: %s", code, stderr)
	}
	pf, err := os.Open(pq)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	st, _ := pf.Stat()
	rows := readTable(t, pf, st.Size())
	if len(rows) != 4 {
		t.Fatalf("%d rows in the Parquet table, want 4", len(rows))
	}
	for i, want := range []float32{0, 0.1, d3, d4} {
		if d, ok := rows[i]["distance"].(float64); !ok || d != float64(want) || rows[i]["id"] != int64(i+1) {
			t.Errorf("Parquet row %d: %v, want id %d at distance %g (a double)", i, rows[i], i+1, want)
		}
	}
	if code, stdout, stderr := runCLI(t, "", "sssp", "--src", "1", "--unit-weights", "--text", g); code != 0 || stdout != "1 0 1\n2 1 1\n3 1 1\n4 2 3\n" {
		t.Errorf("--unit-weights: exit %d, %q %s", code, stdout, stderr)
	}
	// export writes the float weights back as text, the shortest digits
	if code, stdout, stderr := runCLI(t, "", "export", "-o", "-", g); code != 0 || !strings.Contains(stdout, "1 2 0.1\n") || !strings.Contains(stdout, "3 4 0.001\n") {
		t.Errorf("export: exit %d, %q %s", code, stdout, stderr)
	}
	if code, _, stderr := runCLI(t, "", "export", "-o", filepath.Join(dir, "w.wsg"), g); code != exitUsage || !strings.Contains(stderr, "float32") {
		t.Errorf("export .wsg of float weights: exit %d, %q", code, stderr)
	}
	// text: fractional weights need --float-weights, which needs --weights
	txt := writeFile(t, dir, "w.txt", "0 1 0.5\n1 2 0.25\n")
	if code, _, stderr := runCLI(t, "", "ingest", "-q", "--weights", "-o", dir+"/w.ooc", txt); code == 0 || !strings.Contains(stderr, "w.txt:1: weight 0.5 is not an integer") {
		t.Errorf("fractional text weights without --float-weights: exit %d, %q", code, stderr)
	}
	if code, _, stderr := runCLI(t, "", "ingest", "-q", "--float-weights", "-o", dir+"/w.ooc", txt); code != exitUsage {
		t.Errorf("--float-weights without --weights: exit %d, %q", code, stderr)
	}
	if code, _, stderr := runCLI(t, "", "ingest", "-q", "--weights", "--float-weights", "-o", dir+"/w.ooc", txt); code != 0 {
		t.Fatalf("ingest --float-weights: exit %d, %q", code, stderr)
	}
	if code, stdout, stderr := runCLI(t, "", "sssp", "--src", "0", "--validate", "--text", dir+"/w.ooc"); code != 0 || stdout != "0 0 0\n1 0.5 0\n2 0.75 1\n" {
		t.Errorf("sssp on --float-weights text: exit %d, %q %s", code, stdout, stderr)
	}
	// an integer graph takes a whole-number --delta
	ints := writeFile(t, dir, "i.gr", "p sp 2 1\na 1 2 3\n")
	if code, _, stderr := runCLI(t, "", "ingest", "-q", "--weights", "-o", dir+"/i.ooc", ints); code != 0 {
		t.Fatalf("ingest: %s", stderr)
	}
	if code, _, stderr := runCLI(t, "", "sssp", "--src", "1", "--delta", "0.5", dir+"/i.ooc"); code != exitUsage || !strings.Contains(stderr, "whole number") {
		t.Errorf("--delta 0.5 on integer weights: exit %d, %q", code, stderr)
	}
}
