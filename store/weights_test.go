package store

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWeightsWorkedExample builds FORMAT.md's WEIGHTS example and compares the bytes.
func TestWeightsWorkedExample(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "w.ooc")
	b, err := Create(dir, CreateOptions{ShardVertices: 10, Weighted: true})
	if err != nil {
		t.Fatal(err)
	}
	w := b.Writer(Out)
	if err := w.AppendWeightedList(10, []uint32{5, 7, 300}, []uint32{4, 1, 70000}); err != nil {
		t.Fatal(err)
	}
	if err := w.AppendWeightedList(12, []uint32{10, 11}, []uint32{9, 256}); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(&Manifest{Vertices: 301, Directed: true, Created: fixtureCreated}); err == nil {
		t.Fatal("a directed graph without in-lists was published")
	}
	b, err = Create(dir, CreateOptions{ShardVertices: 10, Weighted: true})
	if err != nil {
		t.Fatal(err)
	}
	w = b.Writer(Out)
	w.AppendWeightedList(10, []uint32{5, 7, 300}, []uint32{4, 1, 70000})
	w.AppendWeightedList(12, []uint32{10, 11}, []uint32{9, 256})
	if err := b.Commit(&Manifest{Vertices: 301, Created: fixtureCreated}); err != nil {
		t.Fatal(err)
	}
	g, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if !g.M.Weighted || g.M.FormatVersion != Version {
		t.Fatalf("manifest weighted %v version %d, want true %d", g.M.Weighted, g.M.FormatVersion, Version)
	}
	s := g.Out().ShardOf(10)
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	got, _ := s.SectionBytes(SecWeights)
	want := []byte{4, 0, 0, 0, 1, 0, 0, 0, 0x70, 0x11, 1, 0, 9, 0, 0, 0, 0, 1, 0, 0}
	if s.Lo != 10 || !bytes.Equal(got, want) {
		t.Fatalf("shard lo %d, WEIGHTS % x; want lo 10, % x", s.Lo, got, want)
	}
	// FORMAT.md's DIRECTORY example: the same shard, [10, 20).
	dirWant := []byte{
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 2, // group 0: adj 0, word 0, edge 0, dmin 0, wo 4, wd 2
		6, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, // sentinel: adj 6, word 1, edge 5
		0x30, 0x82, 0x32, 0x0C, 0xC3, 0x30, 0x0C, 0x03, // the 10 pairs of 6 bits
		0, 0, 0, 0, 0, 0, 0, 0, // the zero word
	}
	if got := s.DirectoryBytes(); s.N != 10 || !bytes.Equal(got, dirWant) {
		t.Fatalf("shard of %d vertices, DIRECTORY % x; want 10, % x", s.N, got, dirWant)
	}
	if ws := s.WeightsOf(12); !slices.Equal(ws, []uint32{9, 256}) || len(s.WeightsOf(11)) != 0 {
		t.Fatalf("weights of 12 = %v, of 11 = %v", ws, s.WeightsOf(11))
	}
	if g.Out().ShardOf(0).WeightsOf(3) == nil {
		t.Fatal("a weighted graph's empty list has nil weights; want an empty slice")
	}
}

func TestWeightsMismatchRefused(t *testing.T) {
	for _, weighted := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "w.ooc")
		b, err := Create(dir, CreateOptions{Weighted: weighted})
		if err != nil {
			t.Fatal(err)
		}
		ws := []uint32{1}
		if !weighted {
			ws = []uint32{1, 2}
		}
		err = b.Writer(Out).AppendWeightedList(0, []uint32{1, 2}, ws)
		if err == nil || !strings.Contains(err.Error(), "weight") {
			t.Errorf("weighted %v: %v, want an error about weights", weighted, err)
		}
		b.Abort()
	}
}

// TestFloatWeightsRoundTrip writes a graph with float32 weights: it is version 7 (its
// manifest and every shard), says "weight_type":"float32", keeps the bit patterns,
// verifies, and counts as up to date for Upgrade; a graph with integer weights written
// beside it stays version 6.
func TestFloatWeightsRoundTrip(t *testing.T) {
	for _, float := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "f.ooc")
		b, err := Create(dir, CreateOptions{ShardVertices: 2, Weighted: true, FloatWeights: float})
		if err != nil {
			t.Fatal(err)
		}
		bits := []uint32{math.Float32bits(0.5), 0, math.Float32bits(3.25e-30), math.Float32bits(math.MaxFloat32)}
		lists := [][]uint32{{1, 2}, {0, 3}, {0}, {1}}
		ws := [][]uint32{{bits[0], bits[1]}, {bits[0], bits[2]}, {bits[1]}, {bits[2]}}
		for v, l := range lists {
			if err := b.Writer(Out).AppendWeightedList(uint32(v), l, ws[v]); err != nil {
				t.Fatal(err)
			}
		}
		if err := b.Commit(&Manifest{Vertices: 4, Created: fixtureCreated}); err != nil {
			t.Fatal(err)
		}
		raw, _ := os.ReadFile(filepath.Join(dir, ManifestName))
		if got := bytes.Contains(raw, []byte(`"weight_type":"float32"`)); got != float {
			t.Fatalf("float %v: manifest %s", float, raw)
		}
		m, err := Verify(dir)
		if err != nil {
			t.Fatal(err)
		}
		want := Version
		if float {
			want = FloatVersion
		}
		if m.FormatVersion != want || m.FloatWeights() != float {
			t.Fatalf("float %v: version %d, FloatWeights %v; want %d", float, m.FormatVersion, m.FloatWeights(), want)
		}
		g, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range g.Shards() {
			if s.Version != want {
				t.Errorf("shard %s is version %d, want %d", s.Path, s.Version, want)
			}
		}
		for v := range lists {
			if got := g.Out().ShardOf(uint32(v)).WeightsOf(uint32(v)); !slices.Equal(got, ws[v]) {
				t.Errorf("vertex %d weights %x, want %x", v, got, ws[v])
			}
		}
		g.Close()
		if _, err := Upgrade(dir, UpgradeOptions{}); !errors.Is(err, ErrUpToDate) {
			t.Errorf("Upgrade = %v, want ErrUpToDate", err)
		}
	}
}
