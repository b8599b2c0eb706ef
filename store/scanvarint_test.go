package store

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// TestScanVarintsBMI holds scanVarintsBMI to scanVarints, the Go loop, on streams of
// varints of 1 to 10 bytes (values past five bytes, or past nv, and sums past nv
// among them), lists cut anywhere (a value's end past the list), capacities that end
// before a value's word, frontiers of every density and starts past the list: the same
// value, count, position and status, but where the assembly leaves to its caller a value
// whose word does not load (the Go loop reads a value of one byte there).
func TestScanVarintsBMI(t *testing.T) {
	if !haveBMI {
		t.Skip("no BMI1 and BMI2")
	}
	r := rand.New(rand.NewPCG(testSeed(t), 61))
	for trial := range 20000 {
		nv := []uint64{1, 7, 200, 1 << 14, 1 << 18}[r.IntN(5)]
		var buf []byte
		for range 1 + r.IntN(20) {
			var u uint64
			switch r.IntN(6) {
			case 0:
				u = r.Uint64N(1 << 7)
			case 1:
				u = r.Uint64N(1 << 14)
			case 2:
				u = r.Uint64N(nv/8 + 1)
			case 3:
				u = r.Uint64N(1 << 35) // up to five bytes, often past nv
			case 4:
				u = r.Uint64() >> r.IntN(64) // up to ten bytes
			default:
				u = 1
			}
			for u >= 0x80 {
				buf = append(buf, byte(u)|0x80)
				u >>= 7
			}
			buf = append(buf, byte(u))
			if r.IntN(20) == 0 { // a run of continuation bytes: no end in the word
				for range 1 + r.IntN(9) {
					buf = append(buf, 0x80|byte(r.IntN(256)))
				}
			}
		}
		ln := r.IntN(len(buf) + 1)
		if r.IntN(2) == 0 {
			ln = len(buf)
		}
		cp := ln + []int{0, 1, 3, 7, 8, 64}[r.IntN(6)]
		mem := make([]byte, cp)
		copy(mem, buf)
		for i := len(buf); i < cp; i++ {
			mem[i] = byte(r.IntN(256))
		}
		list := mem[:ln:cp]
		bits := randomBits(r, uint32(nv))
		p := r.IntN(ln + 2)
		cur := r.Uint64N(nv)
		n := r.IntN(25)
		x0, k0, p0, s0 := scanVarints(list, p, cur, n, nv, bits)
		x1, k1, p1, s1 := scanVarintsBMI(unsafe.SliceData(list), p, ln, cp, cur, n, nv, unsafe.SliceData(bits))
		if s1 == scanSlow && k1 < n && (p1 < 0 || p1+8 > cp) {
			// a value whose word does not load: left to the caller, where the Go loop
			// reads a byte of one alone; the values before it as the Go loop reads them
			x0, k0, p0, s0 = scanVarints(list, p, cur, k1, nv, bits)
			if s0 == NotFound {
				s0 = scanSlow
			}
		}
		if x0 != x1 || k0 != k1 || p0 != p1 || s0 != s1 {
			t.Fatalf("trial %d: list % x (len %d cap %d) from %d, cur %d, n %d, nv %d: BMI (%d, %d, %d, %d), Go (%d, %d, %d, %d)",
				trial, mem, ln, cp, p, cur, n, nv, x1, k1, p1, s1, x0, k0, p0, s0)
		}
	}
}

// TestScanVarintsShortFront gives ScanList and ScanGroup a frontier of fewer than nv
// bits, against their contract, and a list of varints whose first neighbour lies inside
// it and whose second past it: the assembly, which reads the frontier unchecked, must
// not take that list (the word past the slice's length is inside its capacity here,
// where the read would not fault); the Go loop's bounds check panics instead.
func TestScanVarintsShortFront(t *testing.T) {
	const nv = 8192
	enc := AppendList(nil, 20, []uint32{10, 4000, 4001})
	list := append(slices.Clone(enc), make([]byte, 8)...)[:len(enc)]
	for _, group := range []bool{false, true} {
		func() {
			front := make([]uint64, nv/64)[:1]
			defer func() {
				if recover() == nil {
					t.Fatalf("group %v: read the word of neighbour 4000 in a frontier of 64 bits", group)
				}
			}()
			if group {
				var res GroupScan
				oneListShard(0, 20, 3, list).ScanGroup(0, 1<<20, nv, front, &res)
			} else {
				ScanList(list, 20, 3, nv, front)
			}
		}()
	}
}
