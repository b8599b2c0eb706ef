package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	randv1 "math/rand"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	mmap "github.com/edsrzf/mmap-go"
)

// The fuzz targets below hold the decoder to FORMAT.md's promise: any bytes give either a
// valid structure or an error matching ErrCorrupt, never a panic and never a neighbour
// outside the graph. Each target has a "fix" input that recomputes the checksums after
// the fuzzer's mutation, so that mutations reach the structural checks behind them
// instead of all dying at the first CRC.
//
//	go test -run='^$' -fuzz=FuzzShard -fuzztime=2m -fuzzminimizetime=2s ./store
//
// Shard images are at least 12 KiB (sections are 4096-aligned), and with the default
// minimize time of 60 s the fuzzer spends most of a short run shrinking each new
// interesting input; -fuzzminimizetime=2s keeps it fuzzing (about 500 execs/s here).

// mustCorrupt fails unless err matches ErrCorrupt through a *CorruptError naming path.
func mustCorrupt(t *testing.T, err error, path string) {
	t.Helper()
	var ce *CorruptError
	if !errors.Is(err, ErrCorrupt) || !errors.As(err, &ce) {
		t.Fatalf("error %v (%T) does not match ErrCorrupt", err, err)
	}
	if ce.Path != path {
		t.Fatalf("error names %q, want %q: %v", ce.Path, path, err)
	}
}

