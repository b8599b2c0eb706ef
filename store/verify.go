package store

import (
	"hash"
	"hash/crc32"
	"runtime"
	"sync"
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
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, s := range shards {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			errs[i] = verifyLists(s, strict)
			<-sem
		}()
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
