package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Byte-exact fixtures pin each format version: testdata/v6 holds what the writer produces
// today, byte for byte; testdata/v2 to v5 (and every older version kept) must still
// upgrade, list for list (TestFixtureUpgrade). Broken fixtures (testdata/broken) pin what the reader refuses,
// and where it says the damage is.
//
//	go test ./store -run Fixture -update    # rewrite v6 and broken after a deliberate change

var update = flag.Bool("update", false, "rewrite testdata/v6 and broken from the current writer")

// fixtureGraphID is the identity of every fixture graph (random in real graphs).
const fixtureGraphID = 0x0123456789abcdef

// fixtureCreated replaces the clock in fixture manifests so that they are reproducible.
const fixtureCreated = "2026-01-01T00:00:00Z"

// fixtureSpec is a graph given as adjacency lists, written straight through Builder.
type fixtureSpec struct {
	name       string
	n          uint32
	out, in    map[uint32][]uint32 // in only for directed graphs
	ids        []uint64            // original ids, relabeled or degree-ordered only
	degree     bool                // ids.bin holds a degree order rather than a relabeling
	shardBytes int64
	keepDups   bool
	graphID    uint64                       // 0: fixtureGraphID
	weight     func(from, to uint32) uint32 // the weight of edge from->to; nil: no weights
	float      bool                         // the weights are float32 bit patterns (version 7)
}

// weightsOf is the weights of v's list in direction d (nil without weights).
func (s fixtureSpec) weightsOf(d Direction, v uint32, list []uint32) []uint32 {
	if s.weight == nil {
		return nil
	}
	ws := []uint32{}
	for _, u := range list {
		if d == In {
			ws = append(ws, s.weight(u, v))
		} else {
			ws = append(ws, s.weight(v, u))
		}
	}
	return ws
}

func (s fixtureSpec) write(dir string) error {
	id := s.graphID
	if id == 0 {
		id = fixtureGraphID
	}
	b, err := Create(dir, CreateOptions{ShardBytes: s.shardBytes, GraphID: id, Weighted: s.weight != nil, FloatWeights: s.float})
	if err != nil {
		return err
	}
	if err := s.writeLists(b); err != nil {
		b.Abort()
		return err
	}
	if s.ids != nil {
		if err := b.WriteIDs(len(s.ids), func(i int) uint64 { return s.ids[i] }); err != nil {
			b.Abort()
			return err
		}
	}
	var inputEdges uint64
	for _, l := range s.out {
		inputEdges += uint64(len(l))
	}
	return b.Commit(&Manifest{
		Vertices: s.n, Directed: s.in != nil, InputEdges: inputEdges, Created: fixtureCreated,
		Input:   InputInfo{Name: s.name + ".txt", Bytes: 1234, Format: "snap"},
		Options: BuildOptions{KeepDuplicates: s.keepDups}, Relabeled: s.ids != nil && !s.degree,
		VertexOrder: map[bool]string{false: OrderInput, true: OrderDegree}[s.degree],
	})
}

