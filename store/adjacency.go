package store

import "math/bits"

// Adjacency is how the CPU kernels (and afforest) read a graph: either the compressed
// shards in place (Compressed) or an uncompressed in-memory CSR (Flat, the baseline).
// The hot loops that must stop early (bottom-up BFS) switch on the concrete type; the
// others fetch whole lists through List, one call per vertex, never per neighbour.
type Adjacency interface {
	NumVertices() uint32
	NumEdges() uint64 // directed edges stored per direction
	Directed() bool
	Degree(d Direction, v uint32) uint32
	// List returns the first min(limit, degree) neighbours of v in direction d, in
	// ascending order. It may decode into buf (growing it) or return a view of memory it
	// owns; the result is valid until the next call with the same buf.
	List(d Direction, v, limit uint32, buf []uint32) ([]uint32, error)
	// Slice is List for the neighbours at positions [lo, hi) of the list (hi is clipped
	// to the degree); lo must be a multiple of BlockSize, so that a compressed list
	// can start decoding at a block (FORMAT.md: each block restarts the delta coding).
	Slice(d Direction, v, lo, hi uint32, buf []uint32) ([]uint32, error)
	// Range calls fn with the first min(limit, degree) neighbours of each vertex v in
	// [lo, hi) that has any and for which keep (when not nil) returns true, in vertex
	// order; it decodes into *scratch (growing it). This is the cheap way to sweep
	// vertices: no shard lookup or interface call per vertex.
	Range(d Direction, lo, hi, limit uint32, scratch *[]uint32, keep func(v uint32) bool, fn func(v uint32, nbrs []uint32)) error
}

// Compressed reads the compressed shards of an open graph directly; it copies nothing.
type Compressed struct {
	g       *Graph
	out, in *shardIndex
}

// NewCompressed wraps g. Call g.Check first (ooc.Open does): the decoders below check
// every neighbour against the vertex count and never index past a list, but only the
// checksums guarantee that the bytes are the ones that were written.
func NewCompressed(g *Graph) *Compressed {
	c := &Compressed{g: g, out: newShardIndex(g.Out())}
	c.in = c.out
	if g.Directed() {
		c.in = newShardIndex(g.In())
	}
	return c
}

// Graph returns the graph c reads.
func (c *Compressed) Graph() *Graph { return c.g }

// Shard returns the shard of direction d that holds vertex v, found in O(1) for the
// usual few large shards (for loops that decode lists inline).
func (c *Compressed) Shard(d Direction, v uint32) *Shard { return c.index(d).shard(v) }

func (c *Compressed) NumVertices() uint32 { return c.g.NumVertices() }
func (c *Compressed) NumEdges() uint64    { return c.g.NumEdges() }
func (c *Compressed) Directed() bool      { return c.g.Directed() }

func (c *Compressed) index(d Direction) *shardIndex {
	if d == In {
		return c.in
	}
	return c.out
}

func (c *Compressed) Degree(d Direction, v uint32) uint32 {
	s := c.index(d).shard(v)
	return s.DegreeAt(v - s.Lo)
}

func (c *Compressed) List(d Direction, v, limit uint32, buf []uint32) ([]uint32, error) {
	return c.Slice(d, v, 0, limit, buf)
}

func (c *Compressed) Slice(d Direction, v, lo, hi uint32, buf []uint32) ([]uint32, error) {
	s := c.index(d).shard(v)
	deg, list := s.ListAt(v - s.Lo)
	hi = min(hi, deg)
	if lo >= hi {
		return buf[:0], nil
	}
	if lo%BlockSize != 0 {
		panic("kernels: Slice must start at a block boundary")
	}
	pos, err := BlockOffset(list, deg, lo/BlockSize)
	if err != nil {
		return nil, s.ListError(v)
	}
	k := hi - lo
	if uint32(cap(buf)) < k {
		buf = make([]uint32, k, k+k/4)
	}
	buf = buf[:k]
	if !decodeFrom(buf, v, list, pos, deg, lo/BlockSize, c.g.NumVertices()) {
		return nil, s.ListError(v)
	}
	return buf, nil
}

func (c *Compressed) Range(d Direction, lo, hi, limit uint32, scratch *[]uint32, keep func(uint32) bool, fn func(uint32, []uint32)) error {
	idx, nv := c.index(d), c.g.NumVertices()
	var cur DirCursor
	for v := lo; v < hi; {
		s := idx.shard(v)
		cur.Reset(s)
		for end := min(hi, s.Hi()); v < end; v++ {
			deg, list := cur.At(v - s.Lo)
			k := min(limit, deg)
			if k == 0 || (keep != nil && !keep(v)) {
				continue
			}
			if uint32(cap(*scratch)) < k {
				*scratch = make([]uint32, k, k+k/4)
			}
			buf := (*scratch)[:k]
			if !decodePrefix(buf, v, list, deg, nv) {
				return s.ListError(v)
			}
			fn(v, buf)
		}
	}
	return nil
}

