package store

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// unpackRef is the gap rule of the compact decoders in 64-bit arithmetic, field by
// field: dst[i] is dst[i-1] plus 1 plus field i-1 of src plus add[i].
func unpackRef(dst []uint32, src *[packedArea]byte, w uint, first uint64, add []uint64) uint64 {
	cur := first
	dst[0] = uint32(first)
	for i := 1; i < len(dst); i++ {
		var f uint64
		for b := range w {
			bit := uint(i-1)*w + b
			f |= uint64(src[bit/8]>>(bit%8)&1) << b
		}
		cur += 1 + f + add[i]
		dst[i] = uint32(cur)
	}
	return cur
}

// checkUnpack holds unpackGapsAdd (the vector decoder where the processor has one, and
// its scalar tail) and unpackGaps (no exceptions) to unpackRef on a block of k
// neighbours with exceptions exc (index | addend<<32, as unpackCompact puts them in its
// add array): the same neighbours and last neighbour while the sums stay below 2^32,
// and a last neighbour of 2^32 or more (refused against any vertex count) when they do
// not.
func checkUnpack(t *testing.T, k int, src *[packedArea]byte, w uint, first uint64, exc []uint64) {
	t.Helper()
	ref, add := make([]uint64, BlockSize+1), gapOnes
	for _, e := range exc {
		ref[uint32(e)] += e >> 32
		add[uint32(e)&(BlockSize-1)] = 1 + uint32(e>>32)
	}
	want, got := make([]uint32, k), make([]uint32, k)
	wantLast := unpackRef(want, src, w, first, ref)
	got[0] = uint32(first)
	var gotLast uint64
	if len(exc) == 0 {
		gotLast = unpackGaps(got, src, w, first)
	} else {
		gotLast = unpackGapsAdd(got, src, w, first, &add)
	}
	if wantLast >= 1<<32 {
		if gotLast < 1<<32 {
			t.Fatalf("k=%d w=%d first=%d exc=%x: sums past 2^32 (%d) decoded as %d", k, w, first, exc, wantLast, gotLast)
		}
		return
	}
	if gotLast != wantLast || !slices.Equal(got, want) {
		t.Fatalf("k=%d w=%d first=%d exc=%x: got %v (last %d), want %v (last %d)", k, w, first, exc, got, gotLast, want, wantLast)
	}
}

// randomExc draws exceptions as unpackCompact makes them: ascending indexes from 1 to
// k-1, each a high part shifted by w below a vertex count (at most 2^32-1).
func randomExc(r *rand.Rand, k int, w uint) []uint64 {
	var exc []uint64
	for i := 1 + r.IntN(8); i < k; i += 1 + r.IntN(12) {
		h := uint64(r.Uint32N(1 << 20))
		switch r.IntN(3) {
		case 1:
			h = uint64(r.Uint32N(1<<32 - 1))
		case 2:
			h = 1<<32 - 2 - uint64(r.Uint32N(4))
		}
		exc = append(exc, uint64(i)|(h>>w<<w)<<32)
	}
	return exc
}

// TestUnpackVec draws packed areas, exceptions (small ones, and ones that carry the
// sums past 2^32) and first neighbours for every width and length.
func TestUnpackVec(t *testing.T) {
	seed := testSeed(t)
	r := rand.New(rand.NewPCG(seed, 19))
	t.Logf("vector decoder: %v", haveVec)
	var src [packedArea]byte
	for trial := range 20000 {
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		w := uint(trial % 33)
		k := 1 + r.IntN(BlockSize)
		var exc []uint64
		if trial%4 != 0 {
			exc = randomExc(r, k, w)
		}
		first := uint64(r.Uint32N(1 << 20))
		switch trial % 5 {
		case 0:
			first = uint64(1<<32 - 1 - r.Uint32N(1<<12))
		case 1:
			first = uint64(r.Uint32())
		}
		checkUnpack(t, k, &src, w, first, exc)
	}
}

