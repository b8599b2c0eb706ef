package store

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// checkScanGroup compares ScanGroup, and its path for wide directory fields, on every
// group of s with random vertex masks against ScanList on each vertex in order: the same
// vertices found with the same parents, the same empty vertices, checks and degree sum,
// and the same first refused vertex (before which the results must agree).
func checkScanGroup(t *testing.T, r *rand.Rand, s *Shard, nv uint32, front []uint64) {
	t.Helper()
	for g := uint32(0); g*DirGroup < s.N; g++ {
		todo := r.Uint64()
		switch r.IntN(4) {
		case 0:
			todo = ^uint64(0)
		case 1:
			todo &= r.Uint64() & r.Uint64()
		}
		cnt := min(DirGroup, s.N-g*DirGroup)
		var got, wide GroupScan
		bad := s.ScanGroup(g, todo, nv, front, &got)
		if cnt < DirGroup { // scanGroupWide takes ScanGroup's mask
			todo &= 1<<cnt - 1
		}
		wbad := s.scanGroupWide(g*DirGroup, todo, nv, front, &wide)
		var want GroupScan
		wantBad := -1
		for j := uint32(0); j < cnt; j++ {
			if todo&(1<<j) == 0 {
				continue
			}
			d, a, b := s.dirEntry(g*DirGroup + j)
			if d == 0 {
				want.Empty |= 1 << j
				continue
			}
			if b > uint32(len(s.Adj)) || a > b { // a list past ADJ's end, or ending before its start, is refused
				wantBad = int(j)
				break
			}
			list := s.Adj[a:b]
			x, c, st := scanScalar(list, s.Lo+g*DirGroup+j, d, nv, front)
			want.Checked += uint64(c)
			if st == Malformed {
				wantBad = int(j)
				break
			}
			if st == Found {
				want.Found |= 1 << j
				want.Parent[j] = x
				want.Degrees += uint64(d)
			}
		}
		// the vector step's own answer, without ScanGroup's scalar pass after a refusal
		// (which would hide a list it read wrong and refused): a refusal exactly when
		// ScanList refuses a list, and where none does, the same results
		// and the same without BMI2, where the lists that miss their first neighbour go on
		// in the scalar loop
		var vec, vecNoX GroupScan
		if haveVec {
			if vbad := s.scanGroup(g, todo, nv, front, &vec, true); (vbad >= 0) != (wantBad >= 0) {
				t.Fatalf("shard at %d, group %d, todo %#x: the vector step refuses %d, ScanList %d", s.Lo, g, todo, vbad, wantBad)
			}
			old := haveShiftX
			haveShiftX = false
			xbad := s.scanGroup(g, todo, nv, front, &vecNoX, true)
			haveShiftX = old
			if (xbad >= 0) != (wantBad >= 0) {
				t.Fatalf("shard at %d, group %d, todo %#x: the vector step without BMI2 refuses %d, ScanList %d", s.Lo, g, todo, xbad, wantBad)
			}
		}
		for _, c := range []struct {
			name string
			bad  int
			r    *GroupScan
		}{{"ScanGroup", bad, &got}, {"wide", wbad, &wide}, {"vector", -2, &vec}, {"vector without BMI2", -2, &vecNoX}} {
			if c.bad == -2 { // the vector step: checked above
				if !haveVec || wantBad >= 0 {
					continue
				}
				c.bad = -1
			}
			if c.bad != wantBad {
				t.Fatalf("shard at %d, group %d, todo %#x: %s refuses %d, ScanList %d", s.Lo, g, todo, c.name, c.bad, wantBad)
			}
			if wantBad >= 0 { // only the vertices before it are described
				m := uint64(1)<<wantBad - 1
				if c.r.Found&m != want.Found&m || c.r.Empty&m != want.Empty&m {
					t.Fatalf("shard at %d, group %d, todo %#x: %s found %#x empty %#x before %d, ScanList %#x %#x", s.Lo, g, todo, c.name, c.r.Found, c.r.Empty, wantBad, want.Found, want.Empty)
				}
				continue
			}
			if c.r.Found != want.Found || c.r.Empty != want.Empty || c.r.Checked != want.Checked || c.r.Degrees != want.Degrees {
				t.Fatalf("shard at %d, group %d, todo %#x: %s found %#x empty %#x checked %d degrees %d; ScanList %#x %#x %d %d", s.Lo, g, todo, c.name, c.r.Found, c.r.Empty, c.r.Checked, c.r.Degrees, want.Found, want.Empty, want.Checked, want.Degrees)
			}
			for m := want.Found; m != 0; m &= m - 1 {
				j := bits.TrailingZeros64(m)
				if c.r.Parent[j] != want.Parent[j] {
					t.Fatalf("shard at %d, vertex %d: %s parent %d, ScanList %d", s.Lo, s.Lo+g*DirGroup+uint32(j), c.name, c.r.Parent[j], want.Parent[j])
				}
			}
		}
	}
}

func TestScanGroupRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 31))
	for trial := 0; trial < 12; trial++ {
		n := uint32(1 + r.IntN(3000))
		g := shapesGraph(t, r, n)
		for _, s := range g.Out().Shards {
			for range 3 {
				checkScanGroup(t, r, s, n, randomBits(r, n))
			}
			// the same directory over damaged lists: bytes changed in place, so that
			// every list keeps its bounds; a copy with no room for 8-byte loads past it
			for range 4 {
				checkScanGroup(t, r, damagedCopy(r, s), n, randomBits(r, n))
			}
			// a directory whose last lists run past ADJ's end
			cut := s.Adj[:r.IntN(len(s.Adj)+1)]
			checkScanGroup(t, r, &Shard{Lo: s.Lo, N: s.N, Adj: cut, dirH: s.dirH, dirB: s.dirB}, n, randomBits(r, n))
		}
	}
}

// TestScanGroupFirstPair holds ScanGroup to ScanList where each group's first pair codes
// a start other than the group's own first byte (bit 0 of its start field flipped: one
// byte before it, in group 0 before ADJ, refused). A dense group's vector step decodes
// that start apart from the other lanes' (each the end of the lane before), so it must
// read it as the directory says.
func TestScanGroupFirstPair(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 43))
	flipped := 0
	for range 8 {
		n := uint32(200 + r.IntN(3000))
		g := shapesGraph(t, r, n)
		for _, s := range g.Out().Shards {
			dirB := slices.Clone(s.dirB)
			for gi := uint32(0); gi*DirGroup < s.N; gi++ {
				if s.dirH[4*gi+3]>>16&0xff > 0 { // wo > 0: the pair has a start field
					dirB[uint64(s.dirH[4*gi+1])*8] ^= 1
					flipped++
				}
			}
			d := &Shard{Lo: s.Lo, N: s.N, Adj: s.Adj, dirH: s.dirH, dirB: dirB}
			for range 4 {
				checkScanGroup(t, r, d, n, randomBits(r, n))
			}
		}
	}
	if flipped < 20 {
		t.Fatalf("only %d groups with a start field", flipped)
	}
}

// oneListShard is a shard of one directory group, vertices lo to lo+63, in which vertex
// lo+j has the list adj (degree d) and the others none.
func oneListShard(lo, j, d uint32, adj []byte) *Shard {
	var deg [DirGroup]uint32
	var start [DirGroup + 1]uint32
	deg[j] = d
	for i := j + 1; i <= DirGroup; i++ {
		start[i] = uint32(len(adj))
	}
	return groupShard(lo, &deg, &start, adj)
}

// groupShard is a shard of one directory group, vertices lo to lo+63, in which vertex
// lo+i has degree deg[i] and the list adj[start[i]:start[i+1]] (start ascending from 0,
// start[64] = len(adj)).
func groupShard(lo uint32, deg *[DirGroup]uint32, start *[DirGroup + 1]uint32, adj []byte) *Shard {
	span := start[DirGroup]
	var codes [DirGroup]uint32
	var zor, dor, sum uint32
	for i := range uint32(DirGroup) {
		codes[i] = dirCode(start[i], i, span)
		zor |= codes[i]
		dor |= deg[i]
		sum += deg[i]
	}
	wo, wd := uint32(bits.Len32(zor)), uint32(bits.Len32(dor))
	var acc, have uint64
	var words []uint64
	for i := range uint32(DirGroup) {
		for _, f := range [2][2]uint32{{codes[i], wo}, {deg[i], wd}} {
			acc |= uint64(f[0]) << have
			if have += uint64(f[1]); have >= 64 {
				words = append(words, acc)
				have -= 64
				acc = uint64(f[0]) >> (uint64(f[1]) - have) // have < f[1] <= 32 here
				if have == 0 {
					acc = 0
				}
			}
		}
	}
	if have > 0 {
		words = append(words, acc)
	}
	dirB := make([]byte, 8*len(words)+8)
	for i, w := range words {
		binary.LittleEndian.PutUint64(dirB[8*i:], w)
	}
	dirH := []uint32{0, 0, 0, wo<<16 | wd<<24, span, uint32(len(words)), sum, 0}
	return &Shard{Lo: lo, N: DirGroup, Adj: adj, dirH: dirH, dirB: dirB}
}

