package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// idsCases are id lists of every shape the layouts meet: runs of the file's ids (a
// bisection's), ascending sparse ids (--relabel), random 32-bit ids (a degree order of
// a graph numbered at random), 64-bit ids, and the extremes of the differences.
func idsCases(rng *rand.Rand) map[string][]uint64 {
	runs := make([]uint64, 0, 5000)
	for len(runs) < 5000 {
		start := rng.Uint64N(5000)
		for k := range 1 + rng.IntN(20) {
			runs = append(runs, start+uint64(k))
		}
	}
	asc := make([]uint64, 3000)
	for i := range asc {
		asc[i] = uint64(i)*uint64(1+rng.IntN(300)) + uint64(i)<<20
	}
	slices.Sort(asc)
	asc = slices.Compact(asc)
	random32 := make([]uint64, 2000)
	for i := range random32 {
		random32[i] = uint64(rng.Uint32())
	}
	random64 := make([]uint64, 500)
	for i := range random64 {
		random64[i] = rng.Uint64()
	}
	return map[string][]uint64{
		"empty": {}, "one": {7}, "runs": runs, "ascending": asc, "random32": random32, "random64": random64,
		"extremes": {0, math.MaxUint64, 0, 1 << 63, 1<<63 - 1, math.MaxUint32, math.MaxUint32 + 1, 0},
	}
}

