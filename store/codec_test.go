package store

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"
)

// refDecode is the reference decoder of FORMAT.md's list codec: written from the text,
// byte by byte and bit by bit, sharing nothing with the fast decoders. It returns false
// for anything FORMAT.md does not allow.
func refDecode(v, d uint32, list []byte, nv uint32) ([]uint32, bool) {
	nb := int((uint64(d) + BlockSize - 1) / BlockSize)
	pos := 0
	if nb > 1 {
		pos = 4 * (nb - 1)
	}
	if pos > len(list) {
		return nil, false
	}
	uv := func() (uint64, bool) { // LEB128 of at most 64 bits, as encoding/binary
		var x uint64
		for s := uint(0); s < 64; s += 7 {
			if pos >= len(list) || (s == 63 && list[pos] > 1) {
				return 0, false
			}
			c := list[pos]
			pos++
			x |= uint64(c&0x7f) << s
			if c < 0x80 {
				return x, true
			}
		}
		return 0, false
	}
	var out []uint32
	for k := 0; k < nb; k++ {
		if k > 0 && int(binary.LittleEndian.Uint32(list[4*(k-1):])) != pos {
			return nil, false
		}
		c := min(BlockSize, int(d)-k*BlockSize)
		z, ok := uv()
		if !ok {
			return nil, false
		}
		packed := false
		if c >= PackedMin {
			packed = z&1 == 1
			z >>= 1
		}
		first := int64(v) + (int64(z>>1) ^ -int64(z&1))
		if first < 0 || first >= int64(nv) {
			return nil, false
		}
		gaps := make([]uint64, c-1)
		if !packed {
			for i := range gaps {
				if gaps[i], ok = uv(); !ok {
					return nil, false
				}
			}
		} else {
			if pos >= len(list) {
				return nil, false
			}
			h := list[pos]
			pos++
			w := int(h & 0x3f)
			if h == 0xff { // mirrored: the lower half's gaps, then 2v minus each
				if c%2 != 0 || c > 8 {
					return nil, false
				}
				lower := []uint64{uint64(first)}
				for i := 1; i < c/2; i++ {
					g, ok := uv()
					if !ok || g >= uint64(nv) {
						return nil, false
					}
					lower = append(lower, lower[i-1]+g)
				}
				if lower[c/2-1] > uint64(v) || 2*uint64(v)-uint64(first) >= uint64(nv) {
					return nil, false
				}
				for i := 0; i < c; i++ {
					if i < c/2 {
						out = append(out, uint32(lower[i]))
					} else {
						out = append(out, uint32(2*uint64(v)-lower[c-1-i]))
					}
				}
				continue
			}
			if w > 32 {
				return nil, false
			}
			if h&0x80 != 0 { // compact: gaps 1 + w bits, exceptions at bit granularity
				bit := pos * 8
				field := func(n int) (uint64, bool) {
					var x uint64
					for j := 0; j < n; j++ {
						if bit/8 >= len(list) {
							return 0, false
						}
						x |= uint64(list[bit/8]>>(bit%8)&1) << j
						bit++
					}
					return x, true
				}
				for i := range gaps {
					r, ok := field(w)
					if !ok {
						return nil, false
					}
					gaps[i] = 1 + r
				}
				if h&0x40 != 0 {
					ne, ok1 := field(6)
					wi, ok2 := field(3)
					wh, ok3 := field(5)
					if !ok1 || !ok2 || !ok3 || ne == 0 {
						return nil, false
					}
					i := -1
					for range ne {
						step, ok1 := field(int(wi))
						hi, ok2 := field(int(wh) + 1)
						i += 1 + int(step)
						if !ok1 || !ok2 || i >= len(gaps) || hi >= uint64(nv) {
							return nil, false
						}
						gaps[i] += hi << w
					}
				}
				pos = (bit + 7) / 8
				goto sum
			}
			base, ok := uv()
			if !ok || base >= uint64(nv) {
				return nil, false
			}
			ne := 0
			if h&0x40 != 0 {
				if pos >= len(list) {
					return nil, false
				}
				ne = int(list[pos])
				pos++
				if ne == 0 {
					return nil, false
				}
			}
			bit := pos * 8
			for i := range gaps {
				var r uint64
				for j := 0; j < w; j++ {
					if bit/8 >= len(list) {
						return nil, false
					}
					r |= uint64(list[bit/8]>>(bit%8)&1) << j
					bit++
				}
				gaps[i] = base + r
			}
			pos = (bit + 7) / 8
			last := -1
			for range ne {
				if pos >= len(list) {
					return nil, false
				}
				i := int(list[pos])
				pos++
				hi, ok := uv()
				if !ok || i <= last || i >= len(gaps) || hi == 0 || hi >= uint64(nv) {
					return nil, false
				}
				last = i
				gaps[i] += hi << w
			}
		}
	sum:
		cur := uint64(first)
		out = append(out, uint32(cur))
		for _, g := range gaps {
			if g >= uint64(nv) {
				return nil, false
			}
			cur += g
			if cur >= uint64(nv) {
				return nil, false
			}
			out = append(out, uint32(cur))
		}
	}
	return out, pos == len(list)
}

