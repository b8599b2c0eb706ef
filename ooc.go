// Package ooc is the interface between the CLI and the backends that run BFS and
// connected components on a graph: the pure-Go CPU engine (package
// internal/engine/cpu, built on bfs and afforest) and, in a -tags cuda build, the GPU
// engine. Backends register themselves from an init function; only the CLI picks one.
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

	"github.com/oocgraph/ooc/store"
)

// Unreached marks a vertex the BFS did not reach, in both Parent and Level.
const Unreached = ^uint32(0)

// Direction names used in LevelStat.
const (
	TopDown  = "top-down"
	BottomUp = "bottom-up"
)

// LevelStat describes one BFS level, for -v.
type LevelStat struct {
	Level         int
	Frontier      uint64 // vertices at this level (the level's input frontier)
	Direction     string // TopDown or BottomUp
	EdgesExamined uint64 // list entries decoded while expanding this level
	Seconds       float64

	// Host-device link traffic of this level (GPU engine; zero on the CPU): adjacency
	// bytes copied into device staging buffers (bottom-up), and list bytes kernels
	// decoded straight from pinned host memory (zero-copy, either direction).
	BytesCopied   int64
	BytesZeroCopy int64
	Streamed      int // pinned shards this level streamed rather than read zero-copy
}

// BFSResult is the outcome of one breadth-first search.
type BFSResult struct {
	Source  uint32   // internal vertex id
	Parent  []uint32 // Parent[Source] = Source; Unreached for unreached vertices
	Level   []uint32 // Level[Source] = 0; Unreached for unreached vertices
	Reached uint64   // vertices with a level, the source included
	Depth   uint32   // the largest level

	// EdgesTraversed is the numerator of TEPS as Graph500 counts it: the edges of the
	// component that was traversed. On an undirected graph that is the number of
	// undirected edges with both ends reached (the sum of the reached vertices' degrees
	// over two); on a directed graph, the directed edges leaving reached vertices (the sum
	// of their out-degrees). Self-loops and duplicates were dropped at ingest and are not
	// counted.
	EdgesTraversed uint64

	// Link traffic (GPU engine; zero on the CPU): the sums of the levels' BytesCopied
	// and BytesZeroCopy, and the seconds of the levels that had any, so that
	// (BytesCopied+BytesZeroCopy)/LinkSeconds is the bandwidth those levels achieved.
	// Device-resident first-neighbour reads and the index sections are not counted.
	BytesCopied   int64
	BytesZeroCopy int64
	LinkSeconds   float64

	Levels  []LevelStat
	Seconds float64 // the search alone, excluding checks and allocation of the result
}

// GTEPS is EdgesTraversed per second, in billions.
func (r *BFSResult) GTEPS() float64 {
	if r.Seconds <= 0 {
		return 0
	}
	return float64(r.EdgesTraversed) / r.Seconds / 1e9
}

// CCResult is the outcome of a connected-components run. On a directed graph the
// components are weakly connected.
type CCResult struct {
	Labels     []uint32 // vertices with equal labels are in one component
	Components uint64
	Largest    uint64 // vertices in the largest component
	Seconds    float64

	// Link traffic (GPU engine; zero on the CPU): list bytes the kernels decoded from
	// pinned host memory, and the run's seconds when there were any (CC does not stream).
	BytesZeroCopy int64
	LinkSeconds   float64
}

// Options tune an engine; the zero value picks sensible defaults everywhere.
type Options struct {
	Workers int       // goroutines for CPU work; <= 0 means GOMAXPROCS
	VRAM    int64     // device memory budget in bytes; <= 0 means the backend's default
	Verbose io.Writer // when not nil, the engine logs its plan and progress here

	// Direction-optimizing BFS (Beamer, Asanović, Patterson, SC 2012): go bottom-up when
	// the edges to check from the frontier exceed the unexplored edges / Alpha, back
	// top-down when the frontier falls below n / Beta. <= 0 means the GAPBS defaults
	// (15, 18).
	Alpha, Beta int

	// Afforest (Sutton, Ben-Nun, Barak, IPDPS 2018): neighbour sampling rounds (<= 0
	// means 2; use NoSampling to skip sampling) and vertices sampled to find the largest
	// intermediate component (<= 0 means 1024).
	AfforestRounds  int
	AfforestSamples int
	Seed            uint64 // seeds Afforest's sampling; results never depend on it
}

// NoSampling as Options.AfforestRounds turns Afforest's sampling phase off (plain
// Shiloach-Vishkin style linking of every edge).
const NoSampling = -1

// Defaults for the zero Options.
const (
	DefaultAlpha           = 15
	DefaultBeta            = 18
	DefaultAfforestRounds  = 2
	DefaultAfforestSamples = 1024
)

// WithDefaults returns o with every zero field replaced by its default (Workers is left
// to the backend, which knows its GOMAXPROCS).
func (o Options) WithDefaults() Options {
	if o.Alpha <= 0 {
		o.Alpha = DefaultAlpha
	}
	if o.Beta <= 0 {
		o.Beta = DefaultBeta
	}
	if o.AfforestRounds == 0 {
		o.AfforestRounds = DefaultAfforestRounds
	}
	if o.AfforestSamples <= 0 {
		o.AfforestSamples = DefaultAfforestSamples
	}
	return o
}

// Engine runs searches on one open graph. An Engine is not safe for concurrent use; BFS
// and CC may be called any number of times, one at a time.
type Engine interface {
	Name() string // "cpu" or "gpu"
	// BFS searches from src (an internal id, which the caller has checked is a vertex).
	BFS(src uint32) (*BFSResult, error)
	CC() (*CCResult, error)
	// Plan says in a few lines how the engine holds the graph (threads, memory, what is
	// resident on the device), for -v.
	Plan() string
	Close() error
}

// Opener opens a backend on a graph whose checksums have been verified.
type Opener func(g *store.Graph, opt Options) (Engine, error)

var (
	mu       sync.Mutex
	backends = map[string]Opener{}
)

// Register makes a backend available to Open under name. Backends call it from init; a
// second registration of one name panics.
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
// from corrupt bytes) and opens the named backend on it. "auto" opens "gpu" when it is
// registered and opens (a usable device was found), and "cpu" otherwise; the GPU's
// failure is then logged to opt.Verbose. "gpu" in a build without CUDA is an error that
// matches ErrNoBackend.
func Open(g *store.Graph, backend string, opt Options) (Engine, error) {
	if err := g.Check(); err != nil {
		return nil, err
	}
	switch backend {
	case "auto", "":
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
	case "gpu":
		if lookup("gpu") == nil {
			return nil, fmt.Errorf("engine: this ooc was built without CUDA (build with -tags cuda): %w", ErrNoBackend)
		}
	}
	open := lookup(backend)
	if open == nil {
		if backend == "cpu" {
			return nil, fmt.Errorf("engine: the cpu backend is not linked in (import internal/engine/cpu): %w", ErrNoBackend)
		}
		return nil, fmt.Errorf("engine: unknown backend %q (expected auto, cpu or gpu): %w", backend, ErrNoBackend)
	}
	return open(g, opt)
}
