package pagerank

import (
	"github.com/oocgraph/ooc/store"
)

// pullCompressed fills sums[v-lo] with the sum of contrib over the in-neighbours of
// each v in [lo, hi), decoding each list where it lies and adding each neighbour's
// contribution as it is decoded: no decode buffer and no call per vertex. PageRank reads
// every list in every iteration, so the decoding is most of its time. The decoding is
// that of store.Compressed.Range (FORMAT.md: a block index, then blocks of
// store.BlockSize neighbours, each a zigzag offset from v followed by gaps), written out
// here as bfs/topdown.go does, with one-byte gaps taken inline.
func pullCompressed(c *store.Compressed, lo, hi uint32, contrib []float32, sums []float64, nv uint32) error {
	var cur store.DirCursor
	for v := lo; v < hi; {
		s := c.Shard(store.In, v)
		cur.Reset(s)
		for end := min(hi, s.Hi()); v < end; v++ {
			d, list := cur.At(v - s.Lo)
			if d == 0 {
				continue
			}
			sum, ok := sumList(list, v, d, contrib, uint64(nv))
			if !ok {
				return s.ListError(v)
			}
			sums[v-lo] = sum
		}
	}
	return nil
}

// sumList adds contrib over the d neighbours of v encoded in list; false means malformed
// bytes, a neighbour outside [0, nv), or a block that does not end where the list says
// (store.BlockEnds). It decodes a block at a time into an array on
// the stack and then adds the block's contributions: the loads of a block, which miss
// the cache on graphs numbered at random, are then independent of the decoding and
// overlap, where adding each neighbour as it is decoded measured up to 1.5x slower.
func sumList(list []byte, v, d uint32, contrib []float32, nv uint64) (float64, bool) {
	pos := store.FirstBlock(d) // the blocks are read in order: skip the index
	var sum float64
	var block [store.BlockSize]uint32
	for j, k := uint32(0), uint32(0); j < d; j, k = j+store.BlockLen(d, k), k+1 {
		// store.BlockEnds's checks: each block after the first where the index says,
		// the list's end after the loop
		if k > 0 && !store.BlockIndexed(list, k, pos) {
			return 0, false
		}
		c := store.BlockLen(d, k)
		var ok bool
		if pos, ok = store.DecodeBlock(block[:c], v, list, pos, c, uint32(nv)); !ok {
			return 0, false
		}
		for _, u := range block[:c] {
			sum += float64(contrib[u])
		}
	}
	return sum, pos == len(list)
}
