//go:build cuda

package gpu

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"time"
	"unsafe"

	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/internal/cuda"
	"github.com/oocgraph/ooc/store"
)

// DevShard is one shard as the kernels address it: each pointer is device memory or the
// device alias of pinned host memory.
type DevShard struct {
	Adj, Off, Deg cuda.DevPtr
	Lo, N         uint32
	Edges         uint64
	AdjPinned     bool // Adj is pinned host memory: list reads cross the link
}

// Args returns the five kernel parameters of SHARD_PARAMS (store/graph.cuh).
func (s DevShard) Args() []uint64 {
	return []uint64{uint64(s.Adj), uint64(s.Off), uint64(s.Deg), uint64(s.Lo), uint64(s.N)}
}

// Graph is a graph placed on a device by a Plan.
type Graph struct {
	Dev      *cuda.Device
	Plan     *Plan
	G        *store.Graph
	N        uint32
	Out, In  []DevShard // In is Out on an undirected graph
	OutTable *cuda.Buffer
	State    map[string]*cuda.Buffer
	BFSMod   *cuda.Module
	CCMod    *cuda.Module
	Log      io.Writer    // per-level lines of every BFS when not nil
	First    *cuda.Buffer // first FirstK neighbours of every vertex (in-lists), or nil
	FirstK   int
	Copied   int64   // bytes copied to the device at load
	LoadTime float64 // seconds to copy and pin
	pins     []*cuda.Pinned

	// bottom-up streaming (stage_cuda.go)
	Mode    Mode        // OOC_GPU_STREAM
	Link    Link        // measured or cached link behaviour (valid when Mode is Auto and some shard streams)
	inHost  []hostShard // per In shard: its host sections and chunks
	outHost []hostShard
	stage   [2]*cuda.Buffer
	copyS   *cuda.Stream
	copied  [2]*cuda.Event  // staging buffer b filled
	kdone   [2]*cuda.Event  // the sweep reading staging buffer b finished
	buHist  map[int][]int64 // per bottom-up level rank: list bytes each in shard decoded in the last search
}

// Load allocates the state, copies the resident sections, pins the rest and loads the
// kernels (the fatbins of bfs.cu and afforest.cu). On error everything taken so far is released.
func Load(d *cuda.Device, g *store.Graph, p *Plan, log io.Writer, bfsImage, ccImage []byte) (*Graph, error) {
	dg := &Graph{Dev: d, Plan: p, G: g, N: g.NumVertices(), State: map[string]*cuda.Buffer{}, Log: log}
	var err error
	if dg.Mode, err = ParseMode(os.Getenv("OOC_GPU_STREAM")); err != nil {
		return nil, err
	}
	t0 := time.Now()
	err = d.Do(func(c *cuda.Ctx) error {
		for _, it := range p.State {
			b, err := c.Alloc(it.Name, it.Bytes)
			if err != nil {
				return err
			}
			dg.State[it.Name] = b
		}
		var ps []*store.Shard
		for _, csr := range []*store.CSR{g.Out(), g.In()} {
			if csr == nil || (csr == g.In() && csr == g.Out() && len(ps) > 0) {
				continue
			}
			ps = append(ps, csr.Shards...)
		}
		if len(ps) != len(p.Shards) {
			return fmt.Errorf("stream: plan has %d shards, graph %d", len(p.Shards), len(ps))
		}
		for i, s := range ps {
			ds, err := dg.place(c, s, p.Shards[i])
			if err != nil {
				return fmt.Errorf("stream: placing %s: %w", s.Path, err)
			}
			h := hostShard{adj: s.Adj, pinned: p.Shards[i].AdjAt == Pinned && len(s.Adj) > 0}
			if h.pinned && p.Stage > 0 {
				h.chunks = Chunks(s.Offsets, p.Stage)
			}
			if s.Dir == store.Out {
				dg.Out = append(dg.Out, ds)
				dg.outHost = append(dg.outHost, h)
			} else {
				dg.In = append(dg.In, ds)
				dg.inHost = append(dg.inHost, h)
			}
		}
		if !g.Directed() {
			dg.In, dg.inHost = dg.Out, dg.outHost
		}
		if p.FirstK > 0 {
			var err error
			if dg.First, err = c.Alloc("first", p.First); err != nil {
				return err
			}
			dg.FirstK = p.FirstK
		}
		dg.OutTable = dg.State["shard-table"]
		tab := make([]byte, 40*len(dg.Out))
		for i, s := range dg.Out {
			e := tab[40*i:]
			binary.LittleEndian.PutUint64(e[0:], uint64(s.Adj))
			binary.LittleEndian.PutUint64(e[8:], uint64(s.Off))
			binary.LittleEndian.PutUint64(e[16:], uint64(s.Deg))
			binary.LittleEndian.PutUint32(e[24:], s.Lo)
			binary.LittleEndian.PutUint32(e[28:], s.N)
			if dg.outHost[i].pinned {
				binary.LittleEndian.PutUint32(e[32:], 1)
			}
		}
		if len(tab) > 0 {
			if err := c.HtoD(dg.OutTable.Ptr, unsafe.Pointer(&tab[0]), int64(len(tab))); err != nil {
				return err
			}
		}
		for _, m := range []struct {
			name string
			img  []byte
			dst  **cuda.Module
		}{{"bfs", bfsImage, &dg.BFSMod}, {"afforest", ccImage, &dg.CCMod}} {
			var err error
			if *m.dst, err = c.Load(m.name, m.img); err != nil {
				return err
			}
		}
		if err := dg.setupStaging(c); err != nil {
			return err
		}
		if dg.First != nil {
			for _, s := range dg.In {
				args := append(s.Args(), uint64(dg.First.Ptr), uint64(dg.FirstK))
				if err := c.Launch(dg.BFSMod, "first_fill", dg.Grid(uint64(s.N), 256), 256, args...); err != nil {
					return err
				}
			}
		}
		return c.Sync()
	})
	dg.LoadTime = time.Since(t0).Seconds()
	if err != nil {
		dg.Close()
		return nil, err
	}
	if log != nil {
		fmt.Fprintf(log, "stream: loaded in %.3f s: copied %s to the device, pinned %s; device memory in use %s of %s\n",
			dg.LoadTime, bytesize.Format(dg.Copied), bytesize.Format(p.Pinned), bytesize.Format(d.Used()), bytesize.Format(d.Budget()))
	}
	return dg, nil
}

