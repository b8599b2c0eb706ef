//go:build cuda

package sssp

import (
	"fmt"
	"math"
	"syscall"
	"time"
	"unsafe"

	"github.com/oocgraph/ooc/gpu"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/internal/cuda"
)

// devWeights is the graph's edge weights as sp_relax reads them: each weight in the
// fewest bytes that hold the largest one (1, 2 or 4: 1 << shift), per out-shard in device
// memory when the budget the memory plan left has room for it (in shard order), else in
// pinned host memory read zero-copy. A run reads every weight of a list it relaxes: at 4
// bytes an edge that is more than the list's own bytes (a byte or two an edge), so
// narrowing halves or quarters the larger part of the traffic, and a weight on the device
// costs no link request at all. Made once per engine, at the first
// weighted run (its time is load time, not the run's).
type devWeights struct {
	shift    uint32
	table    []uint64 // per out-shard: the weights' address, then 1 when that is pinned host memory
	wOff     []uint32 // per vertex: where its weights start in its shard's
	bufs     []*cuda.Buffer
	maps     [][]byte // host copies (anonymous mappings), pinned
	host     [][]byte // per out-shard: its weights in pinned host memory, nil when on the device
	pins     []*cuda.Pinned
	resident int64 // bytes on the device
	pinned   int64 // bytes in pinned host memory
	seconds  float64
}

// weightOffsets gives where each vertex's weights start in its out-shard's WEIGHTS section.
func weightOffsets(dg *gpu.Graph) ([]uint32, error) {
	wOff := make([]uint32, dg.N+1)
	var deg []uint32
	for _, s := range dg.G.Out().Shards {
		var sum uint64
		deg = append(deg[:0], make([]uint32, s.N)...)
		s.DegreesAt(deg, 0)
		for i, d := range deg {
			wOff[s.Lo+uint32(i)] = uint32(sum)
			sum += uint64(d)
		}
		if sum != uint64(len(s.Weights)) || sum > math.MaxUint32 {
			return nil, fmt.Errorf("sssp: shard %s holds %d weights for %d out-edges", s.Path, len(s.Weights), sum)
		}
	}
	return wOff, nil
}

// loadWeights places the weights of dg (largest weight maxW) for the kernels.
func loadWeights(dg *gpu.Graph, c *cuda.Ctx, maxW uint32) (*devWeights, error) {
	t0 := time.Now()
	w := &devWeights{shift: shiftFor(maxW), table: make([]uint64, 2*(len(dg.Out)+1)), host: make([][]byte, len(dg.Out))}
	var err error
	if w.wOff, err = weightOffsets(dg); err != nil {
		return nil, err
	}
	var stage []byte // host bytes of one shard's narrowed weights on their way to the device
	for i, s := range dg.G.Out().Shards {
		if len(s.Weights) == 0 {
			continue
		}
		if dg.Out[i].W == 0 {
			return nil, fmt.Errorf("sssp: %s has no edge weights on the device", dg.G.Dir)
		}
		n := int64(len(s.Weights)) << w.shift
		if room := dg.Dev.Budget() - dg.Dev.Used(); gpu.Align*((n+gpu.Align-1)/gpu.Align) <= room {
			b, err := c.Alloc(fmt.Sprintf("out-%d-weights", s.Lo), n)
			if err != nil {
				w.free(c)
				return nil, err
			}
			w.bufs = append(w.bufs, b)
			src := unsafe.Pointer(&s.Weights[0])
			if w.shift < 2 {
				if int64(cap(stage)) < n {
					stage = make([]byte, n)
				}
				stage = stage[:n]
				narrow(stage, s.Weights, w.shift)
				src = unsafe.Pointer(&stage[0])
			}
			if err := c.HtoD(b.Ptr, src, n); err != nil {
				w.free(c)
				return nil, err
			}
			w.table[2*i] = uint64(b.Ptr)
			w.resident += n
			continue
		}
		w.table[2*i+1] = 1
		w.pinned += n
		if w.shift == 2 {
			w.table[2*i] = uint64(dg.Out[i].W) // the store's section, pinned at load
			w.host[i] = unsafe.Slice((*byte)(unsafe.Pointer(&s.Weights[0])), n)
			continue
		}
		m, err := syscall.Mmap(-1, 0, int(n), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
		if err != nil {
			w.free(c)
			return nil, fmt.Errorf("sssp: mapping %s for the weights of out-shard %d: %w", bytesize.Format(n), i, err)
		}
		w.maps = append(w.maps, m)
		narrow(m, s.Weights, w.shift)
		p, err := c.Register(m)
		if err != nil {
			w.free(c)
			return nil, err
		}
		w.pins = append(w.pins, p)
		w.table[2*i] = uint64(p.Dev)
		w.host[i] = m
	}
	w.seconds = time.Since(t0).Seconds()
	if dg.Log != nil {
		fmt.Fprintf(dg.Log, "sssp: weights at %d bytes each: %s on the device, %s in pinned host memory; placed in %.3f s\n",
			1<<w.shift, bytesize.Format(w.resident), bytesize.Format(w.pinned), w.seconds)
	}
	return w, nil
}

// free releases what w holds.
func (w *devWeights) free(c *cuda.Ctx) error {
	var first error
	keep := func(err error) {
		if err != nil && first == nil {
			first = err
		}
	}
	for _, p := range w.pins {
		keep(c.Unregister(p))
	}
	for _, m := range w.maps {
		keep(syscall.Munmap(m))
	}
	for _, b := range w.bufs {
		keep(c.Free(b))
	}
	w.pins, w.maps, w.bufs, w.host = nil, nil, nil, nil
	return first
}