// TestUnpackVecWrap pins sums that reach 2^32 exactly, or wrap to a neighbour below the
// one before it in 32 bits.
func TestUnpackVecWrap(t *testing.T) {
	var src [packedArea]byte
	for _, c := range []struct {
		first uint64
		exc   []uint64
	}{
		{0, []uint64{5 | (1<<32-2)<<32}},              // 4 ones, then 1 + 2^32-2: 2^32 at 5
		{10, []uint64{3 | (1<<32-2)<<32}},             // a gap of 2^32 - 1 past 12: 11
		{1<<32 - 9, nil},                              // ones alone reach 2^32 at 9
		{1 << 31, []uint64{2 | 1<<62, 12 | 1<<62}},    // 2^31 + 2^30 twice, and ones
		{5, []uint64{8 | (1<<32-2)<<32, 9 | 2<<32}},   // 2^32 + 3 at 8, 6 more at 9
		{5, []uint64{16 | (1<<32-2)<<32, 17 | 2<<32}}, // the same in the second group
	} {
		for _, k := range []int{9, 17, 20, 64} {
			checkUnpack(t, k, &src, 0, c.first, c.exc)
		}
	}
}

// FuzzUnpackVec holds the compact decoders to unpackRef on fuzzed packed bytes and
// exceptions.
func FuzzUnpackVec(f *testing.F) {
	f.Add([]byte{0xff, 0x12, 0x34}, uint8(7), uint8(64), uint32(5), uint64(3))
	f.Fuzz(func(t *testing.T, b []byte, w, k uint8, first uint32, seed uint64) {
		var src [packedArea]byte
		copy(src[:], b)
		w %= 33
		n := 1 + int(k)%BlockSize
		checkUnpack(t, n, &src, uint(w), uint64(first), randomExc(rand.New(rand.NewPCG(seed, 1)), n, uint(w)))
	})
}

// BenchmarkDecodeCompact decodes whole blocks of 64 neighbours whose gaps are mostly
// small with a few jumps (web and social lists: compact blocks with exceptions), with
// the vector decoder and without.
func BenchmarkDecodeCompact(b *testing.B) {
	const nv = 1 << 24
	r := rand.New(rand.NewPCG(1, 1))
	var all []byte
	var ends []int
	var owners []uint32
	for range 1024 {
		v, x := r.Uint32N(nv/2), r.Uint32N(nv/2)
		nbrs := make([]uint32, BlockSize)
		for i := range nbrs {
			x += 1 + r.Uint32N(1<<r.IntN(8))
			if r.IntN(10) == 0 {
				x += r.Uint32N(1 << 16)
			}
			nbrs[i] = x
		}
		all = AppendList(all, v, nbrs)
		ends = append(ends, len(all))
		owners = append(owners, v)
	}
	// the lists in one buffer that runs on past them, as a shard's mapping does
	all = append(all, make([]byte, compactArea)...)
	lists := make([][]byte, len(ends))
	for i, e := range ends {
		if i > 0 {
			lists[i] = all[ends[i-1]:e]
		} else {
			lists[i] = all[:e]
		}
	}
	var modes [5]int
	for _, l := range lists {
		countModes(&modes, l, BlockSize)
	}
	b.Logf("codings (varint, packed, packed with exceptions, compact, mirrored): %v", modes)
	dst := make([]uint32, BlockSize)
	for _, vec := range []bool{false, true} {
		if vec && !haveVec {
			continue
		}
		b.Run(map[bool]string{false: "go", true: "vec"}[vec], func(b *testing.B) {
			defer func(old bool) { haveVec = old }(haveVec)
			haveVec = vec
			for b.Loop() {
				for j, l := range lists {
					if _, ok := DecodeBlock(dst, owners[j], l, 0, BlockSize, nv); !ok {
						b.Fatal("malformed")
					}
				}
			}
			b.ReportMetric(float64(len(lists)*BlockSize)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Medges/s")
		})
	}
}

// TestDecodersPureGo runs the compact decoders' and ScanGroup's reference tests with the
// vector steps off, where the processor has one (elsewhere the other tests ran the pure-Go path).
func TestDecodersPureGo(t *testing.T) {
	if !haveVec {
		t.Skip("no vector decoder: the other tests ran the pure-Go one")
	}
	haveVec = false
	defer func() { haveVec = true }()
	t.Run("codec", TestCodecRandom)
	t.Run("unpack", TestUnpackVec)
	t.Run("wrap", TestUnpackVecWrap)
	t.Run("scangroup", TestScanGroupRandom)
	t.Run("scangroup-first", TestScanGroupFirstPastList)
}

// TestDecodeDamagedCompact flips bits in compact blocks with exceptions (gaps of 1 to 13
// bits, jumps of up to 2^31, in a graph of 2^32-1 vertices, so that a damaged high part
// shifted by w may pass 32 bits) and holds DecodeList, which decodes through
// DecodeBlock and the vector decoders, to refDecode: refused exactly when the reference
// refuses, else the same neighbours.
func TestDecodeDamagedCompact(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 23))
	const nv = 1<<32 - 1
	blocks := 0
	for trial := range 4000 {
		v, x := r.Uint32N(1<<20), r.Uint32N(1<<20)
		nbrs := make([]uint32, BlockSize)
		scale := 1 + r.IntN(13)
		for i := range nbrs {
			x += 1 + r.Uint32N(1<<scale)
			if r.IntN(8) == 0 && x < 1<<31 {
				x += r.Uint32N(1 << (20 + r.IntN(11)))
			}
			nbrs[i] = x
		}
		enc := AppendList(nil, v, nbrs)
		var modes [5]int
		if countModes(&modes, enc, BlockSize); modes[3] == 0 {
			continue
		}
		blocks++
		for range 1 + trial%3 {
			bit := 16 + r.IntN(8*len(enc)-16) // past the first value and the header
			enc[bit/8] ^= 1 << (bit % 8)
		}
		list := append(enc, make([]byte, 8)...)[:len(enc)]
		got, err := DecodeList(nil, v, BlockSize, list, nv)
		ref, ok := refDecode(v, BlockSize, list, nv)
		if (err == nil) != ok || (ok && !slices.Equal(got, ref)) {
			t.Fatalf("v=%d % x: DecodeList %v, %v; reference %v, %v", v, enc, got, err, ref, ok)
		}
	}
	if blocks < 1000 {
		t.Fatalf("%d compact blocks of 4000 lists", blocks)
	}
}

