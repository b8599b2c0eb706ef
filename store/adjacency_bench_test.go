package store

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// kronLikeLists encodes lists like those of a permuted Kronecker graph: ids spread over
// the whole range, so most deltas take two to four bytes.
func kronLikeLists(nv uint32, count int) (lists [][]byte, degs []uint32, owners []uint32) {
	r := rand.New(rand.NewPCG(1, 1))
	for i := 0; i < count; i++ {
		d := 1 + int(r.ExpFloat64()*30)
		nbrs := make([]uint32, d)
		for j := range nbrs {
			nbrs[j] = r.Uint32N(nv)
		}
		slices.Sort(nbrs)
		nbrs = slices.Compact(nbrs)
		v := r.Uint32N(nv)
		lists = append(lists, AppendList(nil, v, nbrs))
		degs = append(degs, uint32(len(nbrs)))
		owners = append(owners, v)
	}
	return
}

func BenchmarkDecodePrefix(b *testing.B) {
	const nv = 1 << 22
	lists, degs, owners := kronLikeLists(nv, 4096)
	dst := make([]uint32, 1024)
	var edges int
	for _, d := range degs {
		edges += int(d)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, l := range lists {
			if !decodePrefix(dst[:degs[j]], owners[j], l, degs[j], nv) {
				b.Fatal("malformed")
			}
		}
	}
	b.ReportMetric(float64(edges)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Medges/s")
}
