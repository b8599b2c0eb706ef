package store

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/rand"
	randv2 "math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/internal/hostcxx"
)

// readWhole is the harnesses' C function that reads the file at path whole into a
// buffer aligned to 16 bytes, rounded up to 16 bytes past its end; NULL when it fails.
const readWhole = `static uint8_t *readWhole(const char *path) {
	FILE *f = fopen(path, "rb");
	if (!f) return NULL;
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *b = (uint8_t *)aligned_alloc(16, (len + 16) / 16 * 16);
	if (fread(b, 1, len, f) != (size_t)len) return NULL;
	fclose(f);
	return b;
}
`

// TestGraphCuhDirectory compiles graph.cuh's directory decoder (struct Shard, dirField,
// shardDegree, shardList, shardSpan) as host C++, with the CUDA qualifiers defined away, and holds
// its degree and list start and end of every vertex of random shards to the Go reader's: the
// device decoder checked on a machine without a GPU. It needs g++.
func TestGraphCuhDirectory(t *testing.T) {
	src := hostcxx.Read(t, "graph.cuh")
	block := src.Cut("struct Shard {", "static_assert(sizeof(Shard)") + src.Cut("#define DIR_GROUP_SHIFT", "// findShard returns")
	if !strings.Contains(block, "shardList") || !strings.Contains(block, "shardDegree") {
		t.Fatal("graph.cuh: shardList and shardDegree are no longer between DIR_GROUP_SHIFT and findShard")
	}
	dir := t.TempDir()
	harness := hostcxx.Prelude + readWhole + block + `
// usage: check DIRECTORY_FILE N: prints "degree degree start degree start end" per vertex
int main(int argc, char **argv) {
	uint32_t n = (uint32_t)atol(argv[2]);
	uint8_t *d = readWhole(argv[1]);
	if (!d) return 2;
	uint64_t ng = (n + 63) / 64;
	Shard s;
	s.adj = 0;
	s.dir = (const uint4 *)d;
	s.bits = (const unsigned long long *)(d + 16 * (ng + 1));
	s.lo = 0;
	s.n = n;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t st, deg = shardList(&s, i, &st);
		uint32_t st2, end, deg2 = shardSpan(&s, i, &st2, &end);
		printf("%u %u %u %u %u %u\n", deg, shardDegree(&s, i), st, deg2, st2, end);
	}
	return 0;
}
`
	bin := hostcxx.Build(t, harness)
	seed := testSeed(t)
	r := rand.New(rand.NewSource(int64(seed)))
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
				d, st, end := sh.dirEntry(i)
				fmt.Fprintf(&want, "%d %d %d %d %d %d\n", sh.DegreeAt(i), sh.DegreeAt(i), sh.ListOffset(i), d, st, end)
			}
			if !bytes.Equal(got, want.Bytes()) {
				gl, wl := strings.Split(string(got), "\n"), strings.Split(want.String(), "\n")
				for i := range min(len(gl), len(wl)) {
					if gl[i] != wl[i] {
						t.Fatalf("seed %d: shard %d vertex %d: graph.cuh says %q (shardList's degree, shardDegree, shardList's start, shardSpan's degree, start, end), Go %q", seed, k, sh.Lo+uint32(i), gl[i], wl[i])
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
		src.Cut("#define DIR_GROUP_SHIFT", "// findShard returns") + src.Cut("// Damaged lists.", "__device__ __forceinline__ unsigned laneId")
	dir := t.TempDir()
	harness := hostcxx.Prelude + readWhole + `static inline uint32_t min(uint32_t a, uint32_t b) { return a < b ? a : b; }
` + block + `
// usage: check ADJ INDEX: INDEX holds (v, degree, offset, length, vertex count) uint32
// quintuples; prints each list's neighbours on a line, decoded 8 bytes a load, then on
// another 16, and a line "fault" where the decoder recorded one
int main(int argc, char **argv) {
	uint8_t *adj = readWhole(argv[1]);
	if (!adj) return 2;
	FILE *ix = fopen(argv[2], "rb");
	uint32_t e[5];
	while (fread(e, 4, 5, ix) == 5) {
		List l;
		l.v = e[0], l.deg = e[1], l.nb = (e[1] + OOC_BLOCK - 1) / OOC_BLOCK, l.base = adj + e[2], l.end = l.base + e[3];
		ooc_vertices = e[4];
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
		if (ooc_fault) printf("fault\n");
	}
	return 0;
}
`
	bin := hostcxx.Build(t, harness)
	seed := testSeed(t)
	r := rand.New(rand.NewSource(int64(seed)))
	r2 := randv2.New(randv2.NewPCG(seed, 6))
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
		index = binary.LittleEndian.AppendUint32(index, uint32(len(enc)))
		index = binary.LittleEndian.AppendUint32(index, nv)
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

// TestGraphCuhDamagedLists compiles graph.cuh's list decoder as host C++ with every load
// checked, and runs it over damaged lists (bytes cut short, changed or added, degrees and
// vertex counts that disagree with the bytes: what a graph written with valid checksums
// but not by ooc can hold, which Check does not find). Each list lies alone in an
// allocation that ends at its last byte rounded up to 16. The decoders must load only
// the aligned 8 or 16 bytes that hold a byte of the list, yield only neighbours below the
// vertex count, yield exactly the Go decoder's neighbours without a fault where it
// accepts the list, and record a fault where it refuses it (when read to the end, as
// here). It needs g++.
func TestGraphCuhDamagedLists(t *testing.T) {
	src := hostcxx.Read(t, "graph.cuh")
	block := src.Cut("#define OOC_BLOCK", "// One shard as placed") + src.Cut("struct Shard {", "static_assert(sizeof(Shard)") +
		src.Cut("#define DIR_GROUP_SHIFT", "// findShard returns") + src.Cut("// Damaged lists.", "__device__ __forceinline__ unsigned laneId")
	harness := hostcxx.Prelude + readWhole + `static inline uint32_t min(uint32_t a, uint32_t b) { return a < b ? a : b; }
// the loads the decoders may make: inside [winLo, winHi)
static uintptr_t winLo, winHi;
static long cur; // the list being decoded
template <class T> static inline T checkedLdg(const T *p) {
	uintptr_t a = (uintptr_t)p;
	if (a < winLo || a + sizeof(T) > winHi) {
		printf("list %ld: a load of %d bytes at %ld, outside [0, %ld)\n", cur, (int)sizeof(T), (long)(a - winLo), (long)(winHi - winLo));
		exit(3);
	}
	return *p;
}
#define __ldg checkedLdg
` + block + `
// usage: check ADJ INDEX: INDEX holds (v, degree, offset, length, vertex count, shift)
// uint32s a list; prints, for each list and each reader (8 and 16 bytes a load), its
// neighbours and "fault" when the decoder recorded one
int main(int argc, char **argv) {
	uint8_t *adj = readWhole(argv[1]);
	if (!adj) return 2;
	FILE *ix = fopen(argv[2], "rb");
	uint32_t e[6];
	for (cur = 0; fread(e, 4, 6, ix) == 6; cur++) {
		size_t room = (e[5] + e[3] + 15) / 16 * 16;
		uint8_t *buf = (uint8_t *)aligned_alloc(16, room + 16);
		memset(buf, 0xAA, room + 16);
		memcpy(buf + e[5], adj + e[2], e[3]);
		winLo = (uintptr_t)buf, winHi = (uintptr_t)buf + room;
		List l;
		l.v = e[0], l.deg = e[1], l.nb = (e[1] + OOC_BLOCK - 1) / OOC_BLOCK, l.base = buf + e[5], l.end = l.base + e[3];
		ooc_vertices = e[4];
		for (int pass = 0; pass < 2; pass++) {
			ooc_fault = 0;
			for (uint32_t k = 0; k < l.nb; k++) {
				uint32_t u;
				if (pass == 0) {
					BlockDecoder d;
					d.init(l, k);
					while (d.next(&u)) printf("%u ", u);
				} else {
					BlockDecoderR<ByteReader16> d;
					d.init(l, k);
					while (d.next(&u)) printf("%u ", u);
				}
			}
			printf(ooc_fault ? "fault\n" : "\n");
		}
		free(buf);
	}
	return 0;
}
`
	bin := hostcxx.Build(t, harness)
	dir := t.TempDir()
	seed := testSeed(t)
	r := rand.New(rand.NewSource(int64(seed)))
	r2 := randv2.New(randv2.NewPCG(seed, 7))
	var adj, index []byte
	type want struct {
		nbrs []uint32
		ok   bool
	}
	var wants []want
	var bad int
	// lists a seed found: a packed block's exception with high part 0 (06 00), which
	// the decoder kept as a neighbour of 2^64-1 and then summed with its gap past 64 bits
	// to a vertex
	fixed := []struct {
		v, d, nv uint32
		enc      string
	}{
		{3153135638, 65, 4294967282, "30000000d3c090fe2e4300048a71527ab490699d104a2006736272a218014cf381c88604040106001be6ffffff013701aadff7c008"},
	}
	for i := range 6000 + len(fixed) {
		nv := uint32(1 + r.Intn(1<<20))
		if r.Intn(4) == 0 {
			nv = 1<<32 - 1 - uint32(r.Intn(16))
		}
		d := []int{1, 2, 3, 4, 6, 8, 20, 63, 64, 65, 128, 129, 200}[r.Intn(13)]
		v := uint32(r.Int63n(int64(nv)))
		enc := AppendList(nil, v, randomNbrs(r2, v, d, nv))
		switch r.Intn(8) {
		case 0: // cut short
			enc = enc[:r.Intn(len(enc))]
		case 1: // a byte changed
			enc[r.Intn(len(enc))] = byte(r.Intn(256))
		case 2: // bytes changed
			for range 1 + r.Intn(8) {
				enc[r.Intn(len(enc))] = byte(r.Intn(256))
			}
		case 3: // bytes added
			enc = append(enc, make([]byte, 1+r.Intn(20))...)
		case 4: // another degree
			d = max(1, d+r.Intn(9)-4)
		case 5: // fewer vertices than the neighbours need
			nv = 1 + uint32(r.Int63n(int64(nv)))
			v = min(v, nv-1)
		case 6: // random bytes
			enc = make([]byte, r.Intn(300))
			for i := range enc {
				enc[i] = byte(r.Intn(256))
			}
		}
		if i < len(fixed) {
			c := fixed[i]
			v, d, nv = c.v, int(c.d), c.nv
			var err error
			if enc, err = hex.DecodeString(c.enc); err != nil {
				t.Fatal(err)
			}
		}
		var it ListIter
		it.Reset(v, uint32(d), enc, nv)
		var w want
		for it.Next() {
			w.nbrs = append(w.nbrs, it.Value())
		}
		w.ok = it.Err() == nil
		if !w.ok {
			bad++
		}
		wants = append(wants, w)
		for _, x := range []uint32{v, uint32(d), uint32(len(adj)), uint32(len(enc)), nv, uint32(r.Intn(16))} {
			index = binary.LittleEndian.AppendUint32(index, x)
		}
		adj = append(adj, enc...)
	}
	fa, fi := filepath.Join(dir, "adj"), filepath.Join(dir, "index")
	if os.WriteFile(fa, adj, 0o644) != nil || os.WriteFile(fi, index, 0o644) != nil {
		t.Fatal("writing the lists")
	}
	out, err := exec.Command(bin, fa, fi).Output()
	if err != nil {
		var k int
		fmt.Sscanf(lastLine(out), "list %d", &k)
		idx := index[24*k:]
		t.Fatalf("seed %d: %v\n%s: v %d, degree %d, vertices %d, shift %d, bytes % x", seed, err, lastLine(out),
			binary.LittleEndian.Uint32(idx), binary.LittleEndian.Uint32(idx[4:]), binary.LittleEndian.Uint32(idx[16:]),
			binary.LittleEndian.Uint32(idx[20:]), adj[binary.LittleEndian.Uint32(idx[8:]):][:binary.LittleEndian.Uint32(idx[12:])])
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 2*len(wants) {
		t.Fatalf("seed %d: %d lines for %d lists", seed, len(lines), len(wants))
	}
	var accepted int
	for i, line := range lines {
		w, idx := wants[i/2], index[24*(i/2):]
		nv := binary.LittleEndian.Uint32(idx[16:])
		fields := strings.Fields(line)
		fault := len(fields) > 0 && fields[len(fields)-1] == "fault"
		if fault {
			fields = fields[:len(fields)-1]
		}
		var got []uint32
		for _, f := range fields {
			var u uint32
			fmt.Sscan(f, &u)
			if u >= nv {
				t.Fatalf("seed %d: list %d: neighbour %d of %d vertices", seed, i/2, u, nv)
			}
			got = append(got, u)
		}
		switch {
		case w.ok && (fault || !slices.Equal(got, w.nbrs)):
			t.Fatalf("seed %d: list %d (%d bytes a load): graph.cuh gives %v (fault %v), Go accepts %v", seed, i/2, 8<<(i%2), got, fault, w.nbrs)
		case !w.ok && !fault:
			accepted++
			if accepted <= 3 {
				t.Errorf("seed %d: list %d (%d bytes a load): graph.cuh accepts %v, Go refuses it", seed, i/2, 8<<(i%2), got)
			}
		}
	}
	if accepted > 0 {
		t.Errorf("seed %d: graph.cuh accepted %d damaged lists of %d", seed, accepted/2, bad)
	}
	t.Logf("seed %d: %d lists, %d damaged", seed, len(wants), bad)
}

// lastLine is the last line of a program's output, for a failure message.
func lastLine(b []byte) string {
	l := strings.Split(strings.TrimSpace(string(b)), "\n")
	return l[len(l)-1]
}
