package store

import (
	"errors"
	"fmt"
	"math/rand"
	"path/filepath"
	"slices"
	"testing"
)

// TestDirectoryRoundTrip writes shards of random lists (runs of empty lists, degrees
// from 0 to thousands, groups cut by shard boundaries) and reads every vertex's degree,
// list bytes and first neighbour index back through each accessor of the directory
// (Entries too).
func TestDirectoryRoundTrip(t *testing.T) {
	seed := testSeed(t)
	r := rand.New(rand.NewSource(int64(seed)))
	for iter := 0; iter < 12; iter++ {
		n := uint32(1 + r.Intn(3000))
		lists := make([][]uint32, n)
		for v := range lists {
			switch k := r.Intn(10); {
			case k < 3: // empty
			case k < 9:
				lists[v] = randomList(r, n, r.Intn(8))
			default:
				lists[v] = randomList(r, n, r.Intn(3000))
			}
		}
		if iter%3 == 0 { // a long run of empty lists: whole empty groups
			for v := n / 4; v < n/2; v++ {
				lists[v] = nil
			}
		}
		dir := filepath.Join(t.TempDir(), "g.ooc")
		opt := CreateOptions{ShardBytes: int64(1 + r.Intn(20000)), ShardVertices: uint32(1 + r.Intn(700))}
		b, err := Create(dir, opt)
		if err != nil {
			t.Fatal(err)
		}
		for v, l := range lists {
			if len(l) > 0 {
				if err := b.Writer(Out).AppendList(uint32(v), l); err != nil {
					t.Fatal(err)
				}
			}
		}
		var m uint64
		for _, l := range lists {
			m += uint64(len(l))
		}
		g := openCommitted(t, b, dir, n)
		if err := g.Check(); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		checkEntries(t, seed, g, r)
		var cur DirCursor
		for _, s := range g.Out().Shards {
			cur.Reset(s)
			var e uint64
			for i := uint32(0); i < s.N; i++ {
				v := s.Lo + i
				want := AppendList(nil, v, lists[v])
				d, l := s.ListAt(i)
				cd, cl := cur.At(i)
				if d != uint32(len(lists[v])) || s.DegreeAt(i) != d || cd != d || !slices.Equal(l, want) || !slices.Equal(cl, want) {
					t.Fatalf("seed %d: vertex %d: degree %d/%d/%d list %x/%x, want %d %x", seed, v, d, s.DegreeAt(i), cd, l, cl, len(lists[v]), want)
				}
				if got := s.EdgeIndex(i); got != e {
					t.Fatalf("seed %d: vertex %d: edge index %d, want %d", seed, v, got, e)
				}
				e += uint64(d)
			}
			all := make([]uint32, s.N)
			for k := uint32(0); k < s.N; k += 37 { // pieces that start and end inside groups
				s.DegreesAt(all[k:min(s.N, k+37)], k)
			}
			for i, d := range all {
				if d != uint32(len(lists[s.Lo+uint32(i)])) {
					t.Fatalf("seed %d: DegreesAt: vertex %d has degree %d, want %d", seed, s.Lo+uint32(i), d, len(lists[s.Lo+uint32(i)]))
				}
			}
			if s.EdgeIndex(s.N) != s.Edges || s.ListOffset(s.N) != uint32(len(s.Adj)) {
				t.Fatalf("seed %d: shard ends at edge %d offset %d, want %d %d", seed, s.EdgeIndex(s.N), s.ListOffset(s.N), s.Edges, len(s.Adj))
			}
		}
	}
}

func randomList(r *rand.Rand, n uint32, k int) []uint32 {
	l := make([]uint32, 0, k)
	for range k {
		l = append(l, uint32(r.Intn(int(n))))
	}
	slices.Sort(l)
	return slices.Compact(l)
}

// TestDirectoryCorrupt damages each field of a group header and some packed pairs, the
// checksums recomputed, and requires Verify to report corruption: inside the DIRECTORY
// section for a header (a start moved within its bounds shows as a list that does not
// decode).
func TestDirectoryCorrupt(t *testing.T) {
	spec, sec, hb := directoryFixture(t)
	for _, at := range []int64{0, 1, 4, 8, 12, 14, 15, 16, 20, 24, 28, 30, 31, 48, 64, hb - 16, hb - 12, hb - 8, hb - 4, hb, hb + 3, hb + 17} {
		dir := filepath.Join(t.TempDir(), "bad.ooc")
		if err := spec.write(dir); err != nil {
			t.Fatal(err)
		}
		if err := forgeShard(dir, func(b []byte) { b[sec.Offset+at] ^= 0x5a }); err != nil {
			t.Fatal(err)
		}
		_, err := Verify(dir)
		var ce *CorruptError
		if !errors.As(err, &ce) || at < hb && (ce.Offset < sec.Offset || ce.Offset >= sec.Offset+sec.Length) {
			t.Errorf("byte %d of DIRECTORY flipped (checksums recomputed): %v, want a CorruptError inside [%d, %d)", at, err, sec.Offset, sec.Offset+sec.Length)
		}
	}
}