func (s fixtureSpec) writeLists(b *Builder) error {
	for d, lists := range map[Direction]map[uint32][]uint32{Out: s.out, In: s.in} {
		for v := uint32(0); v < s.n; v++ {
			if l := lists[v]; len(l) > 0 {
				if err := b.Writer(d).AppendWeightedList(v, l, s.weightsOf(d, v, l)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// symmetric turns undirected edges into sorted, deduplicated lists both ways.
func symmetric(edges [][2]uint32) map[uint32][]uint32 {
	m := map[uint32][]uint32{}
	for _, e := range edges {
		m[e[0]] = append(m[e[0]], e[1])
		m[e[1]] = append(m[e[1]], e[0])
	}
	for v := range m {
		slices.Sort(m[v])
		m[v] = slices.Compact(m[v])
	}
	return m
}

func hubAndPath(hub, leaves, pathLo, pathHi uint32) [][2]uint32 {
	var e [][2]uint32
	for u := uint32(1); u <= leaves; u++ {
		e = append(e, [2]uint32{hub, u})
	}
	for u := pathLo; u+1 < pathHi; u++ {
		e = append(e, [2]uint32{u, u + 1})
	}
	return e
}

// goldenSpecs are the fixtures of every version: several shards with multi-block lists, a
// directed, relabeled graph with in-shards and 8-byte ids, and a degree-ordered graph
// with 4-byte ids in no order.
func goldenSpecs() []fixtureSpec {
	dout := map[uint32][]uint32{0: {1, 2, 5}, 1: {2}, 2: {0}, 4: {5}}
	din := map[uint32][]uint32{0: {2}, 1: {0}, 2: {0, 1}, 5: {0, 4}}
	return []fixtureSpec{
		{name: "undirected", n: 300, out: symmetric(hubAndPath(0, 150, 150, 300)), shardBytes: 400},
		{name: "directed-relabeled", n: 6, out: dout, in: din,
			ids: []uint64{3, 17, 1 << 40, 1<<40 + 1, 1 << 63, 1<<64 - 1}},
		{name: "degree-ordered", n: 5, out: symmetric([][2]uint32{{0, 1}, {0, 2}, {0, 3}, {1, 2}}),
			ids: []uint64{7, 5, 6, 4, 3}, degree: true},
	}
}

// rawIDsSpec is a degree-ordered graph whose ids' differences take more than 4 bytes as
// varints: its ids.bin is raw, the layout of graphs written before the compact one.
func rawIDsSpec() fixtureSpec {
	return fixtureSpec{name: "raw-ids", n: 4, out: symmetric([][2]uint32{{0, 1}, {0, 2}, {0, 3}}),
		ids: []uint64{4000000000, 7, 3000000000, 12}, degree: true}
}

// modesSpec is a fixture of version 6's block codings: a 6x8 grid numbered by rows (the
// inner vertices' lists [v-8, v-1, v+1, v+8] are mirrored blocks) and a vertex 100 whose
// list is runs of consecutive ids with jumps between them (compact blocks, exceptions).
func modesSpec() fixtureSpec {
	var e [][2]uint32
	for v := uint32(0); v < 48; v++ {
		if v%8 != 7 {
			e = append(e, [2]uint32{v, v + 1})
		}
		if v+8 < 48 {
			e = append(e, [2]uint32{v, v + 8})
		}
	}
	for _, r := range [][2]uint32{{101, 120}, {130, 140}, {300, 330}, {5000, 5010}, {70000, 70020}} {
		for u := r[0]; u < r[1]; u++ {
			e = append(e, [2]uint32{100, u})
		}
	}
	return fixtureSpec{name: "modes", n: 70100, out: symmetric(e)}
}

// weightedSpecs are the fixtures of version 4: an undirected graph of several shards with
// symmetric weights, and a directed one whose in-lists carry the weights of the arcs.
func weightedSpecs() []fixtureSpec {
	g := goldenSpecs()
	und, dir := g[0], g[1]
	und.name, dir.name = "weighted-undirected", "weighted-directed"
	und.weight = func(a, b uint32) uint32 { return (min(a, b)*7+max(a, b)*13)%251 + 1 }
	dir.weight = func(a, b uint32) uint32 { return a*10 + b + 1<<20 }
	return []fixtureSpec{und, dir}
}

// weightedBaseSpec is baseSpec with symmetric weights.
func weightedBaseSpec() fixtureSpec {
	s := baseSpec()
	s.weight = func(a, b uint32) uint32 { return a + b }
	return s
}

// floatBaseSpec is baseSpec with symmetric float32 weights, a quarter of the ends' sum;
// edge {0, 1} weighs w01 (bits) both ways.
func floatBaseSpec(w01 uint32) fixtureSpec {
	s := baseSpec()
	s.float = true
	s.weight = func(a, b uint32) uint32 {
		if min(a, b) == 0 && max(a, b) == 1 {
			return w01
		}
		return math.Float32bits(float32(a+b) * 0.25)
	}
	return s
}

// Layout of a weighted base shard: as a base shard, then WEIGHTS (4 bytes for each of
// the 136 stored neighbours) at 12288, 12848 bytes in all.
const (
	baseWeights      = 12288
	baseWeightedSize = 12848
)

// baseSpec is the small one-shard graph the broken fixtures are cut from; vertex 0 has
// a two-block list.
func baseSpec() fixtureSpec {
	return fixtureSpec{name: "base", n: 70, out: symmetric(append(hubAndPath(0, 66, 0, 0), [2]uint32{1, 2}, [2]uint32{3, 4}))}
}

// Layout of a base shard: ADJ (82 bytes) at 4096, DIRECTORY (160 bytes: 2 groups and
// the sentinel, 3 x 16 bytes, then 13 packed words and the zero word) at 8192, footer at
// 8352, 8368 bytes in all.
const (
	baseShard     = "out-00000.shard"
	baseDirectory = 8192
	baseSize      = 8368
)

// atChecksum stands for the offset of the manifest's checksum digits.
const atChecksum = -2

// brokenFixture is one deliberately damaged graph and what Verify must say about it.
type brokenFixture struct {
	name    string
	file    string // the file the error names
	offset  int64  // the offset it names (-1: the whole file)
	reason  string // a substring of the reason
	opens   bool   // Open and Check accept it (damage only a full decode finds)
	newer   bool   // not damaged: its manifest names a newer version (a NewVersionError)
	damage  func(dir string) error
	rebuild func(dir string) error // builds the graph from scratch instead of from baseSpec
}

func brokenFixtures() []brokenFixture {
	return []brokenFixture{
		{name: "truncated-shard", file: baseShard, offset: baseSize - 100 - 16, reason: "footer does not match",
			damage: func(d string) error { return truncate(d, baseShard, baseSize-100) }},
		{name: "header-flip", file: baseShard, offset: 4092, reason: "header checksum",
			damage: func(d string) error { return flip(d, baseShard, 20) }},
		{name: "adj-flip", file: baseShard, offset: 4096, reason: "section 3 checksum",
			damage: func(d string) error { return flip(d, baseShard, 4096+3) }},
		{name: "directory-flip", file: baseShard, offset: baseDirectory, reason: "section 5 checksum",
			damage: func(d string) error { return flip(d, baseShard, baseDirectory+20) }},
		{name: "directory-packed-flip", file: baseShard, offset: baseDirectory, reason: "section 5 checksum",
			damage: func(d string) error { return flip(d, baseShard, baseDirectory+60) }},
		{name: "padding-flip", file: baseShard, offset: baseDirectory - 300, reason: "padding byte",
			damage: func(d string) error { return flip(d, baseShard, baseDirectory-300) }},
		{name: "footer-flip", file: baseShard, offset: baseSize - 16, reason: "footer does not match",
			damage: func(d string) error { return flip(d, baseShard, baseSize-1) }},
		{name: "version-shard", file: baseShard, offset: 8, reason: "format version 8",
			damage: func(d string) error { return shardVersion(d, 8) }},
		{name: "version-float-shard", file: baseShard, offset: 8, reason: "format version 7 in a graph of version 6",
			damage: func(d string) error { return shardVersion(d, 7) }},
		{name: "version-old-shard", file: baseShard, offset: 8, reason: "format version 4, expected 5 to 7",
			damage: func(d string) error { return shardVersion(d, 4) }},
		{name: "weights-flip", file: baseShard, offset: baseWeights, reason: "section 4 checksum",
			rebuild: rebuildLists(weightedBaseSpec()), damage: func(d string) error { return flip(d, baseShard, baseWeights+40) }},
		{name: "weights-short", file: baseShard, offset: baseWeights, reason: "WEIGHTS is 540 bytes, expected 544",
			rebuild: rebuildLists(weightedBaseSpec()),
			damage:  func(d string) error { return forgeShard(d, func(b []byte) { putU64(b, 40+2*32+16, 540) }) }},
		{name: "weights-asymmetric", file: baseShard, offset: 4096, reason: "weight differs from its mirror", opens: true,
			rebuild: rebuildLists(asymmetricWeightSpec())},
		{name: "weighted-manifest-3", file: ManifestName, offset: -1, reason: "weighted is true in a version 3 manifest",
			rebuild: rebuildLists(weightedBaseSpec()),
			damage:  func(d string) error { return editManifest(d, `"format_version":6`, 17, 0xfd, true) }},
		{name: "float-manifest-6", file: ManifestName, offset: -1, reason: `weight_type "float32", weighted true in a version 6 manifest`,
			rebuild: rebuildLists(floatBaseSpec(math.Float32bits(0.25))),
			damage:  func(d string) error { return editManifest(d, `"format_version":7`, 17, 0xff, true) }},
		{name: "float-manifest-untyped", file: ManifestName, offset: -1, reason: `weight_type "", weighted true in a version 7 manifest`,
			rebuild: rebuildLists(weightedBaseSpec()),
			damage:  func(d string) error { return editManifest(d, `"format_version":6`, 17, 1, true) }},
		{name: "float-weight-nan", file: baseShard, offset: baseWeights, reason: "weight 0 is 0x7fc00000, not a non-negative finite float32", opens: true,
			rebuild: rebuildLists(floatBaseSpec(0x7fc00000))},
		{name: "float-weight-negative", file: baseShard, offset: baseWeights, reason: "weight 0 is 0x80000000", opens: true,
			rebuild: rebuildLists(floatBaseSpec(0x80000000))},
		{name: "foreign-shard", file: baseShard, offset: graphIDAt, reason: "a shard of another graph",
			damage: foreignShard},
		{name: "asymmetric", file: baseShard, offset: 4096, reason: "not symmetric", opens: true,
			rebuild: rebuildLists(asymmetricSpec())},
		{name: "self-loop", file: baseShard, offset: 4096, reason: "self-loop", opens: true,
			rebuild: rebuildLists(selfLoopSpec())},
		{name: "section-overlap", file: baseShard, offset: 40 + 32, reason: "overlaps",
			damage: func(d string) error { return forgeShard(d, func(b []byte) { putU64(b, 40+32+8, 4096) }) }},
		{name: "directory-descend", file: baseShard, offset: baseDirectory + 32, reason: "below group 1's",
			damage: func(d string) error { return forgeShard(d, func(b []byte) { putU32(b, baseDirectory+16, 1000) }) }},
		{name: "directory-words", file: baseShard, offset: baseDirectory + 16 + 4, reason: "starts at word 16, expected 12",
			damage: func(d string) error { return forgeShard(d, func(b []byte) { putU32(b, baseDirectory+16+4, 16) }) }},
		{name: "degree-sum", file: baseShard, offset: baseDirectory + 16 + 8, reason: "group 0's degrees sum to",
			damage: func(d string) error { return forgeShard(d, func(b []byte) { putU32(b, baseDirectory+16+8, 9) }) }},
		{name: "directory-sentinel", file: baseShard, offset: baseDirectory + 32 + 8, reason: "sentinel counts 137 neighbours",
			damage: func(d string) error { return forgeShard(d, func(b []byte) { putU32(b, baseDirectory+32+8, 137) }) }},
		{name: "swapped-shard", file: baseShard, offset: 4092, reason: "a shard of another graph",
			damage: swapShard},
		{name: "missing-shard", file: baseShard, offset: -1, reason: "missing",
			damage: func(d string) error { return os.Remove(filepath.Join(d, baseShard)) }},
		{name: "manifest-crc", file: ManifestName, offset: atChecksum, reason: "checksum",
			damage: func(d string) error { return editManifest(d, `,"crc32c":"`, 11, 1, false) }},
		{name: "manifest-body", file: ManifestName, offset: atChecksum, reason: "checksum",
			damage: func(d string) error { return editManifest(d, `"vertices":70`, 11, 1, false) }},
		{name: "manifest-truncated", file: ManifestName, offset: 200, reason: "missing the trailing checksum",
			damage: func(d string) error { return truncate(d, ManifestName, 200) }},
		{name: "version-manifest", file: ManifestName, offset: -1, reason: "format version 8", newer: true,
			damage: func(d string) error { return editManifest(d, `"format_version":6`, 17, 2, true) }},
		{name: "bad-neighbour", file: baseShard, offset: 4096, reason: "does not decode", opens: true,
			rebuild: rebuildLists(fixtureSpec{name: "base", n: 70, out: map[uint32][]uint32{0: {1, 80}}})},
		{name: "unsorted-blocks", file: baseShard, offset: 4096, reason: "neighbour 1 after 64", opens: true,
			rebuild: rebuildLists(fixtureSpec{name: "base", n: 70, out: map[uint32][]uint32{0: append(seq(1, 65), 1)}})},
		{name: "duplicate-neighbour", file: baseShard, offset: 4096, reason: "neighbour 5 after 5", opens: true,
			rebuild: rebuildLists(fixtureSpec{name: "base", n: 70, out: map[uint32][]uint32{0: {5, 5}}})},
		{name: "ids-flip", file: "ids.bin", offset: 24 + 4*3, reason: "checksum",
			rebuild: rebuildLists(relabeledSpec(0)), damage: func(d string) error { return flip(d, "ids.bin", 28) }},
		{name: "ids-width", file: "ids.bin", offset: 16, reason: "id width 5",
			rebuild: rebuildLists(relabeledSpec(0)), damage: func(d string) error { return flip(d, "ids.bin", 16) }},
		{name: "ids-duplicate", file: "ids.bin", offset: 24 + 4*2, reason: "original id 4000000000 of vertex 2 is given to an earlier vertex",
			rebuild: rebuildLists(degreeSpec(4000000000, 100000000, 4000000000))},
		{name: "ids-swapped", file: "ids.bin", offset: 24 + 4*3, reason: "ids of another graph",
			rebuild: rebuildLists(relabeledSpec(0)), damage: swapIDs},
		// the compact layout (ids 10, 20, 30: varints 0x14 0x14 0x14 at 24, the checksum at 27)
		{name: "ids-delta-flip", file: "ids.bin", offset: 27, reason: "checksum",
			rebuild: rebuildLists(deltaSpec(0)), damage: func(d string) error { return flip(d, "ids.bin", 25) }},
		{name: "ids-delta-truncated", file: "ids.bin", offset: 30, reason: "bad magic at the end",
			rebuild: rebuildLists(deltaSpec(0)), damage: func(d string) error { return truncate(d, "ids.bin", 38) }},
		{name: "ids-delta-varint-cut", file: "ids.bin", offset: 26, reason: "a varint runs past the ids",
			rebuild: rebuildLists(deltaSpec(0)), damage: func(d string) error { return forgeIDs(d, setByte(26, 0x94)) }},
		{name: "ids-delta-short", file: "ids.bin", offset: 26, reason: "too few for 3 ids",
			rebuild: rebuildLists(deltaSpec(0)), damage: func(d string) error { return forgeIDs(d, cutByte(26)) }},
		{name: "ids-delta-count", file: "ids.bin", offset: 8, reason: "holds 2 ids, expected 3",
			rebuild: rebuildLists(deltaSpec(0)), damage: func(d string) error { return forgeIDs(d, setByte(8, 2)) }},
		{name: "ids-delta-trailing", file: "ids.bin", offset: 27, reason: "1 byte after the 3 ids",
			rebuild: rebuildLists(deltaSpec(0)), damage: func(d string) error { return forgeIDs(d, insertByte(27, 0x14)) }},
		{name: "ids-delta-overlong", file: "ids.bin", offset: 25, reason: "not in its shortest form",
			rebuild: rebuildLists(deltaSpec(0)), damage: func(d string) error { return forgeIDs(d, setByte(25, 0x94), insertByte(26, 0)) }},
		{name: "ids-delta-wide", file: "ids.bin", offset: 24, reason: "wider than the file's 4 bytes",
			rebuild: rebuildLists(deltaSpec(0)), damage: func(d string) error { return forgeIDs(d, cutByte(24), insertBytes(24, 0x80, 0x80, 0x80, 0x80, 0x20)) }},
		{name: "ids-delta-descend", file: "ids.bin", offset: 25, reason: "flagged ascending but not at index 1",
			rebuild: rebuildLists(deltaSpec(0)), damage: func(d string) error { return forgeIDs(d, setByte(25, 0x13)) }},
		{name: "ids-delta-duplicate", file: "ids.bin", offset: 26, reason: "original id 5 of vertex 2 is given to an earlier vertex",
			rebuild: rebuildLists(degreeSpec(4, 5, 5))},
	}
}

// relabeledSpec is a relabeled graph whose ids.bin is raw: its ids' differences take
// more than 4 bytes as varints.
func relabeledSpec(shift uint64) fixtureSpec {
	return fixtureSpec{name: "relabeled", n: 3, out: symmetric([][2]uint32{{0, 1}, {1, 2}}),
		ids: []uint64{4000000000 + shift, 4100000000 + shift, 4200000000 + shift}}
}

// deltaSpec is a relabeled graph whose ids.bin is compact.
func deltaSpec(shift uint64) fixtureSpec {
	s := relabeledSpec(0)
	s.ids = []uint64{10 + shift, 20 + shift, 30 + shift}
	return s
}

// degreeSpec is a degree-ordered graph of 3 vertices with the ids given.
func degreeSpec(ids ...uint64) fixtureSpec {
	return fixtureSpec{name: "degree", n: 3, out: symmetric([][2]uint32{{0, 1}, {0, 2}}), ids: ids, degree: true}
}

// forgeIDs edits ids.bin and reseals it: its checksum recomputed, the manifest's ids
// checksum and size updated, as a buggy writer would leave them.
func forgeIDs(dir string, edits ...func([]byte) []byte) error {
	var crc uint32
	var size int
	err := editFile(dir, "ids.bin", func(b []byte) []byte {
		for _, e := range edits {
			b = e(b)
		}
		end := len(b) - 12
		crc = CRC32C(b[:end])
		putU32(b, end, crc)
		size = len(b)
		return b
	})
	if err != nil {
		return err
	}
	return rewriteManifest(dir, func(m *Manifest) { m.IDs.CRC, m.IDs.Bytes = hex8(crc), int64(size) })
}

func setByte(at int, x byte) func([]byte) []byte {
	return func(b []byte) []byte { b[at] = x; return b }
}
func cutByte(at int) func([]byte) []byte {
	return func(b []byte) []byte { return slices.Delete(b, at, at+1) }
}
func insertByte(at int, x byte) func([]byte) []byte { return insertBytes(at, x) }
func insertBytes(at int, x ...byte) func([]byte) []byte {
	return func(b []byte) []byte { return slices.Insert(b, at, x...) }
}

func rebuildLists(s fixtureSpec) func(string) error { return s.write }

// removeLocks deletes the lock files that Create leaves beside each fixture.
func removeLocks(dir string) {
	locks, _ := filepath.Glob(filepath.Join(dir, ".*.lock"))
	for _, l := range locks {
		os.Remove(l)
	}
}

func TestFixtureGolden(t *testing.T) {
	if *update {
		defer removeLocks(filepath.Join("testdata", "v6"))
	}
	for _, s := range append(append(goldenSpecs(), weightedSpecs()...), modesSpec(), rawIDsSpec()) {
		want := filepath.Join("testdata", "v6", s.name+".ooc")
		if *update {
			os.RemoveAll(want)
			os.MkdirAll(filepath.Dir(want), 0o755)
			if err := s.write(want); err != nil {
				t.Fatal(err)
			}
		}
		got := filepath.Join(t.TempDir(), s.name+".ooc")
		if err := s.write(got); err != nil {
			t.Fatal(err)
		}
		sameFiles(t, want, got)
		checkContent(t, want, s)
	}
}

// TestFixtureUpgrade upgrades a copy of every older version's fixtures: the engines
// refuse them with the upgrade command, Upgrade rewrites them, and the result holds
// every list, weight and id as written, and the manifest's counts and options.
func TestFixtureUpgrade(t *testing.T) {
	for _, c := range []struct {
		version string
		specs   []fixtureSpec
	}{{"v2", goldenSpecs()}, {"v3", goldenSpecs()}, {"v4", weightedSpecs()}, {"v5", append(goldenSpecs(), weightedSpecs()...)}} {
		for _, s := range c.specs {
			dir := filepath.Join(t.TempDir(), s.name+".ooc")
			if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", c.version, s.name+".ooc"))); err != nil {
				t.Fatal(err)
			}
			_, err := Open(dir)
			var ov *OldVersionError
			if !errors.As(err, &ov) || !errors.Is(err, ErrOldVersion) || !strings.Contains(err.Error(), "ooc upgrade "+dir) {
				t.Fatalf("%s/%s: Open = %v, want an OldVersionError naming `ooc upgrade %s`", c.version, s.name, err, dir)
			}
			before, err := ReadManifest(dir)
			if err != nil {
				t.Fatal(err)
			}
			after, err := Upgrade(dir, UpgradeOptions{})
			if err != nil {
				t.Fatalf("%s/%s: %v", c.version, s.name, err)
			}
			if after.FormatVersion != Version || after.Vertices != before.Vertices || after.Edges != before.Edges ||
				after.InputEdges != before.InputEdges || after.Input != before.Input || after.VertexOrder != before.VertexOrder ||
				after.Relabeled != before.Relabeled || after.Created != before.Created || after.Options.KeepDuplicates != before.Options.KeepDuplicates {
				t.Errorf("%s/%s: manifest %+v after upgrading %+v", c.version, s.name, after, before)
			}
			checkContent(t, dir, s)
			if _, err := Upgrade(dir, UpgradeOptions{}); !errors.Is(err, ErrUpToDate) {
				t.Errorf("%s/%s: upgrading twice: %v, want ErrUpToDate", c.version, s.name, err)
			}
		}
	}
}

// sameFiles requires two graph directories to hold the same files with the same bytes.
func sameFiles(t *testing.T, want, got string) {
	t.Helper()
	wn, _ := filepath.Glob(filepath.Join(want, "*"))
	gn, _ := filepath.Glob(filepath.Join(got, "*"))
	if len(wn) == 0 || len(wn) != len(gn) {
		t.Fatalf("%s holds %d files, the writer now makes %d (format change? rerun with -update)", want, len(wn), len(gn))
	}
	for i := range wn {
		a, err1 := os.ReadFile(wn[i])
		b, err2 := os.ReadFile(gn[i])
		if err1 != nil || err2 != nil || filepath.Base(wn[i]) != filepath.Base(gn[i]) {
			t.Fatalf("%s vs %s: %v %v", wn[i], gn[i], err1, err2)
		}
		if !bytes.Equal(a, b) {
			at := 0
			for at < min(len(a), len(b)) && a[at] == b[at] {
				at++
			}
			t.Errorf("%s: the writer's bytes differ from the fixture at offset %d (sizes %d, %d); a format change needs a new version", wn[i], at, len(a), len(b))
		}
	}
}

// checkContent reads a stored fixture with today's reader and compares every list.
func checkContent(t *testing.T, dir string, s fixtureSpec) {
	t.Helper()
	if _, err := Verify(dir); err != nil {
		t.Fatalf("verify %s: %v", dir, err)
	}
	g, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for d, lists := range map[Direction]map[uint32][]uint32{Out: s.out, In: s.in} {
		if d == In && s.in == nil {
			continue
		}
		c := g.Out()
		if d == In {
			c = g.In()
		}
		for v := uint32(0); v < s.n; v++ {
			got, err := c.ShardOf(v).Neighbors(nil, v)
			if err != nil || !slices.Equal(got, lists[v]) {
				t.Errorf("%s %s-list of %d = %v, %v; want %v", dir, d, v, got, err, lists[v])
			}
			gw, ww := c.ShardOf(v).WeightsOf(v), s.weightsOf(d, v, lists[v])
			if !slices.Equal(gw, ww) || (gw == nil) != (s.weight == nil) {
				t.Errorf("%s %s-weights of %d = %v; want %v", dir, d, v, gw, ww)
			}
		}
	}
	for i, id := range s.ids {
		if got := g.External(uint32(i)); got != id {
			t.Errorf("%s: vertex %d has id %d, want %d", dir, i, got, id)
		}
	}
	if len(g.Out().Shards) < 2 && s.shardBytes > 0 {
		t.Errorf("%s has %d out-shards; the fixture is meant to have several", dir, len(g.Out().Shards))
	}
}

func TestFixtureBroken(t *testing.T) {
	fixtures := brokenFixtures()
	if *update {
		os.RemoveAll(filepath.Join("testdata", "broken"))
		defer removeLocks(filepath.Join("testdata", "broken"))
		for _, f := range fixtures {
			if err := f.build(filepath.Join("testdata", "broken", f.name+".ooc")); err != nil {
				t.Fatalf("%s: %v", f.name, err)
			}
		}
	}
	dirs, _ := filepath.Glob(filepath.Join("testdata", "broken", "*.ooc"))
	if len(dirs) != len(fixtures) {
		t.Errorf("testdata/broken holds %d graphs, the table %d (rerun with -update)", len(dirs), len(fixtures))
	}
	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) { f.check(t, filepath.Join("testdata", "broken", f.name+".ooc")) })
	}
}

func (f brokenFixture) build(dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	build := baseSpec().write
	if f.rebuild != nil {
		build = f.rebuild
	}
	if err := build(dir); err != nil {
		return err
	}
	if f.damage == nil {
		return nil
	}
	return f.damage(dir)
}

func (f brokenFixture) check(t *testing.T, dir string) {
	_, err := Verify(dir)
	if f.newer {
		var ne *NewVersionError
		if !errors.As(err, &ne) || ne.Path != filepath.Join(dir, f.file) || !strings.Contains(err.Error(), f.reason) {
			t.Fatalf("Verify = %v, want a NewVersionError naming %s", err, filepath.Join(dir, f.file))
		}
		if _, err := Open(dir); !errors.Is(err, ErrNewVersion) {
			t.Fatalf("Open = %v, want ErrNewVersion", err)
		}
		return
	}
	var ce *CorruptError
	if !errors.As(err, &ce) || !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Verify = %v, want a CorruptError", err)
	}
	wantOff := f.offset
	if wantOff == atChecksum {
		b, _ := os.ReadFile(filepath.Join(dir, ManifestName))
		wantOff = int64(bytes.LastIndex(b, []byte(`,"crc32c":"`)) + 11)
	}
	if ce.Path != filepath.Join(dir, f.file) || ce.Offset != wantOff || !strings.Contains(err.Error(), f.reason) {
		t.Fatalf("Verify = %v\nwant path %s, offset %d, reason containing %q", err, filepath.Join(dir, f.file), wantOff, f.reason)
	}
	g, err := Open(dir)
	if err == nil {
		err = g.Check()
		g.Close()
	}
	if f.opens && err != nil {
		t.Errorf("Open+Check = %v; this damage carries valid checksums and should only fail a full decode", err)
	}
	if !f.opens && !errors.Is(err, ErrCorrupt) {
		t.Errorf("Open+Check = %v, want ErrCorrupt (engines would compute on damaged bytes)", err)
	}
}