// shardIndex finds the shard of a vertex in O(1) for the usual few large shards: tab[k]
// is the first shard holding a vertex >= k<<shift.
type shardIndex struct {
	shards []*Shard
	tab    []int32
	shift  uint
}

func newShardIndex(c *CSR) *shardIndex {
	x := &shardIndex{shards: c.Shards}
	if len(c.Shards) == 0 {
		return x
	}
	x.shift = uint(max(0, bits.Len32(c.N)-16))
	x.tab = make([]int32, (uint64(c.N)>>x.shift)+1)
	i := 0
	for k := range x.tab {
		v := uint64(k) << x.shift
		for i+1 < len(c.Shards) && uint64(c.Shards[i].Hi()) <= v {
			i++
		}
		x.tab[k] = int32(i)
	}
	return x
}

func (x *shardIndex) shard(v uint32) *Shard {
	i := x.tab[v>>x.shift]
	for x.shards[i].Hi() <= v {
		i++
	}
	return x.shards[i]
}

// Flat is an uncompressed CSR in memory, built from the shards: the baseline that shows
// what the compression costs.
type Flat struct {
	N        uint32
	M        uint64
	directed bool
	OutOff   []uint64 // N+1 entries
	OutAdj   []uint32
	InOff    []uint64 // same slices as Out for undirected graphs
	InAdj    []uint32
}

// NewFlat decodes every list of g into memory (about 4 bytes per stored edge per
// direction, plus 8 per vertex).
func NewFlat(g *Graph) (*Flat, error) {
	f := &Flat{N: g.NumVertices(), M: g.NumEdges(), directed: g.Directed()}
	var err error
	if f.OutOff, f.OutAdj, err = flatten(g.Out()); err != nil {
		return nil, err
	}
	f.InOff, f.InAdj = f.OutOff, f.OutAdj
	if g.Directed() {
		if f.InOff, f.InAdj, err = flatten(g.In()); err != nil {
			return nil, err
		}
	}
	return f, nil
}

func flatten(c *CSR) ([]uint64, []uint32, error) {
	off := make([]uint64, c.N+1)
	adj := make([]uint32, c.Edges)
	var pos uint64
	var cur DirCursor
	for _, s := range c.Shards {
		cur.Reset(s)
		for i := uint32(0); i < s.N; i++ {
			d, list := cur.At(i)
			v := s.Lo + i
			off[v] = pos
			if pos+uint64(d) > uint64(len(adj)) {
				return nil, nil, s.ListError(v)
			}
			if !decodePrefix(adj[pos:pos+uint64(d)], v, list, d, c.N) {
				return nil, nil, s.ListError(v)
			}
			pos += uint64(d)
		}
	}
	off[c.N] = pos
	return off, adj, nil
}

func (f *Flat) NumVertices() uint32 { return f.N }
func (f *Flat) NumEdges() uint64    { return f.M }
func (f *Flat) Directed() bool      { return f.directed }

func (f *Flat) lists(d Direction) ([]uint64, []uint32) {
	if d == In {
		return f.InOff, f.InAdj
	}
	return f.OutOff, f.OutAdj
}

func (f *Flat) Degree(d Direction, v uint32) uint32 {
	off, _ := f.lists(d)
	return uint32(off[v+1] - off[v])
}

func (f *Flat) List(d Direction, v, limit uint32, _ []uint32) ([]uint32, error) {
	return f.Slice(d, v, 0, limit, nil)
}

func (f *Flat) Range(d Direction, lo, hi, limit uint32, _ *[]uint32, keep func(uint32) bool, fn func(uint32, []uint32)) error {
	off, adj := f.lists(d)
	for v := lo; v < hi; v++ {
		a, b := off[v], off[v+1]
		if a == b || (keep != nil && !keep(v)) {
			continue
		}
		fn(v, adj[a:a+min(b-a, uint64(limit))])
	}
	return nil
}

func (f *Flat) Slice(d Direction, v, lo, hi uint32, _ []uint32) ([]uint32, error) {
	off, adj := f.lists(d)
	deg := off[v+1] - off[v]
	a, b := min(uint64(lo), deg), min(uint64(hi), deg)
	return adj[off[v]+a : off[v]+max(a, b)], nil
}
