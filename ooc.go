// Package ooc runs graph algorithms on a graph directory (store/FORMAT.md) that does not
// need to fit in memory: open the graph with store.Open, open a backend on it with Open
// ("cpu": every core, on the compressed shards in place; "gpu" in a -tags cuda build: the
// device, within a memory budget, with what does not fit read over the link), then call
// its algorithms. The CLI (cmd/ooc) uses this package and no other to run them.
//
// Results are canonical so that backends can be compared: BFS levels are unique for a
// source, parents are any valid BFS tree (check them with package validate), and component
// labels are compared as partitions, not as numbers.
package ooc

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"

	"github.com/oocgraph/ooc/afforest"
	"github.com/oocgraph/ooc/bfs"
	"github.com/oocgraph/ooc/internal/parallel"
	"github.com/oocgraph/ooc/kcore"
	"github.com/oocgraph/ooc/pagerank"
	"github.com/oocgraph/ooc/sssp"
	"github.com/oocgraph/ooc/store"
)

// The results, defined by the algorithm packages.
type (
	BFSResult       = bfs.Result       // one breadth-first search
	LevelStat       = bfs.LevelStat    // one BFS level, for -v
	CCResult        = afforest.Result  // connected components (weakly, on a directed graph)
	PageRankOptions = pagerank.Options // tolerance and iteration limit of a PageRank run
	PageRankResult  = pagerank.Result  // PageRank scores
	KCoreResult     = kcore.Result     // core numbers
	SSSPResult      = sssp.Result      // shortest-path distances from one source
	Weights         = sssp.Weights     // edge weights aligned with the out-lists
)

// SSSPOptions tune a shortest-path run; the zero value means the defaults.
type SSSPOptions struct {
	Delta uint32 // delta-stepping's bin width; 0 means sssp.DefaultDelta
	// FloatDelta is the bin width on float32 weights; 0 means Delta if set, else
	// sssp.DefaultFloatDelta. A negative, NaN or infinite FloatDelta is an error on
	// any weights, as ooc sssp's --delta is.
	FloatDelta float32
	// UnitWeights weighs every edge 1 (the distances are then BFS levels). Without it the
	// graph's own weights are used (ooc ingest --weights).
	UnitWeights bool
	Parents     bool // also compute a shortest-path tree (SSSPResult.Parent)
}

// EdgeWeights returns the weights SSSP runs with on g: all 1 with opt.UnitWeights, else
// the weights g stores, and an error matching ErrNoWeights for a graph without them.
// Validation uses it to check distances against the same weights.
func EdgeWeights(g *store.Graph, opt SSSPOptions) (Weights, error) {
	switch {
	case opt.UnitWeights:
		return sssp.NewUnitWeights(store.NewCompressed(g)), nil
	case !g.M.Weighted:
		return nil, fmt.Errorf("sssp: %s has no edge weights: ingest it with --weights (or give --unit-weights to weigh every edge 1): %w", g.Dir, ErrNoWeights)
	}
	return sssp.NewStoreWeights(g)
}

// ErrNoWeights is matched by the error for a shortest-path run on a graph without edge
// weights; the CLI reports it as a usage error.
var ErrNoWeights = errors.New("no edge weights")

// PageRank defaults for the zero PageRankOptions.
const (
	DefaultPageRankTolerance = pagerank.DefaultTolerance
	DefaultPageRankMaxIters  = pagerank.DefaultMaxIters
)

// ErrUnsupported is matched by errors for an algorithm that the backend does not run.
var ErrUnsupported = errors.New("not supported by this backend")

// Unreached marks a vertex the BFS did not reach, in both Parent and Level.
const Unreached = bfs.Unreached

// Infinity is the distance of a vertex SSSP does not reach.
const Infinity = sssp.Inf

// Direction names used in LevelStat.
const (
	TopDown  = bfs.TopDown
	BottomUp = bfs.BottomUp
)

