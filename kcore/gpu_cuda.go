//go:build cuda

package kcore

import (
	"fmt"
	"math"
	"time"
	"unsafe"

	"github.com/oocgraph/ooc/gpu"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/internal/cuda"
)

const gpuBlock = 256

// GPU runs the k-core decomposition on a graph placed on the device by package gpu
// (kcore.cu).
type GPU struct {
	dg  *gpu.Graph
	mod *cuda.Module
}

// NewGPU loads kcore.cu's kernels for runs on dg.
func NewGPU(dg *gpu.Graph) (*GPU, error) {
	g := &GPU{dg: dg}
	var err error
	if g.mod, err = dg.LoadModule("kcore", Fatbin); err != nil {
		return nil, err
	}
	return g, nil
}

// Close unloads the kernels.
func (g *GPU) Close() error {
	err := g.dg.UnloadModule(g.mod)
	g.mod = nil
	return err
}

// gpuRun is one run's device state and the host's view of it.
type gpuRun struct {
	g   *GPU
	c   *cuda.Ctx
	st  devState
	cnt cuda.DevPtr
}

// Run is the package's Run on the device: the same levels, each removing the same
// vertices, so the core numbers and the levels' K and Removed equal the CPU's (the rounds
// may differ: they depend on the order of the removals).
func (g *GPU) Run() (*Result, error) {
	dg := g.dg
	n := dg.N
	res := &Result{Core: make([]uint32, n)}
	if n == 0 {
		return res, nil
	}
	err := dg.Dev.Do(func(c *cuda.Ctx) error {
		dg.Work.Reset()
		st := takeState(dg.Work, n)
		if err := dg.Work.Err(); err != nil {
			return err
		}
		r := &gpuRun{g: g, c: c, st: st, cnt: st.counters.Ptr()}
		t0 := time.Now()
		na, err := r.degrees()
		if err != nil {
			return err
		}
		if isolated := uint64(n) - uint64(na); isolated > 0 {
			res.Levels = append(res.Levels, LevelStat{K: 0, Removed: isolated, Seconds: time.Since(t0).Seconds()})
		}
		alive, spare, q := 0, 1, 2
		k := uint32(0)
		for {
			t := time.Now()
			left, least, err := r.compact(alive, spare, na, k)
			if err != nil {
				return err
			}
			if left == 0 {
				break
			}
			alive, spare, na, k = spare, alive, left, least
			ls, err := r.level(alive, spare, q, na, k)
			if err != nil {
				return err
			}
			ls.Seconds = time.Since(t).Seconds()
			res.Levels = append(res.Levels, ls)
			res.MaxCore = k
		}
		res.Seconds = time.Since(t0).Seconds()
		return c.DtoH(unsafe.Pointer(&res.Core[0]), st.deg.Ptr(), 4*int64(n))
	})
	if err != nil {
		return nil, err
	}
	if dg.Log != nil {
		var zero int64
		for _, l := range res.Levels {
			zero += l.BytesZeroCopy
		}
		fmt.Fprintf(dg.Log, "kcore: %d levels on the device in %.3f ms; %s read zero-copy over the link\n",
			len(res.Levels), 1e3*res.Seconds, bytesize.Format(zero))
	}
	return res, nil
}

// words reads the first k counters.
func (r *gpuRun) words(k int) ([4]uint32, error) {
	var w [4]uint32
	err := r.c.DtoH(unsafe.Pointer(&w[0]), r.cnt, int64(4*k))
	return w, err
}

// resetCount zeroes the append counter and sets the least degree to NONE.
func (r *gpuRun) resetCount() error {
	if err := r.c.Memset32(r.cnt, 0, 1); err != nil {
		return err
	}
	return r.c.Memset32(r.cnt+4*cntLeast, math.MaxUint32, 2)
}

// degrees fills deg (out-degree plus, on a directed graph, in-degree) and lists the
// vertices with edges in lists[0]; it returns their number.
func (r *gpuRun) degrees() (uint32, error) {
	c, dg, st, m := r.c, r.g.dg, r.st, r.g.mod
	if err := r.resetCount(); err != nil {
		return 0, err
	}
	for _, s := range dg.Out {
		if err := launchKcDegree(c, m, dg.Grid(uint64(s.N), gpuBlock), gpuBlock, s.Adj, s.Dir, s.Bits, s.Lo, s.N,
			st.deg.Ptr(), 0, r.cnt+4*cntBad); err != nil {
			return 0, err
		}
	}
	if dg.G.Directed() {
		for _, s := range dg.In {
			if err := launchKcDegree(c, m, dg.Grid(uint64(s.N), gpuBlock), gpuBlock, s.Adj, s.Dir, s.Bits, s.Lo, s.N,
				st.deg.Ptr(), 1, r.cnt+4*cntBad); err != nil {
				return 0, err
			}
		}
	}
	if err := launchKcAlive(c, m, dg.Grid(uint64(dg.N), gpuBlock), gpuBlock, st.deg.Ptr(), dg.N, st.lists[0].Ptr(), r.cnt); err != nil {
		return 0, err
	}
	w, err := r.words(3)
	if err != nil {
		return 0, err
	}
	if w[cntBad] != math.MaxUint32 {
		return 0, fmt.Errorf("kcore: vertex %d has more than %d in- and out-edges together", dg.G.External(w[cntBad]), uint32(math.MaxUint32))
	}
	return w[cntCount], nil
}

