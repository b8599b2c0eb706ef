package store

import (
	"encoding/binary"
	"math/bits"
	"math/rand"
	randv2 "math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"unsafe"
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
// entriesNarrow and sumDegreesAVX2 where they run, and through the Go loops alone.
func checkShardEntries(t *testing.T, seed uint64, s *Shard, n uint32, r *rand.Rand) {
	t.Helper()
	if haveEntriesNarrow || haveSumDegreesVec {
		narrow, vec := haveEntriesNarrow, haveSumDegreesVec
		haveEntriesNarrow, haveSumDegreesVec = false, false
		checkShardEntriesOnce(t, seed, s, n, r)
		haveEntriesNarrow, haveSumDegreesVec = narrow, vec
	}
	checkShardEntriesOnce(t, seed, s, n, r)
}

// checkShardEntriesOnce is checkShardEntries through the loop haveEntriesNarrow picks.
func checkShardEntriesOnce(t *testing.T, seed uint64, s *Shard, n uint32, r *rand.Rand) {
	t.Helper()
	var dst [16]ListEntry
	for i := uint32(0); i < s.N; {
		vs := make([]uint32, 1+r.Intn(40))
		for k := range vs {
			vs[k] = s.Lo + i + uint32(k)
			if k > 0 && r.Intn(24) == 0 {
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

// TestSumDegreesWidths holds SumDegrees and SumDegreesEvery to the sum of DegreeAt's
// degrees on groups of every degree width from 0 to 32 bits and random list starts,
// for batches of random vertices of the group and, now and then, of none, through
// sumDegreesAVX2 where it runs and through the Go loops alone; and sumDegreesAVX2 to
// take every step of eight of the group's vertices where the degrees are at most 25
// bits wide and none where they are wider (the Go loop's).
func TestSumDegreesWidths(t *testing.T) {
	seed := testSeed(t)
	r := randv2.New(randv2.NewPCG(seed, 41))
	const lo, span = 100, 64 * 40
	adj := make([]byte, span)
	for wd := range 33 {
		var start, deg [DirGroup]uint32
		for j := 1; j < DirGroup; j++ {
			start[j] = uint32(r.IntN(span))
		}
		slices.Sort(start[:])
		for j := range DirGroup {
			if wd > 0 {
				deg[j] = uint32(r.Uint64N(1 << wd))
			}
		}
		if wd > 0 {
			deg[r.IntN(DirGroup)] |= 1 << (wd - 1)
		}
		s, _, w := wideGroup(lo, adj, &start, &deg)
		if w != uint32(wd) {
			t.Fatalf("width %d, want %d", w, wd)
		}
		for trial := range 200 {
			vs := make([]uint32, r.IntN(41))
			for k := range vs {
				vs[k] = lo + uint32(r.IntN(DirGroup))
				if r.IntN(30) == 0 {
					vs[k] = uint32(r.IntN(lo + 2*DirGroup))
				}
			}
			stride := 1 + r.IntN(4)
			var want, wantEvery uint64
			in, inEvery := 0, 0
			for in < len(vs) && vs[in]-lo < DirGroup {
				want += uint64(deg[vs[in]-lo])
				in++
			}
			for j := 0; j < len(vs) && vs[j]-lo < DirGroup; j += stride {
				wantEvery += uint64(deg[vs[j]-lo])
				inEvery++
			}
			vec := haveSumDegreesVec
			for _, on := range []bool{false, vec} {
				haveSumDegreesVec = on
				sum, k := s.SumDegrees(vs)
				sumEvery, kEvery := s.SumDegreesEvery(vs, stride)
				haveSumDegreesVec = vec
				if sum != want || k != in {
					t.Fatalf("seed %d: width %d, trial %d, vector %v: SumDegrees(%v) = %d over %d, want %d over %d", seed, wd, trial, on, vs, sum, k, want, in)
				}
				if sumEvery != wantEvery || kEvery != inEvery {
					t.Fatalf("seed %d: width %d, trial %d, vector %v: SumDegreesEvery(%v, %d) = %d over %d, want %d over %d", seed, wd, trial, on, vs, stride, sumEvery, kEvery, wantEvery, inEvery)
				}
			}
		}
		if !haveSumDegreesVec {
			continue
		}
		vs := make([]uint32, 8*(1+r.IntN(4)))
		var want uint64
		for k := range vs {
			vs[k] = lo + uint32(r.IntN(DirGroup))
			want += uint64(deg[vs[k]-lo])
		}
		sum, k := sumDegreesAVX2(unsafe.SliceData(s.dirH), unsafe.SliceData(s.dirB), uintptr(len(s.dirB)), s.Lo, s.N, unsafe.SliceData(vs), 1, len(vs)/8)
		switch {
		case wd <= 25 && (k != len(vs) || sum != want):
			t.Fatalf("seed %d: width %d: sumDegreesAVX2 of %d vertices = %d over %d, want %d over all", seed, wd, len(vs), sum, k, want)
		case wd > 25 && (k != 0 || sum != 0):
			t.Fatalf("seed %d: width %d: sumDegreesAVX2 = %d over %d, want none taken", seed, wd, sum, k)
		}
	}
}

// TestSumDegreesAVX2Bounds holds sumDegreesAVX2 to its reads on a damaged directory:
// it takes no step whose group's first word lies past the directory or whose degree's
// bytes do, and leaves them to the Go loop (which panics on them, as on any damaged
// directory's).
func TestSumDegreesAVX2Bounds(t *testing.T) {
	if !haveSumDegreesVec {
		t.Skip("no AVX2")
	}
	var start, deg [DirGroup]uint32
	for j := range DirGroup {
		start[j], deg[j] = uint32(j)*4, uint32(j)*9
	}
	s, _, _ := wideGroup(0, make([]byte, 4*DirGroup), &start, &deg)
	sum := func(s *Shard, v uint32) (uint64, int) {
		vs := []uint32{v, v, v, v, v, v, v, v}
		return sumDegreesAVX2(unsafe.SliceData(s.dirH), unsafe.SliceData(s.dirB), uintptr(len(s.dirB)), s.Lo, s.N, unsafe.SliceData(vs), 1, 1)
	}
	if got, k := sum(s, 63); got != 8*63*9 || k != 8 {
		t.Fatalf("the whole directory: %d over %d, want %d over 8", got, k, 8*63*9)
	}
	far := &Shard{Lo: s.Lo, N: s.N, Adj: s.Adj, dirH: slices.Clone(s.dirH), dirB: s.dirB}
	far.dirH[1] = uint32(len(s.dirB)/8 + 1)
	cut := &Shard{Lo: s.Lo, N: s.N, Adj: s.Adj, dirH: s.dirH, dirB: s.dirB[:8]}
	for _, c := range []struct {
		name string
		s    *Shard
	}{{"first word past the directory", far}, {"degree past a cut directory", cut}} {
		if got, k := sum(c.s, 63); k != 0 {
			t.Errorf("%s: %d over %d, want none taken", c.name, got, k)
		}
	}
}