// TestDecodeCompactHighPast32 decodes compact blocks whose one exception's high part,
// shifted by w, is 2^32 or a multiple of it plus a little (a neighbour past any vertex
// count, whose 32 low bits alone would make a small gap): DecodeList must refuse each,
// as refDecode does, with the vector decoders and without.
func TestDecodeCompactHighPast32(t *testing.T) {
	const nv = 1<<32 - 1
	for _, vec := range []bool{false, true} {
		if vec && !haveVec {
			continue
		}
		old := haveVec
		haveVec = vec
		for w := uint(1); w <= 25; w++ {
			for _, c := range []int{5, 9, 20, 63, 64} {
				for _, hi := range []uint64{1 << (32 - w), 3 << (32 - w), 1<<(32-w) + 1} {
					n := c - 1
					i := min(n-1, 3) // the gap the exception goes to
					wh := uint(64 - bits.LeadingZeros64(hi))
					b := make([]byte, 64+compactArea)
					b[0] = 1 // the first value: neighbour v, packed
					b[1] = byte(hdrCompact | hdrExceptions | w)
					var bw bitWriter
					bw.init(b, 2)
					for range n {
						bw.put(0, w)
					}
					bw.put(1, excCountBits)
					bw.put(3, excStepBits)
					bw.put(uint64(wh-1), excHighBits)
					bw.put(uint64(i), 3)
					bw.put(hi, wh)
					list := b[:bw.flush()]
					got, err := DecodeList(nil, 7, uint32(c), list, nv)
					ref, ok := refDecode(7, uint32(c), list, nv)
					if ok || err == nil {
						t.Fatalf("vec %v w=%d c=%d hi=%#x: DecodeList %v, %v; reference %v, %v", vec, w, c, hi, got, err, ref, ok)
					}
				}
			}
		}
		haveVec = old
	}
}