// TestDirectoryEdgeLimit: the writer cuts a shard before its neighbours would overflow
// the directory's neighbour index (lowered here from 2^40 to 100).
func TestDirectoryEdgeLimit(t *testing.T) {
	defer func(l uint64) { shardEdgeLimit = l }(shardEdgeLimit)
	shardEdgeLimit = 100
	lists := map[uint32][]uint32{}
	for v := uint32(0); v < 60; v++ {
		for u := uint32(0); u < 60; u++ {
			if u != v && (u+v)%3 == 0 {
				lists[v] = append(lists[v], u)
			}
		}
	}
	dir := filepath.Join(t.TempDir(), "e.ooc")
	if err := (fixtureSpec{name: "e", n: 60, out: lists}).write(dir); err != nil {
		t.Fatal(err)
	}
	g, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if len(g.Out().Shards) < 10 {
		t.Fatalf("%d shards for %d neighbours at 100 a shard", len(g.Out().Shards), g.NumEdges())
	}
	for _, s := range g.Out().Shards {
		if s.Edges > 100 {
			t.Fatalf("shard %s holds %d neighbours, more than 100", s.Path, s.Edges)
		}
	}
	if _, err := Verify(dir); err != nil {
		t.Fatal(err)
	}
}

// directoryFixture is a graph of 200 vertices, a third of them without a list, the
// rest with two neighbours: its spec, its shard's DIRECTORY section and the bytes of
// that section's group headers.
func directoryFixture(t *testing.T) (spec fixtureSpec, sec Section, headers int64) {
	t.Helper()
	lists := map[uint32][]uint32{}
	for v := uint32(0); v < 200; v++ {
		if v%3 != 0 {
			lists[v] = []uint32{(v + 1) % 200, (v + 7) % 200}
			slices.Sort(lists[v])
		}
	}
	spec = fixtureSpec{name: "dir", n: 200, out: lists}
	clean := filepath.Join(t.TempDir(), "clean.ooc")
	if err := spec.write(clean); err != nil {
		t.Fatal(err)
	}
	g, err := Open(clean)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	sec, _ = g.Out().Shards[0].section(SecDirectory)
	return spec, sec, g.Out().Shards[0].DirectoryHeaders()
}

// TestNeighborsDamagedDirectory: Neighbors returns an error, so on a graph opened
// without Check a damaged directory is a CorruptError from it, never a panic: every
// byte of the group headers and the first pairs flipped, checksums recomputed and not.
func TestNeighborsDamagedDirectory(t *testing.T) {
	spec, sec, hb := directoryFixture(t)
	for at := int64(0); at < hb+24; at++ {
		for _, reseal := range []bool{true, false} {
			dir := filepath.Join(t.TempDir(), "bad.ooc")
			if err := spec.write(dir); err != nil {
				t.Fatal(err)
			}
			flip := func(b []byte) { b[sec.Offset+at] ^= 0x5a }
			var err error
			if reseal {
				err = forgeShard(dir, flip)
			} else {
				err = editFile(dir, baseShard, func(b []byte) []byte { flip(b); return b })
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := neighborsAll(dir); err != nil && !errors.Is(err, ErrCorrupt) {
				t.Errorf("byte %d of DIRECTORY flipped (resealed %v): %v, want a CorruptError", at, reseal, err)
			}
		}
	}
}

// neighborsAll opens dir without Check and reads every list through Neighbors, turning
// a panic into an error.
func neighborsAll(dir string) (err error) {
	g, err := Open(dir)
	if err != nil {
		return err
	}
	defer g.Close()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	var buf []uint32
	for _, s := range g.Shards() {
		for v := s.Lo; v < s.Hi(); v++ {
			if buf, err = s.Neighbors(buf[:0], v); err != nil {
				return err
			}
		}
	}
	return nil
}

// TestNeighborsOutsideShard: Neighbors of a vertex outside the shard (past its end, or
// before its first vertex on a later shard) is an error matching ErrNoVertex, never a
// panic nor a report of corruption.
func TestNeighborsOutsideShard(t *testing.T) {
	lists := map[uint32][]uint32{}
	for v := uint32(0); v < 3000; v++ {
		for k := uint32(1); k <= 8; k++ {
			lists[v] = append(lists[v], (v+k*k*37)%3000)
		}
		slices.Sort(lists[v])
		lists[v] = slices.Compact(lists[v])
	}
	spec := fixtureSpec{name: "shards", n: 3000, out: lists, shardBytes: 4 << 10}
	dir := filepath.Join(t.TempDir(), "g.ooc")
	if err := spec.write(dir); err != nil {
		t.Fatal(err)
	}
	g, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if len(g.Shards()) < 2 {
		t.Fatalf("%d shard, want several", len(g.Shards()))
	}
	for _, s := range g.Shards() {
		vs := []uint32{s.Hi(), s.Hi() + 64, s.Hi() + 1<<20, 1 << 31, ^uint32(0)}
		if s.Lo > 0 {
			vs = append(vs, s.Lo-1, 0)
		}
		for _, v := range vs {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s: Neighbors(%d): panic %v", s.Path, v, r)
					}
				}()
				if _, err := s.Neighbors(nil, v); !errors.Is(err, ErrNoVertex) {
					t.Errorf("%s [%d, %d): Neighbors(%d): %v, want ErrNoVertex", s.Path, s.Lo, s.Hi(), v, err)
				}
			}()
		}
	}
}
