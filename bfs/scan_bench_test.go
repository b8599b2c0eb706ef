package bfs

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
)

// scanDecoded is store.ScanList checking each block after its first neighbour by decoding
// the block whole (store.DecodeBlock) and then scanning it: the reference that
// BenchmarkScanFrontier measures store.FindInBlock against.
func scanDecoded(list []byte, v, d, nv uint32, front []uint64, buf *[store.BlockSize]uint32) (u, checked uint32, status int) {
	pos := store.FirstBlock(d)
	for k := uint32(0); checked < d; k++ {
		c := store.BlockLen(d, k)
		x, ok := store.FirstNeighbour(v, list, pos, c, nv)
		if !ok {
			return 0, checked, store.Malformed
		}
		checked++
		if front[x>>6]&(1<<(x&63)) != 0 {
			return x, checked, store.Found
		}
		if c == 1 {
			break
		}
		next, ok := store.DecodeBlock(buf[:c], v, list, pos, c, nv)
		if !ok {
			return 0, checked, store.Malformed
		}
		for _, x := range buf[1:c] {
			checked++
			if front[x>>6]&(1<<(x&63)) != 0 {
				return x, checked, store.Found
			}
		}
		pos = next
	}
	return 0, checked, store.NotFound
}

// BenchmarkScanFrontier scans every list of the graph in OOC_BENCH_GRAPH (a graph
// directory) against random frontiers of 1/2 to 1/64 of the vertices, a directory
// group at a time with store.ScanGroup ("group"), a list at a time with store.ScanList
// ("find") and with whole-block decoding ("decode"), side by side.
func BenchmarkScanFrontier(b *testing.B) {
	g, _ := testgraph.BenchGraph(b)
	nv := g.NumVertices()
	r := rand.New(rand.NewPCG(1, 2))
	for _, k := range []int{1, 3, 6} {
		front := make([]uint64, (nv+63)/64)
		for i := range front {
			front[i] = ^uint64(0)
			for range k {
				front[i] &= r.Uint64()
			}
		}
		if nv%64 != 0 {
			front[len(front)-1] &= 1<<(nv%64) - 1
		}
		for _, mode := range []string{"group", "find", "decode"} {
			b.Run(fmt.Sprintf("density=1/%d/%s", 1<<k, mode), func(b *testing.B) {
				var buf [store.BlockSize]uint32
				var sum uint64
				var r store.GroupScan
				for range b.N {
					for _, s := range g.Shards() {
						if mode == "group" {
							for gr := uint32(0); gr*store.DirGroup < s.N; gr++ {
								if s.ScanGroup(gr, ^uint64(0), nv, front, &r) >= 0 {
									b.Fatal("malformed list")
								}
								sum += r.Checked
							}
							continue
						}
						for i := range s.N {
							d, list := s.ListAt(i)
							if d == 0 {
								continue
							}
							var checked uint32
							var st int
							if mode == "find" {
								_, checked, st = store.ScanList(list, s.Lo+i, d, nv, front)
							} else {
								_, checked, st = scanDecoded(list, s.Lo+i, d, nv, front, &buf)
							}
							if st == store.Malformed {
								b.Fatal("malformed list")
							}
							sum += uint64(checked)
						}
					}
				}
				b.ReportMetric(float64(sum)/b.Elapsed().Seconds()/1e6, "Mchecked/s")
			})
		}
	}
}
