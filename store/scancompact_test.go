package store

import (
	"encoding/binary"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
)

// compactNbrs draws d sorted neighbours below nv whose gaps are mostly 1 plus w bits
// and, with probability pe, larger (an exception's high part, up to 2^31 where nv
// allows), so that a block of 4 or more is most often coded compact at a width near w,
// with exceptions when pe > 0.
func compactNbrs(r *rand.Rand, d int, w uint, pe float64, nv uint32) []uint32 {
	l := make([]uint32, 0, d)
	x := uint64(r.Uint32N(nv))
	for len(l) < d {
		l = append(l, uint32(x))
		g := 1 + r.Uint64N(1<<w)
		if r.Float64() < pe {
			g += r.Uint64N(1 << (w + 1 + uint(r.IntN(32-int(min(w, 31))))))
		}
		if x += g; x >= uint64(nv) {
			x = uint64(nv) - 1
		}
	}
	return slices.Compact(l)
}

// scanScalar is ScanList with the vector steps off.
func scanScalar(list []byte, v, d, nv uint32, bits []uint64) (uint32, uint32, int) {
	defer func(old bool) { haveVec = old }(haveVec)
	haveVec = false
	return ScanList(list, v, d, nv, bits)
}

// flipBit returns a copy of list with one bit flipped.
func flipBit(r *rand.Rand, list []byte) []byte {
	bad := slices.Clone(list)
	if len(bad) > 0 {
		bad[r.IntN(len(bad))] ^= 1 << r.IntN(8)
	}
	return bad
}

