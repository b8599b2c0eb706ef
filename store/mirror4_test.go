package store

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"
)

// checkMirror4 compares DecodeMirror4 with DecodeBlock on v's list of degree 4: where the
// first decodes, the second must give the same neighbours. It reports whether the first
// decoded.
func checkMirror4(t *testing.T, list []byte, v, nv uint32) bool {
	t.Helper()
	var got [4]uint32
	if !DecodeMirror4(&got, v, list, nv) {
		return false
	}
	want := make([]uint32, 4)
	if _, ok := DecodeBlock(want, v, list, 0, 4, nv); !ok || [4]uint32(want) != got {
		t.Fatalf("v=%d nv=%d list %x: DecodeMirror4 %v, DecodeBlock %v (ok %v)", v, nv, list, got, want, ok)
	}
	return true
}

func TestDecodeMirror4(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 41))
	decoded := 0
	for trial := 0; trial < 20000; trial++ {
		nv := uint32(2 + r.IntN(1<<(4+r.IntN(20))))
		v := r.Uint32N(nv)
		var nbrs []uint32
		if k := 1 + r.Uint32N(min(v, nv-1-v)+1); trial%2 == 0 && k <= v && v+k < nv { // a mesh's stencil
			k2 := r.Uint32N(k)
			nbrs = []uint32{v - k, v - k2, v + k2, v + k}
		} else {
			nbrs = randomNbrs(r, v, 4, nv)
		}
		enc := AppendList(nil, v, nbrs)
		for _, pad := range []int{0, 3, 8} {
			if checkMirror4(t, withTail(r, enc, pad), v, nv) {
				decoded++
			}
		}
		for range 4 {
			checkMirror4(t, withTail(r, corrupted(r, enc), 8), v, nv)
		}
	}
	if decoded < 1000 {
		t.Fatalf("DecodeMirror4 decoded only %d lists: the test does not exercise it", decoded)
	}
}

// FuzzDecodeMirror4 feeds DecodeMirror4 arbitrary bytes: no panic, and DecodeBlock's
// answer wherever it decodes.
func FuzzDecodeMirror4(f *testing.F) {
	f.Add(uint32(5000), uint32(1<<20), []byte{0xC1, 0x7F, 0xFF, 0xFF, 0x0F}, uint16(8))
	f.Add(uint32(10), uint32(100), []byte{0x1F, 0xFF, 0x07}, uint16(8))
	f.Fuzz(func(t *testing.T, v, nv uint32, list []byte, pad uint16) {
		nv = 1 + nv%(1<<24)
		checkMirror4(t, withTail(rand.New(rand.NewPCG(uint64(pad), 7)), list, int(pad%16)), v%nv, nv)
	})
}

// TestClaimMirror4s holds ClaimMirror4s to claims of DecodeMirror4Word's neighbours on
// batches of mesh stencils, other lists of degree 4, corrupted ones, lists of other
// degrees, mesh lists under another degree and mesh lists whose first neighbour lies
// below 0, from random parents: the lists it expands, the parents and the queue.
func TestClaimMirror4s(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 43))
	expanded := 0
	for trial := 0; trial < 5000; trial++ {
		nv := uint32(8 + r.IntN(1<<(4+r.IntN(12))))
		es := make([]ListEntry, 1+r.IntN(16))
		vs := make([]uint32, len(es))
		for k := range es {
			v := r.Uint32N(nv)
			d := uint32(4)
			var nbrs []uint32
			if c := 1 + r.Uint32N(min(v, nv-1-v)+1); r.IntN(8) != 0 && c <= v && v+c < nv {
				c2 := r.Uint32N(c)
				nbrs = []uint32{v - c, v - c2, v + c2, v + c}
			} else {
				d = uint32(1 + r.IntN(6))
				nbrs = randomNbrs(r, v, int(d), nv)
			}
			list := AppendList(nil, v, nbrs)
			if r.IntN(16) == 0 {
				list = corrupted(r, list)
			}
			if c := 1 + r.Uint32N(min(v, nv-1-v)+1); r.IntN(8) == 0 && c <= v && v+c < nv {
				// a mesh list whose two varints take 1 to 4 bytes whatever their
				// values (padded by continuation bytes): ClaimMirror4s takes those of
				// at most 3 bytes each, as DecodeMirror4Word does
				c2 := r.Uint32N(c)
				d = 4
				list = overlongVarint(nil, (2*c-1)<<1|1, 1+r.IntN(4))
				list = overlongVarint(append(list, hdrMirror), c-c2, 1+r.IntN(4))
			}
			if r.IntN(16) == 0 && nv >= 16 {
				// a mesh list whose first neighbour lies below 0 (its delta past the
				// vertex), the others in the graph: refused
				v = r.Uint32N(nv / 3)
				e := r.Uint32N(4)
				d = 4
				list = overlongVarint(nil, (2*(v+1+e)-1)<<1|1, 1)
				list = overlongVarint(append(list, hdrMirror), r.Uint32N(v+2+e), 1)
			}
			if r.IntN(16) == 0 {
				d = []uint32{2, 3, 5}[r.IntN(3)] // a list's bytes under another degree
			}
			var head [8]byte
			copy(head[:], withTail(r, list, 8)[:8:8])
			es[k] = ListEntry{Deg: d, Start: 100, End: 100 + uint32(len(list)), Head: binary.LittleEndian.Uint64(head[:])}
			vs[k] = v
		}
		parent := make([]uint32, nv)
		for x := range parent {
			parent[x] = uint32(r.Int64N(int64(nv)))
			if r.IntN(2) == 0 {
				parent[x] = 1<<32 - 1
			}
		}
		got := checkClaimMirror4s(t, es, vs, parent, 0, nv)
		expanded += got
	}
	if expanded < 5000 {
		t.Fatalf("ClaimMirror4s expanded only %d lists: the test does not exercise it", expanded)
	}
}