// trialList is a random decoder test's list for trial: a degree from a fixed cycle (1 to
// 300, around the block and packing thresholds), nv below 5000 or, every fifth trial,
// above 2^20 (wide gaps: exceptions, wide packing), a random vertex and its neighbours.
func trialList(r *rand.Rand, trial int) (v uint32, d int, nv uint32, nbrs []uint32) {
	degrees := []int{1, 2, 3, 4, 5, 63, 64, 65, 128, 300}
	nv = uint32(1 + r.IntN(5000))
	if trial%5 == 0 {
		nv = uint32(1<<20 + r.IntN(1<<20))
	}
	d = degrees[trial%len(degrees)]
	v = r.Uint32N(nv)
	return v, d, nv, randomNbrs(r, v, d, nv)
}

// randomNbrs draws a sorted list of degree d in [0, nv) of one of several shapes: uniform,
// runs of consecutive ids (web crawls), duplicates, clustered near v, and gaps near 2^32.
func randomNbrs(r *rand.Rand, v uint32, d int, nv uint32) []uint32 {
	l := make([]uint32, 0, d)
	switch r.IntN(7) {
	case 6: // symmetric about v (a mesh's stencil: mirrored blocks) where it fits
		k := uint32(0)
		for range d / 2 {
			k += 1 + r.Uint32N(1+r.Uint32N(5000))
			if k > v || uint64(v)+uint64(k) >= uint64(nv) {
				break
			}
			l = append(l, v-k, v+k)
		}
		for len(l) < d {
			l = append(l, r.Uint32N(nv))
		}
	case 0: // uniform
		for range d {
			l = append(l, r.Uint32N(nv))
		}
	case 1: // runs with jumps
		x := r.Uint32N(nv)
		for len(l) < d {
			if r.IntN(20) == 0 {
				x = r.Uint32N(nv)
			}
			l = append(l, x)
			x = min(x+1, nv-1)
		}
	case 2: // duplicates
		for range d {
			l = append(l, r.Uint32N(min(nv, 8)))
		}
	case 3: // near v
		for range d {
			x := int64(v) + int64(r.IntN(2001)) - 1000
			l = append(l, uint32(min(max(x, 0), int64(nv)-1)))
		}
	case 4: // the extremes of the id range, with rare huge gaps
		for range d {
			if r.IntN(2) == 0 {
				l = append(l, r.Uint32N(min(nv, 100)))
			} else {
				l = append(l, nv-1-r.Uint32N(min(nv, 100)))
			}
		}
	default: // mostly small gaps, a few wide ones (exceptions)
		x := uint64(r.Uint32N(max(1, nv/2)))
		for len(l) < d {
			if r.IntN(16) == 0 {
				x += uint64(r.Uint32N(max(1, nv/4)))
			} else {
				x += uint64(r.IntN(8))
			}
			l = append(l, uint32(x%uint64(nv)))
		}
	}
	slices.Sort(l)
	return l
}

// checkCodec encodes nbrs and decodes it with every decoder: the reference, ListIter,
// the fast path with and without room past the list, DecodeBlock prefixes and slices
// from every block.
func checkCodec(t *testing.T, v uint32, nbrs []uint32, nv uint32) {
	t.Helper()
	d := uint32(len(nbrs))
	enc := AppendList(nil, v, nbrs)
	if ref, ok := refDecode(v, d, enc, nv); !ok || !slices.Equal(ref, nbrs) {
		t.Fatalf("v=%d nv=%d %v: reference decodes %v, %v from % x", v, nv, nbrs, ref, ok, enc)
	}
	if got, err := DecodeList(nil, v, d, enc, nv); err != nil || !slices.Equal(got, nbrs) {
		t.Fatalf("v=%d nv=%d %v: DecodeList %v, %v", v, nv, nbrs, got, err)
	}
	for _, room := range []int{0, 16} {
		list := append(slices.Clip(enc), make([]byte, room)...)[:len(enc)]
		got := make([]uint32, d)
		if !decodePrefix(got, v, list, d, nv) || !slices.Equal(got, nbrs) {
			t.Fatalf("v=%d nv=%d %v: decodePrefix (room %d) %v", v, nv, nbrs, room, got)
		}
		for k := uint32(0); k < NumBlocks(d); k++ {
			pos, err := BlockOffset(list, d, k)
			if err != nil {
				t.Fatal(err)
			}
			c := BlockLen(d, k)
			if x, ok := FirstNeighbour(v, list, pos, c, nv); !ok || x != nbrs[k*BlockSize] {
				t.Fatalf("v=%d %v: block %d FirstNeighbour = %d, %v", v, nbrs, k, x, ok)
			}
			for _, n := range []uint32{1, min(c, 3), c} {
				dst := make([]uint32, n)
				if _, ok := DecodeBlock(dst, v, list, pos, c, nv); !ok || !slices.Equal(dst, nbrs[k*BlockSize:k*BlockSize+n]) {
					t.Fatalf("v=%d %v: block %d prefix %d = %v, %v", v, nbrs, k, n, dst, ok)
				}
			}
		}
	}
}