// TestScanGroupCompactVec holds ScanGroup (the vector steps for the first neighbours
// and the compact blocks past them) to ScanList with the vector steps off, on groups of
// lists of every width and length (as TestScanCompactVec draws them), whole and with
// bytes changed in place, and with an ADJ of no room past its end. -short (CI's race
// run, where one goroutine has no race to find) draws a quarter of the groups.
func TestScanGroupCompactVec(t *testing.T) {
	if !haveVec {
		t.Skip("no vector decoder")
	}
	r := rand.New(rand.NewPCG(testSeed(t), 47))
	trials := 16
	if testing.Short() {
		trials = 4
	}
	for trial := 0; trial < trials; trial++ {
		// lists for the first m vertices of n: gaps of up to 24 bits, few groups
		n, m := uint32(1<<24+r.IntN(1<<24)), uint32(64+r.IntN(200))
		dir := filepath.Join(t.TempDir(), "g.ooc")
		b, err := Create(dir, CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		lists := make([][]uint32, m)
		for v := range m {
			d := []int{0, 1, 3, 4, 9, 17, 40, 64, 65, 130}[r.IntN(10)]
			if d == 0 {
				continue
			}
			l := compactNbrs(r, d, uint(r.IntN(26)), []float64{0, 0.05, 0.2}[r.IntN(3)], n)
			if err := b.Writer(Out).AppendList(v, l); err != nil {
				t.Fatal(err)
			}
			lists[v] = l
		}
		g := openCommitted(t, b, dir, n)
		for _, s := range g.Out().Shards {
			if s.Lo >= m {
				continue
			}
			s := &Shard{Lo: s.Lo, N: min(s.N, m-s.Lo), Adj: s.Adj, dirH: s.dirH, dirB: s.dirB}
			for range 4 {
				checkScanGroup(t, r, s, n, randomBits(r, n))
			}
			// one neighbour of each list, from its second half, in the frontier: a
			// scan finds it only where every gap and exception before it decoded to
			// the value written
			for range 4 {
				front := make([]uint64, (n+63)/64)
				for _, l := range lists[s.Lo : s.Lo+s.N] {
					if len(l) > 0 {
						x := l[len(l)/2+r.IntN(len(l)-len(l)/2)]
						front[x/64] |= 1 << (x % 64)
					}
				}
				checkScanGroup(t, r, s, n, front)
			}
			for range 4 {
				adj := slices.Clone(s.Adj)
				if r.IntN(2) == 0 {
					adj = slices.Clip(adj)
				}
				for range 1 + len(adj)/200 {
					if len(adj) > 0 {
						adj[r.IntN(len(adj))] ^= 1 << r.IntN(8)
					}
				}
				checkScanGroup(t, r, &Shard{Lo: s.Lo, N: s.N, Adj: adj, dirH: s.dirH, dirB: s.dirB}, n, randomBits(r, n))
			}
		}
	}
}

// TestScanGroupNarrowExceptions holds ScanGroup to ScanList with the vector steps off on
// lists of one compact block whose exceptions have high parts of at most 3 bits, the
// frontier holding one neighbour of each list from its second half: a high part read
// with the stream's bits past its width can still give a neighbour below nv here, which
// misses the frontier's neighbour where ScanList finds it.
func TestScanGroupNarrowExceptions(t *testing.T) {
	if !haveVec {
		t.Skip("no vector decoder")
	}
	r := rand.New(rand.NewPCG(testSeed(t), 53))
	for trial := 0; trial < 4; trial++ {
		n, m := uint32(1<<20), uint32(DirGroup*32)
		dir := filepath.Join(t.TempDir(), "g.ooc")
		b, err := Create(dir, CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		lists := make([][]uint32, m)
		for v := range m {
			w := uint(1 + r.IntN(2))
			x := uint64(r.Uint32N(n / 4))
			l := make([]uint32, 0, 48)
			for range 16 + r.IntN(33) {
				l = append(l, uint32(x))
				g := 1 + r.Uint64N(1<<w)
				if r.IntN(6) == 0 {
					g += (1 + r.Uint64N(7)) << (w + 2)
				}
				x += g
			}
			if err := b.Writer(Out).AppendList(v, l); err != nil {
				t.Fatal(err)
			}
			lists[v] = l
		}
		g := openCommitted(t, b, dir, n)
		for _, s := range g.Out().Shards {
			for range 4 {
				front := make([]uint64, n/64)
				for _, l := range lists[s.Lo:min(s.Lo+s.N, m)] {
					x := l[len(l)/2+r.IntN(len(l)-len(l)/2)]
					front[x/64] |= 1 << (x % 64)
				}
				checkScanGroup(t, r, s, n, front)
			}
		}
	}
}

// damagedCompact returns a copy of enc (the list of d neighbours) with one fault of
// those the vector scan of its first block must refuse as ScanList does: cut short, a
// bit flipped among its first bytes, the exception count of a compact first block set
// to a random value, its first block's width set to one of 0 to 32, or one of these
// with bytes appended (room in the list for a block that grew).
func damagedCompact(r *rand.Rand, enc []byte, d int) []byte {
	bad := slices.Clone(enc)
	switch r.IntN(4) {
	case 0:
		bad = bad[:r.IntN(len(bad))]
	case 1:
		i := r.IntN(min(len(bad), 24))
		bad[i] ^= 1 << r.IntN(8)
	case 2:
		z, p := Uvarint(bad, FirstBlock(uint32(d)))
		if d < PackedMin || p < 0 || p >= len(bad) || z&1 == 0 {
			break
		}
		if h := bad[p]; h != hdrMirror && h&(hdrCompact|hdrExceptions) == hdrCompact|hdrExceptions {
			bit := 8*(p+1) + (min(d, BlockSize)-1)*int(h&hdrWidth)
			for k := range min(excCountBits, 8*len(bad)-bit) {
				bad[(bit+k)/8] &^= 1 << ((bit + k) % 8)
				bad[(bit+k)/8] |= byte(r.IntN(2)) << ((bit + k) % 8)
			}
		}
	case 3: // a width of 0 to 32 in the first block's header byte
		if _, p := Uvarint(bad, FirstBlock(uint32(d))); d >= PackedMin && p >= 0 && p < len(bad) {
			bad[p] = bad[p]&^hdrWidth | byte(r.IntN(33))
		}
	}
	if r.IntN(2) == 0 {
		for range r.IntN(300) {
			bad = append(bad, byte(r.Uint32()))
		}
	}
	return bad
}

// TestScanGroupCompactDamaged holds ScanGroup to ScanList with the vector steps off on
// groups of lists (compact blocks of every width to 14 bits, with and without
// exceptions) among which some are damaged (damagedCompact), against frontiers empty,
// full, half full, and full but for each list's first neighbour: the vector scan's
// checks of a block's header and length refuse what ScanList refuses, in its order, and
// a list refused leaves the next one's scan as it was.
func TestScanGroupCompactDamaged(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 53))
	const nv = 1 << 20
	for trial := 0; trial < 100; trial++ {
		var deg [DirGroup]uint32
		var start [DirGroup + 1]uint32
		var adj []byte
		lo := r.Uint32N(nv/DirGroup) * DirGroup
		firsts := make([]uint64, nv/64)
		for i := range uint32(DirGroup) {
			d := []int{4, 9, 17, 40, 64, 65, 130}[r.IntN(7)]
			nbrs := compactNbrs(r, d, uint(r.IntN(15)), []float64{0, 0.1, 0.3}[r.IntN(3)], nv)
			enc := AppendList(nil, lo+i, nbrs)
			if r.IntN(3) == 0 {
				enc = damagedCompact(r, enc, len(nbrs))
			}
			firsts[nbrs[0]>>6] |= 1 << (nbrs[0] & 63)
			deg[i], start[i] = uint32(len(nbrs)), uint32(len(adj))
			adj = append(adj, enc...)
		}
		start[DirGroup] = uint32(len(adj))
		s := groupShard(lo, &deg, &start, withTail(r, adj, 1100))
		empty, full := make([]uint64, nv/64), make([]uint64, nv/64)
		for i := range full {
			full[i] = ^uint64(0)
		}
		missFirst := slices.Clone(full)
		for i, f := range firsts {
			missFirst[i] &^= f
		}
		for _, f := range [][]uint64{empty, full, randomBits(r, nv), missFirst} {
			checkScanGroup(t, r, s, nv, f)
		}
	}
}

// varintHead is the first bytes of a one-block varint list of vertex v of PackedMin
// neighbours or more: its first neighbour x0 (the mode bit clear) and gaps, as many as
// given (varintList's encoding of a list of that degree cut after them).
func varintHead(v, x0 uint32, gaps []uint64) []byte {
	return appendGaps(binary.AppendUvarint(nil, zigzag(int64(x0)-int64(v))<<1), gaps)
}

// appendGaps appends gaps to b as varints.
func appendGaps(b []byte, gaps []uint64) []byte {
	for _, g := range gaps {
		b = binary.AppendUvarint(b, g)
	}
	return b
}

