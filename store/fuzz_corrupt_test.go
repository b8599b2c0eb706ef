package store

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/internal/testseed"
)

// The corruption campaign damages copies of real graph directories at random and
// requires every reader entry point to refuse them: Verify (what `ooc verify` runs) and
// Open followed by Check (what engines run before computing). The error must match
// ErrCorrupt, name the damaged file and, for a shard, point into the part of the file
// that was damaged. "Forged" trials flip a byte and then recompute every checksum, as a
// buggy writer would: those may verify, but must never panic or yield neighbours
// outside the graph.
//
//	OOC_LONG=1 go test ./store -run Campaign        # or -long: 20000 trials

var long = flag.Bool("long", false, "run the long corruption campaign")

func longMode() bool { return *long || os.Getenv("OOC_LONG") != "" }

// campaignGraph is one graph directory held in memory, file by file.
type campaignGraph struct {
	name  string
	files map[string][]byte
	names []string
}

func campaignGraphs(t *testing.T, r *rand.Rand) []*campaignGraph {
	specs := []fixtureSpec{
		{name: "undirected", n: 2000, out: randomSym(r, 2000, 6000), shardBytes: 3000},
		{name: "directed", n: 600, shardBytes: 1500},
		{name: "relabeled", n: 300, out: randomSym(r, 300, 900)},
		{name: "weighted", n: 800, out: randomSym(r, 800, 3000), shardBytes: 1500,
			weight: func(a, b uint32) uint32 { return (min(a, b)*31 + max(a, b)) % 1000 }},
		{name: "float", n: 500, out: randomSym(r, 500, 2000), shardBytes: 1500, float: true,
			weight: func(a, b uint32) uint32 { return math.Float32bits(float32(min(a, b)*31+max(a, b)) / 7) }},
	}
	specs[1].out, specs[1].in = randomDirected(r, 600, 3000)
	ids := map[uint64]bool{}
	for len(ids) < 300 {
		ids[r.Uint64()] = true
	}
	for id := range ids {
		specs[2].ids = append(specs[2].ids, id)
	}
	slices.Sort(specs[2].ids)
	var gs []*campaignGraph
	for _, s := range specs {
		dir := filepath.Join(t.TempDir(), s.name+".ooc")
		if err := s.write(dir); err != nil {
			t.Fatal(err)
		}
		g := &campaignGraph{name: s.name, files: map[string][]byte{}}
		paths, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			g.files[filepath.Base(p)] = b
			g.names = append(g.names, filepath.Base(p))
		}
		if _, err := Verify(dir); err != nil {
			t.Fatalf("%s does not verify before damage: %v", s.name, err)
		}
		gs = append(gs, g)
	}
	return gs
}

func randomSym(r *rand.Rand, n uint32, m int) map[uint32][]uint32 {
	var e [][2]uint32
	for i := 0; i < m; i++ {
		u, v := r.Uint32N(n), r.Uint32N(n)
		if i%50 == 0 {
			u = 0 // a hub with lists of several blocks
		}
		if u != v {
			e = append(e, [2]uint32{u, v})
		}
	}
	return symmetric(e)
}

func randomDirected(r *rand.Rand, n uint32, m int) (out, in map[uint32][]uint32) {
	out, in = map[uint32][]uint32{}, map[uint32][]uint32{}
	for i := 0; i < m; i++ {
		u, v := r.Uint32N(n), r.Uint32N(n)
		if u == v {
			continue // self-loops are dropped as ingest drops them
		}
		out[u] = append(out[u], v)
		in[v] = append(in[v], u)
	}
	for _, l := range []map[uint32][]uint32{out, in} {
		for v := range l {
			slices.Sort(l[v])
			l[v] = slices.Compact(l[v])
		}
	}
	return out, in
}

// damage is one trial: which file, how it was changed, and which bytes changed.
type damage struct {
	file    string
	kind    string
	at      []int64 // flipped offsets (flip kinds)
	deleted bool
	forged  bool
}

func (d damage) String() string { return fmt.Sprintf("%s of %s at %v", d.kind, d.file, d.at) }

