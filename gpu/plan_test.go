package gpu

import (
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
)

func shards(k int, n uint32, adj int64) []ShardSize {
	var s []ShardSize
	for i := 0; i < k; i++ {
		s = append(s, ShardSize{Dir: store.Out, Index: i, Lo: uint32(i) * n, N: n, Edges: uint64(adj),
			Directory: 2 * int64(n), Adj: adj})
	}
	return s
}

func TestPlanFitsAll(t *testing.T) {
	s := shards(4, 1000, 1<<20)
	p, err := Make(4000, s, 1<<30, work(4000, s))
	if err != nil {
		t.Fatal(err)
	}
	if p.Pinned != 0 {
		t.Errorf("pinned %d bytes with a budget far above the graph", p.Pinned)
	}
	for _, sh := range p.Shards {
		if sh.IndexAt != Resident || sh.AdjAt != Resident {
			t.Errorf("shard %d not resident: %+v", sh.ShardSize.Index, sh)
		}
	}
	if p.DeviceUse > p.Budget {
		t.Errorf("plan uses %d > budget %d", p.DeviceUse, p.Budget)
	}
}

// TestPlanBudget checks that no budget is ever exceeded, that indexes go resident before
// adjacency, and that adjacency goes resident in shard order.
func TestPlanBudget(t *testing.T) {
	s := shards(8, 100000, 8<<20)
	full, err := Make(800000, s, 1<<40, work(800000, s))
	if err != nil {
		t.Fatal(err)
	}
	state := Sum(full.State)
	for budget := state; budget < state+80<<20; budget += 3 << 20 {
		p, err := Make(800000, s, budget, work(800000, s))
		if err != nil {
			t.Fatalf("budget %d: %v", budget, err)
		}
		if p.DeviceUse > budget {
			t.Fatalf("budget %d: plan uses %d", budget, p.DeviceUse)
		}
		seenPinnedAdj := false
		for _, sh := range p.Shards {
			if sh.AdjAt == Resident && sh.IndexAt != Resident {
				t.Fatalf("budget %d: adj resident without its index", budget)
			}
			if sh.AdjAt == Pinned {
				seenPinnedAdj = true
			} else if seenPinnedAdj {
				t.Fatalf("budget %d: adjacency not resident in shard order", budget)
			}
		}
		if p.Resident+p.Pinned != 8*(8<<20+2*100000) {
			t.Fatalf("budget %d: resident+pinned = %d", budget, p.Resident+p.Pinned)
		}
		if !strings.Contains(p.String(), "memory plan") {
			t.Fatal("plan text")
		}
	}
}

func TestPlanStateTooBig(t *testing.T) {
	_, err := Make(1<<26, shards(1, 1<<26, 1<<30), 100<<20, work(1<<26, shards(1, 1<<26, 1<<30)))
	if !errors.Is(err, ErrStateTooBig) {
		t.Fatalf("got %v", err)
	}
	m := regexp.MustCompile(`--vram (\d+)MiB or more would run`).FindStringSubmatch(err.Error())
	if m == nil {
		t.Fatalf("error does not say what budget would run: %v", err)
	}
	// The suggestion is a budget that runs.
	mib, _ := strconv.ParseInt(m[1], 10, 64)
	if _, err := Make(1<<26, shards(1, 1<<26, 1<<30), mib<<20, work(1<<26, shards(1, 1<<26, 1<<30))); err != nil {
		t.Errorf("the suggested --vram %dMiB: %v", mib, err)
	}
}

// work is a workspace like BFS's (bfs.DeviceState) for n vertices and shards s.
func work(n uint32, s []ShardSize) []Item {
	v := int64(n) + 1
	words := (v + 31) / 32
	huge := int64(MaxDirEdges(s)/(8*store.BlockSize)) + 1
	return []Item{{"parent", 4 * v}, {"level", 4 * v}, {"queue-a", 4 * v}, {"queue-b", 4 * v},
		{"visited", 4 * words}, {"frontier", 4 * words}, {"next", 4 * words}, {"huge", 4 * huge},
		{"counters", 64}, {"shard-bytes", int64(16 * max(len(s), 1))}}
}

