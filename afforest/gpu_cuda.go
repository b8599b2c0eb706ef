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

// GPU runs Afforest on a graph placed on the device by package gpu (afforest.cu).
type GPU struct{ gpu.Kernels }

// NewGPU loads afforest.cu's kernels for runs on dg.
func NewGPU(dg *gpu.Graph) (*GPU, error) {
	k, err := dg.LoadKernels("afforest", Fatbin)
	if err != nil {
		return nil, err
	}
	return &GPU{k}, nil
}

// Run is the package's Run on the device: the same rounds, the same seeded choice of the
// skipped component and the same linking rule, so the labels (each component's smallest
// vertex) equal the CPU's. Its labels and samples live in buffers of its own, carved from
// the runtime's workspace.
func (g *GPU) Run(opt Options) (*Result, error) {
	if err := opt.Check(); err != nil {
		return nil, err
	}
	opt = opt.WithDefaults()
	dg, m := g.Graph, g.Mod
	n := dg.N
	res := &Result{Labels: make([]uint32, n)}
	if n == 0 {
		CountComponents(res)
		return res, nil
	}
	err := dg.Dev.Do(func(c *cuda.Ctx) error {
		// the shards it may stream are decided from where the lists lie: the staging
		// buffers serve streaming, not the list cache
		if err := dg.ReleaseCache(c); err != nil {
			return err
		}
		dg.Work.Reset()
		st := takeState(dg.Work, n, opt.Samples)
		if err := dg.Work.Err(); err != nil {
			return err
		}
		comp, link := st.comp.Ptr(), st.counters.Ptr()
		first, k, w := dg.FirstArray()
		t0 := time.Now()
		grid := dg.Grid(uint64(n), gpuBlock)
		// perShard launches f over every shard with vertices, with the link counter when its
		// lists are pinned host memory
		perShard := func(shards []gpu.DevShard, f func(s gpu.DevShard, bytes cuda.DevPtr) error) error {
			for _, s := range shards {
				if s.N == 0 {
					continue
				}
				var bytes cuda.DevPtr
				if s.AdjPinned {
					bytes = link
				}
				if err := f(s, bytes); err != nil {
					return err
				}
			}
			return nil
		}
		if err := c.Memset32(link, 0, 4); err != nil { // counters 0 (zero-copy bytes) and 1 (device bytes)
			return err
		}
		var copied int64
		if err := launchCcInit(c, m, grid, gpuBlock, comp, n); err != nil {
			return err
		}
		rounds := max(opt.Rounds, 0)
		for r := 0; r < rounds; r++ {
			// the first-neighbour array holds in-lists: out-lists only when undirected
			f, fk, fw := cuda.DevPtr(0), uint32(0), uint32(0)
			if !dg.G.Directed() {
				f, fk, fw = first, k, w
			}
			var err error
			if r < int(fk) {
				err = perShard(dg.Out, func(s gpu.DevShard, _ cuda.DevPtr) error {
					return launchCcSampleFirst(c, m, dg.Grid(uint64(s.N), gpuBlock), gpuBlock, s.Lo, 0, s.N, comp, uint32(r), f, fk, fw)
				})
			} else if dg.G.Directed() {
				err = perShard(dg.Out, func(s gpu.DevShard, bytes cuda.DevPtr) error {
					return launchCcSample(c, m, dg.Grid(uint64(s.N), gpuBlock), gpuBlock, s.Adj, s.Dir, s.Bits, s.Lo, s.N,
						comp, uint32(r), 0, 0, 0, 0, s.N, bytes)
				})
			} else {
				var n int64
				n, err = sampleLists(c, m, dg, comp, uint32(r), link)
				copied += n
			}
			if err != nil {
				return err
			}
			if err := launchCcCompress(c, m, grid, gpuBlock, comp, n); err != nil {
				return err
			}
		}
		skip := ^uint32(0)
		if rounds > 0 {
			var err error
			if skip, err = mostFrequentGPU(c, m, dg, st, opt.Samples, opt.Seed); err != nil {
				return err
			}
		}
		finish := func(shards []gpu.DevShard, from uint32) error {
			return perShard(shards, func(s gpu.DevShard, bytes cuda.DevPtr) error {
				return launchCcFinish(c, m, dg.Grid(uint64(s.N), gpuBlock), gpuBlock, s.Adj, s.Dir, s.Bits, s.Lo, s.N,
					comp, skip, from, bytes)
			})
		}
		if err := finish(dg.Out, uint32(rounds)); err != nil {
			return err
		}
		if dg.G.Directed() {
			if err := finish(dg.In, 0); err != nil {
				return err
			}
		}
		if err := launchCcCompress(c, m, grid, gpuBlock, comp, n); err != nil {
			return err
		}
		if err := c.Sync(); err != nil {
			return err
		}
		res.Seconds = time.Since(t0).Seconds()
		var zc uint64
		if err := c.DtoH(unsafe.Pointer(&zc), link, 8); err != nil {
			return err
		}
		res.BytesZeroCopy, res.BytesCopied = int64(zc), copied
		if zc > 0 || copied > 0 {
			res.LinkSeconds = res.Seconds
		}
		return c.DtoH(unsafe.Pointer(&res.Labels[0]), comp, 4*int64(n))
	})
	err = dg.CheckLists(m, err) // a damaged list gives no answer, even where the run failed
	if err != nil {
		return nil, err
	}
	CountComponents(res)
	return res, nil
}

