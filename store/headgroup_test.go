package store

import (
	"math"
	randv1 "math/rand"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
)

// shapesGraph writes and opens a graph of n vertices whose lists take every shape of
// randomNbrs (so every block coding) at degrees from 0 to a few blocks, in shards cut
// at random vertex counts (groups that start off a multiple of 64).
func shapesGraph(t *testing.T, r *rand.Rand, n uint32) *Graph {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "g.ooc")
	b, err := Create(dir, CreateOptions{ShardVertices: uint32(1 + r.IntN(int(n)))})
	if err != nil {
		t.Fatal(err)
	}
	degrees := []int{0, 0, 1, 2, 3, 4, 4, 5, 6, 8, 12, 40, 64, 65, 130}
	for v := range n {
		d := degrees[r.IntN(len(degrees))]
		if d == 0 {
			continue
		}
		l := slices.Compact(randomNbrs(r, v, d, n))
		if err := b.Writer(Out).AppendList(v, l); err != nil {
			t.Fatal(err)
		}
	}
	return openCommitted(t, b, dir, n)
}

// roadsGraph is shapesGraph with a road's lists: every vertex has 1 to 3 neighbours
// (groups whose smallest degree is 1 or more), most one or two bytes of zigzag away,
// some three, in shards cut at random vertex counts.
func roadsGraph(t *testing.T, r *rand.Rand, n uint32) *Graph {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "g.ooc")
	b, err := Create(dir, CreateOptions{ShardVertices: uint32(1 + r.IntN(int(n)))})
	if err != nil {
		t.Fatal(err)
	}
	for v := range n {
		l := make([]uint32, 0, 3)
		for range 1 + r.IntN(3) {
			k := 1 + r.Uint32N([]uint32{30, 30, 30, 4000, 40000}[r.IntN(5)])
			if u := int64(v) + int64(k)*int64(1-2*r.IntN(2)); u >= 0 && u < int64(n) {
				l = append(l, uint32(u))
			} else {
				l = append(l, (v+1)%n)
			}
		}
		slices.Sort(l)
		if err := b.Writer(Out).AppendList(v, slices.Compact(l)); err != nil {
			t.Fatal(err)
		}
	}
	return openCommitted(t, b, dir, n)
}

// paddedGroup is wideGroup's shard of one group of lists adj (start and deg their
// offsets and degrees, vertices from lo), its ADJ followed by zero bytes past its end,
// as a mapping's: room for 8-byte loads and for a compact block's stream loads
// (compactMaxBytes+8 bytes after its header), so that HeadGroup's every path runs.
func paddedGroup(lo uint32, adj []byte, start, deg *[DirGroup]uint32) *Shard {
	const pad = compactMaxBytes + 16
	adj = append(adj, make([]byte, pad)...)
	s, _, _ := wideGroup(lo, adj[:len(adj)-pad], start, deg)
	s.Adj = adj[:len(adj)-pad]
	return s
}