// TestSizesCountDirectory: the plan places each shard's DIRECTORY section as the shard's
// index, at its length in the file, so what it counts resident is what Load copies.
func TestSizesCountDirectory(t *testing.T) {
	const n = 3000
	lists := make([][]uint32, n)
	for v := uint32(0); v < n; v++ {
		if v > 0 {
			lists[v] = append(lists[v], v-1)
		}
		if v+1 < n {
			lists[v] = append(lists[v], v+1)
		}
	}
	g := testgraph.BuildLists(t, lists, store.CreateOptions{ShardBytes: 2000})
	sizes := Sizes(g)
	if len(sizes) < 2 || len(sizes) != len(g.Out().Shards) {
		t.Fatalf("%d sizes for %d shards; the test wants several", len(sizes), len(g.Out().Shards))
	}
	var want int64
	for i, s := range g.Out().Shards {
		d := int64(len(s.DirectoryBytes()))
		if d == 0 || sizes[i].Directory != d || sizes[i].Adj != int64(len(s.Adj)) {
			t.Fatalf("shard %d: plan sizes %+v, DIRECTORY %d bytes, ADJ %d", i, sizes[i], d, len(s.Adj))
		}
		want += d + int64(len(s.Adj))
	}
	p, err := Make(n, sizes, 1<<30, work(n, sizes))
	if err != nil {
		t.Fatal(err)
	}
	if p.Resident != want || p.Pinned != 0 {
		t.Fatalf("plan: %d bytes resident, %d pinned; the sections hold %d", p.Resident, p.Pinned, want)
	}
}

// TestPlanFirstK checks how many first neighbours the plan keeps: FirstKMax when they fit
// beside the indexes and take at most half the graph, FirstK when only that fits or the
// lists are short, none when the graph fits or the algorithms read none.
func TestPlanFirstK(t *testing.T) {
	const n = 100000
	long, short := shards(4, n/4, 8<<20), shards(4, n/4, 300<<10) // 4 x 8 MiB, or 4 x 300 KiB of lists
	state := Sum(append(work(n, long), TableItem(4)))
	var index int64
	for _, s := range long {
		index += align(s.Directory)
	}
	first := func(k int) int64 { return FirstBytes(n, k) }
	for _, c := range []struct {
		name   string
		s      []ShardSize
		budget int64
		first  bool
		k      int
	}{
		{"room for four", long, state + index + first(FirstKMax) + 1<<14, true, FirstKMax},
		{"room for two", long, state + index + first(FirstK) + 1<<10, true, FirstK},
		{"room for none", long, state + index + first(FirstK) - 1<<10, true, 0},
		{"short lists", short, state + index + first(FirstK) + 1<<10, true, FirstK},
		{"not read", long, state + index + first(FirstKMax) + 1<<20, false, 0},
		{"all fits", short, 1 << 40, true, 0},
	} {
		p, err := MakeFor(n, c.s, c.budget, work(n, c.s), c.first)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if p.FirstK != c.k || p.First != first(c.k)*int64(min(c.k, 1)) {
			t.Errorf("%s: first %d neighbours (%d bytes), want %d:\n%s", c.name, p.FirstK, p.First, c.k, p)
		}
		if p.DeviceUse > c.budget {
			t.Errorf("%s: plan uses %d of %d", c.name, p.DeviceUse, c.budget)
		}
	}
}

