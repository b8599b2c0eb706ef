package store

import (
	"encoding/binary"
	"math/bits"
	"math/rand"
	randv2 "math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
)

// checkEntries holds Shard.Entries to ListAt on every vertex of g, read in batches of
// random vertices, some of other shards (where Entries must stop), and its Head to the
// mapping's bytes at the list's start; and SumDegrees on the same batches to the sum
// of ListAt's degrees, stopping where Entries does but for dst's length, and
// SumDegreesEvery on every first, second, third or fourth of them.
func checkEntries(t *testing.T, seed uint64, g *Graph, r *rand.Rand) {
	t.Helper()
	for _, s := range g.Out().Shards {
		checkShardEntries(t, seed, s, g.NumVertices(), r)
	}
}

// checkShardEntries is checkEntries on shard s of a graph of n vertices (the vertices
// of other shards drawn up to n or the shard's end, whichever is larger): through
// entriesNarrow where it runs, and through the Go loop alone.
func checkShardEntries(t *testing.T, seed uint64, s *Shard, n uint32, r *rand.Rand) {
	t.Helper()
	if haveEntriesNarrow {
		haveEntriesNarrow = false
		checkShardEntriesOnce(t, seed, s, n, r)
		haveEntriesNarrow = true
	}
	checkShardEntriesOnce(t, seed, s, n, r)
}

// checkShardEntriesOnce is checkShardEntries through the loop haveEntriesNarrow picks.
func checkShardEntriesOnce(t *testing.T, seed uint64, s *Shard, n uint32, r *rand.Rand) {
	t.Helper()
	var dst [16]ListEntry
	for i := uint32(0); i < s.N; {
		vs := make([]uint32, 1+r.Intn(20))
		for k := range vs {
			vs[k] = s.Lo + i + uint32(k)
			if k > 0 && r.Intn(8) == 0 {
				vs[k] = uint32(r.Int63n(int64(max(n, s.Hi())) + 1))
			}
		}
		want := 0
		for want < min(len(vs), len(dst)) && vs[want]-s.Lo < s.N {
			want++
		}
		if got := s.Entries(dst[:], vs); got != want {
			t.Fatalf("seed %d: Entries of %v in shard [%d, %d) filled %d, want %d", seed, vs, s.Lo, s.Hi(), got, want)
		}
		inShard, sumWant := 0, uint64(0)
		for inShard < len(vs) && vs[inShard]-s.Lo < s.N {
			d, _ := s.ListAt(vs[inShard] - s.Lo)
			sumWant += uint64(d)
			inShard++
		}
		if sum, k := s.SumDegrees(vs); sum != sumWant || k != inShard {
			t.Fatalf("seed %d: SumDegrees of %v in shard [%d, %d) = %d over %d vertices, want %d over %d", seed, vs, s.Lo, s.Hi(), sum, k, sumWant, inShard)
		}
		stride := 1 + r.Intn(4)
		inShard, sumWant = 0, 0
		for j := 0; j < len(vs) && vs[j]-s.Lo < s.N; j += stride {
			d, _ := s.ListAt(vs[j] - s.Lo)
			sumWant += uint64(d)
			inShard++
		}
		if sum, k := s.SumDegreesEvery(vs, stride); sum != sumWant || k != inShard {
			t.Fatalf("seed %d: SumDegreesEvery of %v by %d in shard [%d, %d) = %d over %d vertices, want %d over %d", seed, vs, stride, s.Lo, s.Hi(), sum, k, sumWant, inShard)
		}
		for k, v := range vs[:want] {
			e := dst[k]
			d, l := s.ListAt(v - s.Lo)
			adj := s.Adj[:cap(s.Adj)]
			var head [8]byte
			copy(head[:], adj[e.Start:])
			if e.Deg != d || e.End < e.Start || string(s.Adj[e.Start:e.End]) != string(l) || e.Head != binary.LittleEndian.Uint64(head[:]) {
				t.Fatalf("seed %d: vertex %d: entry %+v, want degree %d list %x head %x", seed, v, e, d, l, head)
			}
		}
		i += uint32(want)
	}
}

// TestEntriesMappingEnd reads the entries of shards whose mapping ends with ADJ (a
// copy of each whose ADJ is a copy with its capacity clipped to its length, nonzero
// bytes past it), so that the lists starting in ADJ's last 8 bytes take Head from the
// bytes up to the end, the rest zero, and a load past the end shows: a graph of one-byte
// lists, and one of every shape.
func TestEntriesMappingEnd(t *testing.T) {
	seed := testSeed(t)
	r := rand.New(rand.NewSource(int64(seed)))
	dir := filepath.Join(t.TempDir(), "g.ooc")
	const n = 300
	b, err := Create(dir, CreateOptions{ShardVertices: 100})
	if err != nil {
		t.Fatal(err)
	}
	for v := range uint32(n) {
		if err := b.Writer(Out).AppendList(v, []uint32{(v + 1) % n}); err != nil {
			t.Fatal(err)
		}
	}
	short := openCommitted(t, b, dir, n)
	tail := 0
	for _, g := range []*Graph{short, shapesGraph(t, randv2.New(randv2.NewPCG(seed, 24)), 2000)} {
		for _, s := range g.Out().Shards {
			past := append(slices.Clone(s.Adj), 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5)
			cut := &Shard{Lo: s.Lo, N: s.N, Adj: past[:len(s.Adj):len(s.Adj)], dirH: s.dirH, dirB: s.dirB}
			checkShardEntries(t, seed, cut, g.NumVertices(), r)
			for i := range s.N {
				if _, l := cut.ListAt(i); len(l) > 0 && cap(l) < 8 { // cap: up to ADJ's end
					tail++
				}
			}
		}
	}
	if tail == 0 {
		t.Fatalf("seed %d: no list starts in ADJ's last 8 bytes", seed)
	}
}

