package gpu

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// offsetsOf builds a shard's offsets from list lengths.
func offsetsOf(lens []uint32) []uint32 {
	off := make([]uint32, len(lens)+1)
	for i, l := range lens {
		off[i+1] = off[i] + l
	}
	return off
}

// checkChunks verifies that chunks cover [0, n) in order, that streamed chunks hold their
// lists within c bytes from an 8-aligned start, and that zero-copy chunks are lists larger
// than c (once aligned) only.
func checkChunks(t *testing.T, off []uint32, c int64, ch []Chunk) {
	t.Helper()
	n := uint32(len(off) - 1)
	next := uint32(0)
	for k, x := range ch {
		if x.A != next || x.B <= x.A || x.B > n {
			t.Fatalf("chunk %d = [%d,%d), want it to start at %d and end in (%d,%d]", k, x.A, x.B, next, x.A, n)
		}
		next = x.B
		if x.End != int64(off[x.B]) {
			t.Fatalf("chunk %d ends at byte %d, its last list ends at %d", k, x.End, off[x.B])
		}
		if x.Stream {
			if x.Start != int64(off[x.A])&^7 || x.Bytes() > c {
				t.Fatalf("streamed chunk %d = bytes [%d,%d) (%d), lists from %d, C = %d", k, x.Start, x.End, x.Bytes(), off[x.A], c)
			}
			continue
		}
		for v := x.A; v < x.B; v++ {
			if int64(off[v+1])-int64(off[v])&^7 <= c {
				t.Fatalf("zero-copy chunk %d holds list %d of %d bytes, which fits C = %d", k, v, off[v+1]-off[v], c)
			}
		}
		if k > 0 && !ch[k-1].Stream {
			t.Fatalf("zero-copy chunks %d and %d are adjacent, not merged", k-1, k)
		}
	}
	if next != n {
		t.Fatalf("chunks end at %d, shard has %d vertices", next, n)
	}
}

func TestChunks(t *testing.T) {
	// lists of 10 bytes each, C = 64: 6 lists per chunk after alignment
	off := offsetsOf([]uint32{10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10})
	ch := chunksOf(off, 64)
	checkChunks(t, off, 64, ch)
	if len(ch) < 3 {
		t.Errorf("13 lists of 10 bytes in chunks of 64: %d chunks, want at least 3", len(ch))
	}
	// oversize lists (two in a row, then one alone) and empty lists
	off = offsetsOf([]uint32{0, 5, 200, 300, 3, 0, 0, 70, 1, 1})
	ch = chunksOf(off, 64)
	checkChunks(t, off, 64, ch)
	var zc int
	for _, x := range ch {
		if !x.Stream {
			zc++
		}
	}
	if zc != 2 {
		t.Errorf("want 2 zero-copy chunks (200+300 merged, 70 alone), got %+v", ch)
	}
	if chunksOf([]uint32{0}, 64) != nil || chunksOf(nil, 64) != nil {
		t.Error("an empty shard has chunks")
	}
	// random shards
	r := rand.New(rand.NewPCG(1, 2))
	for it := 0; it < 200; it++ {
		lens := make([]uint32, 1+r.IntN(500))
		for i := range lens {
			if r.IntN(10) == 0 {
				lens[i] = uint32(r.IntN(5000))
			} else {
				lens[i] = uint32(r.IntN(40))
			}
		}
		c := int64(64 + r.IntN(3000))
		off := offsetsOf(lens)
		checkChunks(t, off, c, chunksOf(off, c))
	}
}

func TestChoose(t *testing.T) {
	l := Link{Device: "x", CopyBps: 50e9, ZeroBps: 5e9, Window: 64 << 20}
	if Choose(Never, l, 1<<30, 1<<30) || !Choose(Always, l, 1<<30, 0) {
		t.Error("forced modes ignored")
	}
	// 1 GiB shard: streaming takes 1/50 s; zero-copy of 200 MB takes 1/25 s -> stream
	if !Choose(Auto, l, 1<<30, 200e6) {
		t.Error("auto read 200 MB zero-copy at 5 GB/s rather than copy 1 GiB at 50 GB/s")
	}
	// 50 MB decoded: 10 ms zero-copy vs 21 ms copy -> zero-copy
	if Choose(Auto, l, 1<<30, 50e6) {
		t.Error("auto streamed 1 GiB to save 50 MB of zero-copy reads")
	}
	if Choose(Auto, Link{}, 1<<30, 1<<30) {
		t.Error("auto streamed without a valid link probe")
	}
	for _, s := range []string{"", "auto", "always", "never"} {
		if m, err := ParseMode(s); err != nil || (s != "" && m.String() != s) {
			t.Errorf("ParseMode(%q) = %v, %v", s, m, err)
		}
	}
	if _, err := ParseMode("sometimes"); err == nil {
		t.Error("ParseMode accepted sometimes")
	}
}

