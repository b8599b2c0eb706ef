package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand"
	randv2 "math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/internal/hostcxx"
)

// TestGraphCuhDirectory compiles graph.cuh's directory decoder (struct Shard, dirField,
// shardDegree, shardList) as host C++, with the CUDA qualifiers defined away, and holds
// its degree and list start of every vertex of random shards to the Go reader's: the
// device decoder checked on a machine without a GPU. It needs g++.
func TestGraphCuhDirectory(t *testing.T) {
	src := hostcxx.Read(t, "graph.cuh")
	block := src.Cut("struct Shard {", "static_assert(sizeof(Shard)") + src.Cut("#define DIR_GROUP_SHIFT", "// findShard returns")
	if !strings.Contains(block, "shardList") || !strings.Contains(block, "shardDegree") {
		t.Fatal("graph.cuh: shardList and shardDegree are no longer between DIR_GROUP_SHIFT and findShard")
	}
	dir := t.TempDir()
	harness := hostcxx.Prelude + `` + block + `
// usage: check DIRECTORY_FILE N: prints "degree start" per vertex
int main(int argc, char **argv) {
	FILE *f = fopen(argv[1], "rb");
	uint32_t n = (uint32_t)atol(argv[2]);
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *d = (uint8_t *)aligned_alloc(16, (len + 15) / 16 * 16);
	if (fread(d, 1, len, f) != (size_t)len) return 2;
	uint64_t ng = (n + 63) / 64;
	Shard s;
	s.adj = 0;
	s.dir = (const uint4 *)d;
	s.bits = (const unsigned long long *)(d + 16 * (ng + 1));
	s.lo = 0;
	s.n = n;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t st, deg = shardList(&s, i, &st);
		printf("%u %u %u\n", deg, shardDegree(&s, i), st);
	}
	return 0;
}
`
	bin := hostcxx.Build(t, harness)
	seed := rand.Int63()
	r := rand.New(rand.NewSource(seed))
	for iter := 0; iter < 4; iter++ {
		n := uint32(1 + r.Intn(5000))
		lists := map[uint32][]uint32{}
		mesh := n / 3 // vertices [mesh, 2*mesh) have 3 or 4 neighbours: groups with dmin > 0
		for v := uint32(0); v < n; v++ {
			switch k := r.Intn(20); {
			case v >= mesh && v < 2*mesh:
				for len(lists[v]) < 3+r.Intn(2) {
					lists[v] = randomList(r, n, 4)
				}
			case k < 5:
			case k < 19:
				lists[v] = randomList(r, n, r.Intn(10))
			default:
				lists[v] = randomList(r, n, r.Intn(4000))
			}
		}
		g := filepath.Join(dir, fmt.Sprintf("g%d.ooc", iter))
		if err := (fixtureSpec{name: "g", n: n, out: lists, keepDups: true, shardBytes: int64(1 + r.Intn(1<<16))}).write(g); err != nil {
			t.Fatal(err)
		}
		gr, err := Open(g)
		if err != nil {
			t.Fatal(err)
		}
		for k, sh := range gr.Out().Shards {
			file := filepath.Join(dir, fmt.Sprintf("dir-%d-%d", iter, k))
			if err := os.WriteFile(file, sh.DirectoryBytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := exec.Command(bin, file, fmt.Sprint(sh.N)).Output()
			if err != nil {
				t.Fatalf("seed %d: %s: %v", seed, file, err)
			}
			var want bytes.Buffer
			for i := uint32(0); i < sh.N; i++ {
				fmt.Fprintf(&want, "%d %d %d\n", sh.DegreeAt(i), sh.DegreeAt(i), sh.ListOffset(i))
			}
			if !bytes.Equal(got, want.Bytes()) {
				gl, wl := strings.Split(string(got), "\n"), strings.Split(want.String(), "\n")
				for i := range min(len(gl), len(wl)) {
					if gl[i] != wl[i] {
						t.Fatalf("seed %d: shard %d vertex %d: graph.cuh says %q (degree, degree, start), Go %q", seed, k, sh.Lo+uint32(i), gl[i], wl[i])
					}
				}
				t.Fatalf("seed %d: shard %d: graph.cuh gives %d lines, Go %d", seed, k, len(gl), len(wl))
			}
		}
		gr.Close()
	}
}

// TestGraphCuhBlockDecoder compiles graph.cuh's list decoder (ByteReader, List,
// BlockDecoder) as host C++ and holds the neighbours it yields, block by block, to the
// lists the Go encoder was given: every coding of FORMAT.md (varints, packed, compact,
// mirrored, with and without exceptions), lists at every alignment, read 8 bytes a load
// (BlockDecoder) and 16 (BlockDecoderR<ByteReader16>). It needs g++.
func TestGraphCuhBlockDecoder(t *testing.T) {
	src := hostcxx.Read(t, "graph.cuh")
	block := src.Cut("#define OOC_BLOCK", "// One shard as placed") + src.Cut("struct Shard {", "static_assert(sizeof(Shard)") +
		src.Cut("#define DIR_GROUP_SHIFT", "// findShard returns") + src.Cut("// ByteReader reads", "__device__ __forceinline__ unsigned laneId")
	dir := t.TempDir()
	harness := hostcxx.Prelude + `static inline uint32_t min(uint32_t a, uint32_t b) { return a < b ? a : b; }
` + block + `
// usage: check ADJ INDEX: INDEX holds (v, degree, offset) uint32 triples; prints each
// list's neighbours on a line, decoded 8 bytes a load, then on another 16
int main(int argc, char **argv) {
	FILE *f = fopen(argv[1], "rb");
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *adj = (uint8_t *)aligned_alloc(16, (len + 15) / 16 * 16);
	if (fread(adj, 1, len, f) != (size_t)len) return 2;
	FILE *ix = fopen(argv[2], "rb");
	uint32_t e[3];
	while (fread(e, 4, 3, ix) == 3) {
		List l;
		l.v = e[0], l.deg = e[1], l.nb = (e[1] + OOC_BLOCK - 1) / OOC_BLOCK, l.base = adj + e[2];
		for (uint32_t k = 0; k < l.nb; k++) {
			BlockDecoder d;
			d.init(l, k);
			uint32_t u;
			while (d.next(&u)) printf("%u ", u);
		}
		printf("\n");
		for (uint32_t k = 0; k < l.nb; k++) {
			BlockDecoderR<ByteReader16> d;
			d.init(l, k);
			uint32_t u;
			while (d.next(&u)) printf("%u ", u);
		}
		printf("\n");
	}
	return 0;
}
`
	bin := hostcxx.Build(t, harness)
	seed := rand.Int63()
	r := rand.New(rand.NewSource(seed))
	r2 := randv2.New(randv2.NewPCG(uint64(seed), 6))
	var adj, index []byte
	var want bytes.Buffer
	var modes [5]int
	for range 3000 {
		nv := uint32(1 + r.Intn(1<<20))
		if r.Intn(4) == 0 {
			nv = 1<<32 - 1 - uint32(r.Intn(16))
		}
		d := []int{1, 3, 4, 6, 8, 20, 63, 64, 65, 200}[r.Intn(10)]
		v := uint32(r.Int63n(int64(nv)))
		nbrs := randomNbrs(r2, v, d, nv)
		adj = append(adj, make([]byte, r.Intn(8))...)
		index = binary.LittleEndian.AppendUint32(index, v)
		index = binary.LittleEndian.AppendUint32(index, uint32(d))
		index = binary.LittleEndian.AppendUint32(index, uint32(len(adj)))
		enc := AppendList(nil, v, nbrs)
		countModes(&modes, enc, uint32(d))
		adj = append(adj, enc...)
		for range 2 { // BlockDecoder's line, then ByteReader16's
			for _, u := range nbrs {
				fmt.Fprintf(&want, "%d ", u)
			}
			want.WriteByte('\n')
		}
	}
	for i, n := range modes {
		if n == 0 {
			t.Fatalf("seed %d: no block in coding %d: %v", seed, i, modes)
		}
	}
	adj = append(adj, make([]byte, 16)...)
	fa, fi := filepath.Join(dir, "adj"), filepath.Join(dir, "index")
	if os.WriteFile(fa, adj, 0o644) != nil || os.WriteFile(fi, index, 0o644) != nil {
		t.Fatal("writing the lists")
	}
	got, err := exec.Command(bin, fa, fi).Output()
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(want.String(), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("seed %d: list %d, %d bytes a load: graph.cuh decodes %q, want %q", seed, i/2, 8<<(i%2), gl[i], wl[i])
			}
		}
		t.Fatalf("seed %d: graph.cuh gives %d lines, want %d", seed, len(gl), len(wl))
	}
}
