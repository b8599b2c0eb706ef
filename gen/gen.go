// Package gen generates synthetic graphs as edge lists: Graph500 Kronecker graphs, uniform
// random graphs (GAPBS's urand) and 2-D grids with a few random shortcuts.
//
// Generation is split into blocks of BlockEdges edges. Each block draws from its own
// random stream, keyed by (seed, kind, block index), so a block's edges depend on nothing
// but the Spec and its index: any number of workers, in any order, produces the same
// edges, and the ordered writers (Write) produce byte-identical files.
package gen

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/oocgraph/ooc/internal/plural"
)

// Edge is one generated edge U -> V. It has the layout of parse.Edge, so a batch can
// be handed to the ingest pipeline without copying.
type Edge struct{ U, V uint64 }

// BlockEdges is the number of edges in one generation block (the last may be shorter).
const BlockEdges = 1 << 16

// MaxScale bounds Scale: vertex ids are uint32 and the vertex count must fit in one.
const MaxScale = 31

// MaxEdges bounds the edges of one graph (2^48, 16 times kron scale 31's edge factor of
// 2^13): a product of user-given numbers past it is refused rather than wrapped around.
const MaxEdges = 1 << 48

// Graph500 Kronecker initiator probabilities (Graph500 specification, section 3.2);
// D = 1 - A - B - C = 0.05.
const (
	KronA = 0.57
	KronB = 0.19
	KronC = 0.19
)

// Spec says which graph to generate.
type Spec struct {
	Kind       string // "kron", "urand" or "grid"
	Scale      int    // 2^Scale vertices
	EdgeFactor int    // kron, urand: EdgeFactor * 2^Scale edges
	Seed       uint64
	Shortcuts  int // grid: random shortcut edges, at most (2^Scale)^2; -1 means DefaultShortcuts(Scale), below it is refused
}

// Kinds lists the generators.
var Kinds = []string{"kron", "urand", "grid"}

// ErrSpec is matched by errors for invalid specs.
var ErrSpec = errors.New("invalid graph spec")

// Validate reports whether s describes a graph this package can generate.
func (s Spec) Validate() error {
	switch s.Kind {
	case "kron", "urand":
		if s.EdgeFactor < 1 {
			return fmt.Errorf("gen: %w: edgefactor %d, want at least 1", ErrSpec, s.EdgeFactor)
		}
	case "grid":
	default:
		return fmt.Errorf("gen: %w: unknown kind %q, want kron, urand or grid", ErrSpec, s.Kind)
	}
	if s.Scale < 0 || s.Scale > MaxScale {
		return fmt.Errorf("gen: %w: scale %d, want 0 to %d", ErrSpec, s.Scale, MaxScale)
	}
	switch {
	case s.Kind != "grid" && uint64(s.EdgeFactor) > MaxEdges>>uint(s.Scale):
		return fmt.Errorf("gen: %w: edgefactor %d at scale %d makes more than 2^48 edges", ErrSpec, s.EdgeFactor, s.Scale)
	case s.Kind == "grid" && int64(s.Shortcuts) > MaxEdges:
		return fmt.Errorf("gen: %w: %d shortcuts, more than 2^48 edges", ErrSpec, s.Shortcuts)
	case s.Kind == "grid" && uint64(max(s.Shortcuts, 0)) > maxShortcuts(s.Scale):
		// a shortcut's two ends are drawn from the 2^Scale vertices, so past (2^Scale)^2
		// shortcuts every further one repeats an edge that ingest drops
		return fmt.Errorf("gen: %w: %d shortcuts on %s, want at most %d (the ordered pairs of its vertices)",
			ErrSpec, s.Shortcuts, plural.Of(s.Vertices(), "vertex"), maxShortcuts(s.Scale))
	case s.Kind == "grid" && s.Shortcuts < -1:
		// a count computed below zero is a slip, as for every count of ooc's options
		return fmt.Errorf("gen: %w: %d shortcuts, want 0 or more, or -1 for DefaultShortcuts", ErrSpec, s.Shortcuts)
	}
	return nil
}

