package sssp

import (
	"fmt"
	"math"

	"github.com/oocgraph/ooc/store"
)

// unreachedPast answers for a run, on either engine, whose relaxations summed past the
// largest distance somewhere: such a sum improves nothing, and it is an error only where
// nothing shorter reached the vertex by the end. After a run, a vertex left unreached
// that a reached vertex's out-list names was reached only past the largest distance (the
// run relaxed every reached vertex), so the error names the first such vertex; nil when
// there is none.
func unreachedPast(a store.Adjacency, float bool, dist []uint32) error {
	var buf []uint32
	for u, du := range dist {
		if du == Inf {
			continue
		}
		nbrs, err := a.List(store.Out, uint32(u), math.MaxUint32, buf)
		if err != nil {
			return err
		}
		buf = nbrs[:0] // keep a grown decode buffer (Flat ignores it and writes nothing)
		for _, v := range nbrs {
			if dist[v] != Inf {
				continue
			}
			if float {
				return fmt.Errorf("sssp: the distance to vertex %d exceeds the largest float32 (%g)", v, math.MaxFloat32)
			}
			return fmt.Errorf("sssp: the distance to vertex %d exceeds %d", v, uint32(Inf-1))
		}
	}
	return nil
}
