package ingest

import (
	"cmp"
	"slices"
	"sync"
	"testing"

	"github.com/oocgraph/ooc/ingest/parse"
)

// TestDegreeCounter counts random batches from several goroutines and compares the sums
// with a sequential count.
func TestDegreeCounter(t *testing.T) {
	rng, _ := seededRand(t, 13)
	const n = 5 << degPageBits
	var batches [][]parse.Edge
	for range 40 {
		b := make([]parse.Edge, rng.IntN(3000))
		for i := range b {
			b[i] = parse.Edge{U: rng.Uint64N(n), V: rng.Uint64N(n)}
			if i%7 == 0 {
				b[i].U = rng.Uint64N(3) // hubs
			}
			if i%11 == 0 {
				b[i].V = b[i].U // self-loops
			}
		}
		batches = append(batches, b)
	}
	for _, keepLoops := range []bool{false, true} {
		want := make([]uint32, n)
		var top uint64
		for _, b := range batches {
			for _, e := range b {
				top = max(top, e.U+1, e.V+1)
				if e.U != e.V || keepLoops {
					want[e.U]++
					want[e.V]++
				}
			}
		}
		c := new(degreeCounter)
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := g; i < len(batches); i += 4 {
					c.add(batches[i], keepLoops)
				}
			}()
		}
		wg.Wait()
		if c.top.Load() != top {
			t.Errorf("top %d, want %d", c.top.Load(), top)
		}
		if got := c.flatten(top, 3); !slices.Equal(got, want[:top]) {
			t.Errorf("self-loops kept %v: counts differ", keepLoops)
		}
	}
}

// TestByPage: the ids come back a permutation of the input, pages ascending, whether
// their pages span one counting pass or need the radix sort.
func TestByPage(t *testing.T) {
	rng, seed := seededRand(t, 14)
	for _, span := range []uint64{1, 5 << degPageBits, 1 << (degPageBits + pagePassBits), MaxVertexID} {
		ids := make([]uint64, 1+rng.IntN(5000))
		for i := range ids {
			ids[i] = rng.Uint64N(span)
		}
		in := slices.Clone(ids)
		got := slices.Clone(byPage(ids, make([]uint64, len(ids))))
		if !slices.IsSortedFunc(got, func(a, b uint64) int { return cmp.Compare(a>>degPageBits, b>>degPageBits) }) {
			t.Fatalf("seed %d, span %d: pages out of order", seed, span)
		}
		slices.Sort(got)
		slices.Sort(in)
		if !slices.Equal(got, in) {
			t.Fatalf("seed %d, span %d: not a permutation of the input", seed, span)
		}
	}
}

// TestGroupSort: phase 1's sort by group leaves the keys a permutation of the input in
// ascending groups (and, by source, ascending sources), whether the groups present span
// few bits (one counting pass) or many (the radix passes).
func TestGroupSort(t *testing.T) {
	rng, seed := seededRand(t, 15)
	for _, srcBits := range []int{8, 15, 22, 23, 24, 28, 32} {
		for _, bySource := range []bool{false, true} {
			n := 100 + rng.IntN(5000)
			keys := make([]uint64, n)
			for i := range keys {
				keys[i] = key(uint32(rng.Uint64N(1<<srcBits)), rng.Uint32())
			}
			in := slices.Clone(keys)
			gb := minGroupBits + groupBits(srcBits)%(maxGroupBits-minGroupBits+1)
			got := slices.Clone(groupSort(keys, make([]uint64, n), bySource, gb))
			for i := 1; i < n; i++ {
				if gb.of(got[i]) < gb.of(got[i-1]) || bySource && keySrc(got[i]) < keySrc(got[i-1]) {
					t.Fatalf("seed %d, %d source bits, by source %v: keys %d and %d out of order", seed, srcBits, bySource, i-1, i)
				}
			}
			slices.Sort(in)
			slices.Sort(got)
			if !slices.Equal(in, got) {
				t.Fatalf("seed %d, %d source bits: not a permutation of the input", seed, srcBits)
			}
		}
	}
}

// TestMSDSortPacked: the MSD pass and the LSD sorts below it return the unpacked keys
// sorted, for top digits of 1 to 11 bits, whether 0, 1, 2 or 3 LSD passes remain below
// them (both parities of the buffer they end in), and with buckets too large for one
// LSD sort (skewed keys, most in one bucket), which are split again.
func TestMSDSortPacked(t *testing.T) {
	rng, seed := seededRand(t, 6)
	for _, packed := range []uint{5, 11, 20, 33, 40} {
		for _, nbits := range []uint{1, 5, 11} {
			if nbits > packed {
				continue
			}
			pk := packing{dstBits: packed / 2, srcLo: 7}
			d := digit{shift: packed - nbits, mask: 1<<nbits - 1}
			n, skewed := 1+rng.IntN(20000), rng.IntN(2) == 0
			if skewed {
				n = 3*msdBucketMax + rng.IntN(msdBucketMax)
			}
			keys := make([]uint64, n)
			var count [1 << wideBits]uint32
			want := make([]uint64, len(keys))
			for i := range keys {
				keys[i] = rng.Uint64N(1 << packed)
				if skewed && i%8 != 0 { // the top digit's bucket 1, and a narrow one below it
					keys[i] = 1<<d.shift | keys[i]&(1<<(d.shift*3/4)-1)
				}
				count[keys[i]>>d.shift&d.mask]++
				want[i] = pk.unpack(keys[i])
			}
			slices.Sort(want)
			if got := msdSortPacked(keys, make([]uint64, len(keys)), &count, d, pk); !slices.Equal(got, want) {
				t.Fatalf("seed %d: %d packed bits, top digit of %d, skewed %v: not sorted", seed, packed, nbits, skewed)
			}
		}
	}
}

// TestDegreeOrderSort compares the degree order, on one and on several goroutines, with a
// stable comparison sort: degrees descending, ties by ascending id, hubs above the
// counting sort's cap included.
func TestDegreeOrderSort(t *testing.T) {
	rng, seed := seededRand(t, 12)
	for _, n := range []int{0, 1, 7, 1 << 16, 5<<16 + 123} {
		for _, top := range []uint32{0, 1, 40, degCap, degCap + 1, 1 << 30} {
			deg := make([]uint32, n)
			for v := range deg {
				deg[v] = uint32(rng.Uint64N(uint64(min(top, 50)) + 1))
				if rng.IntN(1000) == 0 {
					deg[v] = uint32(rng.Uint64N(uint64(top) + 1)) // a hub
				}
			}
			want := make([]uint32, n)
			for v := range want {
				want[v] = uint32(v)
			}
			slices.SortStableFunc(want, func(a, b uint32) int { return cmp.Compare(deg[b], deg[a]) })
			for _, workers := range []int{1, 3, 16} {
				perm, inv := degreeOrder(deg, workers)
				if !slices.Equal(inv, want) {
					t.Fatalf("seed %d, %d vertices, top %d, %d workers: order differs", seed, n, top, workers)
				}
				for i, v := range inv {
					if perm[v] != uint32(i) {
						t.Fatalf("seed %d, %d vertices, top %d, %d workers: perm is not inv's inverse", seed, n, top, workers)
					}
				}
			}
		}
	}
}
