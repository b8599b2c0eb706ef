package gpu

import (
	"fmt"

	"github.com/oocgraph/ooc/store"
)

// The fault word of store/graph.cuh (ooc_fault): the device decoders record there the
// first list they refuse, as faultSet | reason << 32 | vertex.
const (
	faultNeighbour = 1  // FAULT_NEIGHBOUR: a neighbour at or past the vertex count
	faultBytes     = 2  // FAULT_BYTES: a block read past its bytes, or ended before its last byte
	faultIndex     = 3  // FAULT_INDEX: the block index puts a block outside its list
	faultSetBit    = 63 // FAULT_SET_BIT
)

// ListError reports a list a device decoder refused: bytes whose checksums hold (Check
// passed) but that do not decode to the list's degree of neighbours below the vertex count,
// which only a graph written outside ooc's builder holds. The run that met it gives no
// answer. It matches store.ErrCorrupt.
type ListError struct {
	Graph  string   // the graph's directory
	Vertex uint32   // the vertex (internal id) whose list was refused
	Reason string   // what the device found
	Shards []string // the shards holding the vertex's lists, when Err is nil
	Err    error    // the CPU decoder's error for the list (a *store.CorruptError naming its shard), or nil
	Run    error    // the run's own error (a CUDA call or a host check that failed after the fault), or nil
}

func (e *ListError) Error() string {
	where := fmt.Sprintf("its lists in %v", e.Shards)
	if e.Err != nil {
		where = e.Err.Error()
	}
	run := ""
	if e.Run != nil {
		run = fmt.Sprintf(" (the run then failed: %v)", e.Run)
	}
	return fmt.Sprintf("gpu: graph %s: the list of vertex %d is damaged (%s) though its checksums hold: %s; run `ooc verify %s`%s",
		e.Graph, e.Vertex, e.Reason, where, e.Graph, run)
}

func (e *ListError) Is(target error) bool { return target == store.ErrCorrupt }

// Unwrap gives the CPU decoder's error and the run's own, those that are set.
func (e *ListError) Unwrap() []error {
	var errs []error
	for _, err := range []error{e.Err, e.Run} {
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// runError is what a run that read its fault word returns: the ListError of a list the
// device refused in preference to the run's own error run (a refused list can make a later
// launch or host check fail, so the fault is the cause), which it carries; run alone when
// no list was refused or the word could not be read (fault is then not a *ListError: a
// failed context fails the read too).
func runError(fault, run error) error {
	if fault == nil {
		return run
	}
	le, ok := fault.(*ListError)
	if !ok {
		if run != nil {
			return run
		}
		return fault
	}
	le.Run = run
	return le
}

// listError turns a nonzero fault word into the error that names the list: the CPU's
// decoder (which bounds every neighbour and read) runs over the vertex's out- and in-list
// to name the shard and offset.
func listError(g *store.Graph, w uint64) error {
	v, reason := uint32(w), "an unknown fault"
	switch (w >> 32) & 0xff {
	case faultNeighbour:
		reason = "a neighbour at or past the vertex count"
	case faultBytes:
		reason = "a block read past its bytes, or ending before its last byte"
	case faultIndex:
		reason = "its block index points outside the list"
	}
	e := &ListError{Graph: g.Dir, Vertex: v, Reason: reason}
	if v >= g.NumVertices() {
		return e
	}
	csrs := []*store.CSR{g.Out()}
	if g.In() != g.Out() {
		csrs = append(csrs, g.In())
	}
	var it store.ListIter
	for _, c := range csrs {
		s := c.ShardOf(v)
		e.Shards = append(e.Shards, s.Path)
		s.Iter(&it, v)
		for it.Next() {
		}
		if it.Err() != nil && e.Err == nil {
			e.Err = s.ListError(v)
		}
	}
	return e
}