// checkHeadGroup compares HeadGroup on random ranges of every group of s, with first
// set or not, and its path for wide directory fields, with Head on each vertex in
// order: the same neighbours, the same first refused vertex and, before it, the empty
// bits where the degree is 0. Where HeadGroup gave a
// list's first neighbour alone (once), that is the first value as Head reads it, and
// HeadSecond gives Head's second or refuses as Head does.
func checkHeadGroup(t *testing.T, r *rand.Rand, s *Shard, nv uint32) {
	t.Helper()
	// one HeadReader for the shard's groups, taking every other group's read from
	// HeadGroup: a group's fields set by one call do not leak into the next
	var x [2][DirGroup]uint32
	x0, x1 := &x[0], &x[1]
	var hr HeadReader
	hr.Reset(s, nv, &x)
	for g := uint32(0); g*DirGroup < s.N; g++ {
		cnt := min(DirGroup, s.N-g*DirGroup)
		j0, j1 := uint32(0), cnt
		if r.IntN(2) == 0 {
			j0 = r.Uint32N(cnt)
			j1 = j0 + 1 + r.Uint32N(cnt-j0)
		}
		var w0, w1 [DirGroup]uint32
		*x0, *x1 = w0, w1
		first := r.IntN(2) == 0
		width, mixed, vec, vecBytes, vecFirst := bmiWidth, mixedAll, headVec, headVecBytes, headVecFirst
		bmiWidth = [2]uint32{0, 64}[r.IntN(2)] // the assembly's loops on every group or on none
		mixedAll = r.IntN(2) == 0              // a first mode's group in its branch-free loop
		headVec = vec && r.IntN(2) == 0        // its short lists 8 at a time first,
		headVecFirst = r.IntN(4) != 0          // and a first mode's lists,
		if r.IntN(2) == 0 {
			headVecBytes = math.MaxUint32 // on every group of short lists
		}
		hr.a.mixed = 7 // left so where headFirstBMI does not run
		once, empty, bad := hr.Group(g, j0, j1, first)
		if m := hr.a.mixed; m != 7 && (m != 0) != mixedNext(hr.a.once, j1-j0) {
			t.Fatalf("shard at %d, group %d [%d, %d): next group's loop %d, once %x", s.Lo, g, j0, j1, m, hr.a.once)
		}
		if r.IntN(2) == 0 {
			once, empty, bad = s.HeadGroup(g, j0, j1, nv, first, &x)
		}
		if in := (^uint64(0) >> (64 - (j1 - j0))) << j0; (once|empty)&^in != 0 {
			t.Fatalf("shard at %d, group %d [%d, %d): once %x, empty %x outside the vertices read", s.Lo, g, j0, j1, once, empty)
		}
		bmiWidth, mixedAll, headVec, headVecBytes, headVecFirst = width, mixed, vec, vecBytes, vecFirst
		wempty, wbad := s.headGroupWide(g*DirGroup, j0, j1, nv, &w0, &w1)
		want, wwant := -1, -1
		for j := j0; j < j1; j++ {
			v := s.Lo + g*DirGroup + j
			d, list := s.ListAt(g*DirGroup + j)
			a, b := v, v
			var n int
			ok := true
			if d > 0 {
				if a, b, n, ok = Head(list, v, d, nv); !ok && wwant < 0 {
					wwant = int(j)
				}
				if n == 1 {
					b = v
				}
			}
			if (bad < 0 || j < uint32(bad)) && (empty>>j&1 != 0) != (d == 0) {
				t.Fatalf("shard at %d, vertex %d (degree %d): empty bit %d", s.Lo, v, d, empty>>j&1)
			}
			if (wbad < 0 || j < uint32(wbad)) && (wempty>>j&1 != 0) != (d == 0) {
				t.Fatalf("shard at %d, vertex %d (degree %d): wide path's empty bit %d", s.Lo, v, d, wempty>>j&1)
			}
			if wwant < 0 && (w0[j] != a || w1[j] != b) {
				t.Fatalf("shard at %d, vertex %d (degree %d, list from % x): wide %d %d, Head %d %d", s.Lo, v, d, list[:min(len(list), 64)], w0[j], w1[j], a, b)
			}
			if once>>j&1 != 0 {
				if !first || d < PackedMin {
					t.Fatalf("shard at %d, vertex %d (degree %d, first %v): once", s.Lo, v, d, first)
				}
				u, p := FastUvarint(list, FirstBlock(d))
				if f := int64(v) + Unzigzag(u>>1); p < 0 || f < 0 || f >= int64(nv) || x0[j] != uint32(f) || x1[j] != v {
					t.Fatalf("shard at %d, vertex %d (degree %d, list from % x): HeadGroup once %d %d, first value %d", s.Lo, v, d, list[:min(len(list), 64)], x0[j], x1[j], f)
				}
				x, ok2 := s.HeadSecond(g*DirGroup+j, nv)
				if ok2 != ok || ok && x != b {
					t.Fatalf("shard at %d, vertex %d (degree %d, list from % x): HeadSecond %d %v, Head %d %v", s.Lo, v, d, list[:min(len(list), 64)], x, ok2, b, ok)
				}
				continue
			}
			if want < 0 && !ok {
				want = int(j)
			}
			if want >= 0 {
				break
			}
			if x0[j] != a || x1[j] != b {
				t.Fatalf("shard at %d, vertex %d (degree %d, list from % x): HeadGroup %d %d, Head %d %d", s.Lo, v, d, list[:min(len(list), 64)], x0[j], x1[j], a, b)
			}
		}
		if bad != want || wbad != wwant {
			t.Fatalf("shard at %d, group %d [%d, %d): refused %d (wide %d), Head refuses %d (%d)", s.Lo, g, j0, j1, bad, wbad, want, wwant)
		}
	}
}