// FuzzScanGroup feeds ScanGroup arbitrary bytes as the list of degree d of one vertex
// of a directory group: no panic, and ScanList's answer (checkScanGroup).
func FuzzScanGroup(f *testing.F) {
	f.Add(uint32(10), uint16(3), []byte{0x09, 0x02, 0xA5, 0x02}, uint16(0), uint64(1))
	f.Add(uint32(1000), uint16(64), []byte{0x01, 0x00, 0x01}, uint16(8), uint64(2))
	f.Add(uint32(10), uint16(6), []byte{0x13, 0xC1, 0x20, 0xD8, 0x61, 0x24}, uint16(0), uint64(4)) // compact
	f.Add(uint32(10), uint16(4), []byte{0x1F, 0xFF, 0x07}, uint16(8), uint64(5))                   // mirrored
	r := rand.New(rand.NewPCG(9, 10))
	for _, d := range []int{2, 5, 70} {
		nbrs := randomNbrs(r, 7, d, 1<<20)
		f.Add(uint32(7), uint16(d), AppendList(nil, 7, nbrs), uint16(9), uint64(d))
	}
	const nv = 1 << 20
	f.Fuzz(func(t *testing.T, v uint32, d uint16, list []byte, pad uint16, seed uint64) {
		v, d = v%nv, 1+d%200
		r := rand.New(rand.NewPCG(seed, 6))
		s := oneListShard(v&^(DirGroup-1), v&(DirGroup-1), uint32(d), withTail(r, list, int(pad%300)))
		for i := range uint32(DirGroup) {
			if deg, a, b := s.dirEntry(i); (i == v%DirGroup) != (deg != 0) || (i == v%DirGroup && (deg != uint32(d) || a != 0 || b != uint32(len(list)))) {
				t.Fatalf("oneListShard: vertex %d has degree %d and ADJ [%d, %d)", i, deg, a, b)
			}
		}
		checkScanGroup(t, r, s, nv, randomBits(r, nv))
	})
}

// TestScanGroupWideDegree holds ScanGroup to ScanList on a group built by hand whose
// starts lie on the interpolated line (wo 0) and one of whose degrees needs 32 bits (wd
// 32): its pairs fit one load, so it takes the one-load path, whose masks must keep a
// 32-bit field whole.
func TestScanGroupWideDegree(t *testing.T) {
	const span = 64 * 96
	r := rand.New(rand.NewPCG(testSeed(t), 37))
	var start, deg [DirGroup]uint32
	for j := range DirGroup {
		start[j] = uint32(j) * span / DirGroup
		deg[j] = uint32(r.IntN(90))
	}
	deg[5] = 1<<31 + 7
	adj := make([]byte, span+8)
	for i := range adj {
		adj[i] = byte(r.IntN(256))
	}
	s, wo, wd := wideGroup(0, adj[:span], &start, &deg)
	if wo != 0 || wd != 32 {
		t.Fatalf("widths %d and %d, want 0 and 32", wo, wd)
	}
	for range 8 {
		checkScanGroup(t, r, s, 1<<16, randomBits(r, 1<<16))
	}
}

// TestScanGroupFirstPastList holds ScanGroup to ScanList where a list's first value runs
// past the list's end into the bytes after it (which the mapping holds, so an 8-byte
// load reads them): refused, though those bytes would make a neighbour in the frontier.
// Every vertex of the group is looked at, so the vector step (where there is one) reads
// the list.
func TestScanGroupFirstPastList(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 41))
	const nv = 1 << 16
	front := make([]uint64, nv/64)
	for i := range front {
		front[i] = ^uint64(0)
	}
	for _, d := range []uint32{1, 2, 3, 4, 5, 70} {
		for _, list := range [][]byte{{0x81}, {0x81, 0x80}, {0x03, 0x81}, {0x81, 0x81, 0x81, 0x81}} {
			b := append(slices.Clone(list), 0x01, 0, 0, 0, 0, 0, 0, 0, 0)[:len(list)]
			for _, j := range []uint32{0, 5, 63} {
				checkScanGroup(t, r, oneListShard(4096, j, d, b), nv, front)
			}
		}
	}
}

