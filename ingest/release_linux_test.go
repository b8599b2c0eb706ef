package ingest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/oocgraph/ooc/gen"
	"github.com/oocgraph/ooc/store"
)

// TestWindowReleasesShards: a weighed window's lists are decoded into its own arrays,
// and then the pages of the shards it read leave the resident set (a fault maps a whole
// folio of the page cache, on kernels with large folios a whole freshly written shard),
// so that the two-pass weighted ingest of a directed graph does not hold both
// directions' shards beside its windows.
func TestWindowReleasesShards(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "k.txt")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Write(f, gen.Spec{Kind: "kron", Scale: 14, EdgeFactor: 16, Seed: 1}, gen.Text, 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	dest := filepath.Join(dir, "k.ooc")
	if _, err := File(in, Options{Dest: dest, Directed: true, Order: store.OrderInput}); err != nil {
		t.Fatal(err)
	}
	g, err := store.Open(dest)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	n := g.NumVertices()
	for _, c := range []*store.CSR{g.Out(), g.In()} {
		lo, hi := n/4, n/2
		l, err := newWWindow(c, lo, hi, false, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range c.Shards {
			if rss := mappedRSS(t, s.Bytes()); rss != 0 {
				t.Errorf("%s: %d KiB of its pages resident after the window was read", filepath.Base(s.Path), rss)
			}
		}
		var want []uint32
		for v := lo; v < hi; v++ {
			s := shardOf(c, v)
			if want, err = s.Neighbors(want[:0], v); err != nil {
				t.Fatal(err)
			}
			if got := l.nbrs[l.first[v-lo]:l.first[v-lo+1]]; !slices.Equal(got, want) {
				t.Fatalf("%v: vertex %d's list %v, want %v", c.Dir, v, got, want)
			}
		}
	}
}

// mappedRSS is the resident size, in KiB, of the mapping that holds b (its Rss line in
// /proc/self/smaps).
func mappedRSS(t *testing.T, b []byte) int64 {
	t.Helper()
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	in := false
	for _, line := range strings.Split(string(smaps), "\n") {
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 {
			in = lo <= p && p < hi
			continue
		}
		var kb int64
		if in && strings.HasPrefix(line, "Rss:") {
			fmt.Sscanf(strings.TrimPrefix(line, "Rss:"), "%d", &kb)
			return kb
		}
	}
	t.Fatalf("no mapping holds %#x", p)
	return 0
}
