package gen

// grid is a rows x cols 4-neighbour grid (rows = 2^(Scale/2), cols = 2^Scale / rows, so
// exactly 2^Scale vertices) plus a few shortcut edges between uniform random vertices.
// Without shortcuts its diameter is rows+cols-2, thousands of BFS levels at scale 24,
// which is the case the level-synchronous engines find hardest; the shortcuts make it
// a small world of a chosen size. Vertex r*cols+c is at row r, column c.
//
// Edge order: the horizontal edges row by row, then the vertical ones, then the
// shortcuts.
type grid struct {
	spec       Spec
	rows, cols uint64
	horiz      uint64 // rows*(cols-1)
	lattice    uint64 // horizontal plus vertical edges
	mask       uint64
}

// DefaultShortcuts is the number of shortcuts a grid gets when Spec.Shortcuts is -1:
// one per 2^16 vertices, at least 4, so the diameter stays in the hundreds at
// scale 24 rather than collapsing to that of a random graph.
func DefaultShortcuts(scale int) int { return max(4, 1<<max(scale-16, 0)) }

func (s Spec) shortcuts() int {
	if s.Shortcuts < 0 {
		return DefaultShortcuts(s.Scale)
	}
	return s.Shortcuts
}

// GridShape returns the grid's rows and columns.
func (s Spec) GridShape() (rows, cols uint64) {
	rows = 1 << uint(s.Scale/2)
	return rows, s.Vertices() / rows
}

func newGrid(s Spec) *grid {
	g := &grid{spec: s, mask: s.Vertices() - 1}
	g.rows, g.cols = s.GridShape()
	g.horiz = g.rows * (g.cols - 1)
	g.lattice = g.horiz + (g.rows-1)*g.cols
	return g
}

func (g *grid) block(dst []Edge, b uint64) []Edge {
	lo, hi := g.spec.blockRange(b)
	r := newRNG(g.spec.Seed, streamGrid, b)
	for e := lo; e < hi; e++ {
		switch {
		case e < g.horiz:
			row, c := e/(g.cols-1), e%(g.cols-1)
			v := row*g.cols + c
			dst = append(dst, Edge{v, v + 1})
		case e < g.lattice:
			v := e - g.horiz
			dst = append(dst, Edge{v, v + g.cols})
		default:
			x := r.next()
			dst = append(dst, Edge{x & g.mask, (x >> 32) & g.mask})
		}
	}
	return dst
}