// unvisitedPaths are DecodeUnvisited (most compact blocks through UnvisitedBlock) and
// its path without UnvisitedBlock (decodeUnvisited: compactClaimAVX2 for the compact
// blocks, as DecodeUnvisited takes the blocks UnvisitedBlock leaves), each held to the
// same reference.
var unvisitedPaths = []struct {
	name   string
	decode func(dst []uint32, v uint32, list []byte, pos int, c, nv uint32, parent []uint32) (int, uint64, bool, bool)
}{{"DecodeUnvisited", DecodeUnvisited}, {"decodeUnvisited", decodeUnvisited}}

// TestDecodeUnvisited holds DecodeUnvisited to DecodeBlock's Go decoders (haveVec off;
// on, DecodeBlock shares the vector decoder's checks) and a test of each neighbour's
// parent entry: blocks of web- and social-like gaps with jumps (compact blocks with and
// without exceptions, and others), some with bits flipped, vertex counts up to 2^32-1
// and parent arrays shorter than the count (entries past them never set in the mask);
// the same next and ok as DecodeBlock, the same neighbours, and where tested, mask bit i
// set exactly where dst[i] < len(parent) and parent[dst[i]] is ^0.
func TestDecodeUnvisited(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 29))
	parents := make([]uint32, 1<<20)
	for i := range parents {
		if r.IntN(3) == 0 {
			parents[i] = ^uint32(0)
		}
	}
	tested := 0
	for trial := range 6000 {
		nv := uint32(1 << 20)
		if trial%3 == 0 {
			nv = 1<<32 - 1
		}
		c := 1 + r.IntN(BlockSize)
		v, x := r.Uint32N(nv/2), r.Uint32N(nv/4)
		nbrs := make([]uint32, c)
		scale := 1 + r.IntN(10)
		runs := trial%5 == 2 // mostly gaps of 1: a web crawl's runs, whole groups of them
		for i := range nbrs {
			if runs && i > 0 && r.IntN(16) != 0 {
				x++
			} else {
				x += 1 + r.Uint32N(1<<scale)
			}
			if r.IntN(6) == 0 {
				x += r.Uint32N(nv / 256)
			}
			nbrs[i] = min(x, nv-1-uint32(c-i))
			x = nbrs[i]
		}
		// the block after pos bytes of another (UnvisitedBlock reads its word from pos)
		pos := r.IntN(10)
		enc := AppendList(make([]byte, pos), v, nbrs)
		for i := range pos {
			enc[i] = byte(r.Uint32())
		}
		if trial%4 == 1 {
			bit := 8*pos + 16 + r.IntN(max(1, 8*(len(enc)-pos)-16))
			enc[bit/8%len(enc)] ^= 1 << (bit % 8)
		}
		list := append(enc, make([]byte, 8+r.IntN(2*compactArea))...)[:len(enc)]
		parent := parents[:1+r.IntN(len(parents))]
		want := make([]uint32, c)
		vec := haveVec
		haveVec = false // the reference: DecodeBlock's Go decoders
		wantNext, wantOK := DecodeBlock(want, v, list, pos, uint32(c), nv)
		haveVec = vec
		for _, path := range unvisitedPaths {
			got := make([]uint32, c)
			next, mask, ok2, ok := path.decode(got, v, list, pos, uint32(c), nv, parent)
			if ok != wantOK || (ok && (next != wantNext || !slices.Equal(got, want))) {
				t.Fatalf("trial %d: %s %v, %d, %v; DecodeBlock %v, %d, %v", trial, path.name, got, next, ok, want, wantNext, wantOK)
			}
			if !ok || !ok2 {
				continue
			}
			tested++
			for i, u := range got {
				unreached := int(u) < len(parent) && parent[u] == ^uint32(0)
				if mask>>i&1 == 1 != unreached {
					t.Fatalf("trial %d: %s: neighbour %d (%d of %d, parent len %d): mask bit %d, unreached %v", trial, path.name, i, u, c, len(parent), mask>>i&1, unreached)
				}
			}
			if mask>>c != 0 {
				t.Fatalf("trial %d: %s: mask %#x has bits past the %d neighbours", trial, path.name, mask, c)
			}
		}
	}
	if haveVec && haveShiftX && tested < 2000 {
		t.Fatalf("%d of 2 x 6000 blocks through the vector decoder", tested)
	}
	t.Logf("%d blocks tested by gathers", tested)
}