func flip(dir, file string, at int64) error {
	return editFile(dir, file, func(b []byte) []byte { b[at] ^= 0x01; return b })
}

func truncate(dir, file string, size int) error {
	return editFile(dir, file, func(b []byte) []byte { return b[:size] })
}

func editFile(dir, file string, edit func([]byte) []byte) error {
	p := filepath.Join(dir, file)
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	return os.WriteFile(p, edit(b), 0o644)
}

func putU32(b []byte, at int, x uint32) { binary.LittleEndian.PutUint32(b[at:], x) }
func putU64(b []byte, at int, x uint64) { binary.LittleEndian.PutUint64(b[at:], x) }

// editManifest adds delta to the byte at index at of the first occurrence of key, and
// recomputes the checksum when reseal is set.
func editManifest(dir, key string, at int, delta byte, reseal bool) error {
	return editFile(dir, ManifestName, func(b []byte) []byte {
		i := bytes.Index(b, []byte(key))
		b[i+at] += delta
		if reseal {
			b = fixManifest(b)
		}
		return b
	})
}

func shardVersion(dir string, v uint32) error {
	return forgeShard(dir, func(b []byte) { putU32(b, 8, v) }, func(b []byte) { putU32(b, len(b)-16, v) })
}

// forgeShard edits the base shard and reseals it: every checksum recomputed, and the
// manifest's header checksum updated, as a buggy writer would leave it.
func forgeShard(dir string, edits ...func([]byte)) error {
	var crc uint32
	err := editFile(dir, baseShard, func(b []byte) []byte {
		edits[0](b)
		fixShard(b)
		for _, e := range edits[1:] {
			e(b)
		}
		crc = binary.LittleEndian.Uint32(b[headerSize-4:])
		return b
	})
	if err != nil {
		return err
	}
	return rewriteManifest(dir, func(m *Manifest) { m.Out[0].HeaderCRC = hex8(crc) })
}