// varintList is the bytes of the list of vertex v with first neighbour x0 and the gaps
// gaps, as varints (a block of 4 or more with the mode bit clear); one block only.
func varintList(v, x0 uint32, gaps []uint64) []byte {
	z := zigzag(int64(x0) - int64(v))
	if len(gaps)+1 >= PackedMin {
		z <<= 1
	}
	return appendGaps(binary.AppendUvarint(nil, z), gaps)
}

// TestScanGroupVarintDamaged holds ScanGroup's vector scan of one-block varint lists
// (scanMoreAVX2's, each gap decoded from one word) to ScanList on groups of such lists
// with gaps of 1 to 3 bytes, some damaged: cut at a gap's start or inside one, a gap of
// 6 bytes whose low 35 bits name a vertex, one of 9 bytes, a gap past nv, bytes after
// the last gap; a list of 65 (two blocks) among them. Frontiers empty, full, random,
// and full but for each list's first neighbour (so a damaged second gap is met before
// any find).
func TestScanGroupVarintDamaged(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 59))
	const nv = 1 << 20
	for trial := 0; trial < 200; trial++ {
		var deg [DirGroup]uint32
		var start [DirGroup + 1]uint32
		var adj []byte
		lo := r.Uint32N(nv/DirGroup) * DirGroup
		firsts, nbrs := make([]uint64, nv/64), make([]uint64, nv/64)
		for i := range uint32(DirGroup) {
			d := []int{4, 5, 9, 17, 33, 64, 65}[r.IntN(7)]
			x0 := r.Uint32N(nv / 2)
			gaps := make([]uint64, d-1)
			cur := uint64(x0)
			for k := range gaps {
				gaps[k] = []uint64{uint64(r.IntN(128)), 128 + uint64(r.IntN(1<<14-128)), 1<<14 + uint64(r.IntN(1<<15))}[r.IntN(3)] % (nv/2/uint64(d) + 1)
				cur += gaps[k]
			}
			enc := varintList(lo+i, x0, gaps)
			if d > 64 { // a second block: AppendList's own bytes
				nb := make([]uint32, d)
				nb[0] = x0
				for k, g := range gaps {
					nb[k+1] = nb[k] + uint32(g)
				}
				enc = AppendList(nil, lo+i, nb)
			}
			k := r.IntN(len(gaps))
			if r.IntN(2) == 0 { // the second value: met first where only first values miss
				k = 0
			}
			switch c := r.IntN(9); c {
			case 0: // cut at or inside a gap
				p := len(varintHead(lo+i, x0, gaps[:k]))
				enc = enc[:p+r.IntN(2)]
			case 1, 4: // gap k as 6 bytes, its low 35 bits a small gap; or as 9 bytes, no
				// end byte in the word at its start
				wide := []byte{0x81, 0x80, 0x80, 0x80, 0x80, 0x01}
				if c == 4 {
					wide = []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}
				}
				if d <= 64 {
					enc = appendGaps(append(varintHead(lo+i, x0, gaps[:k]), wide...), gaps[k+1:])
				}
			case 2: // gap k past nv, of 3, 4 or 5 bytes
				gaps[k] = []uint64{nv, 1 << 27, 1 << 34}[r.IntN(3)] + uint64(r.IntN(1<<10))
				if d <= 64 {
					enc = varintList(lo+i, x0, gaps)
				}
			case 3: // bytes after the last gap
				enc = append(enc, byte(r.IntN(128)))
			}
			firsts[x0>>6] |= 1 << (x0 & 63)
			for k, c := 0, uint64(x0); k <= len(gaps) && c < nv; k++ {
				nbrs[c>>6] |= 1 << (c & 63)
				if k < len(gaps) {
					c += gaps[k]
				}
			}
			deg[i], start[i] = uint32(d), uint32(len(adj))
			adj = append(adj, enc...)
		}
		start[DirGroup] = uint32(len(adj))
		s := groupShard(lo, &deg, &start, withTail(r, adj, 1100))
		empty, full := make([]uint64, nv/64), make([]uint64, nv/64)
		for i := range full {
			full[i] = ^uint64(0)
		}
		missFirst, others := slices.Clone(full), slices.Clone(full)
		for i, f := range firsts {
			missFirst[i] &^= f
			others[i] &^= nbrs[i]
		}
		// others: no list's own neighbour, but any value a wrong read makes
		for _, f := range [][]uint64{empty, full, randomBits(r, nv), missFirst, others} {
			checkScanGroup(t, r, s, nv, f)
		}
	}
}

