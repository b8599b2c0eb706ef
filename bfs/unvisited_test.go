package bfs

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
)

// TestUnvisited holds the gathered test of a block's parents to a loop over them, on
// random parent arrays and blocks of every length, indexes past the array included
// (never loaded, never set).
func TestUnvisited(t *testing.T) {
	if !haveGather {
		t.Skip("no AVX2: claimList tests its parents one by one")
	}
	r := rand.New(rand.NewPCG(7, 19))
	for trial := range 5000 {
		parent := make([]uint32, 1+r.IntN(300))
		for i := range parent {
			if r.IntN(3) == 0 {
				parent[i] = unreached
			}
		}
		var buf [store.BlockSize]uint32
		for i := range buf {
			buf[i] = r.Uint32N(uint32(len(parent)))
			if trial%7 == 0 && r.IntN(8) == 0 {
				buf[i] = uint32(len(parent)) + r.Uint32N(1<<31)
			}
		}
		n := r.IntN(store.BlockSize + 1)
		var want uint64
		for k, v := range buf[:n] {
			if int(v) < len(parent) && parent[v] == unreached {
				want |= 1 << k
			}
		}
		if got := unvisited(parent, &buf, n); got != want {
			t.Fatalf("n=%d: unvisited %#x, want %#x (parent %v, block %v)", n, got, want, parent, buf[:n])
		}
	}
}

// TestClaimListDuplicates searches top-down from a hub whose list holds each neighbour
// twice, as --keep-duplicates stores them: each vertex is claimed and queued once. The
// hubs' lists take each path of expandSerial: longer than smallList (claimList), one
// block of 17-64 and one of 8-16 (claimed inline).
func TestClaimListDuplicates(t *testing.T) {
	for _, n := range []uint32{200, 33, 21, 9, 5} {
		lists := make([][]uint32, n)
		for v := uint32(1); v < n; v++ {
			lists[0] = append(lists[0], v, v)
			lists[v] = []uint32{0}
		}
		g := testgraph.BuildLists(t, lists, store.CreateOptions{})
		r, err := Run(store.NewCompressed(g), 0, Options{Workers: 1, Alpha: 1}) // top-down only
		if err != nil {
			t.Fatal(err)
		}
		if r.Reached != uint64(n) || len(r.Levels) < 2 || r.Levels[1].Frontier != uint64(n-1) {
			t.Fatalf("hub of %d: reached %d, levels %+v; want %d reached, %d at level 1", 2*(n-1), r.Reached, r.Levels, n, n-1)
		}
		want := slices.Repeat([]uint32{0}, int(n))
		if !slices.Equal(r.Parent, want) {
			t.Fatalf("hub of %d: parents %v, want %v", 2*(n-1), r.Parent, want)
		}
	}
}

// TestBFSPureGo runs the searches' reference tests with the gathered claims off, where
// the processor has them.
func TestBFSPureGo(t *testing.T) {
	if !haveGather {
		t.Skip("no AVX2: the other tests ran the pure-Go claims")
	}
	haveGather = false
	defer func() { haveGather = true }()
	t.Run("cases", TestBFSCases)
	t.Run("random", TestBFSRandom)
	t.Run("duplicates", TestClaimListDuplicates)
}
