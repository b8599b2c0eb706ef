package store

import (
	"hash"
	"hash/crc32"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/oocgraph/ooc/internal/fault"
)

func newCRC() hash.Hash32 { return crc32.New(castagnoli) }

// Verify opens dir and checks everything the format promises: every checksum, the
// structure of every shard, and that every list decodes to exactly its degree of
// neighbours in range and in ascending order (strictly, unless duplicates were kept).
func Verify(dir string) (*Manifest, error) {
	g, err := Open(dir)
	if err != nil {
		return nil, err
	}
	defer g.Close()
	if err := g.Check(); err != nil {
		return nil, err
	}
	strict := !g.M.Options.KeepDuplicates
	shards := g.Shards()
	errs := make([]error, len(shards))
	var wg fault.Group
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, s := range shards {
		sem <- struct{}{}
		wg.Go(func() {
			errs[i] = verifyLists(s, strict)
			<-sem
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return g.M, nil
}

func verifyLists(s *Shard, strict bool) error {
	var it ListIter
	for v := s.Lo; v < s.Hi(); v++ {
		s.Iter(&it, v)
		first, prev := true, uint32(0)
		for it.Next() {
			u := it.Value()
			if !first && (u < prev || (strict && u == prev)) {
				sec, _ := s.section(SecAdj)
				return corrupt(s.Path, sec.Offset+int64(s.Offsets[v-s.Lo]), "adjacency list of vertex %d is out of order or repeats a neighbour (neighbour %d after %d)", v, u, prev)
			}
			first, prev = false, u
		}
		if it.Err() != nil {
			return s.listError(v)
		}
	}
	return nil
}

// checkIDsDistinct checks that no two vertices share an original id. Ascending ids were
// checked by Open. Others (degree order) are marked in a bitmap over their range, one bit
// per id, when the range is at most 64 ids per vertex (always, unless --relabel kept
// sparse ids), else sorted in a copy.
func (g *Graph) checkIDsDistinct() error {
	if g.M.IDs == nil || g.idsAsc || g.M.Vertices == 0 {
		return nil
	}
	n := int64(g.M.Vertices)
	lo, hi := g.idAt(0), g.idAt(0)
	for i := range n {
		lo, hi = min(lo, g.idAt(i)), max(hi, g.idAt(i))
	}
	dup := func(i int64) error {
		w := int64(4)
		if g.ids64 != nil {
			w = 8
		}
		return corrupt(filepath.Join(g.Dir, g.M.IDs.File), idsHeader+w*i, "original id %d of vertex %d is given to an earlier vertex too", g.idAt(i), i)
	}
	if hi-lo < 64*uint64(n) {
		seen := make([]uint64, (hi-lo)/64+1)
		for i := range n {
			x := g.idAt(i) - lo
			if seen[x/64]&(1<<(x%64)) != 0 {
				return dup(i)
			}
			seen[x/64] |= 1 << (x % 64)
		}
		return nil
	}
	ids := make([]uint64, n)
	for i := range ids {
		ids[i] = g.idAt(int64(i))
	}
	slices.Sort(ids)
	for i := 1; i < len(ids); i++ {
		if ids[i] == ids[i-1] {
			for j := int64(0); ; j++ { // the first vertex whose id occurred before
				if g.idAt(j) == ids[i] {
					for k := j + 1; ; k++ {
						if g.idAt(k) == ids[i] {
							return dup(k)
						}
					}
				}
			}
		}
	}
	return nil
}
