package store

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestWorkedExample(t *testing.T) {
	// FORMAT.md's worked examples, byte for byte.
	got := AppendList(nil, 10, []uint32{5, 7, 300})
	if want := []byte{0x09, 0x02, 0xA5, 0x02}; !bytes.Equal(got, want) {
		t.Fatalf("AppendList = % x, want % x", got, want)
	}
	nb, err := DecodeList(nil, 10, 3, got, 1000)
	if err != nil || !slices.Equal(nb, []uint32{5, 7, 300}) {
		t.Fatalf("DecodeList = %v, %v", nb, err)
	}
	for _, c := range []struct {
		nbrs []uint32
		want []byte
	}{
		{[]uint32{5, 7, 9, 10, 12, 13}, []byte{0x13, 0x81, 0x0B}},
		{[]uint32{5, 6, 7, 8, 9, 300}, []byte{0x13, 0xC1, 0x20, 0xD8, 0x61, 0x24}},
		{[]uint32{2, 9, 11, 18}, []byte{0x1F, 0xFF, 0x07}},
	} {
		got := AppendList(nil, 10, c.nbrs)
		if !bytes.Equal(got, c.want) {
			t.Fatalf("AppendList(%v) = % x, want % x", c.nbrs, got, c.want)
		}
		if nb, err := DecodeList(nil, 10, uint32(len(c.nbrs)), got, 1000); err != nil || !slices.Equal(nb, c.nbrs) {
			t.Fatalf("DecodeList = %v, %v", nb, err)
		}
	}
	// Packed blocks of version 5, which the writer no longer picks for these lists, still
	// decode.
	for _, c := range []struct {
		nbrs []uint32
		enc  []byte
	}{
		{[]uint32{5, 7, 9, 10, 12, 13}, []byte{0x13, 0x01, 0x01, 0x0B}},
		{[]uint32{5, 6, 7, 8, 9, 300}, []byte{0x13, 0x40, 0x01, 0x01, 0x04, 0xA2, 0x02}},
	} {
		if nb, err := DecodeList(nil, 10, uint32(len(c.nbrs)), c.enc, 1000); err != nil || !slices.Equal(nb, c.nbrs) {
			t.Fatalf("DecodeList(% x) = %v, %v, want %v", c.enc, nb, err, c.nbrs)
		}
	}
}

func TestUvarintBoundaries(t *testing.T) {
	for _, x := range []uint64{0, 1, 127, 128, 16383, 16384, 1<<32 - 1, 1<<63 - 1, 1<<64 - 1} {
		b := appendUvarint(nil, x)
		got, next := Uvarint(b, 0)
		if got != x || next != len(b) {
			t.Errorf("Uvarint(% x) = %d, %d; want %d, %d", b, got, next, x, len(b))
		}
		if len(b) > 1 {
			if _, next := Uvarint(b[:len(b)-1], 0); next >= 0 {
				t.Errorf("Uvarint of truncated % x succeeded", b[:len(b)-1])
			}
		}
	}
	over := []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}
	if _, next := Uvarint(over, 0); next >= 0 {
		t.Errorf("Uvarint of a 65-bit value succeeded")
	}
}

// TestPutUvarint33 checks the branch-free varint store against a plain LEB128 encoder
// on every length's boundaries and random values of up to 35 bits.
func TestPutUvarint33(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	vals := []uint64{0, 1, 0x7f, 0x80, 0x3fff, 0x4000, 1<<21 - 1, 1 << 21, 1<<28 - 1, 1 << 28, 1<<32 - 1, 1 << 32, 1<<33 - 1, 1<<35 - 1}
	for range 1000 {
		vals = append(vals, rng.Uint64N(1<<35)>>rng.UintN(35))
	}
	buf := make([]byte, 16)
	for _, x := range vals {
		clear(buf)
		n := putUvarint33(buf, 0, x)
		if want := appendUvarint(nil, x); !bytes.Equal(buf[:n], want) {
			t.Fatalf("%#x: wrote % x, want % x", x, buf[:n], want)
		}
	}
}

func appendUvarint(b []byte, x uint64) []byte {
	for x >= 0x80 {
		b = append(b, byte(x)|0x80)
		x >>= 7
	}
	return append(b, byte(x))
}

