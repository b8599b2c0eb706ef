//go:build cuda

package bfs

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/gpu"
	"github.com/oocgraph/ooc/ingest"
	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/internal/testseed"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

// onDevice places g on device 0 with BFS's own workspace, within the smallest budget that
// holds it (everything pinned) or everything resident, and loads bfs.cu.
func onDevice(t *testing.T, g *store.Graph, allPinned bool) (*GPU, func()) {
	t.Helper()
	dg, free := gpu.LoadForTest(t, g, DeviceState(g.NumVertices(), gpu.Sizes(g)), allPinned)
	b, err := NewGPU(dg)
	if err != nil {
		free()
		t.Fatal(err)
	}
	return b, func() { b.Close(); free() }
}

// eachPlacement runs f on g placed on the device resident and all pinned, with pinned
// shards read a shard a window or all in one window, and the levels run as launches
// (coopQueue 0) or all in td_levels (coopQueue MaxUint32), then with every coopQueue of
// extra in one window; name says which. window and coopQueue are restored after.
func eachPlacement(t *testing.T, g *store.Graph, extra []uint32, f func(b *GPU, name string)) {
	t.Helper()
	defer func(w int64, q uint32) { window, coopQueue = w, q }(window, coopQueue)
	modes := []struct {
		w int64
		q uint32
	}{{1, 0}, {window, 0}, {1, math.MaxUint32}, {window, math.MaxUint32}}
	for _, q := range extra {
		modes = append(modes, struct {
			w int64
			q uint32
		}{window, q})
	}
	for _, c := range modes {
		window, coopQueue = c.w, c.q
		for _, pinned := range []bool{false, true} {
			b, done := onDevice(t, g, pinned)
			f(b, fmt.Sprintf("window=%d/coop=%d/pinned=%v", c.w, c.q, pinned))
			done()
		}
	}
}

// TestGPUMatchesCPU runs the GPU search on the edge cases, resident and all pinned, and
// compares it with the CPU's: levels equal, parents a valid BFS tree.
func TestGPUMatchesCPU(t *testing.T) {
	for _, c := range testgraph.Cases() {
		g := testgraph.Build(t, c.N, c.Edges, c.Directed, 64)
		for _, pinned := range []bool{false, true} {
			name := fmt.Sprintf("%s/pinned=%v", c, pinned)
			b, done := onDevice(t, g, pinned)
			n := g.NumVertices()
			for _, src := range []uint32{0, n / 2, n - 1} {
				if n == 0 {
					break
				}
				want, err := Run(store.NewCompressed(g), src, Options{})
				if err != nil {
					t.Fatal(err)
				}
				got, err := b.Run(src, Options{})
				if err != nil {
					t.Fatalf("%s src %d: %v", name, src, err)
				}
				if !slices.Equal(got.Level, want.Level) || got.Reached != want.Reached || got.EdgesTraversed != want.EdgesTraversed {
					t.Errorf("%s src %d: GPU reached %d (%d edges), CPU %d (%d edges); levels equal %v", name, src,
						got.Reached, got.EdgesTraversed, want.Reached, want.EdgesTraversed, slices.Equal(got.Level, want.Level))
				}
				if err := validate.BFS(g, src, got.Parent, got.Level); err != nil {
					t.Errorf("%s src %d: %v", name, src, err)
				}
			}
			done()
		}
	}
}