// Options tune an engine; the zero value picks sensible defaults everywhere.
type Options struct {
	Workers int       // goroutines for CPU work; 0 means GOMAXPROCS, below 0 or past 4096 is refused
	VRAM    int64     // device memory budget in bytes; 0 means the backend's default, below 0 is refused
	Verbose io.Writer // when not nil, the engine logs its plan and progress here

	// Progress, when not nil, is a terminal on which PageRank, SSSP and k-core runs past
	// their first second show how far they have got, on one line erased at their end.
	// PageRankOptions.Progress, when set, takes its place for that run.
	Progress io.Writer

	// Direction-optimizing BFS (Beamer, Asanović, Patterson, SC 2012): go bottom-up when
	// the edges to check from the frontier exceed the unexplored edges / Alpha, back
	// top-down when the frontier falls below n / Beta. 0 means the GAPBS defaults
	// (15, 18); below 0 is refused. The CPU engine's search of an undirected graph comes
	// back top-down by its estimate of the two levels' costs instead of Beta
	// (bfs.Options).
	Alpha, Beta int

	// BFSNoLevels leaves BFSResult.Level nil on the CPU backend: each search writes
	// parents alone, as GAPBS's does, and its Seconds covers that (bfs.Options.NoLevels).
	// Reached, Depth and EdgesTraversed are filled either way.
	BFSNoLevels bool

	// Afforest (Sutton, Ben-Nun, Barak, IPDPS 2018): neighbour sampling rounds (0 means
	// 2; NoSampling skips sampling; below it is refused) and vertices sampled to find the
	// largest intermediate component (0 means 1024; at most 2^24 are drawn; below 0 is
	// refused).
	AfforestRounds  int
	AfforestSamples int
	Seed            uint64 // seeds Afforest's sampling; results never depend on it

	// Algorithms, when not zero, is the set of algorithms the engine will be asked to run.
	// The GPU engine then reserves device memory for their state alone and keeps first
	// neighbours on the device only for BFS and CC, so more of the graph fits there; it
	// refuses the others with an error wrapping ErrNotOpened. The CPU engine runs any.
	Algorithms Algo
}

// Algo is a set of algorithms, for Options.Algorithms.
type Algo uint

// The algorithms of an Algo set.
const (
	AlgoBFS Algo = 1 << iota
	AlgoCC
	AlgoPageRank
	AlgoKCore
	AlgoSSSP
)

// ErrNotOpened is wrapped when an engine is asked for an algorithm its
// Options.Algorithms left out.
var ErrNotOpened = errors.New("engine: the algorithm was not among those the engine was opened for")

// runs says whether an engine opened with o runs a.
func (o Options) runs(a Algo) bool { return o.Algorithms == 0 || o.Algorithms&a != 0 }

// NoSampling as Options.AfforestRounds turns Afforest's sampling phase off (plain
// Shiloach-Vishkin style linking of every edge).
const NoSampling = afforest.NoSampling

// Defaults for the zero Options.
const (
	DefaultAlpha           = bfs.DefaultAlpha
	DefaultBeta            = bfs.DefaultBeta
	DefaultAfforestRounds  = afforest.DefaultRounds
	DefaultAfforestSamples = afforest.DefaultSamples
)

// WithDefaults returns o with every zero field replaced by its default (Workers is left
// to the backend, which knows its GOMAXPROCS).
func (o Options) WithDefaults() Options {
	if o.Alpha == 0 {
		o.Alpha = DefaultAlpha
	}
	if o.Beta == 0 {
		o.Beta = DefaultBeta
	}
	if o.AfforestRounds == 0 {
		o.AfforestRounds = DefaultAfforestRounds
	}
	if o.AfforestSamples == 0 {
		o.AfforestSamples = DefaultAfforestSamples
	}
	return o
}

// check refuses the counts and budgets of o that no engine can mean, naming the field:
// every one follows the rule of the CLI's flags, 0 asks for the default and a count
// below it is a slip rather than a request (AfforestRounds' NoSampling aside).
func (o Options) check() error {
	if err := parallel.CheckWorkers("engine: Options.Workers", o.Workers); err != nil {
		return err
	}
	field, n, want := "", int64(0), ""
	switch {
	case o.VRAM < 0:
		field, n, want = "VRAM", o.VRAM, "0 (the backend's default) or a budget in bytes"
	case o.Alpha < 0:
		field, n, want = "Alpha", int64(o.Alpha), fmt.Sprintf("0 (the default %d) or a positive divisor", DefaultAlpha)
	case o.Beta < 0:
		field, n, want = "Beta", int64(o.Beta), fmt.Sprintf("0 (the default %d) or a positive divisor", DefaultBeta)
	case o.AfforestRounds < NoSampling:
		field, n, want = "AfforestRounds", int64(o.AfforestRounds), fmt.Sprintf("0 (the default %d), a count of rounds or NoSampling (%d)", DefaultAfforestRounds, NoSampling)
	case o.AfforestSamples < 0:
		field, n, want = "AfforestSamples", int64(o.AfforestSamples), fmt.Sprintf("0 (the default %d) or a count of draws", DefaultAfforestSamples)
	default:
		return nil
	}
	return fmt.Errorf("engine: Options.%s %d: want %s", field, n, want)
}