// TestScanMoreVarintEdges gives the vector scan one-block varint lists at the edges its
// word loads meet, in a group whose other lists are plain, against a frontier of every
// vertex but the lists' own neighbours (a value read wrong is found): the last list cut
// at a gap's start with bytes of 1 after it in ADJ (a read past its end makes gaps of
// 1), a list whose second gap is a 9-byte varint (no end byte in the word at its
// start) and whose fourth value is in the frontier, or one whose second gap is a 6-byte
// varint whose low 35 bits are 1 (a read of 5 bytes' bits finds the vertex after the
// second value).
func TestScanMoreVarintEdges(t *testing.T) {
	const nv, lo = 1 << 16, 4096
	r := rand.New(rand.NewPCG(testSeed(t), 61))
	for _, edge := range []uint32{DirGroup - 1, 5, 6} {
		var deg [DirGroup]uint32
		var start [DirGroup + 1]uint32
		var adj []byte
		front := make([]uint64, nv/64)
		for i := range front {
			front[i] = ^uint64(0)
		}
		for i := range uint32(DirGroup) {
			x0 := uint32(1000 + 100*i)
			gaps := []uint64{3, 5, 7, 2, 9}
			enc := varintList(lo+i, x0, gaps)
			deg[i] = 6
			if i == edge && edge == 5 {
				// x0, x0+3, x0+3 again, x0+8 found (a read of the 9 bytes as 9
				// gaps of 0 finds it 8 gaps later)
				enc = varintHead(lo+i, x0, gaps[:1])
				enc = append(enc, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00)
				for _, g := range []uint64{5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1} {
					enc = binary.AppendUvarint(enc, g)
				}
				deg[i] = 14
				front[x0>>6] &^= 1 << (x0 & 63)
				front[(x0+3)>>6] &^= 1 << ((x0 + 3) & 63)
				gaps = nil
			} else if i == edge && edge == 6 {
				// x0, x0+3, then a gap of 2^35+1 in 6 bytes: x0+4 (in the frontier)
				// only where the sixth byte is dropped
				enc = varintHead(lo+i, x0, gaps[:1])
				enc = append(enc, 0x81, 0x80, 0x80, 0x80, 0x80, 0x01)
				for _, g := range []uint64{5, 1, 1, 1} {
					enc = binary.AppendUvarint(enc, g)
				}
				front[x0>>6] &^= 1 << (x0 & 63)
				front[(x0+3)>>6] &^= 1 << ((x0 + 3) & 63)
				gaps = nil
			} else if i == edge { // 4 of its 5 gaps
				enc = varintList(lo+i, x0, gaps[:4])
			}
			for k, c := 0, uint64(x0); k <= len(gaps); k++ {
				front[c>>6] &^= 1 << (c & 63)
				if k < len(gaps) {
					c += gaps[k]
				}
			}
			start[i] = uint32(len(adj))
			adj = append(adj, enc...)
		}
		start[DirGroup] = uint32(len(adj))
		for range 64 {
			adj = append(adj, 0x01)
		}
		s := groupShard(lo, &deg, &start, adj[:start[DirGroup]])
		for range 32 { // checkScanGroup draws the vertices to look at
			checkScanGroup(t, r, s, nv, front)
		}
	}
}

// compactBlock is the bytes of a one-block list of vertex v: a compact block (FORMAT.md)
// with first neighbour x0, the low bits lows of its gaps at width w, and the exceptions
// exc ({step, high part} pairs at widths wi and wh; none when exc is nil).
func compactBlock(v, x0 uint32, w uint, lows []uint64, exc [][2]uint64, wi, wh uint) []byte {
	b := binary.AppendUvarint(nil, zigzag(int64(x0)-int64(v))<<1|1)
	h := byte(hdrCompact) | byte(w)
	if exc != nil {
		h |= hdrExceptions
	}
	b = append(b, h)
	var acc uint64
	var have uint
	put := func(x uint64, n uint) {
		for k := range n {
			acc |= (x >> k & 1) << have
			if have++; have == 8 {
				b, acc, have = append(b, byte(acc)), 0, 0
			}
		}
	}
	for _, l := range lows {
		put(l, w)
	}
	if exc != nil {
		put(uint64(len(exc)), excCountBits)
		put(uint64(wi), excStepBits)
		put(uint64(wh-1), excHighBits)
		for _, e := range exc {
			put(e[0], wi)
			put(e[1], wh)
		}
	}
	if have > 0 {
		b = append(b, byte(acc))
	}
	return b
}

// TestScanMoreBailResets gives the vector scan a list that it leaves to ScanList after
// writing an exception into its add lanes (vertex lo+0: a neighbour found at its first
// gap, where ScanList stops, but its second exception names a gap past the block, which
// the vector scan decodes before it tests the gaps), then a list without exceptions
// (lo+1) found at its fourth gap: the second list's gaps must not carry the first's
// exception.
func TestScanMoreBailResets(t *testing.T) {
	const nv, lo = 1 << 16, 4096
	a := compactBlock(lo, 100, 2, make([]uint64, 7), [][2]uint64{{1, 1}, {6, 1}}, 3, 1)
	b := compactBlock(lo+1, 1000, 2, make([]uint64, 7), nil, 0, 0)
	var deg [DirGroup]uint32
	var start [DirGroup + 1]uint32
	deg[0], deg[1] = 8, 8
	start[1] = uint32(len(a))
	for i := 2; i <= DirGroup; i++ {
		start[i] = uint32(len(a) + len(b))
	}
	s := groupShard(lo, &deg, &start, withTail(rand.New(rand.NewPCG(1, 2)), append(a, b...), 1100))
	front := make([]uint64, nv/64)
	for _, x := range []uint32{101, 1003} {
		front[x>>6] |= 1 << (x & 63)
	}
	var g GroupScan
	if bad := s.ScanGroup(0, ^uint64(0), nv, front, &g); bad >= 0 || g.Found != 3 || g.Parent[0] != 101 || g.Parent[1] != 1003 {
		t.Fatalf("ScanGroup: refused %d, found %#x, parents %d and %d; want -1, 0x3, 101 and 1003", bad, g.Found, g.Parent[0], g.Parent[1])
	}
	r := rand.New(rand.NewPCG(3, 4))
	checkScanGroup(t, r, s, nv, front)
}