// TestPlanMorePositions checks the first neighbours past FirstKMax: they come after the
// ADJ sections of long lists and before those of short ones, up to FirstKMore.
func TestPlanMorePositions(t *testing.T) {
	const n = 100000
	long := shards(4, n/4, 8<<20) // 4 x 8 MiB of lists, 335 neighbours a vertex
	short := shards(4, n/4, 8<<20)
	for i := range short {
		short[i].Edges = 32 * uint64(short[i].N)
	}
	// the budgets below count from the state and the indexes
	base := func(s []ShardSize) int64 {
		b := Sum(append(work(n, s), TableItem(len(s))))
		for _, sh := range s {
			b += align(sh.Directory)
		}
		return b
	}
	first := func(k int) int64 { return FirstBytes(n, k) }
	shard := alignSection(8 << 20)
	for _, c := range []struct {
		name     string
		s        []ShardSize
		budget   int64
		k        int
		resident int // ADJ sections resident
	}{
		{"short lists, room for eight", short, base(short) + first(FirstKMore) + 1<<14, FirstKMore, 0},
		{"short lists, room for five", short, base(short) + first(5) + 1<<14, 5, 0},
		{"short lists, eight and a shard", short, base(short) + first(FirstKMore) + shard + 1<<14, FirstKMore, 1},
		{"long lists first", long, base(long) + first(FirstKMax) + shard + 1<<14, FirstKMax, 1},
		{"long lists, then positions", long, base(long) + first(6) + shard + 1<<14, 6, 1},
	} {
		p, err := Make(n, c.s, c.budget, work(n, c.s))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		resident := 0
		for _, sh := range p.Shards {
			if sh.AdjAt == Resident {
				resident++
			}
		}
		if p.FirstK != c.k || p.First != first(c.k) || resident != c.resident || p.DeviceUse > c.budget {
			t.Errorf("%s: first %d neighbours (%d bytes), %d shards resident, want %d and %d:\n%s", c.name, p.FirstK,
				p.First, resident, c.k, c.resident, p)
		}
	}
	// the shapes of urand26 (12 shards of 32 neighbours a vertex) and kron26 in degree order
	// (its hubs' 512 MiB first) at 3 GiB, with BFS's state: seven positions of 27 bits and
	// no lists on the device; the hubs' shard, then five positions
	const n26 = 1 << 26
	urand := shards(12, n26/12, 512<<20)
	for i := range urand {
		urand[i].Directory = 10 << 20
		urand[i].Edges = 32 * uint64(urand[i].N)
	}
	kron := []ShardSize{{Dir: store.Out, N: 23375, Edges: 125 << 20, Directory: 75 << 10, Adj: 512 << 20}}
	for i, v := range []uint32{89349, 196730, 530832, 1253505, 3347743, 16777216} {
		kron = append(kron, ShardSize{Dir: store.Out, Index: i + 1, Lo: kron[i].Lo + kron[i].N, N: v, Edges: 125 << 20,
			Directory: int64(v), Adj: 512 << 20})
	}
	for _, c := range []struct {
		name     string
		s        []ShardSize
		k        int
		resident int
	}{{"urand26", urand, 7, 0}, {"kron26 degree order", kron, 5, 1}} {
		p, err := Make(n26, c.s, 3<<30, work(n26, c.s))
		if err != nil {
			t.Fatal(err)
		}
		if p.FirstK != c.k || !(c.resident == 0 || p.Shards[0].AdjAt == Resident) || p.DeviceUse > p.Budget {
			t.Errorf("%s at 3 GiB: first %d neighbours, want %d (shard 0 resident: %v):\n%s", c.name, p.FirstK, c.k,
				c.resident > 0, p)
		}
	}
}

// TestFirstBits holds the packed first-neighbour array's entry width and size to what
// first_fill and firstAt need, at vertex counts around powers of two, tiny ones and the
// largest: every id and, apart from them, NONE (W one bits) fit W bits, W-1 would not
// do, and the array holds the bits of every vertex's K entries in whole words (firstAt
// loads only words that hold an entry's bits), in a size Memset32 clears (a multiple
// of 4) and the plan places (of Align).
func TestFirstBits(t *testing.T) {
	if w := FirstBits(1 << 26); w != 27 {
		t.Fatalf("FirstBits(2^26) = %d, want 27", w)
	}
	ns := []uint32{0, 1, 2, 3, 4, 5, 1<<32 - 1, 1<<32 - 2}
	for k := 3; k < 32; k++ {
		ns = append(ns, 1<<k-1, 1<<k, 1<<k+1)
	}
	for _, n := range ns {
		w := FirstBits(n)
		none := uint64(1)<<w - 1
		if w < 1 || w > 32 || none < uint64(n) || w > 1 && uint64(1)<<(w-1)-1 >= uint64(n) {
			t.Fatalf("FirstBits(%d) = %d: NONE %#x, ids below %d", n, w, none, n)
		}
		for k := 1; k <= FirstKMore; k++ {
			b := FirstBytes(n, k)
			bits := uint64(n) * uint64(k) * uint64(w)
			if uint64(b) < (bits+63)/64*8 || b%4 != 0 || b%Align != 0 {
				t.Fatalf("FirstBytes(%d, %d) = %d: %d entries of %d bits", n, k, b, uint64(n)*uint64(k), w)
			}
		}
	}
}