func hex8(x uint32) string {
	const digits = "0123456789abcdef"
	b := make([]byte, 8)
	for k := range b {
		b[k] = digits[x>>(28-4*k)&15]
	}
	return string(b)
}

func rewriteManifest(dir string, edit func(*Manifest)) error {
	m, err := ReadManifest(dir)
	if err != nil {
		return err
	}
	edit(m)
	b, err := m.Marshal()
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, ManifestName), b, 0o644)
}

// swapShard replaces the base shard with that of a graph with the same vertex count,
// edge count and file size, but one edge moved: only the manifest's header checksum
// tells them apart.
func swapShard(dir string) error {
	other := baseSpec()
	other.out = symmetric(append(hubAndPath(0, 66, 0, 0), [2]uint32{1, 2}, [2]uint32{3, 5}))
	return swapFrom(dir, other, baseShard)
}

// foreignShard replaces the base shard with the same shard of another graph (same
// lists, another identity) and reseals the manifest's header checksum, as a splice with
// recomputed checksums would: only the graph identity tells them apart.
func foreignShard(dir string) error {
	other := baseSpec()
	other.graphID = fixtureGraphID + 1
	if err := swapFrom(dir, other, baseShard); err != nil {
		return err
	}
	b, err := os.ReadFile(filepath.Join(dir, baseShard))
	if err != nil {
		return err
	}
	crc := binary.LittleEndian.Uint32(b[headerSize-4:])
	return rewriteManifest(dir, func(m *Manifest) { m.Out[0].HeaderCRC = hex8(crc) })
}