// TestDecodeUnvisitedRuns holds DecodeUnvisited's parent tests of runs (blocks of
// consecutive neighbours, half of a web crawl's groups of 8) to the parent array's
// length: runs that end before it, at it, past it and start past it, in arrays that
// continue past the length with unreached entries (a load past the length would set
// their bits). A group of 8 consecutive neighbours invites one load of their 8 entries
// instead of a gather; this test killed the mutants of such a load's bound.
func TestDecodeUnvisitedRuns(t *testing.T) {
	if !haveVec || !haveShiftX {
		t.Skip("no AVX2 and BMI2: no gathered parent tests")
	}
	under := make([]uint32, 4096)
	for i := range under {
		under[i] = ^uint32(0)
		if i%5 == 3 {
			under[i] = 1 // reached
		}
	}
	const c = 40 // 39 gaps of 1: 4 whole groups and a last of 7
	for plen := 1000; plen < 1000+c+16; plen++ {
		for _, first := range []uint32{1000 - 16, 1000 - 7, 1000, 1001} {
			parent := under[:plen]
			nbrs := make([]uint32, c)
			for i := range nbrs {
				nbrs[i] = first + uint32(i)
			}
			list := AppendList(nil, 5, nbrs)
			list = append(list, make([]byte, compactArea+8)...)[:len(list)]
			got := make([]uint32, c)
			_, mask, tested, ok := DecodeUnvisited(got, 5, list, 0, c, 1<<20, parent)
			if !ok || !tested || !slices.Equal(got, nbrs) {
				t.Fatalf("plen %d first %d: ok %v tested %v %v", plen, first, ok, tested, got)
			}
			for i, u := range got {
				if unreached := int(u) < len(parent) && parent[u] == ^uint32(0); mask>>i&1 == 1 != unreached {
					t.Fatalf("plen %d first %d: neighbour %d (%d): mask bit %d, unreached %v", plen, first, i, u, mask>>i&1, unreached)
				}
			}
		}
	}
}

// FuzzDecodeUnvisited holds DecodeUnvisited to DecodeBlock's Go decoders (haveVec off)
// on arbitrary bytes as a block of c neighbours (its first value and header read inline,
// the vector decoder's header, exception and gap checks, which DecodeBlock shares with
// it where haveVec is on): the same ok, next and neighbours, and where it tested the
// parents, mask bit i set exactly where dst[i] < len(parent) and parent[dst[i]] is ^0.
// The list's capacity runs past it (pad bytes), as a shard's does.
func FuzzDecodeUnvisited(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 31))
	for _, c := range []int{5, 9, 16, 40, 64} {
		nbrs := compactNbrs(r, c, uint(r.IntN(25)), 0.3, 1<<20)
		f.Add(uint32(7), uint8(len(nbrs)), AppendList(nil, 7, nbrs), false, uint16(3000), byte(0))
	}
	f.Add(uint32(5), uint8(9), []byte{0x05, hdrCompact | 2, 0xff, 0xff, 0x0f}, true, uint16(9), byte(0xff))
	f.Fuzz(func(t *testing.T, v uint32, c uint8, list []byte, wide bool, plen uint16, pad byte) {
		nv := uint32(1 << 20)
		if wide {
			nv = 1<<32 - 1
		}
		v, c = v%nv, 1+c%BlockSize
		tail := make([]byte, compactArea+8)
		for i := range tail {
			tail[i] = pad
		}
		list = append(slices.Clip(list), tail...)[:len(list)]
		parent := make([]uint32, 1+int(plen)%4096)
		for i := range parent {
			if (uint32(i)*2654435761)>>29&1 == 0 {
				parent[i] = ^uint32(0)
			}
		}
		want, got := make([]uint32, c), make([]uint32, c)
		vec := haveVec
		haveVec = false // the reference: DecodeBlock's Go decoders
		wantNext, wantOK := DecodeBlock(want, v, list, 0, uint32(c), nv)
		haveVec = vec
		for _, path := range unvisitedPaths {
			clear(got)
			next, mask, tested, ok := path.decode(got, v, list, 0, uint32(c), nv, parent)
			if ok != wantOK || ok && (next != wantNext || !slices.Equal(got, want)) {
				t.Fatalf("%s %v, %d, %v; DecodeBlock %v, %d, %v", path.name, got, next, ok, want, wantNext, wantOK)
			}
			if !ok || !tested {
				continue
			}
			for i, u := range got {
				if unreached := int(u) < len(parent) && parent[u] == ^uint32(0); mask>>i&1 == 1 != unreached {
					t.Fatalf("%s: neighbour %d (%d of %d, parent len %d): mask bit %d, unreached %v", path.name, i, u, c, len(parent), mask>>i&1, unreached)
				}
			}
			if mask>>c != 0 {
				t.Fatalf("%s: mask %#x has bits past the %d neighbours", path.name, mask, c)
			}
		}
	})
}

