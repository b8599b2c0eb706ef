//go:build cuda

package afforest

import (
	"math/rand/v2"
	"time"
	"unsafe"

	"github.com/oocgraph/ooc/gpu"
	"github.com/oocgraph/ooc/internal/cuda"
)

const gpuBlock = 256

// RunGPU is Run on a graph placed on the device by package gpu (afforest/afforest.cu):
// the same rounds, the same seeded choice of the skipped component and the same linking
// rule, so the labels (each component's smallest vertex) equal the CPU's. The labels live
// in the BFS parent buffer and the samples in the BFS queues: CC needs no memory of its own.
func RunGPU(dg *gpu.Graph, opt Options) (*Result, error) {
	opt = opt.WithDefaults()
	n := dg.N
	res := &Result{Labels: make([]uint32, n)}
	if n == 0 {
		CountComponents(res)
		return res, nil
	}
	comp := dg.State["parent"].Ptr
	m := dg.CCMod
	err := dg.Dev.Do(func(c *cuda.Ctx) error {
		t0 := time.Now()
		all := func(name string, args ...uint64) error {
			return c.Launch(m, name, dg.Grid(uint64(n), gpuBlock), gpuBlock, args...)
		}
		perShard := func(shards []gpu.DevShard, name string, extra ...uint64) error {
			for _, s := range shards {
				if s.N == 0 {
					continue
				}
				args := append(s.Args(), extra...)
				if s.AdjPinned {
					args = append(args, uint64(dg.LinkCounter()))
				} else {
					args = append(args, 0)
				}
				if err := c.Launch(m, name, dg.Grid(uint64(s.N), gpuBlock), gpuBlock, args...); err != nil {
					return err
				}
			}
			return nil
		}
		if err := c.Memset32(dg.LinkCounter(), 0, 2); err != nil {
			return err
		}
		if err := all("cc_init", uint64(comp), uint64(n)); err != nil {
			return err
		}
		rounds := max(opt.Rounds, 0)
		for k := 0; k < rounds; k++ {
			first := []uint64{0, 0} // the first-neighbour array holds in-lists: out-lists only when undirected
			if !dg.G.Directed() {
				first = dg.FirstArgs()
			}
			if err := perShard(dg.Out, "cc_sample", append([]uint64{uint64(comp), uint64(k)}, first...)...); err != nil {
				return err
			}
			if err := all("cc_compress", uint64(comp), uint64(n)); err != nil {
				return err
			}
		}
		skip := ^uint32(0)
		if rounds > 0 {
			var err error
			if skip, err = mostFrequentGPU(c, dg, opt.Samples, opt.Seed); err != nil {
				return err
			}
		}
		if err := perShard(dg.Out, "cc_finish", uint64(comp), uint64(skip), uint64(rounds)); err != nil {
			return err
		}
		if dg.G.Directed() {
			if err := perShard(dg.In, "cc_finish", uint64(comp), uint64(skip), 0); err != nil {
				return err
			}
		}
		if err := all("cc_compress", uint64(comp), uint64(n)); err != nil {
			return err
		}
		if err := c.Sync(); err != nil {
			return err
		}
		res.Seconds = time.Since(t0).Seconds()
		var zc uint64
		if err := c.DtoH(unsafe.Pointer(&zc), dg.LinkCounter(), 8); err != nil {
			return err
		}
		if res.BytesZeroCopy = int64(zc); zc > 0 {
			res.LinkSeconds = res.Seconds
		}
		return c.DtoH(unsafe.Pointer(&res.Labels[0]), comp, 4*int64(n))
	})
	if err != nil {
		return nil, err
	}
	CountComponents(res)
	return res, nil
}

// mostFrequentGPU draws the CPU's samples (same generator and seed) and gathers their
// labels on the device.
func mostFrequentGPU(c *cuda.Ctx, dg *gpu.Graph, samples int, seed uint64) (uint32, error) {
	n := dg.N
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	idx := make([]uint32, samples)
	for i := range idx {
		idx[i] = rng.Uint32N(n)
	}
	got := make([]uint32, samples)
	qa, qb := dg.State["queue-a"], dg.State["queue-b"]
	if int64(4*samples) <= qa.Bytes {
		if err := c.HtoD(qa.Ptr, unsafe.Pointer(&idx[0]), int64(4*samples)); err != nil {
			return 0, err
		}
		if err := c.Launch(dg.CCMod, "cc_gather", dg.Grid(uint64(samples), gpuBlock), gpuBlock,
			uint64(dg.State["parent"].Ptr), uint64(qa.Ptr), uint64(qb.Ptr), uint64(samples)); err != nil {
			return 0, err
		}
		if err := c.DtoH(unsafe.Pointer(&got[0]), qb.Ptr, int64(4*samples)); err != nil {
			return 0, err
		}
	} else { // fewer vertices than samples: read all labels
		comp := make([]uint32, n)
		if err := c.DtoH(unsafe.Pointer(&comp[0]), dg.State["parent"].Ptr, 4*int64(n)); err != nil {
			return 0, err
		}
		for i, v := range idx {
			got[i] = comp[v]
		}
	}
	count := make(map[uint32]int, samples)
	best, bestN := uint32(0), 0
	for _, l := range got {
		count[l]++
		if count[l] > bestN {
			best, bestN = l, count[l]
		}
	}
	return best, nil
}
