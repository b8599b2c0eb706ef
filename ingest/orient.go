package ingest

import (
	"errors"
	"fmt"

	"github.com/oocgraph/ooc/ingest/parse"
)

// An undirected ingest that drops duplicates tells a repeated input edge ("u v" twice)
// from a reciprocal pair ("u v" and "v u"): both are one undirected edge, stored once,
// but only the first is a duplicate. Each directed copy's key carries its orientation
// as the lowest bit of its destination, src<<32 | dst<<1 | o, o being 0 for the copy
// the input line names (u -> v) and 1 for its reverse (v -> u). Keys then sort by
// source, neighbour and orientation, and every stage up to the encoding (spill blocks,
// whose entries take the bit like any other of the destination, phase 2's packing and
// radix sort) handles them unchanged. The encoding (mergeOriented) drops the bit and the
// repeated neighbours, and counts a pair {u, v}, u < v, in u's list when its neighbour v
// comes in both orientations. The destination then needs 32 bits for ids below 2^31
// (orientLimit); an undirected ingest keeping sparse ids, or one whose numbering
// reaches 2^31, keeps no orientation and counts reciprocal pairs with the duplicates.
// A numbering found to reach it only while the input is read (the input's own ids) makes
// a file or generated edges ingest again so (againUnoriented); a stream is refused.
// (The weighted build, which holds the input's lines in memory, tells them apart by
// itself: weighted.go's outLists.)

// orientLimit bounds the vertex ids of an oriented ingest: dst<<1 | o fits 32 bits.
// (A variable, so that tests can reach it with small graphs.)
var orientLimit uint64 = 1 << 31

// orientedKey is the key of the copy src -> dst, with orientation o.
func orientedKey(src, dst uint32, o uint32) uint64 {
	return uint64(src)<<32 | uint64(dst)<<1 | uint64(o)
}

// wantsOrientation says whether an ingest with opt tells reciprocal pairs apart: an
// undirected one that drops duplicates and whose ids stay below orientLimit as far as
// it knows (not with --sparse-ids).
func wantsOrientation(opt Options) bool {
	return !opt.Directed && !opt.KeepDuplicates && !opt.SparseIDs && !opt.noOrient
}

// orientIDError is the error of an oriented ingest, which numbers the vertices as the
// input does, meeting an id of orientLimit or more. File (a file can be read again) and
// FromEdges (whose edges can be produced again) then ingest again without orientation;
// a stream cannot be read again, so the error reaches the user.
type orientIDError struct {
	name string
	id   uint64
}

func (e *orientIDError) Error() string {
	return fmt.Sprintf("ingest: %s: vertex id %d is %d or more, which an undirected graph read from a stream in the input's numbering "+
		"cannot hold while it tells reciprocal pairs from duplicates (--relabel numbers the distinct ids 0..n-1; --sparse-ids keeps "+
		"large ids, counting reciprocal pairs u v / v u with the duplicates): %v", e.name, e.id, orientLimit, parse.ErrBadInput)
}

func (e *orientIDError) Unwrap() error { return parse.ErrBadInput }

// againUnoriented runs ingest, and when it fails on an id of orientLimit or more, runs
// it once more with keys that carry no orientation (reciprocal pairs then count with
// the duplicates, as the summary says). again says whether the input can be read again.
func againUnoriented(opt Options, again bool, ingest func(Options) (*Report, error)) (*Report, error) {
	rep, err := ingest(opt)
	var oe *orientIDError
	if errors.As(err, &oe) && again && !opt.noOrient {
		opt.noOrient = true
		return ingest(opt)
	}
	return rep, err
}

// mergeOriented drops the orientation bit and the repeated neighbours of the oriented
// keys of one source s, sorted, in place, and returns the list left and the reciprocal
// pairs it found: neighbours above s present in both orientations. (About 0.6 ns a key
// more than slices.Compact on lists of 32 keys.)
func mergeOriented(list []uint64, s uint32) ([]uint64, uint64) {
	var pairs uint64
	j := 0
	prev := ^uint64(0) // no key: a source's keys are below 2^63
	for _, k := range list {
		switch {
		case k>>1 != prev>>1:
			list[j] = k>>32<<32 | k&(1<<32-1)>>1
			j++
		case k&1 > prev&1 && uint32(k)>>1 > s: // the first reversed copy after a forward one
			pairs++
		}
		prev = k
	}
	return list[:j], pairs
}