func TestListRoundTripRandom(t *testing.T) {
	seed := testSeed(t)
	r := rand.New(rand.NewPCG(seed, 1))
	for trial := 0; trial < 2000; trial++ {
		nv := uint32(1 + r.IntN(1<<20))
		d := r.IntN(300)
		if trial%50 == 0 {
			d = r.IntN(5000)
		}
		set := map[uint32]bool{}
		for len(set) < min(d, int(nv)) {
			set[uint32(r.IntN(int(nv)))] = true
		}
		nbrs := make([]uint32, 0, len(set))
		for u := range set {
			nbrs = append(nbrs, u)
		}
		slices.Sort(nbrs)
		v := uint32(r.IntN(int(nv)))
		enc := AppendList(nil, v, nbrs)
		got, err := DecodeList(nil, v, uint32(len(nbrs)), enc, nv)
		if err != nil || !slices.Equal(got, nbrs) {
			t.Fatalf("seed %d trial %d: round trip failed: %v", seed, trial, err)
		}
		for k := uint32(0); k < NumBlocks(uint32(len(nbrs))); k++ {
			off, err := BlockOffset(enc, uint32(len(nbrs)), k)
			if err != nil {
				t.Fatal(err)
			}
			var first [1]uint32
			if _, ok := DecodeBlock(first[:], v, enc, off, BlockLen(uint32(len(nbrs)), k), nv); !ok || first[0] != nbrs[k*BlockSize] {
				t.Fatalf("block %d does not start with neighbour %d", k, nbrs[k*BlockSize])
			}
		}
	}
}

func buildGraph(t *testing.T, dir string, nv uint32, lists map[uint32][]uint32, opt CreateOptions) *Manifest {
	t.Helper()
	b, err := Create(dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	w := b.Writer(Out)
	var edges uint64
	for v := uint32(0); v < nv; v++ {
		if l, ok := lists[v]; ok {
			if err := w.AppendList(v, l); err != nil {
				t.Fatal(err)
			}
			edges += uint64(len(l))
		}
	}
	m := &Manifest{Vertices: nv}
	if err := b.Commit(m); err != nil {
		t.Fatal(err)
	}
	if m.Edges != edges {
		t.Fatalf("edges %d, want %d", m.Edges, edges)
	}
	return m
}

// randomLists are the lists of a random undirected graph without self-loops (what
// Verify accepts): about maxDeg/2 edges from three vertices in four, stored both ways.
func randomLists(r *rand.Rand, nv uint32, maxDeg int) map[uint32][]uint32 {
	var e [][2]uint32
	for v := uint32(0); v < nv; v++ {
		if r.IntN(4) == 0 {
			continue
		}
		for range r.IntN(maxDeg) / 2 {
			if u := uint32(r.IntN(int(nv))); u != v {
				e = append(e, [2]uint32{v, u})
			}
		}
	}
	return symmetric(e)
}

func TestGraphRoundTrip(t *testing.T) {
	seed := testSeed(t)
	r := rand.New(rand.NewPCG(seed, 2))
	for _, opt := range []CreateOptions{{}, {ShardBytes: 1}, {ShardBytes: 500}, {ShardBytes: 1 << 12, ShardVertices: 7}} {
		dir := filepath.Join(t.TempDir(), "g.ooc")
		nv := uint32(1 + r.IntN(3000))
		lists := randomLists(r, nv, 200)
		m := buildGraph(t, dir, nv, lists, opt)
		if _, err := Verify(dir); err != nil {
			t.Fatalf("seed %d: verify: %v", seed, err)
		}
		g, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Check(); err != nil {
			t.Fatal(err)
		}
		if opt.ShardBytes == 1 && len(m.Out) < len(lists)/2 {
			t.Errorf("shard size 1 gave only %d shards", len(m.Out))
		}
		for v := uint32(0); v < nv; v++ {
			got, err := g.Out().ShardOf(v).Neighbors(nil, v)
			if err != nil || !slices.Equal(got, lists[v]) {
				t.Fatalf("seed %d: vertex %d: %v %v, want %v", seed, v, got, err, lists[v])
			}
		}
		g.Close()
	}
}

func TestNoOverwriteAndAtomic(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "g.ooc")
	buildGraph(t, dir, 3, map[uint32][]uint32{0: {1, 2}}, CreateOptions{})
	if _, err := Create(dir, CreateOptions{}); !errors.Is(err, ErrExists) {
		t.Fatalf("Create over an existing graph: %v, want ErrExists", err)
	}
	b, err := Create(dir, CreateOptions{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Create(dir, CreateOptions{Force: true}); !errors.Is(err, ErrLocked) {
		t.Fatalf("second concurrent Create: %v, want ErrLocked", err)
	}
	b.Writer(Out).AppendList(0, []uint32{4})
	b.Abort()
	if _, err := os.Stat(b.TempDir()); !os.IsNotExist(err) {
		t.Fatalf("Abort left %s", b.TempDir())
	}
	g, err := Open(dir)
	if err != nil || g.NumVertices() != 3 {
		t.Fatalf("aborted rebuild damaged the old graph: %v", err)
	}
	g.Close()
}

// TestForceReplacesOnlyGraphs: --force replaces a graph directory or an empty one, and
// refuses, deleting nothing, a file (the input given as the output, say) or a directory
// that holds anything else.
func TestForceReplacesOnlyGraphs(t *testing.T) {
	root := t.TempDir()
	graph := filepath.Join(root, "g.ooc")
	buildGraph(t, graph, 3, map[uint32][]uint32{0: {1, 2}}, CreateOptions{})
	empty := filepath.Join(root, "empty")
	file := filepath.Join(root, "edges.txt")
	foreign := filepath.Join(root, "thesis")
	mixed := filepath.Join(root, "mixed.ooc")
	for _, d := range []string{empty, foreign, mixed} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(file, []byte("0 1\n"), 0o644)
	os.WriteFile(filepath.Join(foreign, "thesis.tex"), []byte("x"), 0o644)
	buildGraph(t, filepath.Join(root, "other.ooc"), 2, map[uint32][]uint32{0: {1}}, CreateOptions{})
	os.Rename(filepath.Join(root, "other.ooc", ManifestName), filepath.Join(mixed, ManifestName))
	os.WriteFile(filepath.Join(mixed, "notes.txt"), []byte("x"), 0o644)
	for _, c := range []struct {
		dest string
		ok   bool
	}{{graph, true}, {empty, true}, {file, false}, {foreign, false}, {mixed, false}} {
		b, err := Create(c.dest, CreateOptions{Force: true})
		if c.ok {
			if err != nil {
				t.Fatalf("Create --force over %s: %v", c.dest, err)
			}
			b.Abort()
			continue
		}
		if !errors.Is(err, ErrExists) {
			t.Fatalf("Create --force over %s: %v, want a refusal (ErrExists)", c.dest, err)
		}
		if _, err := os.Stat(c.dest); err != nil {
			t.Fatalf("refused Create removed %s: %v", c.dest, err)
		}
	}
	if _, err := os.Stat(filepath.Join(foreign, "thesis.tex")); err != nil {
		t.Fatalf("thesis.tex: %v", err)
	}
	// A link to a graph is refused as a link (it was "not a graph directory"), the graph
	// and the link kept.
	link := filepath.Join(root, "link.ooc")
	if err := os.Symlink(graph, link); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(link, CreateOptions{Force: true}); !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), "is a symbolic link (to "+graph+")") {
		t.Errorf("Create --force over a link to a graph: %v, want it refused as a link", err)
	}
	if _, err := os.Stat(filepath.Join(link, ManifestName)); err != nil {
		t.Errorf("the refused Create took the linked graph: %v", err)
	}
}

