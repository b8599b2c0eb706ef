package ingest

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/internal/hostcxx"
	"github.com/oocgraph/ooc/internal/testseed"
	"github.com/oocgraph/ooc/store"
)

// TestBuildCuEncoder compiles build.cu's list encoder (planBlock, blockBytes, putBlock) as
// host C++, with the CUDA qualifiers defined away, and holds the blocks it writes to
// store.AppendList's, byte for byte, on lists of every shape the codings are for: the GPU
// ingest's encoder checked on a machine without a GPU (the cuda tests compare whole
// graphs on the device). It needs g++.
func TestBuildCuEncoder(t *testing.T) {
	src := hostcxx.Read(t, "build.cu")
	code := src.Cut("// ---- values that are scanned", "// nbrBytes is neighbour i's share") +
		src.Cut("// ---- encoding", "// encode writes the blocks")
	dir := t.TempDir()
	harness := hostcxx.Prelude + `#define OOC_BLOCK 64u
static inline int __clz(uint32_t x) { return x ? __builtin_clz(x) : 32; }
template <class T> static inline T min(T a, T b) { return a < b ? a : b; }
template <class T> static inline T max(T a, T b) { return a > b ? a : b; }
` + code + `
// usage: check LISTS: LISTS holds per list v, d and d neighbours (uint32); prints each
// list's blocks (no block index) in hex on a line, each block blockBytes long
int main(int argc, char **argv) {
	FILE *f = fopen(argv[1], "rb");
	uint32_t h[2];
	static uint64_t uk[1 << 16];
	static uint8_t out[1 << 20];
	while (fread(h, 4, 2, f) == 2) {
		uint32_t v = h[0], d = h[1];
		for (uint32_t i = 0; i < d; i++) {
			uint32_t x;
			if (fread(&x, 4, 1, f) != 1) return 2;
			uk[i] = (uint64_t)v << 32 | x;
		}
		for (uint32_t j = 0; j < d; j += OOC_BLOCK) {
			uint32_t c = min(OOC_BLOCK, d - j);
			uint64_t n = blockBytes(uk, j, c, v);
			putBlock(out, uk, j, c, v);
			for (uint64_t i = 0; i < n; i++) printf("%02x", out[i]);
		}
		printf("\n");
	}
	return 0;
}
`
	bin := hostcxx.Build(t, harness)
	seed := testseed.Seed(t)
	r := rand.New(rand.NewPCG(seed, 7))
	var in []byte
	var want bytes.Buffer
	for trial := range 4000 {
		nv := 1 + r.Uint32N(1<<20)
		if trial%4 == 0 {
			nv = 1<<32 - 1 - r.Uint32N(16)
		}
		d := []int{1, 2, 3, 4, 5, 6, 8, 9, 20, 63, 64, 65, 130, 1000}[trial%14]
		v := r.Uint32N(nv)
		l := encoderList(r, v, d, nv)
		in = binary.LittleEndian.AppendUint32(in, v)
		in = binary.LittleEndian.AppendUint32(in, uint32(len(l)))
		for _, x := range l {
			in = binary.LittleEndian.AppendUint32(in, x)
		}
		enc := store.AppendList(nil, v, l)
		want.WriteString(hex.EncodeToString(enc[store.FirstBlock(uint32(len(l))):]))
		want.WriteByte('\n')
	}
	file := filepath.Join(dir, "lists")
	if err := os.WriteFile(file, in, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := exec.Command(bin, file).Output()
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(want.String(), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("seed %d: list %d: build.cu writes %s, store.AppendList %s", seed, i, gl[i], wl[i])
			}
		}
		t.Fatalf("seed %d: build.cu gives %d lists, want %d", seed, len(gl), len(wl))
	}
}

// encoderList draws a sorted list of about d neighbours of v in [0, nv) of a shape one
// of the block codings is for: uniform (packed), runs with jumps (compact with
// exceptions), symmetric about v (mirrored), small gaps with duplicates (varints, packed).
func encoderList(r *rand.Rand, v uint32, d int, nv uint32) []uint32 {
	var l []uint32
	switch r.IntN(4) {
	case 0:
		for range d {
			l = append(l, r.Uint32N(nv))
		}
	case 1:
		x := r.Uint32N(nv)
		for len(l) < d {
			if r.IntN(12) == 0 {
				x = r.Uint32N(nv)
			}
			l = append(l, x)
			x = min(x+1, nv-1)
		}
	case 2:
		for k := uint32(0); len(l)+2 <= d; {
			k += 1 + r.Uint32N(1+r.Uint32N(3000))
			if k > v || uint64(v)+uint64(k) >= uint64(nv) {
				break
			}
			l = append(l, v-k, v+k)
		}
	default:
		x := r.Uint32N(nv)
		for range d {
			l = append(l, x)
			x = min(x+r.Uint32N(4), nv-1)
		}
	}
	if len(l) == 0 {
		l = append(l, r.Uint32N(nv))
	}
	slices.Sort(l)
	return l
}
