package afforest

import (
	"fmt"
	"io"
	"runtime"
	"sync/atomic"

	"github.com/oocgraph/ooc/internal/fault"
	"github.com/oocgraph/ooc/internal/parallel"
)

// Result is the outcome of a connected-components run. On a directed graph the
// components are weakly connected.
type Result struct {
	Labels     []uint32 // vertices with equal labels are in one component
	Components uint64
	Largest    uint64 // vertices in the largest component
	Seconds    float64

	// Link traffic (GPU; zero on the CPU): adjacency bytes the sampling rounds copied
	// into device staging buffers, list bytes the kernels decoded from pinned host memory,
	// and the run's seconds when there were any.
	BytesCopied   int64
	BytesZeroCopy int64
	LinkSeconds   float64
}

// Options tune Afforest (Sutton, Ben-Nun, Barak, IPDPS 2018); the zero value picks the
// defaults.
type Options struct {
	Workers int // goroutines (CPU); 0 means GOMAXPROCS, below 0 or past 4096 is refused

	// Rounds of neighbour sampling (0 means DefaultRounds; NoSampling skips sampling)
	// and Samples, the vertices sampled to find the largest intermediate component (0
	// means DefaultSamples; at most MaxSamples are drawn). Check refuses Rounds below
	// NoSampling and Samples below 0.
	Rounds, Samples int
	Seed            uint64    // seeds the sampling; results never depend on it
	Log             io.Writer // when not nil, the phases are logged here
}

// NoSampling as Options.Rounds turns the sampling phase off (plain Shiloach-Vishkin style
// linking of every edge).
const NoSampling = -1

// Defaults for the zero Options.
const (
	DefaultRounds  = 2
	DefaultSamples = 1024
)

// MaxSamples bounds the draws of the largest intermediate component: their indices
// and labels are held in host and device memory.
const MaxSamples = 1 << 24

// Check refuses what no run can mean: Workers past parallel.CheckWorkers's rule,
// Rounds below NoSampling and Samples below 0 (0 asks for the default), slips
// rather than requests.
func (o Options) Check() error {
	if err := parallel.CheckWorkers("afforest: Options.Workers", o.Workers); err != nil {
		return err
	}
	if o.Rounds < NoSampling {
		return fmt.Errorf("afforest: Options.Rounds %d: want 0 (the default %d), a count of rounds or NoSampling (%d)", o.Rounds, DefaultRounds, NoSampling)
	}
	if o.Samples < 0 {
		return fmt.Errorf("afforest: Options.Samples %d: want 0 (the default %d) or a count of draws", o.Samples, DefaultSamples)
	}
	return nil
}

// WithDefaults returns o with zero Rounds and Samples set to the defaults and Samples
// past MaxSamples cut to it (Check refuses them below their ranges).
func (o Options) WithDefaults() Options {
	if o.Rounds == 0 {
		o.Rounds = DefaultRounds
	}
	if o.Samples <= 0 {
		o.Samples = DefaultSamples
	}
	o.Samples = min(o.Samples, MaxSamples)
	return o
}

// CountComponents fills r.Components and r.Largest from r.Labels, which must be vertex
// ids naming a member of the component (as union-find roots do), so that a component's
// label is the one vertex labelled with itself. It runs in parallel: components are
// counted as those vertices, and sizes with atomic adds, except for the most frequent
// label of a small sample (the giant component of most graphs), which each worker counts
// locally so that all workers do not contend on one counter.
func CountComponents(r *Result) {
	labels := r.Labels
	n := len(labels)
	r.Components, r.Largest = 0, 0
	if n == 0 {
		return
	}
	hot := labels[0]
	seen := map[uint32]int{}
	for i := 0; i < 1024; i++ {
		l := labels[uint64(i)*0x9E3779B97F4A7C15%uint64(n)]
		if seen[l]++; seen[l] > seen[hot] {
			hot = l
		}
	}
	size := make([]uint32, n)
	var comps, hotSize atomic.Uint64
	parallelChunks(n, 1<<16, func(lo, hi int) {
		var c, h uint64
		for v, l := range labels[lo:hi] {
			switch {
			case l == hot:
				h++
			default:
				atomic.AddUint32(&size[l], 1)
			}
			if int(l) == lo+v {
				c++
			}
		}
		comps.Add(c)
		hotSize.Add(h)
	})
	largest := make([]uint64, (n+1<<16-1)>>16)
	parallelChunks(n, 1<<16, func(lo, hi int) {
		var m uint32
		for _, s := range size[lo:hi] {
			m = max(m, s)
		}
		largest[lo>>16] = uint64(m)
	})
	r.Components, r.Largest = comps.Load(), hotSize.Load()
	for _, m := range largest {
		r.Largest = max(r.Largest, m)
	}
}

// parallelChunks runs body over [0, n) in chunks of size, on GOMAXPROCS goroutines.
func parallelChunks(n, size int, body func(lo, hi int)) {
	var next atomic.Int64
	var wg fault.Group
	for range min(runtime.GOMAXPROCS(0), (n+size-1)/size) {
		wg.Go(func() {
			for lo := int(next.Add(int64(size))) - size; lo < n; lo = int(next.Add(int64(size))) - size {
				body(lo, min(lo+size, n))
			}
		})
	}
	wg.Wait()
}