// TestIDsLayouts: WriteIDs stores each case in the layout IDsBytes says, of the size it
// says (compact where its varints take at most 3/4 of the raw ids), and Open reads back
// every id, the ascending flag and the inverse.
func TestIDsLayouts(t *testing.T) {
	rng := rand.New(rand.NewPCG(testSeed(t), 1))
	for name, ids := range idsCases(rng) {
		t.Run(name, func(t *testing.T) {
			n := len(ids)
			at := func(i int) uint64 { return ids[i] }
			dir := filepath.Join(t.TempDir(), "g.ooc")
			b, err := Create(dir, CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if err := b.WriteIDs(n, at); err != nil {
				t.Fatal(err)
			}
			if err := b.Commit(&Manifest{Vertices: uint32(n), VertexOrder: OrderDegree}); err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(filepath.Join(dir, idsFile))
			if err != nil {
				t.Fatal(err)
			}
			width, asc, delta := idsLayout(n, at)
			wantMagic := idsMagic
			if delta > 0 {
				wantMagic = idsDeltaMagic
			}
			if got := IDsBytes(n, at); int64(len(raw)) != got || string(raw[:8]) != wantMagic {
				t.Fatalf("ids.bin is %d bytes, magic %q; IDsBytes says %d, magic %q", len(raw), raw[:8], got, wantMagic)
			}
			var body int64
			var prev uint64
			for _, id := range ids {
				body += int64(len(binary.AppendUvarint(nil, idDelta(prev, id))))
				prev = id
			}
			if want := n > 0 && 4*body <= 3*int64(width*n); (delta > 0) != want || want && delta != IDsFileBytes(0, 4)+body {
				t.Fatalf("varints of %d bytes, raw ids %d: compact file of %d bytes, want compact %v", body, width*n, delta, want)
			}
			g, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			sorted := slices.Sorted(slices.Values(ids))
			if repeated := len(slices.Compact(slices.Clone(sorted))) < n; (g.Check() != nil) != repeated {
				t.Fatalf("Check = %v with ids repeated %v", g.Check(), repeated)
			}
			if g.idsAsc != asc {
				t.Fatalf("ascending %v, want %v", g.idsAsc, asc)
			}
			for i, id := range ids {
				if got := g.External(uint32(i)); got != id {
					t.Fatalf("External(%d) = %d, want %d", i, got, id)
				}
				if j, err := g.Internal(id); err != nil || ids[j] != id {
					t.Fatalf("Internal(%d) = %d, %v", id, j, err)
				}
			}
			checkExternalRefused(t, g)
		})
	}
}

// TestIDsLayoutLimit: more than IDsDeltaMax ids are stored raw even where the compact
// layout would be smaller, so that opening a large graph maps its ids instead of
// decoding them.
func TestIDsLayoutLimit(t *testing.T) {
	for _, c := range []struct {
		n       int
		compact bool
	}{{IDsDeltaMax, true}, {IDsDeltaMax + 1, false}} {
		if _, _, delta := idsLayout(c.n, func(i int) uint64 { return uint64(i) }); (delta > 0) != c.compact {
			t.Errorf("%d consecutive ids: compact %v, want %v", c.n, delta > 0, c.compact)
		}
	}
}

// TestDecodeDeltaIDsDamage: every way a compact body can be wrong is refused at the
// varint where it shows (the fixtures in testdata/broken hold them in whole graphs).
func TestDecodeDeltaIDsDamage(t *testing.T) {
	enc := func(zs ...uint64) []byte {
		var b []byte
		for _, z := range zs {
			b = binary.AppendUvarint(b, z)
		}
		return b
	}
	for _, c := range []struct {
		name  string
		body  []byte
		n     uint64
		width int
		asc   bool
		at    int64 // offset in the body; -1: decodes
	}{
		{"ok", enc(20, 20, 20), 3, 4, true, -1},
		{"ok-descending", enc(40, 19, 19), 3, 4, false, -1},
		{"too-few-bytes", enc(20, 20), 3, 4, false, 2},
		{"varint-cut", append(enc(20, 20), 0x80, 0x80), 3, 4, false, 2},
		{"varint-65-bits", append(enc(20), bytes.Repeat([]byte{0xff}, 10)...), 2, 8, false, 1},
		{"overlong", append(enc(20), 0x94, 0x00, 0x14), 3, 4, false, 1},
		{"overlong-zero", []byte{0x80, 0x00}, 1, 4, false, 0},
		{"wide", enc(2<<32, 1), 2, 4, false, 0},
		{"wide-below-zero", enc(20, 41), 2, 4, false, 1},
		{"not-ascending", enc(20, 19), 2, 4, true, 1},
		{"equal-not-ascending", enc(20, 0), 2, 4, true, 1},
		{"trailing", enc(20, 20, 20), 2, 4, false, 2},
		{"count-lies-high", enc(20, 20, 20), 4, 4, false, 3},
	} {
		ids32, ids64, err := decodeDeltaIDs("ids.bin", c.body, c.n, c.width, c.asc)
		if c.at < 0 {
			if err != nil || len(ids32)+len(ids64) != int(c.n) {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		ce, ok := err.(*CorruptError)
		if !ok || ce.Offset != idsHeader+c.at || ce.Path != "ids.bin" {
			t.Errorf("%s: %v, want a corrupt ids.bin at offset %d", c.name, err, idsHeader+c.at)
		}
	}
}

// FuzzDecodeDeltaIDs: the compact ids' decoder never panics nor reads past the body, on
// any bytes; what it accepts holds n ids of the width, ascending when flagged, and
// encodes back to the same bytes (one encoding a list of ids).
func FuzzDecodeDeltaIDs(f *testing.F) {
	f.Add([]byte{0x14, 0x14, 0x14}, uint16(3), false, true)
	f.Add([]byte{0x94, 0x00}, uint16(1), false, false)
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, uint16(1), true, false)
	f.Add([]byte{0x80, 0x80, 0x80, 0x80, 0x20, 0x01}, uint16(2), false, false)
	f.Fuzz(func(t *testing.T, body []byte, n uint16, wide, asc bool) {
		width := 4
		if wide {
			width = 8
		}
		ids32, ids64, err := decodeDeltaIDs("ids.bin", body, uint64(n), width, asc)
		if err != nil {
			if _, ok := err.(*CorruptError); !ok {
				t.Fatalf("%v: not a CorruptError", err)
			}
			return
		}
		ids := make([]uint64, n)
		for i := range ids {
			if wide {
				ids[i] = ids64[i]
			} else {
				ids[i] = uint64(ids32[i])
			}
			if asc && i > 0 && ids[i] <= ids[i-1] {
				t.Fatalf("ids %v accepted as ascending", ids)
			}
		}
		if again, _ := appendDeltaIDs(nil, 0, 0, int(n), func(i int) uint64 { return ids[i] }); !bytes.Equal(again, body) {
			t.Fatalf("body %x decodes to %v, which encodes to %x", body, ids, again)
		}
	})
}

// TestDeltaIDsExample holds FORMAT.md's worked example of the compact layout.
func TestDeltaIDsExample(t *testing.T) {
	ids := []uint64{1912, 1684, 3437, 40, 41, 42, 39}
	at := func(i int) uint64 { return ids[i] }
	body, _ := appendDeltaIDs(nil, 0, 0, len(ids), at)
	want := []byte{0xf0, 0x1d, 0xc7, 0x03, 0xb2, 0x1b, 0x89, 0x35, 0x02, 0x02, 0x05}
	if !bytes.Equal(body, want) {
		t.Fatalf("body % x, FORMAT.md says % x", body, want)
	}
	if got := IDsBytes(len(ids), at); got != 47 || IDsFileBytes(int64(len(ids)), 4) != 64 {
		t.Fatalf("%d bytes compact, %d raw; FORMAT.md says 47 and 64", got, IDsFileBytes(int64(len(ids)), 4))
	}
}

// TestDeltaIDsFileSize: a compact ids.bin far larger than its ids can take (a sparse
// file of 1 TiB) is refused before it is read, whether the manifest's ids.bytes
// disagrees or agrees: the reader allocated the whole file (a fatal out-of-memory).
func TestDeltaIDsFileSize(t *testing.T) {
	for _, agree := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "g.ooc")
		b, err := Create(dir, CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		const n = 1000
		if err := b.WriteIDs(n, func(i int) uint64 { return uint64(i) + 5 }); err != nil {
			t.Fatal(err)
		}
		if err := b.Commit(&Manifest{Vertices: n, VertexOrder: OrderDegree}); err != nil {
			t.Fatal(err)
		}
		ids := filepath.Join(dir, idsFile)
		if raw, err := os.ReadFile(ids); err != nil || string(raw[:8]) != idsDeltaMagic {
			t.Fatalf("ids.bin not compact: %v", err)
		}
		const huge = 1 << 40
		if err := os.Truncate(ids, huge); err != nil {
			t.Skipf("no sparse file of 1 TiB here: %v", err)
		}
		if agree {
			if err := rewriteManifest(dir, func(m *Manifest) { m.IDs.Bytes = huge }); err != nil {
				t.Fatal(err)
			}
		}
		g, err := Open(dir)
		if err == nil {
			g.Close()
		}
		// (a 32-bit process cannot open a file of 2 GiB or more through os.Root, which
		// passes no O_LARGEFILE: refused too, by the open)
		if err == nil || !strings.Contains(err.Error(), ids) || !errors.Is(err, ErrCorrupt) && strconv.IntSize == 64 {
			t.Errorf("manifest agrees %v: Open = %v, want a corrupt %s", agree, err, ids)
		}
	}
}

// checkExternalRefused: External of a number past the last vertex panics with an error
// matching ErrNoVertex, naming no id.
func checkExternalRefused(t *testing.T, g *Graph) {
	t.Helper()
	for _, v := range []uint32{g.NumVertices(), g.NumVertices() + 1, math.MaxUint32} {
		if v < g.NumVertices() {
			continue
		}
		func() {
			defer func() {
				p := recover()
				if err, _ := p.(error); p != nil && !errors.Is(err, ErrNoVertex) {
					t.Errorf("External(%d) of %d vertices: panic %v, want ErrNoVertex", v, g.NumVertices(), p)
				}
			}()
			id := g.External(v)
			t.Errorf("External(%d) of %d vertices = %d, want a panic", v, g.NumVertices(), id)
		}()
	}
}

// TestExternalWithoutIDs: a graph numbered by the file's own ids maps its vertices to
// id+base and refuses a number past its last vertex, as one with an id list does.
func TestExternalWithoutIDs(t *testing.T) {
	for _, m := range []Manifest{{Vertices: 0}, {Vertices: 5}, {Vertices: 5, IDBase: 1}, {Vertices: math.MaxUint32 - 1}} {
		g := &Graph{M: &m}
		if n := g.NumVertices(); n > 0 {
			if got, want := g.External(n-1), uint64(n-1)+uint64(m.IDBase); got != want {
				t.Errorf("External(%d) with base %d = %d, want %d", n-1, m.IDBase, got, want)
			}
		}
		checkExternalRefused(t, g)
	}
}