// TestScanGroupExceptionPair holds scanMoreAVX2 to ScanList on one list each group (the
// group's last vertex, the others empty; zero bytes after it in the mapping): one compact
// block whose gaps ea and eb (ea < eb) are exceptions of high parts of 1 to 3 bits, and a
// frontier of one neighbour, the one ea's gap makes. A high part read with the stream's
// bits past its width takes eb's index step and high part with it: never zero, and with
// the zero bytes after the block and nv 2^30 a shift below nv, so the scan would miss
// that neighbour (and every later one, each past its own) where ScanList finds it. Each
// list is drawn again until the encoder codes it so.
func TestScanGroupExceptionPair(t *testing.T) {
	if !haveVec || !haveShiftX {
		t.Skip("no vector decoder")
	}
	const lo, nv = 1000, 1 << 30
	r := rand.New(rand.NewPCG(testSeed(t), 59))
	// exceptionPair draws a list of vertex v and the gaps ea < eb it makes exceptions,
	// and reports whether the encoder coded it as wanted (it may pick a wider width
	// without exceptions where that is as short)
	exceptionPair := func(v uint32, w uint) (nbrs []uint32, enc []byte, ea int, ok bool) {
		d := 20 + r.IntN(40)
		ea = 1 + r.IntN(d/2)
		eb := ea + 1 + r.IntN(3)
		nbrs = make([]uint32, d)
		x := uint64(v) + 1 + r.Uint64N(100)
		for i := range nbrs {
			nbrs[i] = uint32(x)
			g := r.Uint64N(1 << w) // gap i's low bits (a gap is 1 plus them)
			if i == ea || i == eb {
				g |= (1 + r.Uint64N(7)) << w
			}
			x += 1 + g
		}
		enc = AppendList(nil, v, nbrs)
		// the coding: a compact block with 2 exceptions at a width of w, high parts of
		// at most 3 bits
		_, k := FastUvarint(enc, 0)
		h := enc[k]
		ebit := 8*(k+1) + (d-1)*int(h&hdrWidth)
		hd := binary.LittleEndian.Uint64(append(slices.Clone(enc[ebit/8:]), make([]byte, 8)...)) >> (ebit % 8)
		wh := uint(hd>>(excCountBits+excStepBits))&(1<<excHighBits-1) + 1
		ok = h&(hdrCompact|hdrExceptions) == hdrCompact|hdrExceptions && uint(h&hdrWidth) == w && hd&(1<<excCountBits-1) == 2 && wh <= 3
		return nbrs, enc, ea, ok
	}
	for trial := range 48 {
		w := uint(1 + trial%4)
		v := uint32(lo + DirGroup - 1)
		nbrs, enc, ea, ok := exceptionPair(v, w)
		for try := 0; !ok; try++ {
			if try == 1000 {
				t.Fatalf("trial %d: no list of 1,000 coded as a compact block of width %d with 2 exceptions of narrow high parts", trial, w)
			}
			nbrs, enc, ea, ok = exceptionPair(v, w)
		}
		d := len(nbrs)
		var start, deg [DirGroup]uint32
		deg[DirGroup-1] = uint32(d)
		// zero bytes after the list, as many as scanMoreAVX2's view of a stream needs
		// (a 1024-byte window from the header on, and a load's 8 bytes)
		padded := append(slices.Clone(enc), make([]byte, 1040)...)
		sh, _, _ := wideGroup(lo, padded[:len(enc)], &start, &deg)
		front := make([]uint64, nv/64)
		y := nbrs[ea+1] // the neighbour gap ea makes
		front[y/64] |= 1 << (y % 64)
		var got GroupScan
		if bad := sh.ScanGroup(0, ^uint64(0), nv, front, &got); bad >= 0 {
			t.Fatalf("trial %d: list %d refused", trial, bad)
		}
		want, _, st := scanScalar(enc, v, uint32(d), nv, front)
		if st != Found || want != y {
			t.Fatalf("trial %d: ScanList found %d (status %d), want %d", trial, want, st, y)
		}
		if got.Found != 1<<(DirGroup-1) || got.Parent[DirGroup-1] != y {
			t.Fatalf("trial %d: list %x (neighbours %v, exceptions at gap %d and after): ScanGroup found %x, parent %d, want %d", trial, enc, nbrs, ea, got.Found, got.Parent[DirGroup-1], y)
		}
	}
}

