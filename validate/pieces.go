package validate

import (
	"runtime"
	"sort"
	"sync/atomic"

	"github.com/oocgraph/ooc/internal/fault"
	"github.com/oocgraph/ooc/store"
)

// pieceBytes is the work of one piece: about this many bytes of encoded lists, counting
// four bytes a vertex, so that a shard of hubs and a shard of leaves split alike. Tests
// lower it to cut small graphs into many pieces.
var pieceBytes uint64 = 1 << 20

// piece is a range of one shard's vertices, the unit the checks hand to a worker.
type piece struct {
	s      *store.Shard
	lo, hi uint32
}

// pieces splits every shard of c into pieces of about pieceBytes, in vertex order.
func pieces(c *store.CSR) []piece {
	var ps []piece
	for _, s := range c.Shards {
		weight := func(i uint32) uint64 { return uint64(s.ListOffset(i)) + 4*uint64(i) }
		for i := uint32(0); i < s.N; {
			limit := weight(i) + pieceBytes
			rest := int(s.N - i - 1)
			j := i + 1 + uint32(sort.Search(rest, func(k int) bool { return weight(i+1+uint32(k)) >= limit }))
			ps = append(ps, piece{s, s.Lo + i, s.Lo + j})
			i = j
		}
	}
	return ps
}

// eachPiece runs check on every piece of c on all cores, handing out pieces in vertex
// order, and returns the error of the first failing piece in that order, so the message
// does not depend on scheduling. Pieces after a failed one are skipped; those before it
// all run, since they were handed out first.
func eachPiece(c *store.CSR, check func(s *store.Shard, lo, hi uint32) error) error {
	ps := pieces(c)
	errs := make([]error, len(ps))
	var next, failed atomic.Int64
	failed.Store(int64(len(ps)))
	var wg fault.Group
	for range min(runtime.GOMAXPROCS(0), len(ps)) {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(len(ps)) || i > failed.Load() {
					return
				}
				p := ps[i]
				if errs[i] = check(p.s, p.lo, p.hi); errs[i] != nil {
					for f := failed.Load(); i < f && !failed.CompareAndSwap(f, i); f = failed.Load() {
					}
				}
			}
		})
	}
	wg.Wait()
	return firstNonNil(errs)
}

func firstNonNil(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// blocks decodes one list a block at a time, in order, with the store's branch-free
// block decoder, so that a check that stops early in a long list decodes little of it.
// The lists come from a directory cursor (store.DirCursor), which walks a piece's
// vertices without a shard lookup or a block-index read per call.
type blocks struct {
	list      []byte
	v, deg, k uint32
	nv        uint32
	pos       int
	buf       [store.BlockSize]uint32
}

// reset starts v's list of deg neighbours, whose bytes are list, in a graph of nv vertices.
func (b *blocks) reset(v, deg uint32, list []byte, nv uint32) {
	b.list, b.v, b.deg, b.k, b.nv, b.pos = list, v, deg, 0, nv, store.FirstBlock(deg)
}

// next decodes the next block; it returns nil at the end of the list, and false for
// malformed bytes, a neighbour outside the graph, or a block that does not end where the
// list says (store.BlockEnds).
func (b *blocks) next() ([]uint32, bool) {
	if uint64(b.k)*store.BlockSize >= uint64(b.deg) {
		return nil, true
	}
	c := store.BlockLen(b.deg, b.k)
	pos, ok := store.DecodeBlock(b.buf[:c], b.v, b.list, b.pos, c, b.nv)
	if !ok || !store.BlockEnds(b.list, b.deg, b.k, pos) {
		return nil, false
	}
	b.pos, b.k = pos, b.k+1
	return b.buf[:c], true
}