// damagedCopy is s over a copy of its lists with about one byte in 40 changed in place,
// so that every list keeps its bounds, and no room for 8-byte loads past the copy's end.
func damagedCopy(r *rand.Rand, s *Shard) *Shard {
	adj := slices.Clip(slices.Clone(s.Adj))
	for range 1 + len(adj)/40 {
		if len(adj) > 0 {
			i := r.IntN(len(adj))
			adj[i] ^= byte(1 + r.IntN(255))
		}
	}
	return &Shard{Lo: s.Lo, N: s.N, Adj: adj, dirH: s.dirH, dirB: s.dirB}
}

func TestHeadGroupRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 21))
	defer func(s uint32) { touchSpan = s }(touchSpan)
	for trial := 0; trial < 12; trial++ {
		touchSpan = [2]uint32{DirGroup * 64, 0}[trial%2] // every other graph's heads loaded ahead
		n := uint32(1 + r.IntN(3000))
		g := shapesGraph(t, r, n)
		if trial%3 == 2 {
			n = uint32(2 + r.IntN(100000))
			g = roadsGraph(t, r, n)
		}
		for _, s := range g.Out().Shards {
			checkHeadGroup(t, r, s, n)
			// the same directory over damaged lists: bytes changed in place, so that
			// every list keeps its bounds; a copy with no room for 8-byte loads past it
			for range 4 {
				checkHeadGroup(t, r, damagedCopy(r, s), n)
			}
		}
	}
}

// TestHeadGroupShortDirectory: a directory cut inside a group's pairs (what Check
// refuses) makes HeadGroup refuse the group at its first vertex, without a load past
// the section.
func TestHeadGroupShortDirectory(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 22))
	s := shapesGraph(t, r, 1000).Out().Shards[0]
	g := (s.N - 1) / DirGroup // the last group
	h := s.dirH[4*g:]
	wo, wd := h[3]>>16&0xff, h[3]>>24
	end := (uint64(h[1])*64 + uint64(s.N-g*DirGroup)*uint64(wo+wd)) / 8
	cut := &Shard{Lo: s.Lo, N: s.N, Adj: s.Adj, dirH: s.dirH, dirB: slices.Clip(s.dirB[:end+7])}
	var x [2][DirGroup]uint32
	defer func(w uint32) { bmiWidth = w }(bmiWidth)
	for _, first := range []bool{false, true} {
		for _, bmiWidth = range []uint32{0, 64} { // the assembly's loops, then Go's
			if _, _, bad := cut.HeadGroup(g, 0, s.N-g*DirGroup, 1000, first, &x); bad != 0 {
				t.Fatalf("group %d of a directory cut at byte %d (first %v, width %d): refused %d, expected 0", g, end+7, first, bmiWidth, bad)
			}
			if _, _, bad := s.HeadGroup(g, 0, s.N-g*DirGroup, 1000, first, &x); bad >= 0 {
				t.Fatalf("group %d (first %v, width %d): refused %d", g, first, bmiWidth, bad)
			}
		}
	}
}