// TestPlanCache checks the list cache on a grid 2^26's shape (four shards of 96 MiB of
// lists): at a budget with two shards resident and two staging buffers of 64 MiB, the
// buffers hold the first pinned shard (one of 96 MiB fits their 128, the second does
// not), at an aligned offset inside them; shards larger than the buffers are never
// cached, nor are shards whose directory is pinned; no staging, no cache.
func TestPlanCache(t *testing.T) {
	const n = 1 << 26
	s := shards(4, n/4, 96<<20)
	w := work(n, s)
	state := Sum(append(slices.Clone(w), TableItem(4)))
	var index int64
	for _, sh := range s {
		index += align(sh.Directory)
	}
	region := 2 * StageBuffer(StageChunk)
	p, err := MakeFor(n, s, state+index+region+2*(96<<20)+1<<20, w, false)
	if err != nil {
		t.Fatal(err)
	}
	if p.Stages != 2 || p.Shards[1].AdjAt != Resident || p.Shards[2].AdjAt != Pinned {
		t.Fatalf("the plan is not the grid's shape:\n%s", p)
	}
	if len(p.Cache) != 1 || p.Cache[0] != (Cached{Shard: 2, Off: 0}) || p.CacheBytes != 96<<20 {
		t.Errorf("cache %+v (%d bytes), want shard 2 at 0:\n%s", p.Cache, p.CacheBytes, p)
	}
	if !strings.Contains(p.String(), "list cache: while no step streams, the staging buffers hold 96.0 MiB of the pinned lists (out shard 2)") {
		t.Errorf("the plan does not say what the cache holds:\n%s", p)
	}
	// small shards: several fit, each aligned, all inside the region
	small := shards(64, n/64, 10<<20+3)
	var smallIndex int64
	for _, sh := range small {
		smallIndex += align(sh.Directory)
	}
	p, err = MakeFor(n, small, state+smallIndex+300<<20, work(n, small), false)
	if err != nil {
		t.Fatal(err)
	}
	reg := int64(p.Stages) * StageBuffer(p.Stage)
	var bytes, end int64
	for _, c := range p.Cache {
		sh := p.Shards[c.Shard]
		if sh.AdjAt != Pinned || sh.IndexAt != Resident || c.Off%Align != 0 || c.Off < end || c.Off+sh.Adj > reg {
			t.Errorf("cached %+v: shard %+v in a region of %d", c, sh, reg)
		}
		end = c.Off + sh.Adj
		bytes += sh.Adj
	}
	if len(p.Cache) < 2 || bytes != p.CacheBytes || p.DeviceUse > p.Budget {
		t.Errorf("%d shards cached (%d bytes, plan says %d), device use %d of %d:\n%s", len(p.Cache), bytes, p.CacheBytes, p.DeviceUse, p.Budget, p)
	}
	// shards larger than the buffers
	big := shards(4, n/4, 512<<20)
	if p, err = MakeFor(n, big, state+index+1<<30, work(n, big), false); err != nil || p.Stage == 0 || len(p.Cache) != 0 {
		t.Errorf("shards of 512 MiB: cache %+v, err %v:\n%s", p.Cache, err, p)
	}
	// directories pinned: nothing cached (the plan keeps no staging then either)
	if p, err = MakeFor(n, s, state+region, w, false); err != nil || len(p.Cache) != 0 {
		t.Errorf("directories pinned: cache %+v, err %v:\n%s", p.Cache, err, p)
	}
}