// TestDecodeUnvisitedWrap holds DecodeUnvisited to DecodeBlock's Go decoders on blocks
// whose sums can pass 2^32 in 32-bit lanes: compact blocks of graphs of 2^32-1 vertices
// with jumps of up to 2^31 (exceptions) that end near the last vertex, each with every
// one of its bits flipped in turn (a flip in an exception's high part or a wide gap
// wraps a sum, which the vector decoder's order check must refuse), and the same blocks
// on small graphs, where no sum can wrap and the check is skipped.
func TestDecodeUnvisitedWrap(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 37))
	parent := make([]uint32, 1<<12)
	for i := range parent {
		if r.IntN(2) == 0 {
			parent[i] = ^uint32(0)
		}
	}
	tested, refused := 0, 0
	for trial := range 40 {
		nv := uint32(1<<32 - 1)
		if trial%4 == 3 {
			nv = 1 << 20
		}
		c := 9 + r.IntN(BlockSize-8)
		w := uint(r.IntN(20))
		nbrs := make([]uint32, c)
		x := uint64(nv) - 1 - uint64(c)<<w - uint64(r.Uint32N(nv/4))
		if r.IntN(2) == 0 {
			x = uint64(r.Uint32N(1 << 12)) // a jump of about nv/2 below makes the rest
		}
		for i := range nbrs {
			nbrs[i] = uint32(min(x, uint64(nv)-1-uint64(c-i)))
			x = uint64(nbrs[i]) + 1 + r.Uint64N(1<<w)
			if r.IntN(8) == 0 {
				x += r.Uint64N(uint64(nv) / 2)
			}
		}
		v := r.Uint32N(nv)
		enc := AppendList(nil, v, nbrs)
		for bit := range 8 * len(enc) {
			bad := slices.Clone(enc)
			bad[bit/8] ^= 1 << (bit % 8)
			list := append(bad, make([]byte, compactArea+8)...)[:len(bad)]
			want := make([]uint32, c)
			vec := haveVec
			haveVec = false
			wantNext, wantOK := DecodeBlock(want, v, list, 0, uint32(c), nv)
			haveVec = vec
			for _, path := range unvisitedPaths {
				got := make([]uint32, c)
				next, mask, ok2, ok := path.decode(got, v, list, 0, uint32(c), nv, parent)
				if ok != wantOK || ok && (next != wantNext || !slices.Equal(got, want)) {
					t.Fatalf("trial %d, bit %d: %s %v, %d, %v; DecodeBlock %v, %d, %v", trial, bit, path.name, got, next, ok, want, wantNext, wantOK)
				}
				if !ok {
					refused++
					continue
				}
				if !ok2 {
					continue
				}
				tested++
				for i, u := range got {
					if unreached := int(u) < len(parent) && parent[u] == ^uint32(0); mask>>i&1 == 1 != unreached {
						t.Fatalf("trial %d, bit %d: %s: neighbour %d: mask bit %d, unreached %v", trial, bit, path.name, i, mask>>i&1, unreached)
					}
				}
			}
		}
	}
	t.Logf("%d flipped blocks tested by gathers, %d refused", tested, refused)
}