// TestHeadGroupWide compares HeadGroup with Head on a directory group whose pairs do
// not fit its one load (wo+wd > 57: its path for wide fields), built by hand: lists of
// 0 to 3 neighbours 16 bytes apart at the end of a 32 MiB span (the first list takes
// the rest) and a last vertex whose degree of 2^31 its 16 bytes cannot hold.
func TestHeadGroupWide(t *testing.T) {
	const span, nv, lo = 1 << 25, 1000, 100
	r := rand.New(rand.NewPCG(testSeed(t), 26))
	adj := make([]byte, span+8)
	var start, deg [DirGroup]uint32
	for j := range uint32(DirGroup) {
		if j > 0 {
			start[j] = span - (DirGroup-j)*16
		}
		deg[j] = r.Uint32N(4)
		nbrs := make([]uint32, deg[j])
		for k := range nbrs {
			nbrs[k] = r.Uint32N(nv)
		}
		slices.Sort(nbrs)
		copy(adj[start[j]:], AppendList(nil, lo+j, nbrs))
	}
	deg[DirGroup-1] = 1 << 31
	s, wo, wd := wideGroup(lo, adj[:span], &start, &deg)
	if wo+wd <= 57 {
		t.Fatalf("widths %d and %d fit HeadGroup's load", wo, wd)
	}
	for range 16 {
		checkHeadGroup(t, r, s, nv)
	}
}

// TestTouchHeads: the loads stay inside ADJ whatever the offsets, and an empty ADJ
// takes none.
func TestTouchHeads(t *testing.T) {
	touchHeads(nil, []uint32{0, 7, 1 << 31})
	touchHeads([]byte{1, 2, 3}, []uint32{0, 2, 3, 1 << 31})
}

// TestGroupEmpty compares GroupEmpty with the degrees of every group, on graphs whose
// middle third has no neighbours (whole empty groups) cut into shards at random.
func TestGroupEmpty(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 23))
	for trial := 0; trial < 8; trial++ {
		n := uint32(200 + r.IntN(3000))
		dir := filepath.Join(t.TempDir(), "g.ooc")
		b, err := Create(dir, CreateOptions{ShardVertices: uint32(1 + r.IntN(int(n)))})
		if err != nil {
			t.Fatal(err)
		}
		for v := range n {
			if v >= n/3 && v < 2*n/3 || r.IntN(4) == 0 {
				continue
			}
			if err := b.Writer(Out).AppendList(v, slices.Compact(randomNbrs(r, v, 1+r.IntN(9), n))); err != nil {
				t.Fatal(err)
			}
		}
		g := openCommitted(t, b, dir, n)
		empty := 0
		for _, s := range g.Out().Shards {
			for gr := uint32(0); gr*DirGroup < s.N; gr++ {
				want := true
				for i := gr * DirGroup; i < min(s.N, (gr+1)*DirGroup); i++ {
					want = want && s.DegreeAt(i) == 0
				}
				if got := s.GroupEmpty(gr); got != want {
					t.Fatalf("n=%d shard at %d group %d: GroupEmpty %v, degrees all zero %v", n, s.Lo, gr, got, want)
				}
				if want {
					empty++
				}
			}
		}
		if n > 400 && empty == 0 {
			t.Fatalf("n=%d: no empty group to check", n)
		}
	}
}

// TestHeadGroupCutLists compares HeadGroup with Head on a directory group, built by
// hand, whose lists of 1 to 3 or 4 to 6 neighbours are cut short at random (a
// directory that Check refuses): the bytes after a cut list are the next list's,
// one-byte values that a load at the list's start reads as plausible neighbours. In
// half the groups the first neighbours lie up to 2^21 from their vertex (first values
// of up to 3 bytes, which a cut leaves ending in the next list; a quarter of the groups
// compact blocks, some with exceptions, cut before or inside their exception header),
// and every other check
// takes a vertex count that some first neighbours reach. HeadGroup refuses such a list
// where Head does.
func TestHeadGroupCutLists(t *testing.T) {
	const lo = 100
	r := rand.New(rand.NewPCG(testSeed(t), 27))
	for trial := range 64 {
		nv, far, dmin := uint32(1000), uint32(1), uint32(1)
		if trial%2 == 1 {
			nv, far = 1<<22, 1<<21-30
		}
		if trial%4 >= 2 {
			dmin = PackedMin
		}
		var start, deg [DirGroup]uint32
		var adj []byte
		for j := range uint32(DirGroup) {
			nbrs := make([]uint32, dmin+r.Uint32N(3))
			x := lo + j + r.Uint32N(far)
			for k := range nbrs {
				nbrs[k] = x + r.Uint32N(30) // one-byte gaps
			}
			slices.Sort(nbrs)
			if trial%4 == 3 { // compact blocks, some with exceptions
				nbrs = compactNbrs(r, 4+r.IntN(17), uint(r.IntN(25)), 0.3, nv)
			}
			start[j], deg[j] = uint32(len(adj)), uint32(len(nbrs))
			list := AppendList(nil, lo+j, nbrs)
			if r.IntN(3) == 0 {
				list = list[:r.IntN(len(list))] // cut: 0 to len-1 bytes kept
			}
			adj = append(adj, list...)
		}
		s := paddedGroup(lo, adj, &start, &deg)
		for i := range 8 {
			n := nv // or, every other time, a count that some first neighbours reach
			if i%2 == 1 {
				n = lo + DirGroup + r.Uint32N(far+30)
			}
			checkHeadGroup(t, r, s, n)
		}
	}
}