// TestScanGroupShortFront gives ScanGroup a frontier of fewer than nv bits, against its
// contract, and a list whose first neighbour lies past them: the vector step must not
// read that word (past the slice's length, inside its capacity here, where the read
// would not fault and the list would be called a miss); the scalar loop's bounds check
// panics instead.
func TestScanGroupShortFront(t *testing.T) {
	const nv = 8192
	// vertex 4096's list [4000]: zigzag(4000 - 4096) = 191, two bytes
	s := oneListShard(4096, 0, 1, append([]byte{0xBF, 0x01}, make([]byte, 8)...)[:2])
	front := make([]uint64, nv/64)[:1]
	defer func() {
		if recover() == nil {
			t.Fatal("ScanGroup read the word of neighbour 4000 in a frontier of 64 bits")
		}
	}()
	var res GroupScan
	s.ScanGroup(0, ^uint64(0), nv, front, &res)
}

// TestPairTabs holds each pairTab to the load it stands for: lane i of a step whose first
// pair starts at bit 4*ph gets the 8 bytes from byte (i*ww+4*ph)/8 of a 16-byte load,
// shifted right by (i*ww+4*ph)%8, which is the pair the gather would read, and needs no
// byte past the 16th.
func TestPairTabs(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 41))
	var b [24]byte
	for range 20 {
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		for ww := range pairTabMax + 1 {
			for ph := range 2 {
				e := &pairTabs[ww][ph]
				for i := range 4 {
					var x uint64
					for k := range 8 {
						c := e.ctl[8*i+k]
						if c > 15 {
							t.Fatalf("ww %d, phase %d, lane %d: control byte %d past the load", ww, ph, i, c)
						}
						x |= uint64(b[c]) << (8 * k)
					}
					x >>= e.sh[i]
					bit := i*ww + 4*ph
					if want := binary.LittleEndian.Uint64(b[bit>>3:]) >> (bit & 7); x != want {
						t.Fatalf("ww %d, phase %d, lane %d: %#x, want %#x", ww, ph, i, x, want)
					}
				}
			}
		}
	}
}

// TestScanGroupSecondValue holds ScanGroup to ScanList on groups of varint lists (degrees
// 2, 3 and 5) whose first neighbour misses the frontier and whose second value takes 1 to
// 5 bytes: the second read inline from the first value's word where it ends inside it,
// else by the varint loop; lists cut inside their second value, bytes flipped, second
// values of 6 bytes, last values of 8 (ending past that word), and lists whose third
// neighbour is in the frontier among them.
func TestScanGroupSecondValue(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 59))
	const nv = 1<<29 + 1<<20 // gaps up to 2^29: second values of 5 bytes
	front := make([]uint64, nv/64)
	for trial := range 60 {
		var deg [DirGroup]uint32
		var start [DirGroup + 1]uint32
		var adj []byte
		lo := r.Uint32N(1<<20/DirGroup) * DirGroup
		var set, cleared []uint32
		for i := range uint32(DirGroup) {
			d := []int{2, 2, 3, 5}[r.IntN(4)]
			x := lo + i + r.Uint32N(1<<8) // near the vertex, not below 0
			if x >= 1<<7 {
				x -= 1 << 7
			}
			if r.IntN(3) == 0 {
				x = r.Uint32N(1 << 20) // a first value of up to 3 bytes
			}
			nbrs := []uint32{x}
			for len(nbrs) < d {
				gap := uint32(1) + r.Uint32N(1<<(7*(1+r.IntN(4)))) // 1 to 4 bytes
				if r.IntN(4) == 0 {
					gap = 1<<28 + r.Uint32N(1<<20) // 5 bytes
				}
				if nbrs[len(nbrs)-1]+gap >= nv {
					break
				}
				nbrs = append(nbrs, nbrs[len(nbrs)-1]+gap)
			}
			enc := AppendList(nil, lo+i, nbrs)
			if d == 2 && len(nbrs) == 2 && nbrs[1]-nbrs[0] < 1<<7 && r.IntN(4) == 0 {
				// a second value of 6 bytes, past what is read inline: 2^35 (refused) or,
				// not in its shortest form, the gap it had
				six := []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x01}
				if r.IntN(2) == 0 {
					six = []byte{0x80 | enc[len(enc)-1], 0x80, 0x80, 0x80, 0x80, 0x00}
				}
				enc = append(slices.Clone(enc[:len(enc)-1]), six...)
			}
			if d <= 3 && len(nbrs) == d && nbrs[d-1]-nbrs[d-2] < 1<<7 && r.IntN(4) == 0 {
				// a last value of 8 bytes, its end past the first value's word: the gap
				// it had plus 2^49 (refused), whose low bits make a neighbour in the
				// frontier where the word's bytes are read as the whole value
				eight := []byte{0x80 | enc[len(enc)-1], 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}
				enc = append(slices.Clone(enc[:len(enc)-1]), eight...)
			}
			switch r.IntN(8) {
			case 0:
				enc = enc[:r.IntN(len(enc)+1)] // cut, perhaps inside the second value
			case 1:
				enc = slices.Clone(enc)
				enc[r.IntN(len(enc))] ^= byte(1 + r.IntN(255))
			}
			cleared = append(cleared, nbrs[0])
			if len(nbrs) > 1 && r.IntN(2) == 0 {
				set = append(set, nbrs[1+r.IntN(len(nbrs)-1)])
			}
			deg[i], start[i] = uint32(len(nbrs)), uint32(len(adj))
			adj = append(adj, enc...)
		}
		start[DirGroup] = uint32(len(adj))
		s := groupShard(lo, &deg, &start, withTail(r, adj, []int{0, 3, 64}[trial%3]))
		for _, x := range set {
			front[x>>6] |= 1 << (x & 63)
		}
		for _, x := range cleared {
			front[x>>6] &^= 1 << (x & 63)
		}
		checkScanGroup(t, r, s, nv, front)
		for _, x := range set {
			front[x>>6] &^= 1 << (x & 63)
		}
	}
}