func TestCorruptionCampaign(t *testing.T) {
	trials := 300
	if longMode() {
		trials = 20000
	}
	seed := testSeed(t)
	t.Logf("%d trials", trials)
	r := rand.New(rand.NewPCG(seed, 5))
	graphs := campaignGraphs(t, r)
	counts := map[string]int{}
	for trial := 0; trial < trials; trial++ {
		g := graphs[r.IntN(len(graphs))]
		dir := filepath.Join(t.TempDir(), g.name+".ooc")
		d, files := g.damage(r)
		if err := writeGraph(dir, files); err != nil {
			t.Fatal(err)
		}
		counts[d.kind]++
		if err := checkDamaged(dir, g, d); err != nil {
			t.Fatalf("seed %d trial %d (%s, %s): %v", seed, trial, g.name, d, err)
		}
		os.RemoveAll(dir)
	}
	t.Logf("trials by kind: %v", counts)
}

func writeGraph(dir string, files map[string][]byte) error {
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// damage copies the graph's files with one of them damaged.
func (g *campaignGraph) damage(r *rand.Rand) (damage, map[string][]byte) {
	files := map[string][]byte{}
	for n, b := range g.files {
		files[n] = b
	}
	d := damage{file: g.names[r.IntN(len(g.names))]}
	b := bytes.Clone(g.files[d.file])
	switch k := r.IntN(20); {
	case k < 7:
		d.kind = "flip"
		d.at = flipBytes(r, b, 1)
	case k < 10:
		d.kind = "multiflip"
		d.at = flipBytes(r, b, 2+r.IntN(7))
	case k < 13:
		d.kind = "truncate"
		b = b[:r.IntN(len(b))]
	case k < 15:
		d.kind = "zero-range"
		i := r.IntN(len(b))
		clear(b[i:min(len(b), i+1+r.IntN(256))])
	case k < 16:
		d.kind = "append"
		for n := 1 + r.IntN(64); n > 0; n-- {
			b = append(b, byte('a'+r.IntN(26)))
		}
	case k < 17:
		d.kind, d.deleted = "delete", true
		delete(files, d.file)
		return d, files
	default:
		d.kind, d.forged = "forged", true
		d.at = flipBytes(r, b, 1)
		if strings.HasSuffix(d.file, ".shard") {
			fixShard(b)
			files[ManifestName] = resealManifest(files[ManifestName], d.file, b)
		} else {
			b = fixManifest(b)
		}
	}
	files[d.file] = b
	return d, files
}

func flipBytes(r *rand.Rand, b []byte, n int) []int64 {
	var at []int64
	for i := 0; i < n; i++ {
		j := r.IntN(len(b))
		b[j] ^= byte(1 + r.IntN(255))
		at = append(at, int64(j))
	}
	return at
}

// resealManifest points the manifest's header checksum of file at the forged shard and
// recomputes the manifest's own checksum.
func resealManifest(manifest []byte, file string, shard []byte) []byte {
	m, err := ParseManifest("m", manifest)
	if err != nil {
		panic(err)
	}
	crc := hex8(leU32(shard[headerSize-4:]))
	for _, l := range [][]ShardInfo{m.Out, m.In} {
		for i := range l {
			if l[i].File == file {
				l[i].HeaderCRC = crc
			}
		}
	}
	b, err := m.Marshal()
	if err != nil {
		panic(err)
	}
	return b
}

func leU32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

// checkDamaged runs Verify and Open+Check on a damaged copy and checks what they say.
func checkDamaged(dir string, g *campaignGraph, d damage) error {
	_, verr := Verify(dir)
	if verr == nil && sameContent(readOr(dir, d.file), g.files[d.file]) {
		return nil // the damage changed nothing (zeroing padding, flipping a byte twice)
	}
	if d.forged {
		if verr != nil {
			return expectCorrupt(verr, dir, g, d)
		}
		return decodeAll(dir)
	}
	if err := expectCorrupt(verr, dir, g, d); err != nil {
		return fmt.Errorf("Verify: %w", err)
	}
	og, err := Open(dir)
	if err == nil {
		err = og.Check()
		og.Close()
	}
	if err == nil {
		return errors.New("Open+Check accept the damaged graph: an engine would compute on it")
	}
	if err := expectCorrupt(err, dir, g, d); err != nil {
		return fmt.Errorf("Open+Check: %w", err)
	}
	return nil
}

// sameContent compares files, ignoring the manifest's trailing newline (FORMAT.md does
// not count it).
func sameContent(a, b []byte) bool {
	return bytes.Equal(bytes.TrimRight(a, "\n"), bytes.TrimRight(b, "\n"))
}

func readOr(dir, file string) []byte {
	b, _ := os.ReadFile(filepath.Join(dir, file))
	return b
}

func expectCorrupt(err error, dir string, g *campaignGraph, d damage) error {
	if d.deleted && d.file == ManifestName {
		// Shards without a manifest are a damaged graph; a directory with neither is none.
		if shards, _ := filepath.Glob(filepath.Join(dir, "*.shard")); len(shards) == 0 {
			if !errors.Is(err, ErrNotGraph) {
				return fmt.Errorf("error %v, want ErrNotGraph", err)
			}
			return nil
		}
	}
	var ce *CorruptError
	if !errors.Is(err, ErrCorrupt) || !errors.As(err, &ce) {
		return fmt.Errorf("error %v, want one matching ErrCorrupt", err)
	}
	path := filepath.Join(dir, d.file)
	if d.forged && d.file == ManifestName && filepath.Dir(ce.Path) == dir {
		path = ce.Path // a forged manifest may disagree with any file it describes
	}
	if d.forged && filepath.Dir(ce.Path) == dir && (strings.Contains(ce.Reason, "not symmetric") || strings.Contains(ce.Reason, "transpose")) {
		path = ce.Path // two lists disagree: the damaged one may be either
	}
	if ce.Path != path || !strings.Contains(err.Error(), path) {
		return fmt.Errorf("error %q names %s, want %s", err, ce.Path, path)
	}
	size := int64(len(readOr(dir, filepath.Base(ce.Path))))
	if ce.Offset < -1 || ce.Offset > size {
		return fmt.Errorf("error %q: offset %d outside the %d-byte file", err, ce.Offset, size)
	}
	if ce.Offset >= 0 && !strings.Contains(err.Error(), fmt.Sprintf("at offset %d", ce.Offset)) {
		return fmt.Errorf("error %q does not print its offset", err)
	}
	if strings.HasSuffix(d.file, ".shard") && (d.kind == "flip" || d.kind == "multiflip") {
		return sameRegion(g.files[d.file], ce.Offset, d.at, err)
	}
	return nil
}

// sameRegion requires a shard error's offset to lie in the part of the file (header,
// a section, the footer, or the exact padding byte) where one of the flips is.
func sameRegion(orig []byte, off int64, at []int64, err error) error {
	want := regionOf(orig, off)
	for _, a := range at {
		if regionOf(orig, a) == want {
			return nil
		}
	}
	return fmt.Errorf("error %q points at %s, the flips at %v lie elsewhere", err, want, at)
}

func regionOf(shard []byte, off int64) string {
	size := int64(len(shard))
	switch {
	case off < headerSize:
		return "header"
	case off >= size-footerSize:
		return "footer"
	}
	h, err := parseShard("", shard)
	if err != nil {
		panic(err)
	}
	for _, s := range h.Sections {
		if s.Length > 0 && off >= s.Offset && off < s.Offset+s.Length {
			return fmt.Sprintf("section %d", s.ID)
		}
	}
	return fmt.Sprintf("padding byte %d", off)
}

// decodeAll opens a graph that verified and decodes every list, as an engine would.
func decodeAll(dir string) error {
	g, err := Open(dir)
	if err != nil {
		return fmt.Errorf("verified but does not open: %v", err)
	}
	defer g.Close()
	if err := g.Check(); err != nil {
		return fmt.Errorf("verified but Check fails: %v", err)
	}
	var buf []uint32
	for _, s := range g.Shards() {
		for v := s.Lo; v < s.Hi(); v++ {
			if buf, err = s.Neighbors(buf[:0], v); err != nil {
				return fmt.Errorf("verified but vertex %d does not decode: %v", v, err)
			}
			for _, u := range buf {
				if u >= g.NumVertices() {
					return fmt.Errorf("verified but vertex %d has neighbour %d of %d", v, u, g.NumVertices())
				}
			}
		}
	}
	return nil
}

// testSeed is a random test's seed (OOC_SEED reproduces a failure).
var testSeed = testseed.Seed