// TestHeadGroupShortBounds: groups of short lists (1 to 3 one-byte values, headFirstBMI's
// vector pass's case) in which one list is cut inside its first two values or holds a
// byte past its values. HeadGroup, its vector passes on every group (headVec) and off,
// refuses the first list that Head refuses and reads every list before it as Head does.
func TestHeadGroupShortBounds(t *testing.T) {
	const lo, nv = 100, 1000
	r := rand.New(rand.NewPCG(testSeed(t), 32))
	defer func(w uint32, v bool, b uint64) { bmiWidth, headVec, headVecBytes = w, v, b }(bmiWidth, headVec, headVecBytes)
	vec := headVec
	headVecBytes = math.MaxUint32
	for trial := range 96 {
		d, jbad := uint32(1+trial%3), r.Uint32N(DirGroup)
		var deg [DirGroup]uint32
		var start [DirGroup + 1]uint32
		var adj []byte
		for j := range uint32(DirGroup) {
			nbrs := make([]uint32, d)
			for k := range nbrs {
				nbrs[k] = lo + j + 1 + uint32(k)
			}
			list := AppendList(nil, lo+j, nbrs)
			if j == jbad && trial/3%2 == 0 {
				list = list[:r.IntN(min(len(list), 2))] // its values past its end
			} else if j == jbad {
				list = append(list, byte(r.IntN(128))) // a byte past its values
			}
			deg[j], start[j] = d, uint32(len(adj))
			adj = append(adj, list...)
		}
		start[DirGroup] = uint32(len(adj))
		adj = append(adj, make([]byte, 16)...)[:len(adj)] // room for 8-byte loads
		s := groupShard(lo, &deg, &start, adj)
		for _, first := range []bool{false, true} {
			for _, headVec = range []bool{vec, false} {
				bmiWidth = 0
				var x [2][DirGroup]uint32
				_, _, bad := s.HeadGroup(0, 0, DirGroup, nv, first, &x)
				want := -1
				for j := range uint32(DirGroup) {
					dj, list := s.ListAt(j)
					a, b, n, ok := Head(list, lo+j, dj, nv)
					if !ok {
						want = int(j)
						break
					}
					if n == 1 {
						b = lo + j
					}
					if x[0][j] != a || x[1][j] != b {
						t.Fatalf("degree %d, list %d changed (first %v, vector %v): vertex %d: HeadGroup %d %d, Head %d %d", d, jbad, first, headVec, lo+j, x[0][j], x[1][j], a, b)
					}
				}
				if bad != want {
					t.Fatalf("degree %d, list %d changed (first %v, vector %v): refused %d, Head refuses %d", d, jbad, first, headVec, bad, want)
				}
			}
		}
	}
}