// TestScanMoreExceptionCount gives the vector scan compact blocks whose exception
// count is 0 (with the exceptions bit set) or one more than the block's gaps, each
// with a frontier neighbour at its second gap, before the exception past the block:
// ScanList refuses both counts up front, and so must the vector scan, not find the
// neighbour first.
func TestScanMoreExceptionCount(t *testing.T) {
	if !haveVec || !haveShiftX {
		t.Skip("no vector decoder")
	}
	const nv, lo, n = 1 << 16, 4096, 20
	lows := make([]uint64, n) // gaps of 1: neighbours 100, 101, ...
	over := make([][2]uint64, n+1)
	for i := range over {
		over[i] = [2]uint64{0, 1} // at gaps 0, 1, ..., n: the last past the block
	}
	r := rand.New(rand.NewPCG(testSeed(t), 61))
	for _, exc := range [][][2]uint64{{}, over} {
		a := compactBlock(lo, 100, 2, lows, exc, 3, 1)
		s := loneListShard(lo, 0, n+1, a, withTail(r, a, 1100))
		front := make([]uint64, nv/64)
		for _, x := range []uint32{102, 110} { // the neighbour of gap 1 without, and with, the exceptions
			front[x/64] |= 1 << (x % 64)
		}
		if _, _, st := scanScalar(a, lo, n+1, nv, front); st != Malformed {
			t.Fatalf("%d exceptions: ScanList's status %d, want Malformed", len(exc), st)
		}
		var res GroupScan
		if bad := s.ScanGroup(0, ^uint64(0), nv, front, &res); bad != 0 {
			t.Fatalf("%d exceptions: ScanGroup refused %d, found %x (parent %d), want list 0 refused", len(exc), bad, res.Found, res.Parent[0])
		}
	}
}

// loneListShard is a shard of one group whose lane j holds list, of d neighbours, the
// other lanes empty; adj is the shard's bytes, list and what follows it.
func loneListShard(lo, j, d uint32, list, adj []byte) *Shard {
	var deg [DirGroup]uint32
	var start [DirGroup + 1]uint32
	deg[j] = d
	for k := j + 1; k <= DirGroup; k++ {
		start[k] = uint32(len(list))
	}
	return groupShard(lo, &deg, &start, adj)
}

// padFF is list followed by 1100 bytes of all ones.
func padFF(list []byte) []byte {
	return append(slices.Clone(list), slices.Repeat([]byte{0xff}, 1100)...)
}

// TestScanMoreSecondException gives the vector scan compact blocks whose first
// exception lies in the first group of 8 gaps and whose second one past it, with a
// frontier neighbour between the two. Where the second is damaged (its gap past the
// block, or its high part not below nv), ScanList refuses the list when it reaches that
// exception's decode, before that neighbour, and so must the vector scan. Where it is
// whole, and where the first is the only one (the bytes after the block all ones, no
// exception to decode there), the vector scan itself finds the neighbour (scanMoreVec's
// found), not the scalar scan after a bail.
func TestScanMoreSecondException(t *testing.T) {
	if !haveVec || !haveShiftX {
		t.Skip("no vector decoder")
	}
	const nv, lo, n = 1 << 16, 4096, 15
	lows := make([]uint64, n) // gaps of 1, the exception at gap 1 making 106 from 101
	for _, c := range []struct {
		exc     [][2]uint64
		wi, wh  uint
		refused bool
	}{
		{[][2]uint64{{1, 1}, {15, 1}}, 4, 1, true},              // the second at gap 17, past the block
		{[][2]uint64{{1, 1}, {6, 1 << 16}}, 4, 17, true},        // the second at gap 8 with a high part of nv
		{[][2]uint64{{1, 1}, {9, 1}}, 4, 1, false},              // the second at gap 11
		{[][2]uint64{{1, 1}, {6, (1 << 14) - 1}}, 4, 14, false}, // at gap 8, a neighbour below nv
		{[][2]uint64{{1, 1}}, 3, 17, false},                     // one, the block's last byte full
	} {
		a := compactBlock(lo, 100, 2, lows, c.exc, c.wi, c.wh)
		s := loneListShard(lo, 0, n+1, a, padFF(a))
		front := make([]uint64, nv/64)
		for _, x := range []uint32{107, 108} { // the neighbours of gaps 2 and 3
			front[x/64] |= 1 << (x % 64)
		}
		x, _, st := scanScalar(a, lo, n+1, nv, front)
		if c.refused != (st == Malformed) || !c.refused && (st != Found || x != 107) {
			t.Fatalf("exceptions %v: ScanList's status %d (neighbour %d)", c.exc, st, x)
		}
		var res GroupScan
		bad := s.ScanGroup(0, ^uint64(0), nv, front, &res)
		if c.refused {
			if bad != 0 {
				t.Fatalf("exceptions %v: ScanGroup refused %d, found %x (parent %d), want list 0 refused", c.exc, bad, res.Found, res.Parent[0])
			}
			continue
		}
		if bad >= 0 || res.Found != 1 || res.Parent[0] != 107 {
			t.Fatalf("exceptions %v: ScanGroup refused %d, found %x, parent %d; want -1, 0x1, 107", c.exc, bad, res.Found, res.Parent[0])
		}
		res.Parent[0] = 100 // scanMoreVec's input: the first neighbour, which missed
		if m := scanMoreVec(s.Adj, front, nv, 1, &res); m.found != 1 || res.Parent[0] != 107 {
			t.Fatalf("exceptions %v: scanMoreVec found %x, parent %d; want 0x1, 107", c.exc, m.found, res.Parent[0])
		}
	}
}