func TestLinkCache(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", dir)
	t.Setenv("HOME", dir)
	dev := "NVIDIA H200 / PCIe (x16)"
	if _, ok := LoadLink(dev, 8<<20); ok {
		t.Fatal("a cache before any probe")
	}
	l := Link{Device: dev, CopyBps: 55e9, Chunk: 8 << 20, ZeroBps: 50e9, Window: 64 << 20, ProbeSec: 0.01}
	if err := SaveLink(l); err != nil {
		t.Fatal(err)
	}
	got, ok := LoadLink(dev, 8<<20)
	if !ok || got != l {
		t.Fatalf("LoadLink = %+v, %v; want %+v", got, ok, l)
	}
	if _, ok := LoadLink("another GPU", 8<<20); ok {
		t.Error("another device read this device's cache")
	}
	if _, ok := LoadLink(dev, 504); ok {
		t.Error("a probe with 8 MiB copies was read back for 504-byte staging")
	}
	p, err := linkPath(dev, 8<<20)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(p) != "link-NVIDIA_H200___PCIe__x16_-8388608.json" {
		t.Errorf("cache file %s: name not sanitized", p)
	}
	for _, bad := range []string{"{", `{"device":"` + dev + `","copy_bytes_per_second":0,"zero_copy_bytes_per_second":1e9}`, ""} {
		if err := os.WriteFile(p, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, ok := LoadLink(dev, 8<<20); ok {
			t.Errorf("bad cache %q accepted", bad)
		}
	}
}

func TestPlanStage(t *testing.T) {
	t.Setenv("OOC_GPU_STAGE", "4KiB")
	s := shards(8, 1000, 1<<20)
	staged, rings := 0, 0
	for _, budget := range []int64{200 << 10, 1 << 20, 3 << 20, 64 << 20} {
		p, err := Make(8000, s, budget, work(8000, s))
		if err != nil {
			continue
		}
		if p.Stage > 0 {
			staged++
			if !strings.Contains(p.String(), fmt.Sprintf("staging: %d x", p.Stages)) {
				t.Errorf("plan with staging does not show it:\n%s", p)
			}
			if p.Stages != 2 && p.Stages != StageRing {
				t.Errorf("budget %d: %d staging buffers, want 2 or %d", budget, p.Stages, StageRing)
			}
			if p.Stages == StageRing {
				rings++
			}
		}
		if p.DeviceUse > budget {
			t.Errorf("budget %d: plan uses %d", budget, p.DeviceUse)
		}
		if p.Pinned > 0 && p.Stage != 4096 && 2*StageBuffer(4096) <= budget-Sum(p.State) {
			t.Errorf("budget %d: adjacency pinned but no staging (stage %d)\n%s", budget, p.Stage, p)
		}
		if p.Pinned == 0 && p.Stage != 0 {
			t.Errorf("budget %d: staging reserved with the whole graph resident", budget)
		}
	}
	if staged == 0 || rings == 0 {
		t.Errorf("%d budgets got staging buffers, %d the ring of %d", staged, rings, StageRing)
	}
	t.Setenv("OOC_GPU_STAGE", "lots")
	if _, err := Make(8000, s, 1<<20, work(8000, s)); err == nil {
		t.Error("Make accepted OOC_GPU_STAGE=lots")
	}
}

// chunksOf is Chunks over an offset array of n+1 entries.
func chunksOf(off []uint32, c int64) []Chunk {
	if len(off) == 0 {
		return Chunks(0, nil, c)
	}
	return Chunks(uint32(len(off)-1), func(i uint32) uint32 { return off[i] }, c)
}