// TestScanGroupLongFirstValue gives ScanGroup lists whose first value takes 6 to 8
// bytes, or has no last byte in its first 8, its bits from the 36th on not all zero,
// against a full frontier: ScanList reads the whole value, past nv, and calls the list
// Malformed; the vector step must leave it to ScanList though the value's low 35 bits
// make a neighbour below nv (its length's checks: at most 5 bytes, and a last byte
// within the word).
func TestScanGroupLongFirstValue(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 43))
	const nv = 1 << 16
	front := make([]uint64, nv/64)
	for i := range front {
		front[i] = ^uint64(0)
	}
	for _, k := range []int{6, 7, 8, 12} {
		list := append([]byte{0x82}, slices.Repeat([]byte{0x80}, k-2)...)
		list = append(list, 0x01, 0x02, 0x02, 0x02) // the value's last byte, then more
		for _, d := range []uint32{1, 3, 5, 40} {   // one block: the value at the list's start
			for _, j := range []uint32{0, 5, 63} {
				s := oneListShard(4096, j, d, withTail(r, list, 16))
				if _, _, st := scanScalar(s.Adj, 4096+j, d, nv, front); st != Malformed {
					t.Fatalf("%d bytes, degree %d: ScanList's status %d, want Malformed", k, d, st)
				}
				var res GroupScan
				if bad := s.ScanGroup(0, ^uint64(0), nv, front, &res); bad != int(j) {
					t.Fatalf("%d bytes, degree %d, vertex %d: ScanGroup refused %d, found %x", k, d, j, bad, res.Found)
				}
			}
		}
	}
}

// TestScanGroupFiveByteFirstValue gives ScanGroup lists whose first value takes 5 bytes
// (a neighbour 2^27 or more below the vertex, on a shard of vertices from 3*2^27) against
// a frontier of that neighbour alone: the vector step's decode of the value's high bits
// must find it where ScanList does. A wrong weight of the fifth byte lands on a vertex in
// range that is not in the frontier.
func TestScanGroupFiveByteFirstValue(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 44))
	const lo = 3 << 27
	const nv = lo + DirGroup
	front := make([]uint64, nv/64)
	for _, f := range []uint32{1<<27 + 1<<26, 1<<27 + 12345, 1<<28 - 7, 1<<27 + 1<<25 + 3} {
		front[f>>6] |= 1 << (f & 63)
		for _, d := range []uint32{1, 2, 3, 5} {
			for _, j := range []uint32{0, 9, 63} {
				u := zigzag(int64(f) - int64(lo+j))
				if d >= PackedMin {
					u <<= 1 // the mode bit: varints
				}
				list := appendUvarint(nil, u)
				if len(list) != 5 {
					t.Fatalf("neighbour %d of %d: %d bytes, want 5", f, lo+j, len(list))
				}
				for range d - 1 {
					list = append(list, 0x02)
				}
				s := oneListShard(lo, j, d, withTail(r, list, 16))
				x, _, st := scanScalar(s.Adj, lo+j, d, nv, front)
				if st != Found || x != f {
					t.Fatalf("neighbour %d of %d, degree %d: ScanList found %d, status %d", f, lo+j, d, x, st)
				}
				var res GroupScan
				if bad := s.ScanGroup(0, ^uint64(0), nv, front, &res); bad >= 0 || res.Found != 1<<j || res.Parent[j] != f {
					t.Fatalf("neighbour %d of %d, degree %d: ScanGroup refused %d, found %x, parent %d", f, lo+j, d, bad, res.Found, res.Parent[j])
				}
			}
		}
		front[f>>6] = 0
	}
}