// asymmetricSpec is the base graph with vertex 0's list holding 69, whose list does not
// hold 0: an undirected graph missing one direction of an edge, every checksum valid.
func asymmetricSpec() fixtureSpec {
	s := baseSpec()
	s.out[0] = append(slices.Clone(s.out[0]), 69)
	return s
}

// asymmetricWeightSpec is the weighted base graph with edge {0, 1} weighing 1 from 0 and
// 2 from 1: both lists are there, the weights disagree, every checksum valid.
func asymmetricWeightSpec() fixtureSpec {
	s := weightedBaseSpec()
	s.weight = func(a, b uint32) uint32 {
		if a == 1 && b == 0 {
			return 2
		}
		return a + b
	}
	return s
}

// selfLoopSpec is the base graph with a self-loop at vertex 0, in a graph whose manifest
// says self-loops were dropped.
func selfLoopSpec() fixtureSpec {
	s := baseSpec()
	s.out[0] = append([]uint32{0}, s.out[0]...)
	return s
}

func swapIDs(dir string) error { return swapFrom(dir, relabeledSpec(1), "ids.bin") }

func swapFrom(dir string, other fixtureSpec, file string) error {
	tmp, err := os.MkdirTemp("", "ooc-swap-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := other.write(filepath.Join(tmp, "other.ooc")); err != nil {
		return err
	}
	b, err := os.ReadFile(filepath.Join(tmp, "other.ooc", file))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, file), b, 0o644)
}