// overlongVarint appends x as a varint of at least k bytes (the value's 7-bit groups,
// then groups of zeros with continuation bits up to the k-th byte).
func overlongVarint(b []byte, x uint32, k int) []byte {
	for ; x >= 0x80 || k > 1; k-- {
		b = append(b, byte(x)|0x80)
		x >>= 7
	}
	return append(b, byte(x))
}

// checkClaimMirror4s holds ClaimMirror4s on es and vs, from parent and tail (a copy of
// parent is claimed into), to the claims of DecodeMirror4Word's neighbours: the lists
// it expands, the new tail, the parents and the queue up to the tail; through
// claimMirror4s where it runs, and through the Go loop alone. It returns how many
// lists it expanded.
func checkClaimMirror4s(t *testing.T, es []ListEntry, vs, parent []uint32, tail int, nv uint32) int {
	t.Helper()
	if haveClaimMirror4s {
		haveClaimMirror4s = false
		checkClaimMirror4sOnce(t, es, vs, parent, tail, nv)
		haveClaimMirror4s = true
	}
	return checkClaimMirror4sOnce(t, es, vs, parent, tail, nv)
}

// checkClaimMirror4sOnce is checkClaimMirror4s through the loop haveClaimMirror4s
// picks.
func checkClaimMirror4sOnce(t *testing.T, es []ListEntry, vs, parent []uint32, tail int, nv uint32) int {
	t.Helper()
	queue := make([]uint32, nv+1)
	parent = slices.Clone(parent)
	want, wantParent, wantQueue, wantTail := 0, slices.Clone(parent), slices.Clone(queue), tail
	for k, e := range es[:min(len(es), len(vs))] {
		x0, x1, x2, x3, ok := DecodeMirror4Word(vs[k], e.Head, int(e.End-e.Start), nv)
		if e.Deg != 4 || !ok || wantTail > int(nv)-4 {
			break
		}
		for _, x := range []uint32{x0, x1, x2, x3} {
			if wantParent[x] == 1<<32-1 {
				wantParent[x], wantQueue[wantTail] = vs[k], x
				wantTail++
			}
		}
		want++
	}
	got, gotTail := ClaimMirror4s(es, vs, parent, queue, tail, nv)
	if got != want || gotTail != wantTail || !slices.Equal(parent, wantParent) || !slices.Equal(queue[:gotTail], wantQueue[:gotTail]) {
		t.Fatalf("ClaimMirror4s (assembly %v) of %v (entries %+v, tail %d, nv %d) expanded %d lists, tail %d, want %d, %d (or parents, queue differ)", haveClaimMirror4s, vs, es, tail, nv, got, gotTail, want, wantTail)
	}
	return got
}

// FuzzClaimMirror4s feeds ClaimMirror4s arbitrary entries (14 bytes of data each: the
// vertex's low 16 bits, its degree (4 below 0xe0), the list's length and its first 8
// bytes; 2 more ignored), vertex counts, tails and parents: no panic, and the claims of
// DecodeMirror4Word's neighbours (checkClaimMirror4s).
func FuzzClaimMirror4s(f *testing.F) {
	mesh := func(v, c, c2 uint32) []byte {
		l := AppendList(nil, v, []uint32{v - c, v - c2, v + c2, v + c})
		var e [14]byte
		e[0], e[1], e[2], e[3] = byte(v), byte(v>>8), 4, byte(len(l))
		copy(e[4:], l)
		return e[:]
	}
	f.Add(uint32(1000), uint16(0), uint64(1), slices.Concat(mesh(500, 64, 1), mesh(501, 64, 1), mesh(502, 3, 0)))
	f.Add(uint32(600), uint16(590), uint64(2), slices.Concat(mesh(500, 64, 1), mesh(501, 99, 1)))
	f.Add(uint32(40), uint16(0), uint64(3), slices.Concat(mesh(20, 20, 1), mesh(20, 21, 1), mesh(30, 10, 9)))
	f.Fuzz(func(t *testing.T, nv uint32, tail uint16, seed uint64, data []byte) {
		nv = 1 + nv%(1<<16)
		var es []ListEntry
		var vs []uint32
		for ; len(data) >= 14; data = data[14:] {
			v := (uint32(data[0]) | uint32(data[1])<<8) % nv
			d := uint32(4) // mostly 4, a mesh list's degree
			if data[2] >= 0xe0 {
				d = uint32(data[2] % 6)
			}
			es = append(es, ListEntry{Deg: d, Start: 7, End: 7 + uint32(data[3]%10), Head: binary.LittleEndian.Uint64(data[4:12])})
			vs = append(vs, v)
		}
		r := rand.New(rand.NewPCG(seed, 44))
		parent := make([]uint32, nv)
		for x := range parent {
			parent[x] = 1<<32 - 1
			if r.IntN(4) == 0 {
				parent[x] = r.Uint32N(nv)
			}
		}
		checkClaimMirror4s(t, es, vs, parent, int(uint32(tail)%(nv+1)), nv)
	})
}