// TestHeadGroupLongValues compares HeadGroup with Head on short lists whose two values
// take up to 5 bytes each, on a graph of 2^31 vertices: a second value whose last byte
// lies past the list's first 8 bytes must not be read from them. An eighth of the lists
// hold a first value or gap longer than Head reads (refused), and with nv a list's
// first neighbour that list and the larger ones are refused.
func TestHeadGroupLongValues(t *testing.T) {
	const lo, nv = 100, 1 << 31
	r := rand.New(rand.NewPCG(testSeed(t), 28))
	for range 32 {
		var start, deg [DirGroup]uint32
		var adj []byte
		var edge uint32
		for j := range uint32(DirGroup) {
			start[j], deg[j] = uint32(len(adj)), 2+r.Uint32N(2)
			nbrs := make([]uint32, deg[j])
			x := lo + j + r.Uint32N(1<<(7*(1+r.IntN(4)))) // a first delta of 1 to 5 bytes
			for k := range nbrs {
				nbrs[k] = x
				x += 1 + r.Uint32N(1<<(7*(1+r.IntN(4)))) // gaps of 1 to 5 bytes
			}
			adj = AppendList(adj, lo+j, nbrs)
			if j == 7 {
				edge = nbrs[0]
			}
			// a first value, or a gap after it, of 6 bytes or more: Head refuses it
			if c := r.IntN(16); c < 2 {
				at := int(start[j])
				for ; c == 1 && at < len(adj) && adj[at] >= 0x80; at++ { // past the first
				}
				for k := range min(5, len(adj)-at-c) {
					adj[at+c+k] |= 0x80
				}
			}
		}
		s := paddedGroup(lo, adj, &start, &deg)
		for range 8 {
			checkHeadGroup(t, r, s, nv)
			checkHeadGroup(t, r, s, edge) // nv at vertex 7's first neighbour: its list refused
		}
	}
}

// TestHeadGroupEdges compares HeadGroup with Head on a group whose vertex 5 has a list
// at the edge of what its checks take: a first neighbour of exactly nv, a second of
// exactly nv, a gap of 6 bytes, a first value of 5 bytes and one of 6 whose last byte
// puts it past 2^32; with nv = 167 (one-byte values reach it from vertex 105) the same
// for two one-byte values, lists cut inside their first value of 1 or 2 bytes, and
// compact blocks (vertex 5's first neighbour 106, then a gap of 2) at the widest gaps
// read, without exceptions and with one; a list of PackedMin whose first value takes
// 6 bytes (refused) or 5.
func TestHeadGroupEdges(t *testing.T) {
	const lo = 100
	r := rand.New(rand.NewPCG(testSeed(t), 29))
	for _, c := range []struct {
		nv, deg uint32
		edge    []byte
	}{
		{1000, 1, AppendList(nil, lo+5, []uint32{1000})},
		{1000, 2, AppendList(nil, lo+5, []uint32{lo + 7, 1000})},
		{1000, 2, AppendList(nil, lo+5, []uint32{999, 1000})},
		{1000, 2, []byte{2, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},
		{1000, 2, []byte{0x82, 0x80, 0x80, 0x80, 0x00, 0x01}},
		{1000, 2, []byte{0x82, 0x80, 0x80, 0x80, 0x80, 0x01, 0x01}},
		{167, 2, AppendList(nil, lo+5, []uint32{167, 168})}, // the first one byte, = nv
		{167, 2, AppendList(nil, lo+5, []uint32{lo + 7, 167})},
		{167, 3, AppendList(nil, lo+5, []uint32{lo + 7, 167, 168})},
		{167, 2, AppendList(nil, lo+5, []uint32{166, 167})},
		{167, 2, AppendList(nil, lo+5, []uint32{165, 166})}, // both below nv: read
		{167, 1, []byte{124, 5}},                            // 167 and a byte past the list's value
		{167, 1, []byte{0x81}},                              // cut inside a 2-byte value
		{167, 1, []byte{0x81, 0x81}},
		{167, 1, []byte{0x8a, 0x01}}, // 138 as a 2-byte value: vertex 105+69
		{1000, 1, []byte{0x81}},
		{1000, 2, []byte{0x81}},
		{1000, 5, AppendList(nil, lo+5, []uint32{900, 901, 902, 903, 904})[:1]},
		// a list of PackedMin: a first value of 6 bytes (refused), of 5 (read)
		{1000, 4, []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x01, 0x01, 0x01}},
		{1000, 4, []byte{0x80 | 0x06<<1, 0x80, 0x80, 0x80, 0x00, 0x01, 0x01, 0x01}},
		// compact blocks of gaps 32 bits wide (read) and 33 (refused)
		{1000, 4, append([]byte{0x05, hdrCompact | 32, 1}, make([]byte, 11)...)},
		{1000, 4, append([]byte{0x05, hdrCompact | 33, 1}, make([]byte, 12)...)},
		// the same with an exception naming gap 0 (its high part 0)
		{1000, 4, []byte{0x05, hdrCompact | hdrExceptions | 32, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0}},
		{1000, 4, []byte{0x05, hdrCompact | hdrExceptions | 33, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x08, 0, 0}},
	} {
		nv, edge := c.nv, c.edge
		var start, deg [DirGroup]uint32
		var adj []byte
		for j := range uint32(DirGroup) {
			start[j] = uint32(len(adj))
			if j == 5 {
				adj, deg[j] = append(adj, edge...), c.deg
				continue
			}
			deg[j] = 1 + r.Uint32N(3)
			nbrs := make([]uint32, deg[j])
			for k := range nbrs {
				nbrs[k] = lo + j + 1 + uint32(k)
			}
			adj = AppendList(adj, lo+j, nbrs)
		}
		s := paddedGroup(lo, adj, &start, &deg)
		for range 64 {
			checkHeadGroup(t, r, s, nv)
		}
	}
}

