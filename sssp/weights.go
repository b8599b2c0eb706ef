package sssp

import (
	"fmt"
	"math"

	"github.com/oocgraph/ooc/store"
)

// Weights gives the edge weights of a graph, aligned with its out-lists: entry k of
// Of(v) weighs the edge from v to the k-th neighbour of v's (ascending) out-list, so a
// weight is found without decoding anything else. StoreWeights implements it with views
// of the shards' WEIGHTS sections (store/FORMAT.md, version 4); MemWeights and
// UnitWeights are the in-memory implementations.
type Weights interface {
	// Of returns the weights of v's out-list, as many as v's out-degree. The result is a
	// view: the caller does not modify it.
	Of(v uint32) []uint32
	// Max is the largest weight (0 for a graph without edges).
	Max() uint32
	// Float says that the weights are the bit patterns of non-negative finite float32s
	// (store/FORMAT.md, version 7), which order as their bits do; the distances are then
	// float32 bits too (Result.Float).
	Float() bool
}

// MemWeights holds the weights of every out-list in one array, CSR style.
type MemWeights struct {
	off   []uint64 // n+1 entries: v's weights are w[off[v]:off[v+1]]
	w     []uint32
	max   uint32
	float bool
}

// NewMemWeights decodes every out-list of a once and weighs the edge from u to its k-th
// neighbour v by weight(u, v, k).
func NewMemWeights(a store.Adjacency, weight func(u, v uint32, k int) uint32) (*MemWeights, error) {
	n := a.NumVertices()
	m := &MemWeights{off: make([]uint64, uint64(n)+1)}
	for v := range n {
		m.off[v+1] = m.off[v] + uint64(a.Degree(store.Out, v))
	}
	m.w = make([]uint32, m.off[n])
	var buf []uint32
	for u := range n {
		nbrs, err := a.List(store.Out, u, math.MaxUint32, buf)
		if err != nil {
			return nil, err
		}
		buf = nbrs[:0]
		ws := m.w[m.off[u]:m.off[u+1]]
		for k, v := range nbrs {
			ws[k] = weight(u, v, k)
			m.max = max(m.max, ws[k])
		}
	}
	return m, nil
}

// NewMemFloatWeights is NewMemWeights for float32 weights: weight returns the bits of
// a non-negative finite float32 (refused otherwise).
func NewMemFloatWeights(a store.Adjacency, weight func(u, v uint32, k int) uint32) (*MemWeights, error) {
	m, err := NewMemWeights(a, weight)
	if err != nil {
		return nil, err
	}
	for i, x := range m.w {
		if x >= 0x7F800000 {
			return nil, fmt.Errorf("sssp: weight %d is %#08x, not a non-negative finite float32", i, x)
		}
	}
	m.float = true
	return m, nil
}

func (m *MemWeights) Of(v uint32) []uint32 { return m.w[m.off[v]:m.off[v+1]:m.off[v+1]] }
func (m *MemWeights) Max() uint32          { return m.max }
func (m *MemWeights) Float() bool          { return m.float }

// UnitWeights weighs every edge 1, which makes distances BFS levels.
type UnitWeights struct {
	a    store.Adjacency
	ones []uint32
}

// NewUnitWeights gives every edge of a the weight 1.
func NewUnitWeights(a store.Adjacency) *UnitWeights {
	var maxDeg uint32
	for v := range a.NumVertices() {
		maxDeg = max(maxDeg, a.Degree(store.Out, v))
	}
	u := &UnitWeights{a: a, ones: make([]uint32, maxDeg)}
	for i := range u.ones {
		u.ones[i] = 1
	}
	return u
}

func (u *UnitWeights) Of(v uint32) []uint32 {
	d := u.a.Degree(store.Out, v)
	return u.ones[:d:d]
}

func (u *UnitWeights) Float() bool { return false }

func (u *UnitWeights) Max() uint32 {
	if len(u.ones) == 0 {
		return 0
	}
	return 1
}

// errMisaligned reports weights that do not match a list.
func errMisaligned(v uint32, weights, degree int) error {
	return fmt.Errorf("sssp: vertex %d has %d weights for %d out-edges", v, weights, degree)
}

// StoreWeights reads the weights a graph stores (ooc ingest --weights): Of is a view of
// the out-shard's WEIGHTS section, found through its DEGREES prefix sum.
type StoreWeights struct {
	out   *store.CSR
	max   uint32
	float bool
}

// NewStoreWeights gives the stored weights of g, which must hold them, after checking
// the out-shards' checksums (it reads every weight once, for Max, and float32 weights'
// bits: non-negative and finite).
func NewStoreWeights(g *store.Graph) (*StoreWeights, error) {
	if !g.M.Weighted {
		return nil, fmt.Errorf("sssp: %s has no edge weights", g.Dir)
	}
	if err := g.Out().Check(); err != nil {
		return nil, err
	}
	w := &StoreWeights{out: g.Out(), float: g.M.FloatWeights()}
	for _, s := range w.out.Shards {
		for _, x := range s.Weights {
			w.max = max(w.max, x)
		}
		if w.float && w.max >= 0x7F800000 {
			return nil, s.CheckFloatWeights() // the bits order as the floats: one is bad
		}
	}
	return w, nil
}

func (w *StoreWeights) Of(v uint32) []uint32 { return w.out.ShardOf(v).WeightsOf(v) }
func (w *StoreWeights) Max() uint32          { return w.max }
func (w *StoreWeights) Float() bool          { return w.float }
