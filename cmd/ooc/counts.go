package main

import (
	"github.com/oocgraph/ooc/ingest"
	"github.com/oocgraph/ooc/store"
)

// graphCounts are the manifest's counts that info, ingest and bench print alike, at the
// top level of their --json objects.
type graphCounts struct {
	Vertices          uint32  `json:"vertices"`
	Edges             uint64  `json:"edges"`
	Directed          bool    `json:"directed"`
	Weighted          bool    `json:"weighted,omitempty"`    // edge weights stored (a WEIGHTS section)
	WeightType        string  `json:"weight_type,omitempty"` // "float32" for float weights; absent: integers
	InputEdges        uint64  `json:"input_edges"`
	SelfLoopsDropped  uint64  `json:"self_loops_dropped"`
	DuplicatesDropped uint64  `json:"duplicates_dropped"`
	ReciprocalPairs   *uint64 `json:"reciprocal_pairs_merged,omitempty"` // counted apart from the duplicates (ingest.DroppedText)
	Bytes             int64   `json:"bytes"`
	BitsPerEdge       float64 `json:"bits_per_edge"`
	Shards            int     `json:"shards"`
}

func countsOf(m *store.Manifest) graphCounts {
	return graphCounts{Vertices: m.Vertices, Edges: m.Edges, Directed: m.Directed, Weighted: m.Weighted, WeightType: m.WeightType, InputEdges: m.InputEdges,
		SelfLoopsDropped: m.SelfLoopsDropped, DuplicatesDropped: m.DuplicatesDropped, ReciprocalPairs: m.ReciprocalPairs, Bytes: m.Bytes,
		BitsPerEdge: bitsPerEdge(m), Shards: len(m.Out) + len(m.In)}
}

// dropped says what the ingest dropped and merged, as its summary says it.
func (c graphCounts) dropped() string {
	return ingest.DroppedText(&store.Manifest{Directed: c.Directed, SelfLoopsDropped: c.SelfLoopsDropped,
		DuplicatesDropped: c.DuplicatesDropped, ReciprocalPairs: c.ReciprocalPairs})
}

// bitsPerEdge is the graph's size per directed edge stored, offsets included.
func bitsPerEdge(m *store.Manifest) float64 {
	copies := m.Edges
	if m.Directed {
		copies *= 2
	}
	if copies == 0 {
		return 0 // no edges: no per-edge size to speak of
	}
	return 8 * float64(m.Bytes) / float64(copies)
}