// TestHeadGroupMappingEnd compares HeadGroup with Head on a group of long lists (4 to 7
// neighbours: a narrow degree field) that ends where the mapping does, with no bytes
// after it: the last lists' first words do not load, and outside first mode such a
// list gives both values through Head, not its first alone.
func TestHeadGroupMappingEnd(t *testing.T) {
	const lo, nv = 100, 1000
	r := rand.New(rand.NewPCG(testSeed(t), 30))
	for range 16 {
		var start, deg [DirGroup]uint32
		var adj []byte
		for j := range uint32(DirGroup) {
			start[j], deg[j] = uint32(len(adj)), 4+r.Uint32N(4)
			nbrs := make([]uint32, deg[j])
			for k := range nbrs {
				nbrs[k] = lo + j + 1 + uint32(k)*(1+r.Uint32N(3))
			}
			adj = AppendList(adj, lo+j, nbrs)
		}
		adj = slices.Clip(adj) // nothing past the last list
		s, _, _ := wideGroup(lo, adj, &start, &deg)
		for range 16 {
			checkHeadGroup(t, r, s, nv)
		}
	}
}

// TestHeadGroupPairWidths compares HeadGroup, from every vertex of its group on and in
// both modes, with Head, and Entries and ScanGroup with their references, on groups whose
// pairs' width wo+wd is every one from 24 to 34 bits and more: vertex b's list of 2^10
// to 2^16.5 neighbours (b 1 to 8) widens wd by its degree, the high bits of its degree
// field set, and wo by its bytes (the lists after it start far past their lines), one
// to two a gap. headFirstBMI reads two pairs from one word up to 28 bits; past that the
// second pair's high bits, at an odd bit of the first's byte, do not fit the word.
func TestHeadGroupPairWidths(t *testing.T) {
	const lo = 100
	r := rand.New(rand.NewPCG(testSeed(t), 31))
	defer func(w uint32, v bool, b uint64) { bmiWidth, headVec, headVecBytes = w, v, b }(bmiWidth, headVec, headVecBytes)
	vec := headVec
	headVecBytes = math.MaxUint32 // every group of short lists through the vector passes where headVec is set
	widths := map[uint32]bool{}
	for x := 20; x <= 33; x++ {
		for i := range 5 * 8 {
			q, big := i%5, uint32(1+i/5) // q gaps of 4 take two bytes; vertex big's list is long
			var start, deg [DirGroup]uint32
			var adj []byte
			d0 := uint32(math.Pow(2, float64(x)/2)) // 2^10 to 2^16.5 by half powers of two
			nv := lo + DirGroup + 131*d0            // past every neighbour below
			for j := range uint32(DirGroup) {
				v := lo + j
				nbrs := make([]uint32, 1+j%6)
				if j == big {
					nbrs = make([]uint32, d0)
				}
				for k := range nbrs {
					u := v + 1
					if k > 0 {
						u = nbrs[k-1] + 1
						if k%4 < q {
							u = nbrs[k-1] + 130
						}
					}
					nbrs[k] = u
				}
				start[j], deg[j] = uint32(len(adj)), uint32(len(nbrs))
				adj = AppendList(adj, v, nbrs)
			}
			s, wo, wd := wideGroup(lo, adj, &start, &deg)
			if 2*wo+wd > 57 {
				t.Fatalf("degree %d, %d gaps of 4 of two bytes: widths %d and %d do not pack", d0, q, wo, wd)
			}
			widths[wo+wd] = true
			for j0 := range uint32(DirGroup) {
				for _, first := range []bool{true, false} {
					var x [2][DirGroup]uint32
					x0, x1 := &x[0], &x[1]
					bmiWidth, headVec = 0, vec && j0%2 == 0
					once, _, bad := s.HeadGroup(0, j0, DirGroup, nv, first, &x)
					if bad >= 0 {
						t.Fatalf("widths %d and %d, from %d (first %v): HeadGroup refused vertex %d", wo, wd, j0, first, bad)
					}
					for j := j0; j < DirGroup; j++ {
						v := lo + j
						d, list := s.ListAt(j)
						a, b, n, ok := Head(list, v, d, nv)
						if !ok {
							t.Fatalf("vertex %d's list does not decode", v)
						}
						if n == 1 || once>>j&1 != 0 {
							b = v
						}
						if x0[j] != a || x1[j] != b {
							t.Fatalf("widths %d and %d, from %d (first %v): vertex %d (degree %d): HeadGroup %d %d, Head %d %d", wo, wd, j0, first, v, d, x0[j], x1[j], a, b)
						}
					}
				}
			}
			if big > 1 {
				continue
			}
			front := make([]uint64, (nv+63)/64)
			for i := range front {
				front[i] = r.Uint64() & r.Uint64()
			}
			for range 4 {
				checkScanGroup(t, r, s, nv, front)
			}
			checkShardEntries(t, uint64(x), s, nv, randv1.New(randv1.NewSource(int64(x))))
		}
	}
	for ww := uint32(24); ww <= 34; ww++ {
		if !widths[ww] {
			t.Fatalf("no group of pair width %d (widths %v): widen the test", ww, widths)
		}
	}
}

