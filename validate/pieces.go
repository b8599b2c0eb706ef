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

// lists decodes adjacency lists a block at a time with the store's branch-free decoder
// (a byte-at-a-time one mispredicts a branch per neighbour), so that a check that stops
// early in a long list decodes little of it.
type lists struct {
	c   *store.Compressed
	d   store.Direction
	buf []uint32
}

func newLists(c *store.Compressed, d store.Direction) *lists {
	return &lists{c: c, d: d, buf: make([]uint32, store.BlockSize)}
}

// block returns neighbours k..k+BlockSize-1 of v (fewer at the end of its list); k is a
// multiple of BlockSize. The slice is valid until the next call.
func (l *lists) block(v, k uint32) ([]uint32, error) {
	b, err := l.c.Slice(l.d, v, k, k+store.BlockSize, l.buf)
	if err == nil {
		l.buf = b
	}
	return b, err
}