// seedShards builds small graphs and returns the bytes of their shard files and
// manifests, the fuzzers' starting points.
func seedShards(f *testing.F) (shards, manifests [][]byte) {
	f.Helper()
	lists := map[uint32][]uint32{0: {1, 2, 3}, 2: {0, 5, 6}, 5: seq(7, 207)}
	for i, opt := range []CreateOptions{{}, {ShardBytes: 40}, {Weighted: true}, {ShardBytes: 40, Weighted: true}, {Weighted: true, FloatWeights: true}} {
		dir := filepath.Join(f.TempDir(), "seed.ooc")
		b, err := Create(dir, CreateOptions{Force: i > 0, ShardBytes: opt.ShardBytes, Weighted: opt.Weighted, FloatWeights: opt.FloatWeights})
		if err != nil {
			f.Fatal(err)
		}
		for v := uint32(0); v < 210; v++ {
			if l := lists[v]; l != nil {
				var ws []uint32
				for _, u := range l {
					ws = append(ws, u*3+v)
				}
				if !opt.Weighted {
					ws = nil
				}
				if err := b.Writer(Out).AppendWeightedList(v, l, ws); err != nil {
					f.Fatal(err)
				}
			}
		}
		if err := b.Commit(&Manifest{Vertices: 210, Created: "2026-01-01T00:00:00Z"}); err != nil {
			f.Fatal(err)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, p := range files {
			data, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			if filepath.Base(p) == ManifestName {
				manifests = append(manifests, data)
			} else {
				shards = append(shards, data)
			}
		}
	}
	return shards, manifests
}

func seq(lo, hi uint32) []uint32 {
	var s []uint32
	for v := lo; v < hi; v++ {
		s = append(s, v)
	}
	return s
}

// fixShard recomputes, in place, every in-bounds section checksum, the header checksum
// and the footer of a shard image.
func fixShard(b []byte) {
	if len(b) < headerSize+footerSize {
		return
	}
	le := binary.LittleEndian
	ns := le.Uint32(b[36:])
	end := uint64(len(b) - footerSize)
	for i := uint32(0); i < min(ns, maxSections); i++ {
		e := b[40+32*i:]
		off, n := le.Uint64(e[8:]), le.Uint64(e[16:])
		if off <= end && n <= end-off {
			le.PutUint32(e[24:], CRC32C(b[off:off+n]))
		}
	}
	crc := CRC32C(b[:headerSize-4])
	le.PutUint32(b[headerSize-4:], crc)
	copy(b[end:], encodeFooter(le.Uint32(b[8:]), crc))
}

func FuzzShard(f *testing.F) {
	shards, _ := seedShards(f)
	for _, s := range shards {
		f.Add(s, false, uint32(210))
		f.Add(s, true, uint32(210))
		f.Add(s, true, uint32(5))
	}
	f.Add([]byte{}, false, uint32(0))
	f.Add(bytes.Repeat([]byte{0}, headerSize+footerSize), true, uint32(1))
	f.Fuzz(func(t *testing.T, data []byte, fix bool, nv uint32) {
		if fix {
			data = bytes.Clone(data)
			fixShard(data)
		}
		const path = "fuzz/out-00000.shard"
		s, err := newShard(path, mmap.MMap(data), nv)
		if err != nil {
			mustCorrupt(t, err, path)
			return
		}
		if uint64(s.Lo)+uint64(s.N) > 1<<32-1 {
			t.Fatalf("shard accepted with range [%d, +%d) beyond the id space", s.Lo, s.N)
		}
		if err := s.Check(); err != nil {
			mustCorrupt(t, err, path)
			return
		}
		// Over a checked directory, whatever the lists hold, HeadGroup reads what Head
		// reads, and refuses the vertex Head refuses first.
		checkHeadGroup(t, rand.New(rand.NewPCG(uint64(nv), 3)), s, nv)
		// and Entries reads what ListAt reads, with the mapping's bytes at each start
		checkShardEntries(t, uint64(nv), s, nv, randv1.New(randv1.NewSource(int64(nv))))
		if _, err := verifyLists(s, BuildOptions{KeepDuplicates: true, KeepSelfLoops: true}); err != nil {
			mustCorrupt(t, err, path)
			return
		}
		// A shard that passes every check decodes completely into neighbours < nv.
		var sum uint64
		var buf []uint32
		for v := s.Lo; v < s.Hi(); v++ {
			buf, err = s.Neighbors(buf[:0], v)
			if err != nil || len(buf) != int(s.Degree(v)) {
				t.Fatalf("vertex %d passed verification but decodes to %d of %d neighbours: %v", v, len(buf), s.Degree(v), err)
			}
			for _, u := range buf {
				if u >= nv {
					t.Fatalf("vertex %d: neighbour %d >= nv %d", v, u, nv)
				}
			}
			sum += uint64(len(buf))
		}
		if sum != s.Edges {
			t.Fatalf("lists hold %d neighbours, header says %d", sum, s.Edges)
		}
		// Every accessor of the directory agrees with the others on a checked shard.
		var cur DirCursor
		cur.Reset(s)
		degs := make([]uint32, s.N)
		s.DegreesAt(degs, 0)
		for i := uint32(0); i < s.N; i++ {
			d, l := s.ListAt(i)
			cd, cl := cur.At(i)
			if d != degs[i] || cd != d || s.DegreeAt(i) != d || !bytes.Equal(l, cl) || len(l) > 0 && &l[0] != &cl[0] {
				t.Fatalf("vertex %d: ListAt %d %x, DirCursor %d %x, DegreesAt %d, DegreeAt %d", s.Lo+i, d, l, cd, cl, degs[i], s.DegreeAt(i))
			}
		}
		// A weighted shard that passes every check has a weight for every neighbour.
		for v := s.Lo; s.Weights != nil && v < s.Hi(); v++ {
			if got := len(s.WeightsOf(v)); got != int(s.Degree(v)) {
				t.Fatalf("vertex %d has %d weights for %d neighbours", v, got, s.Degree(v))
			}
		}
	})
}

// fixManifest rewrites the checksum of a manifest image so that it covers the bytes
// before the last `,"crc32c":"`.
func fixManifest(b []byte) []byte {
	const key = `,"crc32c":"`
	i := bytes.LastIndex(b, []byte(key))
	if i < 0 || len(b) < i+len(key)+8 {
		return b
	}
	b = bytes.Clone(b)
	const hex = "0123456789abcdef"
	crc := CRC32C(b[:i])
	for k := 0; k < 8; k++ {
		b[i+len(key)+k] = hex[crc>>(28-4*k)&15]
	}
	return b
}

func FuzzManifest(f *testing.F) {
	_, manifests := seedShards(f)
	for _, m := range manifests {
		f.Add(m, false)
		f.Add(m, true)
	}
	f.Add([]byte(`{"magic":"ooc-graph","crc32c":"00000000","end":"ooc-graph"}`), true)
	f.Fuzz(func(t *testing.T, b []byte, fix bool) {
		if fix {
			b = fixManifest(b)
		}
		const path = "fuzz/manifest.json"
		m, err := ParseManifest(path, b)
		var ne *NewVersionError
		if errors.As(err, &ne) {
			if ne.Path != path || ne.Version <= MaxVersion {
				t.Fatalf("%v: a newer version's error for version %d of %s", err, ne.Version, ne.Path)
			}
			return
		}
		if err != nil {
			mustCorrupt(t, err, path)
			return
		}
		if m.Magic != manifestMagic || m.FormatVersion < MinVersion || m.FormatVersion > MaxVersion {
			t.Fatalf("accepted magic %q version %d", m.Magic, m.FormatVersion)
		}
		if (m.FormatVersion == FloatVersion) != m.FloatWeights() {
			t.Fatalf("accepted version %d with weight_type %q", m.FormatVersion, m.WeightType)
		}
		if m.FormatVersion < Version {
			return // an older manifest, read only to upgrade; Marshal writes the current version
		}
		// What parses must survive a round trip through Marshal unchanged.
		out, err := m.Marshal()
		if err != nil {
			t.Fatalf("marshal of an accepted manifest: %v", err)
		}
		m2, err := ParseManifest(path, out)
		if err != nil {
			t.Fatalf("re-parse of a marshalled manifest: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(m, m2) {
			t.Fatalf("round trip changed the manifest:\n%+v\n%+v", m, m2)
		}
	})
}

func FuzzDecodeList(f *testing.F) {
	f.Add(uint32(10), uint32(3), uint32(1000), []byte{0x09, 0x02, 0xA5, 0x02})
	f.Add(uint32(10), uint32(3), uint32(301), []byte{0x09, 0x02, 0xA5, 0x02})
	f.Add(uint32(10), uint32(3), uint32(300), []byte{0x09, 0x02, 0xA5, 0x02})
	f.Add(uint32(0), uint32(200), uint32(1<<20), AppendList(nil, 0, seq(100, 300)))
	f.Add(uint32(7), uint32(1<<32-1), uint32(1<<32-1), bytes.Repeat([]byte{0x80}, 70))
	f.Add(uint32(10), uint32(6), uint32(1000), []byte{0x13, 0xC1, 0x20, 0xD8, 0x61, 0x24})
	f.Add(uint32(10), uint32(4), uint32(19), []byte{0x1F, 0xFF, 0x07})
	f.Fuzz(func(t *testing.T, v, d, nv uint32, list []byte) {
		got, err := DecodeList(nil, v, d, list, nv)
		if err == nil {
			checkDecoded(t, v, d, nv, list, got)
		} else if !errors.Is(err, errList) {
			t.Fatalf("DecodeList error %v is not errList", err)
		}
		// Early termination and block offsets never panic either.
		var it ListIter
		it.Reset(v, d, list, nv)
		for i := 0; i < 3 && it.Next(); i++ {
			if it.Value() >= nv {
				t.Fatalf("ListIter returned %d >= nv %d", it.Value(), nv)
			}
		}
		for k := uint32(0); k < min(NumBlocks(d)+1, 1000); k++ {
			if off, err := BlockOffset(list, d, k); err == nil && (off < 0 || off >= len(list)) {
				t.Fatalf("BlockOffset(%d) = %d outside a list of %d bytes", k, off, len(list))
			}
		}
		roundTrip(t, v, nv, list)
	})
}

// checkDecoded checks a successful decode: d neighbours below nv, ascending inside each
// block, and stable under re-encoding (AppendList of the result decodes to it again).
func checkDecoded(t *testing.T, v, d, nv uint32, list []byte, got []uint32) {
	t.Helper()
	if uint32(len(got)) != d {
		t.Fatalf("decoded %d neighbours, degree %d", len(got), d)
	}
	for i, u := range got {
		if u >= nv {
			t.Fatalf("neighbour %d >= nv %d", u, nv)
		}
		if i%BlockSize != 0 && u < got[i-1] {
			t.Fatalf("neighbours %d, %d descend inside a block", got[i-1], u)
		}
	}
	again, err := DecodeList(nil, v, d, AppendList(nil, v, got), nv)
	if err != nil || !slices.Equal(again, got) {
		t.Fatalf("re-encoding %v gives %v, %v", got, again, err)
	}
}

// roundTrip reads a sorted neighbour set out of raw bytes (3 bytes per id, modulo nv),
// encodes it and requires the decoder to give it back exactly.
func roundTrip(t *testing.T, v, nv uint32, raw []byte) {
	t.Helper()
	if nv == 0 {
		return
	}
	var nbrs []uint32
	for i := 0; i+3 <= len(raw); i += 3 {
		nbrs = append(nbrs, (uint32(raw[i])|uint32(raw[i+1])<<8|uint32(raw[i+2])<<16)%nv)
	}
	slices.Sort(nbrs)
	nbrs = slices.Compact(nbrs)
	enc := AppendList(nil, v, nbrs)
	got, err := DecodeList(nil, v, uint32(len(nbrs)), enc, nv)
	if err != nil || !slices.Equal(got, nbrs) {
		t.Fatalf("round trip of %v (v=%d nv=%d): got %v, %v", nbrs, v, nv, got, err)
	}
}

func TestNumBlocksNoOverflow(t *testing.T) {
	for _, c := range []struct{ d, nb uint32 }{{0, 0}, {1, 1}, {64, 1}, {65, 2}, {1<<32 - 64, 1<<26 - 1}, {1<<32 - 1, 1 << 26}} {
		if got := NumBlocks(c.d); got != c.nb {
			t.Errorf("NumBlocks(%d) = %d, want %d", c.d, got, c.nb)
		}
	}
}