// TestScanGroupSecondValueCut gives ScanGroup a group of lists of two neighbours, each
// cut inside its second value (a byte with the continuation bit, then the list's end),
// and a frontier holding the neighbour that value would make with the next list's first
// byte read on as its last: ScanList calls each list Malformed, so ScanGroup must refuse
// the first list it reads, not find that neighbour through bytes past the list (scanRest
// reads the second value from the word it holds only where it ends inside the list).
func TestScanGroupSecondValueCut(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 67))
	const lo, nv = 1024, 4096
	for range 20 {
		var deg [DirGroup]uint32
		var start [DirGroup + 1]uint32
		var adj []byte
		front := make([]uint64, nv/64)
		for j := range uint32(DirGroup) {
			deg[j], start[j] = 2, uint32(len(adj))
			adj = append(adj, 2, 0x80|byte(r.IntN(128))) // first neighbour v+1, then a cut value
		}
		start[DirGroup] = uint32(len(adj))
		for j := range uint32(DirGroup - 1) {
			// the value read on into list j+1's first byte (2): a gap of 256 or more
			f := uint64(lo+j+1) + (uint64(adj[2*j+1]&0x7f) | uint64(adj[2*j+2])<<7)
			front[f>>6] |= 1 << (f & 63)
		}
		s := groupShard(lo, &deg, &start, withTail(r, adj, 16))
		checkScanGroup(t, r, s, nv, front)
	}
}

// TestScanGroupValuePastWord gives ScanGroup groups of lists of two and three neighbours,
// one of which has a last value of 8 bytes, its end byte past the word of 8 at the
// first value's start, with the neighbour that the word's bytes alone would make in the
// frontier, or a last value of two bytes that makes a neighbour at or past nv: ScanList
// calls that list Malformed (the value is 2^49 or more, or the neighbour no vertex), so
// ScanGroup and its vector step must refuse it, not find or miss that neighbour.
func TestScanGroupValuePastWord(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 71))
	const lo, nv = 1024, 4096
	for range 40 {
		var deg [DirGroup]uint32
		var start [DirGroup + 1]uint32
		var adj []byte
		front := make([]uint64, nv/64)
		long, past := r.Uint32N(DirGroup), r.IntN(2) == 0
		for j := range uint32(DirGroup) {
			d := 2 + r.Uint32N(2)
			deg[j], start[j] = d, uint32(len(adj))
			x := uint64(lo + j + 1)
			adj = append(adj, 2) // first neighbour v+1, not in the frontier
			for range d - 1 {
				g := 1 + uint64(r.IntN(100))
				x += g
				switch {
				case j == long && len(adj)-int(start[j]) == int(d)-1 && past:
					g = nv - (x - g) + uint64(r.IntN(64)) // x past nv
					adj = append(adj, 0x80|byte(g), byte(g>>7))
				case j == long && len(adj)-int(start[j]) == int(d)-1:
					adj = append(adj, 0x80|byte(g), 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01)
					front[x>>6] |= 1 << (x & 63)
				default:
					adj = append(adj, byte(g))
				}
			}
		}
		for j := range 4 { // v+1 of four lists, in the frontier, so that the lists that miss differ
			x := uint64(lo + (long+1+uint32(j)*7)%DirGroup + 1)
			front[x>>6] |= 1 << (x & 63)
		}
		start[DirGroup] = uint32(len(adj))
		s := groupShard(lo, &deg, &start, withTail(r, adj, 16))
		checkScanGroup(t, r, s, nv, front)
	}
}