// TestGPUBatches runs searches whose top-down phases outlast several batches (a path of
// 700 levels), start from a list td_long expands (a hub of 2,000 neighbours, whose level
// sends the search bottom-up), and, with alpha 1 (every level top-down), meet 40
// lists of 151 neighbours at once, more than the long-list queue holds (their threads
// expand the rest). Pinned shards are read in launches of one shard each (the window
// shrunk: a level's window launches alternate between two streams) or of all together;
// the levels run as launches (td_expand, td_long, td_scout), all in td_levels, or
// td_levels for the levels of one vertex alone (coopQueue 1: the search moves between
// the two). The levels must equal the CPU's, and so must each level's
// direction and frontier under GAPBS's rule alone (StrictSwitch, on both).
func TestGPUBatches(t *testing.T) {
	const hub, path, bush, twigs = 2000, 700, 40, 150
	var edges []testgraph.Edge
	for i := uint32(1); i <= hub; i++ {
		edges = append(edges, testgraph.Edge{U: 0, V: i})
	}
	for i := uint32(hub); i < hub+path; i++ {
		edges = append(edges, testgraph.Edge{U: i, V: i + 1})
	}
	root := uint32(hub + path + 1) // a separate component: root, bush hubs, their twigs
	next := root + 1 + bush
	for h := root + 1; h <= root+bush; h++ {
		edges = append(edges, testgraph.Edge{U: root, V: h})
		for range twigs {
			edges = append(edges, testgraph.Edge{U: h, V: next})
			next++
		}
	}
	g := testgraph.Build(t, next, edges, false, 512)
	if c := longCap(gpu.Sizes(g)); c >= bush {
		t.Fatalf("the long-list queue holds %d lists: the test needs fewer than %d", c, bush)
	}
	eachPlacement(t, g, []uint32{1}, func(b *GPU, place string) {
		if coopQueue > 0 && b.coop == 0 {
			t.Logf("the device takes no cooperative launch: td_levels not tested")
		}
		for _, run := range []struct {
			src   uint32
			alpha int
		}{{0, 0}, {5, 0}, {hub + path, 0}, {root, 0}, {root, 1}, {0, 1}} {
			name := fmt.Sprintf("%s/src=%d/alpha=%d", place, run.src, run.alpha)
			want, err := Run(store.NewCompressed(g), run.src, Options{Alpha: run.alpha, StrictSwitch: true})
			if err != nil {
				t.Fatal(err)
			}
			got, err := b.Run(run.src, Options{Alpha: run.alpha, StrictSwitch: true})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !slices.Equal(got.Level, want.Level) {
				t.Errorf("%s: levels differ from the CPU's", name)
			}
			if len(got.Levels) != len(want.Levels) {
				t.Errorf("%s: %d levels, CPU %d", name, len(got.Levels), len(want.Levels))
				continue
			}
			for i, l := range got.Levels {
				if c := want.Levels[i]; l.Direction != c.Direction || l.Frontier != c.Frontier || l.Level != c.Level {
					t.Errorf("%s: level %d %s frontier %d, CPU level %d %s frontier %d", name, l.Level, l.Direction,
						l.Frontier, c.Level, c.Direction, c.Frontier)
					break
				}
			}
			if err := validate.BFS(g, run.src, got.Parent, got.Level); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	})
}

// TestGPUSampledSwitch runs a search whose second level GAPBS's rule sends bottom-up (a hub
// of 8,000 neighbours) though a bottom-up level would examine far more (a clique of 300
// vertices the search never reaches, whose lists it would scan whole): the sampled rule
// keeps that level top-down, StrictSwitch sends it bottom-up. The hub's list is long
// (expanded by expandLong), in shards read a window at a time or all at once, by
// launches or td_levels; the levels must equal the CPU's, whose sampled rule decides the
// same, and the tree must be valid.
func TestGPUSampledSwitch(t *testing.T) {
	const hub, clique = 8000, 300
	var edges []testgraph.Edge
	edges = append(edges, testgraph.Edge{U: 0, V: 1})
	for i := uint32(2); i < hub+2; i++ {
		edges = append(edges, testgraph.Edge{U: 1, V: i})
	}
	for i := uint32(hub + 2); i < hub+2+clique; i++ {
		for j := i + 1; j < hub+2+clique; j++ {
			edges = append(edges, testgraph.Edge{U: i, V: j})
		}
	}
	g := testgraph.Build(t, hub+2+clique, edges, false, 4096)
	eachPlacement(t, g, nil, func(b *GPU, place string) {
		for _, strict := range []bool{false, true} {
			name := fmt.Sprintf("%s/strict=%v", place, strict)
			want, err := Run(store.NewCompressed(g), 0, Options{StrictSwitch: strict})
			if err != nil {
				t.Fatal(err)
			}
			got, err := b.Run(0, Options{StrictSwitch: strict})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !slices.Equal(got.Level, want.Level) {
				t.Errorf("%s: levels differ from the CPU's", name)
			}
			wantDir := TopDown
			if strict {
				wantDir = BottomUp
			}
			if len(got.Levels) < 2 || got.Levels[1].Direction != wantDir || want.Levels[1].Direction != wantDir {
				t.Errorf("%s: level 1 should run %s (GPU %v, CPU %v)", name, wantDir, got.Levels, want.Levels)
			}
			if err := validate.BFS(g, 0, got.Parent, got.Level); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	})
}

// TestGPULongLists expands top-down (alpha 1) a level of 48 long lists of random
// neighbours spread over 2^24 vertices (3 to 11 blocks each, most of them packed at 15-17
// bits a gap with exceptions), so expandLong's warps hold blocks of several lists and
// their stretches pass its shared buffer: some of a warp's blocks are decoded from the
// staged copy, the rest where they lie. Resident and all pinned, in windows of one shard
// or all, by launches or td_levels, by the staged kernels and by the plain ones (a lane a
// block: what a graph of shorter lists runs, whose lists never reach expandLong); the
// levels must equal the CPU's.
func TestGPULongLists(t *testing.T) {
	const n, hubs = 1 << 24, 48
	seed := testseed.Seed(t)
	r := rand.New(rand.NewPCG(seed, 19))
	var edges []testgraph.Edge
	for h := uint32(1); h <= hubs; h++ {
		edges = append(edges, testgraph.Edge{U: 0, V: h})
		for range 129 + r.IntN(576) {
			edges = append(edges, testgraph.Edge{U: h, V: hubs + 1 + r.Uint32N(n-hubs-1)})
		}
	}
	g := testgraph.Build(t, n, edges, false, 1<<20)
	eachPlacement(t, g, nil, func(b *GPU, place string) {
		if !b.staged {
			t.Fatalf("a graph of lists of up to %d neighbours runs the plain kernels", b.maxDeg)
		}
		// the staged kernels' occupancy bounds td_levels' grid, which the plain one fits
		for _, run := range []struct {
			alpha  int
			staged bool
		}{{1, true}, {0, true}, {1, false}} {
			alpha := run.alpha
			b.staged = run.staged
			name := fmt.Sprintf("%s/alpha=%d/staged=%v", place, alpha, b.staged)
			want, err := Run(store.NewCompressed(g), 0, Options{Alpha: alpha, StrictSwitch: true})
			if err != nil {
				t.Fatal(err)
			}
			got, err := b.Run(0, Options{Alpha: alpha, StrictSwitch: true})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !slices.Equal(got.Level, want.Level) || got.Reached != want.Reached {
				t.Errorf("%s: GPU reached %d, CPU %d; levels equal %v", name, got.Reached, want.Reached,
					slices.Equal(got.Level, want.Level))
			}
			if err := validate.BFS(g, 0, got.Parent, got.Level); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	})
}

// gatherEach runs f with the host gathering every top-down level with a pinned list
// (gatherMin 1, gatherDeg 0), share of its pinned windows, in chunks of chunk bytes, with
// at most max list bytes a level (a level with more reads its lists where they lie); the
// knobs are restored after.
func gatherEach(share float64, chunk, max int64, f func()) {
	defer func(m uint32, d, c, x int64, s float64) {
		gatherMin, gatherDeg, gatherChunk, gatherMax, gatherShare = m, d, c, x, s
	}(gatherMin, gatherDeg, gatherChunk, gatherMax, gatherShare)
	gatherMin, gatherDeg, gatherChunk, gatherMax, gatherShare = 1, 0, chunk, max, share
	f()
}

// TestGPUGathered forces the gathered top-down levels (gather_cuda.go) on a random graph
// of short lists with a hub of long ones (left to td_expand beside the gathered lists,
// expanded by td_long), on the edge cases and on a real graph: resident (nothing to
// gather) and all pinned, in windows of one shard or all, with levels by launches or
// td_levels (whose batches stop before a gathered level), every pinned window gathered,
// half of them (the rest read zero-copy) or as the measured rates say, in chunks of 64
// bytes (a chunk a slice of the entries) or 1 MiB, and with the gathered bytes capped at
// one (every list read where it lies; -short: half the windows, chunks of 64 bytes,
// levels of more than 4 KiB read where they lie). Levels must equal the CPU's, also each
// level's direction and frontier under GAPBS's rule alone, the tree must be valid, and a
// pinned search with every level top-down (alpha 1) and every window gathered must have
// copied lists.
func TestGPUGathered(t *testing.T) {
	seed := testseed.Seed(t)
	r := rand.New(rand.NewPCG(seed, 25))
	const n, hub = 3000, 400
	var edges []testgraph.Edge
	for u := uint32(1); u < n-50; u++ { // the last 50 vertices are isolated
		for range 1 + r.IntN(20) {
			edges = append(edges, testgraph.Edge{U: u, V: 1 + r.Uint32N(n-51)})
		}
	}
	for range hub {
		edges = append(edges, testgraph.Edge{U: 0, V: r.Uint32N(n - 50)})
	}
	random := testgraph.Build(t, n, edges, false, 8<<10)
	check := func(t *testing.T, g *store.Graph, b *GPU, name string, srcs []uint32, copies bool) {
		t.Helper()
		for _, src := range srcs {
			for _, alpha := range []int{0, 1} {
				name := fmt.Sprintf("%s/src=%d/alpha=%d", name, src, alpha)
				want, err := Run(store.NewCompressed(g), src, Options{Alpha: alpha, StrictSwitch: true})
				if err != nil {
					t.Fatal(err)
				}
				got, err := b.Run(src, Options{Alpha: alpha, StrictSwitch: true})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if !slices.Equal(got.Level, want.Level) || got.Reached != want.Reached {
					t.Errorf("%s: GPU reached %d, CPU %d; levels equal %v", name, got.Reached, want.Reached,
						slices.Equal(got.Level, want.Level))
				}
				if len(got.Levels) != len(want.Levels) {
					t.Errorf("%s: %d levels, CPU %d", name, len(got.Levels), len(want.Levels))
				} else {
					for i, l := range got.Levels {
						if c := want.Levels[i]; l.Direction != c.Direction || l.Frontier != c.Frontier {
							t.Errorf("%s: level %d %s frontier %d, CPU %s frontier %d", name, l.Level, l.Direction,
								l.Frontier, c.Direction, c.Frontier)
							break
						}
					}
				}
				if err := validate.BFS(g, src, got.Parent, got.Level); err != nil {
					t.Errorf("%s: %v", name, err)
				}
				if copies && alpha == 1 && b.gbuf != nil && got.Reached > 1 && got.BytesCopied == 0 {
					t.Errorf("%s: no list was gathered", name)
				}
			}
		}
	}
	runs := []struct {
		share      float64
		chunk, max int64
	}{{1, 64, math.MaxInt64}, {0.5, 64, math.MaxInt64}, {1, 1 << 20, math.MaxInt64}, {0, 1 << 20, math.MaxInt64}, {1, 1 << 20, 1}}
	if testing.Short() { // under compute-sanitizer: one run of each path
		runs = runs[1:2]
		runs[0].max = 1 << 12
	}
	for _, run := range runs {
		gatherEach(run.share, run.chunk, run.max, func() {
			eachPlacement(t, random, nil, func(b *GPU, place string) {
				if strings.Contains(place, "pinned=true") != (b.gbuf != nil) {
					t.Fatalf("%s: gathering %v", place, b.gbuf != nil)
				}
				name := fmt.Sprintf("share=%.1f/chunk=%d/max=%d/%s", run.share, run.chunk, run.max, place)
				check(t, random, b, name, []uint32{1, 0, n - 1, n / 2}, run.share == 1 && run.max == math.MaxInt64)
			})
		})
	}
	gatherEach(1, 64, math.MaxInt64, func() {
		for _, c := range testgraph.Cases() {
			g := testgraph.Build(t, c.N, c.Edges, c.Directed, 64)
			b, done := onDevice(t, g, true)
			if n := g.NumVertices(); n > 0 {
				for _, share := range []float64{1, 0.5} {
					gatherShare = share
					check(t, g, b, fmt.Sprintf("%s/share=%.1f", c, share), []uint32{0, n / 2, n - 1}, false)
				}
			}
			done()
		}
	})
	path := testgraph.Real(t, testgraph.Bundled)
	dir := filepath.Join(t.TempDir(), "g.ooc")
	if _, err := ingest.File(path, ingest.Options{Dest: dir, ShardBytes: 64 << 10}); err != nil {
		t.Fatal(err)
	}
	g := testgraph.Open(t, dir)
	for _, share := range []float64{1, 0.5} {
		gatherEach(share, 1<<16, math.MaxInt64, func() {
			for _, pinned := range []bool{false, true} {
				b, done := onDevice(t, g, pinned)
				name := fmt.Sprintf("%s/share=%.1f/pinned=%v", testgraph.Bundled, share, pinned)
				check(t, g, b, name, []uint32{0, 107, 1912, 4038}, share == 1)
				done()
			}
		})
	}
}

// TestGPUDamagedLists searches testgraph.Damaged's graphs (not checked: Check refuses
// "index" and "long", whose damage the device must find on its own too; "head" fails the
// first-neighbour array's fill at load) top-down from the damaged vertex and from its
// neighbour, in every placement, with every pinned list of one or two blocks gathered:
// each search returns the device decoders' *gpu.ListError for the vertex. "long" holds
// the gather bound: its list of two blocks is 65,536 bytes longer than its valid bytes,
// so an entry that kept its length's low 16 bits would copy exactly the valid list and
// the search would answer.
func TestGPUDamagedLists(t *testing.T) {
	gatherEach(1, 64, math.MaxInt64, func() {
		for _, kind := range append(testgraph.DamagedKinds, testgraph.ShortDamagedKinds...) {
			if kind == "head" {
				continue
			}
			g, bad := testgraph.Damaged(t, kind), testgraph.DamagedAt(kind)
			next := uint32(testgraph.DamagedNeighbour) // a neighbour of bad, whose search reaches it at level 1
			switch kind {
			case "trailing1":
				next = testgraph.DamagedVertex
			case "trailing2":
				next = testgraph.DamagedRing + 1
			}
			eachPlacement(t, g, nil, func(b *GPU, place string) {
				for _, src := range []uint32{bad, next} {
					name := fmt.Sprintf("%s/%s/src=%d", kind, place, src)
					r, err := b.Run(src, Options{Alpha: 1})
					var le *gpu.ListError
					switch {
					case err == nil:
						t.Errorf("%s: answered from a damaged list (%d reached)", name, r.Reached)
					case !errors.As(err, &le) || le.Vertex != bad || !errors.Is(err, store.ErrCorrupt):
						t.Errorf("%s: %v is not the device's error for vertex %d's list", name, err, bad)
					}
				}
			})
		}
	})
}