func TestTailWord(t *testing.T) {
	b := []byte{1, 2, 3, 4, 5}
	for a, want := range []uint64{0x0504030201, 0x05040302, 0x050403, 0x0504, 0x05, 0} {
		if got := tailWord(b, uint64(a)); got != want {
			t.Fatalf("tailWord at %d: %#x, want %#x", a, got, want)
		}
	}
}

// TestEntriesWide reads a directory group whose pairs do not fit one 8-byte load (2*wo+wd
// > 57: lists of megabytes beside empty ones, degrees in the thousands), built by hand,
// through Entries and ListAt.
func TestEntriesWide(t *testing.T) {
	r := randv2.New(randv2.NewPCG(testSeed(t), 71))
	adj := make([]byte, wideSpan+4)
	for i := range adj {
		adj[i] = byte(r.Uint32())
	}
	s, start, deg := widePairs(t, r, adj)
	var dst [16]ListEntry
	for j0 := uint32(0); j0 < DirGroup; j0 += 16 {
		vs := make([]uint32, 16)
		for k := range vs {
			vs[k] = s.Lo + j0 + uint32(k)
		}
		if got := s.Entries(dst[:], vs); got != 16 {
			t.Fatalf("Entries filled %d of 16", got)
		}
		for k, e := range dst {
			j := j0 + uint32(k)
			end := uint32(wideSpan)
			if j+1 < DirGroup {
				end = start[j+1]
			}
			d, l := s.ListAt(j)
			want := ListEntry{deg[j], start[j], end, binary.LittleEndian.Uint64(adj[start[j]:])}
			if e != want || d != deg[j] || len(l) != int(end-start[j]) {
				t.Fatalf("vertex %d: entry %+v, ListAt %d and %d bytes, want %+v", j, e, d, len(l), want)
			}
		}
	}
}

// wideSpan is the ADJ bytes of widePairs's lists.
const wideSpan = 1 << 22

// widePairs is a shard of one group whose pairs do not fit one 8-byte load (2*wo+wd >
// 57: lists near the end of adj's first wideSpan bytes beside an empty one at 0,
// degrees in the thousands), built by wideGroup, with its lists' starts and degrees.
func widePairs(t *testing.T, r *randv2.Rand, adj []byte) (s *Shard, start, deg [DirGroup]uint32) {
	t.Helper()
	for j := 1; j < DirGroup; j++ {
		start[j] = wideSpan - uint32(DirGroup-j)*16
		deg[j] = r.Uint32N(4096)
	}
	deg[0] = 4000
	s, wo, wd := wideGroup(100, adj[:wideSpan], &start, &deg)
	if 2*wo+wd <= 57 {
		t.Fatalf("widths %d and %d fit one load", wo, wd)
	}
	return s, start, deg
}

// wideGroup is a shard of one directory group, built by hand: vertices lo to lo+63,
// vertex lo+j's list at start[j] in adj with degree deg[j], its pairs at the widths wo
// and wd that they need (dmin 0).
func wideGroup(lo uint32, adj []byte, start, deg *[DirGroup]uint32) (s *Shard, wo, wd uint32) {
	span := uint32(len(adj))
	var zor, dor uint32
	for j := range DirGroup {
		zor |= dirCode(start[j], uint32(j), span)
		dor |= deg[j]
	}
	wo, wd = uint32(bits.Len32(zor)), uint32(bits.Len32(dor))
	var packed []byte
	var acc, have uint64
	put := func(x, w uint32) {
		for b := range w {
			acc |= uint64(x>>b&1) << have
			if have++; have == 64 {
				packed, acc, have = binary.LittleEndian.AppendUint64(packed, acc), 0, 0
			}
		}
	}
	for j := range DirGroup {
		put(dirCode(start[j], uint32(j), span), wo)
		put(deg[j], wd)
	}
	packed = binary.LittleEndian.AppendUint64(packed, acc)
	words := uint32(len(packed) / 8)
	packed = binary.LittleEndian.AppendUint64(packed, 0)
	return &Shard{Lo: lo, N: DirGroup, Adj: adj, dirB: packed,
		dirH: []uint32{0, 0, 0, wo<<16 | wd<<24, span, words, 0, 0}}, wo, wd
}