func TestCorruptionDetected(t *testing.T) {
	seed := testSeed(t)
	r := rand.New(rand.NewPCG(seed, 3))
	base := filepath.Join(t.TempDir(), "g.ooc")
	buildGraph(t, base, 500, randomLists(r, 500, 40), CreateOptions{ShardBytes: 2000})
	files, _ := filepath.Glob(filepath.Join(base, "*"))
	for trial := 0; trial < 60; trial++ {
		dir := filepath.Join(t.TempDir(), "c.ooc")
		os.Mkdir(dir, 0o755)
		for _, f := range files {
			b, _ := os.ReadFile(f)
			os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644)
		}
		victim := filepath.Join(dir, filepath.Base(files[r.IntN(len(files))]))
		b, _ := os.ReadFile(victim)
		if trial%4 == 0 {
			// a cut that takes at least one byte besides trailing newlines: the manifest
			// is complete without its final newline (ParseManifest accepts it so)
			b = b[:r.IntN(len(bytes.TrimRight(b, "\n")))]
		} else {
			i := r.IntN(len(b))
			b[i] ^= byte(1 + r.IntN(255))
		}
		os.WriteFile(victim, b, 0o644)
		if _, err := Verify(dir); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("seed %d trial %d: damaging %s: Verify = %v, want ErrCorrupt", seed, trial, filepath.Base(victim), err)
		}
	}
}

// TestUpgradeUpToDateDamaged: Upgrade of a current graph whose shard header or directory
// is damaged reports the damage, not "already in the current format version" (ooc
// upgrade then exited 0 saying "nothing to do").
func TestUpgradeUpToDateDamaged(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	base := filepath.Join(t.TempDir(), "g.ooc")
	buildGraph(t, base, 500, randomLists(r, 500, 40), CreateOptions{})
	if _, err := Upgrade(base, UpgradeOptions{}); !errors.Is(err, ErrUpToDate) {
		t.Fatalf("intact: %v, want ErrUpToDate", err)
	}
	shard := filepath.Join(base, "out-00000.shard")
	b, err := os.ReadFile(shard)
	if err != nil {
		t.Fatal(err)
	}
	b[20] ^= 1 // the header's vertex count
	if err := os.WriteFile(shard, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Upgrade(base, UpgradeOptions{}); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("damaged header: %v, want ErrCorrupt", err)
	}
}