// maxShortcuts is the most shortcuts Validate takes for a grid of 2^scale vertices: one
// for each ordered pair of its vertices, (2^scale)^2, and no more than MaxEdges.
func maxShortcuts(scale int) uint64 {
	if 2*scale >= 48 {
		return MaxEdges
	}
	return 1 << uint(2*scale)
}

// String names the graph the way file names and tables do, e.g. "kron-s22-e16-seed1".
func (s Spec) String() string {
	if s.Kind == "grid" {
		return fmt.Sprintf("grid-s%d-sc%d-seed%d", s.Scale, s.shortcuts(), s.Seed)
	}
	return fmt.Sprintf("%s-s%d-e%d-seed%d", s.Kind, s.Scale, s.EdgeFactor, s.Seed)
}

// Vertices returns the number of vertices, 2^Scale.
func (s Spec) Vertices() uint64 { return 1 << uint(s.Scale) }

// Edges returns the number of edges Generate produces (self-loops and duplicates
// included: the Graph500 generator keeps them and ingest drops them).
func (s Spec) Edges() uint64 {
	if s.Kind == "grid" {
		rows, cols := s.GridShape()
		return rows*(cols-1) + (rows-1)*cols + uint64(s.shortcuts())
	}
	return uint64(s.EdgeFactor) << uint(s.Scale)
}

// Blocks returns the number of generation blocks.
func (s Spec) Blocks() uint64 { return (s.Edges() + BlockEdges - 1) / BlockEdges }

// blockFunc appends the edges of block b to dst.
type blockFunc func(dst []Edge, b uint64) []Edge

// source prepares the per-spec state (thresholds, the permutation) once.
func (s Spec) source() (blockFunc, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	switch s.Kind {
	case "kron":
		return newKron(s).block, nil
	case "urand":
		return newURand(s).block, nil
	}
	return newGrid(s).block, nil
}

// blockRange returns the edge indexes [lo, hi) of block b.
func (s Spec) blockRange(b uint64) (lo, hi uint64) {
	lo = b * BlockEdges
	return lo, min(lo+BlockEdges, s.Edges())
}

// Block appends the edges of block b (0 <= b < Blocks()) to dst. Blocks in index order
// make up the whole edge list.
func (s Spec) Block(dst []Edge, b uint64) ([]Edge, error) {
	f, err := s.source()
	if err != nil {
		return dst, err
	}
	return f(dst, b), nil
}

// maxWorkers is internal/parallel's MaxWorkers (gen sits below it): the pipeline of
// Write holds three channel slots and up to three blocks' buffers a worker.
const maxWorkers = 4096

// checkWorkers refuses a worker count below 0 or past maxWorkers (internal/parallel's
// CheckWorkers states the rule of every worker count).
func checkWorkers(workers int) error {
	if workers < 0 || workers > maxWorkers {
		return fmt.Errorf("gen: workers %d: want 0 (GOMAXPROCS) to %d goroutines", workers, maxWorkers)
	}
	return nil
}

// Generate produces every edge of s on workers goroutines (0 means GOMAXPROCS; below 0
// or past 4096 is refused, as for every worker count of ooc's flags and options), calling
// emit with one block at a time, concurrently and in no particular order. emit must not
// keep the batch after it returns. The first error from emit stops generation and is
// returned.
func Generate(s Spec, workers int, emit func(batch []Edge) error) error {
	f, err := s.source()
	if err != nil {
		return err
	}
	if err := checkWorkers(workers); err != nil {
		return err
	}
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	nb := s.Blocks()
	var (
		next    atomic.Uint64
		failed  atomic.Bool
		errOnce sync.Once
		first   error
		wg      sync.WaitGroup
	)
	for range min(uint64(workers), max(nb, 1)) {
		wg.Go(func() {
			buf := make([]Edge, 0, BlockEdges)
			for !failed.Load() {
				b := next.Add(1) - 1
				if b >= nb {
					return
				}
				buf = f(buf[:0], b)
				if err := emit(buf); err != nil {
					errOnce.Do(func() { first = err })
					failed.Store(true)
				}
			}
		})
	}
	wg.Wait()
	return first
}