func TestCodecRandom(t *testing.T) {
	seed := testSeed(t)
	r := rand.New(rand.NewPCG(seed, 2))
	degrees := []int{0, 1, 2, 3, 4, 5, 63, 64, 65, 127, 128, 129, 1000}
	var modes [5]int // varint, packed, packed with exceptions, compact (with exceptions), mirrored
	for trial := 0; trial < 3000; trial++ {
		nv := uint32(1 + r.IntN(1<<20))
		if trial%4 == 0 {
			nv = 1<<32 - 1 - r.Uint32N(16)
		}
		d := degrees[trial%len(degrees)]
		if trial%97 == 0 {
			d = r.IntN(20000)
		}
		v := r.Uint32N(nv)
		nbrs := randomNbrs(r, v, d, nv)
		checkCodec(t, v, nbrs, nv)
		countModes(&modes, AppendList(nil, v, nbrs), uint32(d))
	}
	for i, n := range modes {
		if n == 0 {
			t.Errorf("no block in coding %d (varint, packed, packed with exceptions, compact, mirrored): %v", i, modes)
		}
	}
}

// countModes counts the codings of the blocks of at least PackedMin neighbours of enc.
func countModes(modes *[5]int, enc []byte, d uint32) {
	for k := uint32(0); k < NumBlocks(d); k++ {
		pos, _ := BlockOffset(enc, d, k)
		if BlockLen(d, k) < PackedMin {
			continue
		}
		z, p := Uvarint(enc, pos)
		switch h := enc[p]; {
		case z&1 == 0:
			modes[0]++
		case h == hdrMirror:
			modes[4]++
		case h&hdrCompact != 0:
			modes[3]++
		case h&hdrExceptions != 0:
			modes[2]++
		default:
			modes[1]++
		}
	}
}

// TestCodecPacked pins shapes that must take the packed coding and its exceptions.
func TestCodecPacked(t *testing.T) {
	run := make([]uint32, 64)
	for i := range run {
		run[i] = 1000 + uint32(i)
	}
	enc := AppendList(nil, 1000, run)
	// zigzag(0)<<1|1, compact header w=0: a run of 64 costs 2 bytes.
	if want := []byte{0x01, 0x80}; !bytes.Equal(enc, want) {
		t.Fatalf("a run of 64 encodes as % x, want % x", enc, want)
	}
	checkCodec(t, 1000, run, 2000)
	jumps := slices.Clone(run)
	for i := 20; i < 64; i++ {
		jumps[i] += 1 << 30
	}
	enc = AppendList(nil, 1000, jumps)
	if enc[1] != hdrCompact|hdrExceptions {
		t.Fatalf("a run with one jump: header %#x, want a compact block of width 0 with exceptions (% x)", enc[1], enc)
	}
	checkCodec(t, 1000, jumps, 1<<31)
	// a mesh's list [v-64, v-1, v+1, v+64]: zigzag(-64)<<1|1, the mirror header, gap 63
	mesh := []uint32{1000 - 64, 999, 1001, 1064}
	if enc, want := AppendList(nil, 1000, mesh), []byte{0xff, 0x01, 0xff, 0x3f}; !bytes.Equal(enc, want) {
		t.Fatalf("%v encodes as % x, want % x", mesh, enc, want)
	}
	checkCodec(t, 1000, mesh, 2000)
	checkCodec(t, 1000, mesh[:3], 2000)
	wide := []uint32{0, 1 << 31, 1<<32 - 3, 1<<32 - 2}
	checkCodec(t, 5, wide, 1<<32-1)
	checkCodec(t, 1<<32-2, wide, 1<<32-1)
}

// FuzzCodec encodes a list drawn from the fuzzed bytes and requires every decoder to give
// it back; FuzzDecode and FuzzDecodeList feed the decoders arbitrary bytes.
func FuzzCodec(f *testing.F) {
	f.Add(uint64(1), uint32(10), uint32(100), uint16(64))
	f.Add(uint64(2), uint32(0), uint32(1<<32-1), uint16(65))
	f.Fuzz(func(t *testing.T, seed uint64, v, nv uint32, d uint16) {
		if nv == 0 {
			return
		}
		v %= nv
		r := rand.New(rand.NewPCG(seed, 3))
		checkCodec(t, v, randomNbrs(r, v, int(d%2000), nv), nv)
	})
}