// TestShardFinishError: a shard finished in the background that fails (here its file is
// closed under it) fails the next cut or the commit, and nothing is published.
func TestShardFinishError(t *testing.T) {
	for _, failFirst := range []bool{true, false} {
		dest := filepath.Join(t.TempDir(), "g.ooc")
		b, err := Create(dest, CreateOptions{ShardBytes: 64})
		if err != nil {
			t.Fatal(err)
		}
		w := b.Writer(Out)
		var failed error
		for v := uint32(0); v < 40 && failed == nil; v++ {
			if w.cur != nil && (v == 10 && failFirst || v == 39 && !failFirst) {
				w.cur.f.Close() // its finish fails
			}
			failed = w.AppendList(v, []uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19})
		}
		if failed == nil {
			failed = b.Commit(&Manifest{Vertices: 40})
		} else {
			b.Abort()
		}
		if failed == nil || !strings.Contains(failed.Error(), "closed") {
			t.Errorf("failFirst %v: error %v, want the closed file's", failFirst, failed)
		}
		if _, err := os.Stat(dest); !os.IsNotExist(err) {
			t.Errorf("failFirst %v: %s exists after a failed build: %v", failFirst, dest, err)
		}
	}
}

// TestCommitIDsCount: Commit refuses a graph whose ids.bin does not hold one id a vertex,
// which verify would reject, and publishes nothing.
func TestCommitIDsCount(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "g.ooc")
	b, err := Create(dest, CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.WriteIDs(3, func(i int) uint64 { return uint64(10 + i) }); err != nil {
		t.Fatal(err)
	}
	err = b.Commit(&Manifest{Vertices: 5, Relabeled: true})
	if err == nil || !strings.Contains(err.Error(), "3 ids for 5 vertices") {
		t.Fatalf("commit: %v", err)
	}
	if _, err := os.Stat(dest); !os.IsNotExist(err) {
		t.Errorf("%s exists after a refused commit: %v", dest, err)
	}
}

// TestCreateShardBytes: a ShardBytes below 0 meant the default and one above 4 GiB
// was taken, to fail at the first shard past 4 GiB after writing it (an ADJ section's
// offsets are 32 bits); ooc ingest's --shard-size refuses both. Create refuses them.
func TestCreateShardBytes(t *testing.T) {
	dir := t.TempDir()
	for _, sb := range []int64{-1, MaxShardBytes + 1, 1 << 62} {
		if b, err := Create(filepath.Join(dir, "g.ooc"), CreateOptions{ShardBytes: sb}); !errors.Is(err, ErrBadShardBytes) || !strings.Contains(err.Error(), "ShardBytes") {
			t.Errorf("ShardBytes %d: %v", sb, err)
			if b != nil {
				b.Abort()
			}
		}
	}
	for _, sb := range []int64{0, 1, MaxShardBytes} {
		b, err := Create(filepath.Join(dir, "g.ooc"), CreateOptions{ShardBytes: sb})
		if err != nil {
			t.Fatalf("ShardBytes %d: %v", sb, err)
		}
		b.Abort()
	}
}

// TestOpenFileOfGraph: Open (and ReadManifest) of a file of a graph directory, its
// manifest or a shard, names the graph to give instead; a file elsewhere is only not a
// graph directory.
func TestOpenFileOfGraph(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	g := filepath.Join(t.TempDir(), "g.ooc")
	buildGraph(t, g, 100, randomLists(r, 100, 10), CreateOptions{})
	shards, _ := filepath.Glob(filepath.Join(g, "out-*.shard"))
	if len(shards) == 0 {
		t.Fatal("no shard")
	}
	other := filepath.Join(t.TempDir(), "e.txt")
	if err := os.WriteFile(other, []byte("0 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{filepath.Join(g, ManifestName), "is a file of the graph " + g + ", not a graph directory (name the graph)"},
		{shards[0], "is a file of the graph " + g + ", not a graph directory (name the graph)"},
		{other, other + " is a file, not a graph directory"},
	} {
		for name, open := range map[string]func(string) error{
			"Open":         func(p string) error { _, err := Open(p); return err },
			"ReadManifest": func(p string) error { _, err := ReadManifest(p); return err },
		} {
			if err := open(c.path); !errors.Is(err, ErrNotGraph) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s(%s): %v, want ErrNotGraph saying %q", name, c.path, err, c.want)
			}
		}
	}
}
