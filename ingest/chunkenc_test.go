package ingest

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/store"
)

// TestEncodeChunk decodes encodeChunk's blocks and checks them against the keys: every
// key once, each block within one partition with its groups ascending (and, by source,
// the sources ascending within each group), and at most blockKeys keys unless it holds
// one group; chunks whose groups span more than encodeSpanBits bits are left to the
// caller. Groups of the narrowest and widest widths.
func TestEncodeChunk(t *testing.T) {
	rng, seed := seededRand(t, 7)
	cases := []struct {
		name string
		n    int
		src  func() uint32
		dst  func() uint32
	}{
		{"uniform", 50000, func() uint32 { return rng.Uint32N(1 << 22) }, func() uint32 { return rng.Uint32N(1 << 22) }},
		{"many groups", 300000, func() uint32 { return rng.Uint32N(1 << 26) }, func() uint32 { return rng.Uint32N(1 << 26) }},
		{"narrow", 3000, func() uint32 { return 5<<partShift + rng.Uint32N(3000) }, func() uint32 { return rng.Uint32N(1 << 30) }},
		{"hub group", 3 * blockKeys, func() uint32 {
			if rng.IntN(4) > 0 {
				return rng.Uint32N(1 << minGroupBits)
			}
			return rng.Uint32N(1 << 20)
		}, func() uint32 { return rng.Uint32N(1 << 20) }},
		{"zero dst", 1000, func() uint32 { return rng.Uint32N(1 << 18) }, func() uint32 { return 0 }},
		{"wide dst", 4000, func() uint32 { return rng.Uint32N(1 << 18) }, func() uint32 { return ^rng.Uint32N(8) }},
	}
	cc := new(chunkCounts)
	for _, tc := range cases {
		for _, gb := range []groupBits{minGroupBits, maxGroupBits} {
			for _, bySource := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/gb=%d/bySource=%v", tc.name, gb, bySource), func(t *testing.T) {
					keys := make([]uint64, tc.n)
					for i := range keys {
						keys[i] = key(tc.src(), tc.dst())
					}
					want := slices.Clone(keys)
					enc, refs, ok := encodeChunk(cc, keys, make([]uint64, tc.n), nil, bySource, gb)
					if !ok {
						t.Fatalf("seed %d: not encoded", seed)
					}
					got := checkBlocks(t, enc, refs, bySource, gb)
					slices.Sort(got)
					slices.Sort(want)
					if !slices.Equal(got, want) {
						t.Fatalf("seed %d: decoded keys differ from the chunk's", seed)
					}
				})
			}
		}
	}
	wide := []uint64{key(0, 1), key(1<<(minGroupBits+encodeSpanBits), 2)}
	for len(wide) < 300 {
		wide = append(wide, key(rng.Uint32N(1<<20), 3))
	}
	if _, _, ok := encodeChunk(cc, wide, make([]uint64, len(wide)), nil, false, minGroupBits); ok {
		t.Errorf("groups spanning %d bits encoded", encodeSpanBits+1)
	}
}

// checkBlocks decodes the blocks refs of enc, checks their structure and returns their keys.
func checkBlocks(t *testing.T, enc []byte, refs []blockRef, bySource bool, gb groupBits) []uint64 {
	t.Helper()
	var keys []uint64
	at := int64(0)
	for _, ref := range refs {
		if ref.off != at {
			t.Fatalf("block at %d, want %d", ref.off, at)
		}
		at += ref.len
		b, err := openBlock(enc[ref.off:ref.off+ref.len], ref.part, ref.count, nil, gb)
		if err != nil {
			t.Fatalf("block of partition %d: %v", ref.part, err)
		}
		if ref.count > blockKeys && len(b.groups) > 1 {
			t.Errorf("block of %d keys in %d groups", ref.count, len(b.groups))
		}
		for gi := range b.groups {
			g := &b.groups[gi]
			var prev uint32
			for i := g.start; i < g.end; i++ {
				k := b.key(g, i)
				if partOf(k) != ref.part || keySrc(k)&^uint32(gb.mask()) != g.base {
					t.Fatalf("key %#x in group %d of partition %d", k, g.base, ref.part)
				}
				if bySource && i > g.start && keySrc(k) < prev {
					t.Fatalf("sources descend in group %d", g.base)
				}
				prev = keySrc(k)
				keys = append(keys, k)
			}
		}
	}
	if at != int64(len(enc)) {
		t.Fatalf("blocks end at %d of %d bytes", at, len(enc))
	}
	if !slices.IsSortedFunc(refs, func(a, b blockRef) int { return cmp.Compare(a.part, b.part) }) {
		t.Errorf("partitions out of order")
	}
	return keys
}

