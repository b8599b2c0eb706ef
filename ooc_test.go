package ooc

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
)

type fake struct{ name string }

func (f fake) Name() string                   { return f.name }
func (f fake) BFS(uint32) (*BFSResult, error) { return nil, nil }
func (f fake) CC() (*CCResult, error)         { return nil, nil }
func (f fake) Plan() string                   { return f.name }
func (f fake) Close() error                   { return nil }

func TestOpenChoosesBackend(t *testing.T) {
	g := testgraph.Build(t, 4, pairs(0, 1), false, 0)
	if _, err := Open(g, "gpu", Options{}); !errors.Is(err, ErrNoBackend) {
		t.Fatalf("gpu without a registered backend: %v", err)
	}
	if _, err := Open(g, "cpu", Options{}); !errors.Is(err, ErrNoBackend) {
		t.Fatalf("cpu not linked: %v", err)
	}
	if _, err := Open(g, "tpu", Options{}); !errors.Is(err, ErrNoBackend) {
		t.Fatalf("unknown backend: %v", err)
	}
	Register("cpu", func(*store.Graph, Options) (Engine, error) { return fake{"cpu"}, nil })
	defer func() { mu.Lock(); delete(backends, "cpu"); mu.Unlock() }()
	e, err := Open(g, "auto", Options{})
	if err != nil || e.Name() != "cpu" {
		t.Fatalf("auto without gpu: %v, %v", e, err)
	}
	Register("gpu", func(*store.Graph, Options) (Engine, error) { return nil, errors.New("no device") })
	defer func() { mu.Lock(); delete(backends, "gpu"); mu.Unlock() }()
	if e, err = Open(g, "auto", Options{}); err != nil || e.Name() != "cpu" {
		t.Fatalf("auto with a failing gpu: %v, %v", e, err)
	}
	if _, err = Open(g, "gpu", Options{}); err == nil {
		t.Fatal("explicit gpu that fails to open returned no error")
	}
}

func TestSummarize(t *testing.T) {
	// path 0-1-2, isolated 3, edge 4-5: BFS from 0 reaches 3 vertices over 2 edges.
	g := testgraph.Build(t, 6, pairs(0, 1, 1, 2, 4, 5), false, 0)
	r := &BFSResult{Level: []uint32{0, 1, 2, Unreached, Unreached, Unreached}}
	Summarize(g, r)
	if r.Reached != 3 || r.Depth != 2 || r.EdgesTraversed != 2 {
		t.Fatalf("got reached %d depth %d edges %d, want 3 2 2", r.Reached, r.Depth, r.EdgesTraversed)
	}
	c := &CCResult{Labels: []uint32{0, 0, 0, 3, 4, 4}}
	CountComponents(c)
	if c.Components != 3 || c.Largest != 3 {
		t.Fatalf("got %d components, largest %d", c.Components, c.Largest)
	}
}

// pairs turns u0, v0, u1, v1, ... into edges.
func pairs(ids ...uint32) []testgraph.Edge {
	e := make([]testgraph.Edge, 0, len(ids)/2)
	for i := 0; i+1 < len(ids); i += 2 {
		e = append(e, testgraph.Edge{U: ids[i], V: ids[i+1]})
	}
	return e
}

func TestCountComponentsRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for trial := 0; trial < 50; trial++ {
		n := 1 + r.IntN(300000)
		// a giant component (label 0 when chosen), and many small ones, canonical labels
		labels := make([]uint32, n)
		for v := range labels {
			labels[v] = uint32(v)
			if v > 0 && r.IntN(4) != 0 {
				labels[v] = labels[r.IntN(v)] // join an earlier vertex's component
			}
		}
		size := map[uint32]uint64{}
		var largest uint64
		for _, l := range labels {
			size[l]++
			largest = max(largest, size[l])
		}
		c := &CCResult{Labels: labels}
		CountComponents(c)
		if c.Components != uint64(len(size)) || c.Largest != largest {
			t.Fatalf("trial %d (n=%d): %d components, largest %d; want %d, %d", trial, n, c.Components, c.Largest, len(size), largest)
		}
	}
}