// TestScanMoreFirstException gives the vector scan compact blocks of one exception and
// a frontier of two neighbours, 103 and 107, and holds ScanGroup to ScanList. ScanList
// refuses a list whose exception's gap lies past the block, or whose first neighbour's
// high part (2^32 after the shift by w, which wraps it to 0 in 32 bits) is not below nv,
// though a neighbour in the frontier comes before that exception's gap, and so must the
// vector scan; one whose high part is not below nv past the first group of 8 gaps finds
// 103 first. Where the exception is whole, in the first group (before, at and after the
// lane found) or past it, the vector scan itself (scanMoreVec) finds the first neighbour
// in the frontier.
func TestScanMoreFirstException(t *testing.T) {
	if !haveVec || !haveShiftX {
		t.Skip("no vector decoder")
	}
	const nv, lo, n = 1 << 16, 4096, 15
	lows := make([]uint64, n) // gaps of 1: 101, 102, ... without the exception
	for _, c := range []struct {
		exc    [2]uint64
		wi, wh uint
		want   uint32 // 0: refused
		vec    bool   // found by scanMoreVec, not left to the caller
	}{
		{[2]uint64{16, 1}, 5, 1, 0, false},         // at gap 16, past the block
		{[2]uint64{0, 1 << 30}, 1, 31, 0, false},   // at gap 0, a high part of 2^32
		{[2]uint64{9, 1 << 14}, 4, 15, 103, false}, // at gap 9, a high part of nv
		{[2]uint64{9, 1}, 4, 1, 103, true},         // past the first group
		{[2]uint64{1, 1}, 4, 1, 107, true},         // gap 1: 106, gap 2: 107
		{[2]uint64{2, 1}, 4, 1, 107, true},         // gap 2: 107
		{[2]uint64{3, 1}, 4, 1, 103, true},         // after gap 2's 103
		{[2]uint64{7, 1}, 3, 17, 103, true},        // the group's last lane
	} {
		a := compactBlock(lo, 100, 2, lows, [][2]uint64{c.exc}, c.wi, c.wh)
		s := loneListShard(lo, 0, n+1, a, padFF(a))
		front := make([]uint64, nv/64)
		for _, x := range []uint32{103, 107} {
			front[x/64] |= 1 << (x % 64)
		}
		x, _, st := scanScalar(a, lo, n+1, nv, front)
		if (c.want == 0) != (st == Malformed) || c.want != 0 && (st != Found || x != c.want) {
			t.Fatalf("exception %v: ScanList's status %d (neighbour %d)", c.exc, st, x)
		}
		var res GroupScan
		bad := s.ScanGroup(0, ^uint64(0), nv, front, &res)
		if c.want == 0 {
			if bad != 0 {
				t.Fatalf("exception %v: ScanGroup refused %d, found %x (parent %d), want list 0 refused", c.exc, bad, res.Found, res.Parent[0])
			}
			continue
		}
		if bad >= 0 || res.Found != 1 || res.Parent[0] != c.want {
			t.Fatalf("exception %v: ScanGroup refused %d, found %x, parent %d; want -1, 0x1, %d", c.exc, bad, res.Found, res.Parent[0], c.want)
		}
		if !c.vec {
			continue
		}
		res.Parent[0] = 100 // scanMoreVec's input: the first neighbour, which missed
		if m := scanMoreVec(s.Adj, front, nv, 1, &res); m.found != 1 || res.Parent[0] != c.want {
			t.Fatalf("exception %v: scanMoreVec found %x, parent %d; want 0x1, %d", c.exc, m.found, res.Parent[0], c.want)
		}
	}
}

// TestScanMoreShortLists gives scanMoreVec compact lists of PackedMin neighbours and a
// few more, each alone in its group at one of several lanes and found at its last
// gap: scanMoreVec scans each (found, not left to the caller).
func TestScanMoreShortLists(t *testing.T) {
	if !haveVec || !haveShiftX {
		t.Skip("no vector decoder")
	}
	const nv, lo = 1 << 16, 4096
	lanes := []uint32{0, 9, 18, 27, 37, 46, 55, 63} // one in each 8
	for i, d := range []int{PackedMin, PackedMin + 1, 9, 17, 64, PackedMin, PackedMin, PackedMin + 2} {
		j := lanes[i]
		a := compactBlock(lo+j, 100, 2, make([]uint64, d-1), nil, 0, 0)
		s := loneListShard(lo, j, uint32(d), a, padFF(a))
		front := make([]uint64, nv/64)
		last := uint32(100 + d - 1) // gaps of 1
		front[last/64] |= 1 << (last % 64)
		var res GroupScan
		if bad := s.ScanGroup(0, ^uint64(0), nv, front, &res); bad >= 0 || res.Found != 1<<j || res.Parent[j] != last {
			t.Fatalf("degree %d at lane %d: ScanGroup refused %d, found %x, parent %d; want -1, %x, %d", d, j, bad, res.Found, res.Parent[j], 1<<j, last)
		}
		res.Parent[j] = 100
		if m := scanMoreVec(s.Adj, front, nv, 1<<j, &res); m.found != 1<<j || res.Parent[j] != last || m.extra != uint64(d-1) {
			t.Fatalf("degree %d at lane %d: scanMoreVec found %x, parent %d, extra %d; want %x, %d, %d", d, j, m.found, res.Parent[j], m.extra, 1<<j, last, d-1)
		}
	}
}

