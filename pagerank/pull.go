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
// bytes or a neighbour outside [0, nv). It decodes a block at a time into an array on
// the stack and then adds the block's contributions: the loads of a block, which miss
// the cache on graphs numbered at random, are then independent of the decoding and
// overlap, where adding each neighbour as it is decoded measured up to 1.5x slower.
func sumList(list []byte, v, d uint32, contrib []float32, nv uint64) (float64, bool) {
	pos := 0
	if nb := store.NumBlocks(d); nb > 1 {
		pos = 4 * int(nb-1) // skip the block index: the blocks are read in order
	}
	var sum float64
	var block [store.BlockSize]uint32
	for j := uint32(0); j < d; {
		x, p := store.FastUvarint(list, pos)
		f := int64(v) + store.Unzigzag(x)
		if p < 0 || f < 0 || f >= int64(nv) {
			return 0, false
		}
		cur := uint64(f)
		k := min(d-j, store.BlockSize)
		block[0] = uint32(cur)
		for i := uint32(1); i < k; i++ {
			if uint(p) < uint(len(list)) && list[p] < 0x80 {
				x, p = uint64(list[p]), p+1
			} else {
				x, p = store.FastUvarint(list, p)
			}
			cur += x
			if p < 0 || x >= nv || cur >= nv {
				return 0, false
			}
			block[i] = uint32(cur)
		}
		for _, u := range block[:k] {
			sum += float64(contrib[u])
		}
		j += k
		pos = p
	}
	return sum, true
}