// TestHeadGroupTrailingBytes compares HeadGroup with Head on lists of 1 to 3
// neighbours whose values take 1 to 3 bytes, an eighth of them followed by 1 to 3 bytes
// more: a list of one or two is read whole, so every path of HeadGroup (the
// assembly's one-byte pair, its first value and gap; the Go loop's; headWord's; Head's)
// refuses bytes after its last value, as ListIter does; a list of three is not read
// whole and keeps them.
func TestHeadGroupTrailingBytes(t *testing.T) {
	const lo, nv = 100, 1 << 22
	r := rand.New(rand.NewPCG(testSeed(t), 29))
	width := func() uint32 { return 1 << (7*[4]int{1, 1, 2, 3}[r.IntN(4)] - 2) } // a delta of 1-3 bytes
	for range 200 {
		var start, deg [DirGroup]uint32
		var adj []byte
		trailing := 0
		for j := range uint32(DirGroup) {
			start[j], deg[j] = uint32(len(adj)), 1+r.Uint32N(3)
			nbrs := make([]uint32, deg[j])
			x := lo + j + r.Uint32N(width())
			for k := range nbrs {
				nbrs[k] = x
				x += 1 + r.Uint32N(width())
			}
			adj = AppendList(adj, lo+j, nbrs)
			if r.IntN(8) == 0 {
				for range 1 + r.IntN(3) {
					adj = append(adj, byte(r.Uint32()))
				}
				if deg[j] <= 2 {
					trailing++
				}
			}
		}
		if trailing == 0 {
			continue
		}
		s := paddedGroup(lo, adj, &start, &deg)
		for range 8 {
			checkHeadGroup(t, r, s, nv)
		}
	}
}