// place copies or pins the sections of one shard as pl says.
func (dg *Graph) place(c *cuda.Ctx, s *store.Shard, pl Placement) (DevShard, error) {
	ds := DevShard{Lo: s.Lo, N: s.N, Edges: s.Edges}
	var pin *cuda.Pinned
	base := s.Bytes()
	alias := func(b []byte) (cuda.DevPtr, error) {
		if pin == nil {
			var err error
			if pin, err = c.Register(base); err != nil {
				return 0, err
			}
			dg.pins = append(dg.pins, pin)
		}
		off := uintptr(unsafe.Pointer(unsafe.SliceData(b))) - uintptr(unsafe.Pointer(unsafe.SliceData(base)))
		return pin.Dev + cuda.DevPtr(off), nil
	}
	put := func(name string, b []byte, w Where) (cuda.DevPtr, error) {
		if len(b) == 0 {
			return 0, nil // nothing to read: the plan counts no bytes for it either
		}
		if w == Pinned {
			return alias(b)
		}
		buf, err := c.Alloc(fmt.Sprintf("%s-%d-%s", s.Dir, s.Lo, name), int64(len(b)))
		if err != nil {
			return 0, err
		}
		if err := c.HtoD(buf.Ptr, unsafe.Pointer(unsafe.SliceData(b)), int64(len(b))); err != nil {
			return 0, err
		}
		dg.Copied += int64(len(b))
		return buf.Ptr, nil
	}
	var err error
	deg := u32bytes(s.Degrees)
	off := u32bytes(s.Offsets)
	if ds.Deg, err = put("degrees", deg, pl.IndexAt); err != nil {
		return ds, err
	}
	if ds.Off, err = put("offsets", off, pl.IndexAt); err != nil {
		return ds, err
	}
	if ds.Adj, err = put("adj", s.Adj, pl.AdjAt); err != nil {
		return ds, err
	}
	ds.AdjPinned = pl.AdjAt == Pinned && len(s.Adj) > 0
	return ds, nil
}

func u32bytes(x []uint32) []byte {
	if len(x) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&x[0])), 4*len(x))
}

// LinkCounter is the device word (u64) into which kernels add the list bytes they decode
// from pinned shards; callers zero it.
func (dg *Graph) LinkCounter() cuda.DevPtr { return dg.State["counters"].Ptr + cntLink }

// FirstArgs are the first-neighbour kernel parameters (null when there is none).
func (dg *Graph) FirstArgs() []uint64 {
	if dg.First == nil {
		return []uint64{0, 0}
	}
	return []uint64{uint64(dg.First.Ptr), uint64(dg.FirstK)}
}

// Close unpins the host sections and frees every device allocation.
func (dg *Graph) Close() error {
	return dg.Dev.Do(func(c *cuda.Ctx) error {
		var first error
		keep := func(err error) {
			if err != nil && first == nil {
				first = err
			}
		}
		keep(dg.closeStaging(c))
		for _, p := range dg.pins {
			keep(c.Unregister(p))
		}
		dg.pins = nil
		keep(c.Unload(dg.BFSMod))
		keep(c.Unload(dg.CCMod))
		dg.BFSMod, dg.CCMod = nil, nil
		keep(c.FreeAll())
		return first
	})
}

// Grid returns a grid size for work items at block threads a block: enough blocks to
// fill the device a few times over, the kernels stride over the rest.
func (dg *Graph) Grid(work uint64, block int) int {
	g := (work + uint64(block) - 1) / uint64(block)
	return int(min(g, uint64(dg.Dev.SMs*16)))
}