// sampleLists links every vertex of an undirected graph with its r-th neighbour read from
// the lists, shard by shard in vertex order. A pinned shard is streamed through the
// staging buffers when gpu.Choose finds copying it cheaper than the zero-copy reads of the
// round, estimated as a 32-byte sector per list (a list's head costs at least one; a
// shard of short lists is then read whole, as grids' are), else read zero-copy. cnt[0]
// receives the bytes decoded zero-copy, cnt[1] those decoded from device memory. It
// returns the bytes copied.
func sampleLists(c *cuda.Ctx, m *cuda.Module, dg *gpu.Graph, comp cuda.DevPtr, r uint32, cnt cuda.DevPtr) (int64, error) {
	shards := make([]int, len(dg.In))
	stream := make([]bool, len(dg.In))
	for i, s := range dg.In {
		adj, _, streamable := dg.InShard(i)
		shards[i] = i
		stream[i] = streamable && gpu.Choose(dg.Mode, dg.Link, adj, min(adj, 32*int64(s.N)))
	}
	return dg.Sweep(c, shards, stream, false, cnt, cnt+8, func(i int, adj cuda.DevPtr, i0, i1 uint32, bytes cuda.DevPtr) error {
		s := dg.In[i]
		if i1 <= i0 {
			return nil
		}
		return launchCcSample(c, m, dg.Grid(uint64(i1-i0), gpuBlock), gpuBlock, adj, s.Dir, s.Bits, s.Lo, s.N,
			comp, r, 0, 0, 0, i0, i1, bytes)
	})
}

// mostFrequentGPU draws the CPU's samples (same generator and seed) and gathers their
// labels on the device.
func mostFrequentGPU(c *cuda.Ctx, m *cuda.Module, dg *gpu.Graph, st devState, samples int, seed uint64) (uint32, error) {
	n := dg.N
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	idx := make([]uint32, samples)
	for i := range idx {
		idx[i] = rng.Uint32N(n)
	}
	got := make([]uint32, samples)
	if int64(samples) <= int64(n)+1 {
		if err := c.HtoD(st.idx.Ptr(), unsafe.Pointer(&idx[0]), int64(4*samples)); err != nil {
			return 0, err
		}
		if err := launchCcGather(c, m, dg.Grid(uint64(samples), gpuBlock), gpuBlock, st.comp.Ptr(), st.idx.Ptr(), st.got.Ptr(),
			uint32(samples)); err != nil {
			return 0, err
		}
		if err := c.DtoH(unsafe.Pointer(&got[0]), st.got.Ptr(), int64(4*samples)); err != nil {
			return 0, err
		}
	} else { // fewer vertices than samples: read all labels
		comp := make([]uint32, n)
		if err := c.DtoH(unsafe.Pointer(&comp[0]), st.comp.Ptr(), 4*int64(n)); err != nil {
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