// bfsOptions and ccOptions are o as the algorithm packages take it.
func (o Options) bfsOptions() bfs.Options {
	return bfs.Options{Workers: o.Workers, Alpha: o.Alpha, Beta: o.Beta, NoLevels: o.BFSNoLevels}
}

func (o Options) ccOptions() afforest.Options {
	return afforest.Options{Workers: o.Workers, Rounds: o.AfforestRounds, Samples: o.AfforestSamples,
		Seed: o.Seed, Log: o.Verbose}
}

// Engine runs algorithms on one open graph. An Engine is not safe for concurrent use;
// its algorithms may be called any number of times, one at a time.
type Engine interface {
	Name() string // "cpu" or "gpu"
	// BFS searches from src (an internal id, which the caller has checked is a vertex).
	BFS(src uint32) (*BFSResult, error)
	CC() (*CCResult, error)
	// PageRank scores every vertex (package pagerank: GAPBS's model); a zero
	// opt.Workers means the engine's.
	PageRank(opt PageRankOptions) (*PageRankResult, error)
	// KCore computes the core number of every vertex (package kcore).
	KCore() (*KCoreResult, error)
	// SSSP computes the shortest-path distances from src (an internal id) by
	// delta-stepping (package sssp), with the weights EdgeWeights gives.
	SSSP(src uint32, opt SSSPOptions) (*SSSPResult, error)
	// Plan says in a few lines how the engine holds the graph (threads, memory, what is
	// resident on the device), for -v.
	Plan() string
	// Close releases what the engine holds (the GPU's device memory, streams and pinned
	// registrations; not the graph). A run after it is an error matching
	// ErrEngineClosed, and a second Close does nothing.
	Close() error
}

// ErrEngineClosed is matched by the error of a run on an engine after its Close.
var ErrEngineClosed = errors.New("engine is closed")

// Opener opens a backend on a graph whose checksums have been verified.
type Opener func(g *store.Graph, opt Options) (Engine, error)

var (
	mu       sync.Mutex
	backends = map[string]Opener{"cpu": openCPU}
)

// Register makes a backend available to Open under name ("cpu" is built in; a -tags cuda
// build registers "gpu" from init); a second registration of one name panics.
func Register(name string, open Opener) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := backends[name]; dup {
		panic("engine: backend " + name + " registered twice")
	}
	backends[name] = open
}

// Backends lists the registered backend names, sorted.
func Backends() []string {
	mu.Lock()
	defer mu.Unlock()
	names := make([]string, 0, len(backends))
	for n := range backends {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func lookup(name string) Opener {
	mu.Lock()
	defer mu.Unlock()
	return backends[name]
}

// ErrNoBackend is matched by errors for a backend name that is unknown or not built in;
// the CLI reports them as usage errors.
var ErrNoBackend = errors.New("backend not available")

// Open verifies the graph's checksums (store.Graph.Check, so no backend ever answers
// from corrupt bytes; a backend name CheckBackend refuses is refused first) and opens
// the named backend on it. "auto" opens "gpu" when it is registered and opens (a usable
// device was found), and "cpu" otherwise; the GPU's failure is then logged to
// opt.Verbose. "gpu" in a build without CUDA is an error that matches ErrNoBackend.
func Open(g *store.Graph, backend string, opt Options) (Engine, error) {
	if g == nil {
		return nil, errors.New("engine: no graph (a nil *store.Graph)")
	}
	if err := CheckBackend(backend); err != nil {
		return nil, err
	}
	if err := opt.check(); err != nil {
		return nil, err
	}
	if err := g.Check(); err != nil {
		return nil, err
	}
	if backend == "auto" || backend == "" {
		if open := lookup("gpu"); open != nil {
			e, err := open(g, opt)
			if err == nil {
				return e, nil
			}
			if opt.Verbose != nil {
				fmt.Fprintf(opt.Verbose, "engine: gpu backend unavailable, using cpu: %v\n", err)
			}
		}
		backend = "cpu"
	}
	return lookup(backend)(g, opt)
}

// CheckBackend refuses a backend name that Open would refuse whatever the graph: one
// not registered, "gpu" in a build without CUDA; each error matches ErrNoBackend. A
// registered "gpu" may still fail to open (no usable device), which only Open finds.
func CheckBackend(backend string) error {
	switch {
	case backend == "auto" || backend == "":
		return nil
	case backend == "gpu" && lookup("gpu") == nil:
		return fmt.Errorf("engine: this ooc was built without CUDA (build with -tags cuda): %w", ErrNoBackend)
	case lookup(backend) == nil:
		return fmt.Errorf("engine: unknown backend %q (expected auto, cpu or gpu): %w", backend, ErrNoBackend)
	}
	return nil
}
