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
	g := directedKron(t, 14)
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

// TestPagerFits: a pager drops a first graph's pages once what it counts reaches its
// limit; a graph whose shards take no more than the limit gets none (nil), since its
// pages cannot pass it. Each release costs a madvise a shard and the faults that map
// the pages again: the BFS order of urand20, directed, at --mem 1GiB released its 82 MiB
// graph 5,000 times within a window of 101 MiB.
func TestPagerFits(t *testing.T) {
	g := directedKron(t, 16)
	var mapped int64
	for _, s := range g.Shards() {
		mapped += int64(len(s.Bytes()))
	}
	if mapped <= 1<<20 {
		t.Fatalf("shards of %d bytes, want more than the least limit (1 MiB)", mapped)
	}
	if pg := newPager(g, mapped); pg != nil {
		t.Errorf("a pager for shards of %d bytes within a limit of as many", mapped)
	}
	pg := newPager(g, mapped-1)
	if pg == nil {
		t.Fatalf("no pager for shards of %d bytes within a limit of one byte less", mapped)
	}
	adj := store.NewCompressed(g)
	var buf []uint32
	var err error
	for _, d := range []store.Direction{store.Out, store.In} {
		for v := range g.NumVertices() {
			if buf, err = adj.List(d, v, ^uint32(0), buf); err != nil {
				t.Fatal(err)
			}
		}
	}
	var before int64
	for _, s := range g.Shards() {
		before += mappedRSS(t, s.Bytes())
	}
	pg.add(mapped - 1)
	for _, s := range g.Shards() {
		if rss := mappedRSS(t, s.Bytes()); rss != 0 {
			t.Errorf("%s: %d KiB of its pages resident after the release (%d KiB of the shards before)", filepath.Base(s.Path), rss, before)
		}
	}
	if before == 0 {
		t.Errorf("no page of the shards resident after every list was read")
	}
}

// directedKron is a directed Kronecker graph of 2^scale vertices and edgefactor 16,
// built in the file's order and open until the test ends.
func directedKron(t *testing.T, scale int) *store.Graph {
	t.Helper()
	dir := t.TempDir()
	in := filepath.Join(dir, "k.txt")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Write(f, gen.Spec{Kind: "kron", Scale: scale, EdgeFactor: 16, Seed: 1}, gen.Text, 0); err != nil {
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
	t.Cleanup(func() { g.Close() })
	return g
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