// TestDecodeUnvisitedSumBound holds the vector decoder's choice of skipping its order
// check (where first + n*(2^w + nv - 1) < 2^32, no 32-bit sum can wrap) at its edge:
// compact blocks of 63 gaps, each gap or 32 of them an exception of the largest high part
// below nv, whose sums reach exactly 2^32 (w 0, first 4, nv (2^32-4)/63: the bound is
// 2^32 itself) or pass it by a little (w 3, nv 2^27: a bound below 2^33), so that the
// last neighbour wraps to a value below nv and only the order check refuses the block,
// as DecodeBlock's Go decoders do.
func TestDecodeUnvisitedSumBound(t *testing.T) {
	block := func(first uint32, w uint, low uint64, high []uint64, wh uint) []byte {
		var bits []bool
		put := func(x uint64, k uint) {
			for i := range k {
				bits = append(bits, x>>i&1 == 1)
			}
		}
		for range 63 {
			put(low, w)
		}
		put(uint64(len(high)), excCountBits)
		put(0, excStepBits) // steps of 0 bits: the exceptions are gaps 0, 1, 2, ...
		put(uint64(wh-1), excHighBits)
		for _, h := range high {
			put(h, wh)
		}
		list := binary.AppendUvarint(nil, uint64(first)<<2|1) // zigzag(first - 0), packed
		list = append(list, hdrCompact|hdrExceptions|byte(w))
		stream := make([]byte, (len(bits)+7)/8)
		for i, b := range bits {
			if b {
				stream[i/8] |= 1 << (i % 8)
			}
		}
		return append(list, stream...)
	}
	parent := make([]uint32, 1<<10)
	for _, tc := range []struct {
		name  string
		first uint32
		w     uint
		nv    uint32
		k     int
	}{
		{"sums of exactly 2^32", 4, 0, (1<<32 - 4) / 63, 63},
		{"sums past 2^32, bound below 2^33", 4, 3, 1 << 27, 32},
	} {
		high := make([]uint64, tc.k)
		for i := range high {
			high[i] = uint64(tc.nv-1) >> tc.w
		}
		wh := uint(bits.Len64(high[0]))
		enc := block(tc.first, tc.w, 1<<tc.w-1, high, wh)
		list := append(enc, make([]byte, compactArea+8)...)[:len(enc)]
		got, want := make([]uint32, BlockSize), make([]uint32, BlockSize)
		vec := haveVec
		haveVec = false
		wantNext, wantOK := DecodeBlock(want, 0, list, 0, BlockSize, tc.nv)
		haveVec = vec
		for _, path := range unvisitedPaths {
			next, _, tested, ok := path.decode(got, 0, list, 0, BlockSize, tc.nv, parent)
			if ok != wantOK || ok && next != wantNext {
				t.Fatalf("%s: %s ok %v (tested %v), DecodeBlock ok %v", tc.name, path.name, ok, tested, wantOK)
			}
		}
		if wantOK {
			t.Fatalf("%s: DecodeBlock took a block whose neighbours pass nv", tc.name)
		}
		// the same block a gap shorter where it ends: its sums stay below 2^32
		high[len(high)-1] = 0
		enc = block(tc.first, tc.w, 1<<tc.w-1, high, wh)
		list = append(enc, make([]byte, compactArea+8)...)[:len(enc)]
		haveVec = false
		wantNext, wantOK = DecodeBlock(want, 0, list, 0, BlockSize, tc.nv)
		haveVec = vec
		for _, path := range unvisitedPaths {
			next, _, _, ok := path.decode(got, 0, list, 0, BlockSize, tc.nv, parent)
			if ok != wantOK || ok && next != wantNext {
				t.Fatalf("%s, a gap shorter: %s ok %v, DecodeBlock ok %v", tc.name, path.name, ok, wantOK)
			}
		}
	}
}