// TestBigBlocks ingests a hub of more than blockKeys edges alongside random edges, so that
// a chunk holds one group of more than blockKeys keys (a block of its own), with the
// spills in memory, across small slabs and on disk, split into many tasks, in both orders.
func TestBigBlocks(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests 300K edges several times in -short")
	}
	rng, seed := seededRand(t, 9)
	edges := randomEdges(rng, 2<<partShift, 20000)
	for range 3 * blockKeys / 2 {
		edges = append(edges, parse.Edge{U: 5, V: uint64(rng.IntN(2 << partShift))})
	}
	rng.Shuffle(len(edges), func(i, j int) { edges[i], edges[j] = edges[j], edges[i] })
	for _, opt := range []Options{
		{chunkKeys: 1 << 18},
		{chunkKeys: 1 << 18, spillMem: 1 << 20, spillSlab: 64 << 10, taskKeys: 5000},
		{chunkKeys: 1 << 18, spillMem: -1, taskKeys: 20000},
		{Order: store.OrderDegree, chunkKeys: 1 << 18, spillMem: 1 << 20, spillSlab: 64 << 10},
		{Order: store.OrderDegree, Directed: true, chunkKeys: 1 << 18, spillMem: -1, taskKeys: 5000},
	} {
		ingestAndCheck(t, seed, edges, opt)
	}
}

// TestHugeUnit: a hub of more than msdThreshold edges is one sort unit too large for an
// LSD sort in cache, sorted by an MSD pass first (msdSortPacked), in both orders.
func TestHugeUnit(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests a hub of 1M edges in -short")
	}
	rng, seed := seededRand(t, 10)
	edges := randomEdges(rng, 1<<21, 5000)
	for range msdThreshold + 5000 {
		edges = append(edges, parse.Edge{U: 3, V: uint64(rng.IntN(1 << 21))})
	}
	for _, opt := range []Options{{}, {Order: store.OrderDegree, Directed: true}} {
		ingestAndCheck(t, seed, edges, opt)
	}
}

// ingestAndCheck ingests edges with opt into a fresh directory and compares the graph
// with the reference, stopping the test at the first difference with the seed.
func ingestAndCheck(t *testing.T, seed uint64, edges []parse.Edge, opt Options) {
	t.Helper()
	opt.Dest = filepath.Join(t.TempDir(), "g.ooc")
	if _, err := fromEdges(t, edges, opt, parse.Header{}); err != nil {
		t.Fatalf("seed %d, %+v: %v", seed, opt, err)
	}
	checkGraph(t, opt.Dest, reference(edges, opt), opt)
	if t.Failed() {
		t.Fatalf("seed %d, %+v", seed, opt)
	}
}

// BenchmarkEncodeChunk encodes a chunk as phase 1 does on kron23 (256K keys, 8192
// groups) and kron26 (1M keys, fillLimit's size for 512 partitions, 65536 groups), with
// uniformly random sources.
func BenchmarkEncodeChunk(b *testing.B) {
	for _, c := range []struct {
		scale, keys int
	}{{23, 1 << 18}, {26, 1 << 20}} {
		b.Run(fmt.Sprintf("kron%d", c.scale), func(b *testing.B) {
			rng, _ := seededRand(b, 17)
			keys := make([]uint64, c.keys)
			for i := range keys {
				keys[i] = key(rng.Uint32N(1<<c.scale), rng.Uint32N(1<<c.scale))
			}
			work, tmp := make([]uint64, len(keys)), make([]uint64, len(keys))
			cc := new(chunkCounts)
			b.SetBytes(int64(8 * len(keys)))
			for b.Loop() {
				copy(work, keys)
				if _, _, ok := encodeChunk(cc, work, tmp, nil, false, groupsFor(1<<c.scale)); !ok {
					b.Fatal("not encoded")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(keys)), "ns/key")
		})
	}
}

// TestGroupsFor: about 8192 groups, within the widths the spill takes.
func TestGroupsFor(t *testing.T) {
	for _, c := range []struct {
		n    uint64
		want groupBits
	}{{0, 10}, {1, 10}, {1000, 10}, {1 << 23, 10}, {1<<23 + 1, 11}, {1 << 24, 11}, {1 << 25, 12}, {1 << 26, 13}, {65_608_366, 13}, {1 << 32, 13}} {
		if got := groupsFor(c.n); got != c.want {
			t.Errorf("groupsFor(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}