// compact keeps the na vertices of lists[from] whose degree is above k in lists[to] and
// returns how many there are and the smallest degree among them.
func (r *gpuRun) compact(from, to int, na, k uint32) (left, least uint32, err error) {
	dg, st := r.g.dg, r.st
	if err := r.resetCount(); err != nil {
		return 0, 0, err
	}
	if err := launchKcCompact(r.c, r.g.mod, dg.Grid(uint64(na), gpuBlock), gpuBlock, st.deg.Ptr(), st.lists[from].Ptr(), na, k,
		st.lists[to].Ptr(), r.cnt, r.cnt+4*cntLeast); err != nil {
		return 0, 0, err
	}
	w, err := r.words(2)
	return w[cntCount], w[cntLeast], err
}

// level removes the vertices of lists[alive] whose degree is k, and those whose degree
// falls to k meanwhile, in rounds: the frontier and the next round's queue take turns in
// lists[a] and lists[b].
func (r *gpuRun) level(alive, a, b int, na, k uint32) (LevelStat, error) {
	c, dg, st, m := r.c, r.g.dg, r.st, r.g.mod
	ls := LevelStat{K: k}
	if err := r.resetCount(); err != nil {
		return ls, err
	}
	if err := launchKcGather(c, m, dg.Grid(uint64(na), gpuBlock), gpuBlock, st.deg.Ptr(), st.lists[alive].Ptr(), na, k,
		st.lists[a].Ptr(), r.cnt); err != nil {
		return ls, err
	}
	w, err := r.words(1)
	if err != nil {
		return ls, err
	}
	if err := c.Memset32(st.edges.Ptr(), 0, 4); err != nil {
		return ls, err
	}
	in, nsIn := cuda.DevPtr(0), int32(0)
	if dg.G.Directed() {
		in, nsIn = dg.InTable, int32(len(dg.In))
	}
	for fn := w[cntCount]; fn > 0; {
		ls.Rounds++
		ls.Removed += uint64(fn)
		if err := c.Memset32(r.cnt, 0, 1); err != nil {
			return ls, err
		}
		if err := c.Memset32(r.cnt+4*cntHubs, 0, 2); err != nil {
			return ls, err
		}
		hubs := st.hubs.Ptr()
		if err := launchKcPeel(c, m, dg.Grid(uint64(fn), gpuBlock), gpuBlock, dg.OutTable.Ptr, int32(len(dg.Out)), in, nsIn,
			st.lists[a].Ptr(), fn, st.deg.Ptr(), k, st.lists[b].Ptr(), r.cnt, st.edges.Ptr(), st.edges.Ptr()+8,
			hubs, r.cnt+4*cntHubs, st.hubCap); err != nil {
			return ls, err
		}
		// the long lists, each shared by many thread blocks
		if err := launchKcPeelHub(c, m, dg.Dev.SMs*8, gpuBlock, dg.OutTable.Ptr, int32(len(dg.Out)), hubs, r.cnt+4*cntHubs,
			st.hubCap, st.deg.Ptr(), k, st.lists[b].Ptr(), r.cnt, st.edges.Ptr()+8); err != nil {
			return ls, err
		}
		if in != 0 {
			if err := launchKcPeelHub(c, m, dg.Dev.SMs*8, gpuBlock, in, nsIn, hubs+cuda.DevPtr(4*st.hubCap), r.cnt+4*cntHubs+4,
				st.hubCap, st.deg.Ptr(), k, st.lists[b].Ptr(), r.cnt, st.edges.Ptr()+8); err != nil {
				return ls, err
			}
		}
		if w, err = r.words(1); err != nil {
			return ls, err
		}
		fn = w[cntCount]
		a, b = b, a
	}
	var e [2]uint64
	if err := c.DtoH(unsafe.Pointer(&e[0]), st.edges.Ptr(), 16); err != nil {
		return ls, err
	}
	ls.Edges, ls.BytesZeroCopy = e[0], int64(e[1])
	return ls, nil
}