// TestScanMoreGroupExceptions gives the vector scan compact blocks whose records fit
// one word (wi+wh at most 14 bits), so that their first group's exceptions go to the add
// lanes without a branch on them: up to four in the group, a fifth in it or past it,
// none in it, and damaged ones (a gap past the block; a high part not below nv, which
// ScanList refuses when it reads that exception, before the neighbours past the one
// before it). Each is held to ScanList through ScanGroup; a whole one is scanned by
// scanMoreVec itself (found, or missed where the frontier holds none of its
// neighbours), not left to the caller.
func TestScanMoreGroupExceptions(t *testing.T) {
	if !haveVec || !haveShiftX {
		t.Skip("no vector decoder")
	}
	const lo, n = 64, 23
	lows := make([]uint64, n) // gaps of 1 but for the exceptions
	for lane := range lows {
		lows[lane] = uint64(lane % 3)
	}
	for _, c := range []struct {
		exc    [][2]uint64 // (step, high part)
		wi, wh uint
		nv     uint32
		front  []int // the gaps whose neighbours are in the frontier
	}{
		{[][2]uint64{{1, 1}, {1, 2}, {1, 1}, {0, 3}}, 1, 2, 1 << 16, []int{7}},                                  // four in the group
		{[][2]uint64{{1, 1}, {1, 2}, {1, 1}, {0, 3}}, 1, 2, 1 << 16, []int{12}},                                 // and past it
		{[][2]uint64{{0, 1}, {0, 2}, {0, 1}, {0, 3}, {0, 1}}, 1, 2, 1 << 16, []int{6, 9}},                       // a fifth in it
		{[][2]uint64{{0, 1}, {0, 2}, {0, 1}, {2, 3}, {3, 1}}, 2, 2, 1 << 16, []int{11}},                         // a fifth past it (fourth at 5)
		{[][2]uint64{{0, 1}, {0, 2}, {0, 1}, {3, 3}, {3, 1}}, 2, 2, 1 << 16, []int{11, 14}},                     // the fourth at 6
		{[][2]uint64{{1, 1}, {1, 2}, {1, 1}, {1, 3}, {0, 1}}, 1, 2, 1 << 16, []int{8}},                          // the fourth at 7
		{[][2]uint64{{2, 5}, {6, 1}}, 3, 3, 1 << 16, []int{3, 17}},                                              // one in it
		{[][2]uint64{{2, 5}, {6, 1}}, 3, 3, 1 << 16, []int{17}},                                                 // one in it, one past it
		{[][2]uint64{{9, 5}, {6, 1}, {1, 2}}, 4, 3, 1 << 16, []int{20}},                                         // none in it
		{[][2]uint64{{2, 5}, {6, 1}}, 3, 3, 1 << 16, nil},                                                       // missed
		{[][2]uint64{{1, 1}, {25, 1}}, 5, 1, 1 << 16, []int{2}},                                                 // the second past the block
		{[][2]uint64{{1, 1}, {1, 1}, {1, 1}, {1, 1}, {20, 1}}, 5, 1, 1 << 16, []int{2}},                         // the fifth past the block
		{[][2]uint64{{1, 1}, {7, 256}}, 4, 9, 256, []int{2}},                                                    // the second's high part nv
		{[][2]uint64{{1, 1}, {1, 1}, {1, 256}}, 4, 9, 256, []int{4}},                                            // the third's, in the group
		{[][2]uint64{{1, (1 << 14) - 1}, {1, 1}}, 0, 14, 1 << 16, []int{2, 3}},                                  // wide high parts
		{[][2]uint64{{2, 1}}, 4, 10, 2048, []int{5}},                                                            // the records past the one: ones, high parts past nv
		{[][2]uint64{{0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}}, 1, 1, 1 << 16, []int{16}}, // every lane
	} {
		a := compactBlock(lo, 100, 2, lows, c.exc, c.wi, c.wh)
		s := loneListShard(lo, 0, n+1, a, padFF(a))
		front := make([]uint64, (c.nv+63)/64)
		nb, g := make([]uint32, n), uint64(100) // the neighbours past the first
		for i, e := 0, -1; i < n; i++ {
			h := uint64(0)
			for _, x := range c.exc {
				if e += 1 + int(x[0]); e == i {
					h = x[1]
				}
				if e >= i {
					break
				}
			}
			e = -1
			g += 1 + lows[i] + h<<2
			nb[i] = uint32(g)
		}
		for _, i := range c.front {
			if nb[i] < c.nv {
				front[nb[i]/64] |= 1 << (nb[i] % 64)
			}
		}
		x, _, st := scanScalar(a, lo, n+1, c.nv, front)
		var res GroupScan
		bad := s.ScanGroup(0, ^uint64(0), c.nv, front, &res)
		switch {
		case st == Malformed:
			if bad != 0 {
				t.Fatalf("exceptions %v: ScanGroup refused %d, found %x (parent %d), want list 0 refused", c.exc, bad, res.Found, res.Parent[0])
			}
			continue
		case bad >= 0 || (st == Found) != (res.Found == 1) || st == Found && res.Parent[0] != x:
			t.Fatalf("exceptions %v: ScanGroup refused %d, found %x, parent %d; ScanList %d, %d", c.exc, bad, res.Found, res.Parent[0], st, x)
		}
		res.Parent[0] = 100 // scanMoreVec's input: the first neighbour, which missed
		m := scanMoreVec(s.Adj, front, c.nv, 1, &res)
		if st == Found && (m.found != 1 || res.Parent[0] != x) || st == NotFound && m.miss != 1 {
			t.Fatalf("exceptions %v: scanMoreVec found %x, missed %x, parent %d; ScanList %d, %d", c.exc, m.found, m.miss, res.Parent[0], st, x)
		}
	}
}
