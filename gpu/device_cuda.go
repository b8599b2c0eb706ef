//go:build cuda

package gpu

import (
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
	Adj       cuda.DevPtr
	Dir, Bits cuda.DevPtr // DIRECTORY: its group headers, and its packed pairs after them
	Lo, N     uint32
	Edges     uint64
	AdjPinned bool // Adj is pinned host memory: list reads cross the link
	// W is the device alias of the shard's WEIGHTS section in pinned host memory (read
	// zero-copy, outside the plan's device budget), or 0 when the graph has no weights.
	W cuda.DevPtr
}

// Graph is a graph placed on a device by a Plan.
type Graph struct {
	Dev      *cuda.Device
	Plan     *Plan
	G        *store.Graph
	N        uint32
	Out, In  []DevShard   // In is Out on an undirected graph
	OutTable *cuda.Buffer // the out shards as ShardEntry rows, then (directed) the in shards
	InTable  cuda.DevPtr  // the in shards' rows: inside OutTable, or OutTable itself when undirected
	Work     *Workspace   // the algorithms' workspace (Plan.Work bytes of device memory)
	mod      *cuda.Module // runtime.cu
	Log      io.Writer    // -v lines of the runtime and the algorithms when not nil
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
	stage   []*cuda.Buffer // Plan.Stages staging buffers, used as a ring
	copyS   *cuda.Stream
	copied  []*cuda.Event // staging buffer b filled
	kdone   []*cuda.Event // the launches reading staging buffer b finished
	issued  int           // copies issued into the ring: the next goes to buffer issued % len(stage)
	ahead   []pending     // copies issued ahead of the sweep that will read them (Sweep's prefetch)

	// the list cache (cache_cuda.go)
	region    *cuda.Buffer  // the staging buffers, one allocation; nil when the plan has none or they would serve nothing
	cached    bool          // the staging buffers hold Plan.Cache's shards
	savedAdj  []cuda.DevPtr // per Plan.Cache entry: the shard's pinned ADJ alias
	savedHost []hostShard   // and its host record
}

// Load allocates the workspace and the shard table, copies the resident sections, pins the
// rest and fills the first-neighbour array (runtime.cu). On error everything taken so far
// is released.
func Load(d *cuda.Device, g *store.Graph, p *Plan, log io.Writer) (*Graph, error) {
	dg := &Graph{Dev: d, Plan: p, G: g, N: g.NumVertices(), Log: log}
	var err error
	if dg.Mode, err = ParseMode(os.Getenv("OOC_GPU_STREAM")); err != nil {
		return nil, err
	}
	t0 := time.Now()
	err = d.Do(func(c *cuda.Ctx) error {
		work, err := c.Alloc("workspace", p.Work)
		if err != nil {
			return err
		}
		dg.Work = NewWorkspace(uint64(work.Ptr), p.Work)
		table := p.State[len(p.State)-1]
		if dg.OutTable, err = c.Alloc(table.Name, table.Bytes); err != nil {
			return err
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
				h.chunks = Chunks(s.N, s.ListOffset, p.Stage)
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
		// the table holds a row per planned shard: the out shards, then the in shards of a
		// directed graph (an undirected graph's in shards are its out shards)
		tab := make([]ShardEntry, len(p.Shards))
		for k := range tab {
			ds, h := dg.shard(k)
			tab[k] = entry(*ds, *h)
		}
		dg.InTable = dg.OutTable.Ptr
		if g.Directed() {
			dg.InTable += cuda.DevPtr(int64(len(dg.Out)) * int64(unsafe.Sizeof(ShardEntry{})))
		}
		if len(tab) > 0 {
			if err := c.HtoD(dg.OutTable.Ptr, unsafe.Pointer(&tab[0]), int64(len(tab))*int64(unsafe.Sizeof(tab[0]))); err != nil {
				return err
			}
		}
		if dg.mod, err = c.Load("runtime", runtimeFatbin); err != nil {
			return err
		}
		if err := dg.guard(c, dg.mod); err != nil {
			return err
		}
		if err := dg.setupStaging(c); err != nil {
			return err
		}
		if err := dg.CacheLists(c); err != nil {
			return err
		}
		// first_fill decodes every in-list's head: its fault word is read after it, whatever
		// the launches and the wait return (runError)
		fill := dg.fillFirst(c)
		return runError(dg.listFault(c, dg.mod), fill)
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
	if err := s.CheckSize(); err != nil { // the driver copies and pins the mapping: a fault there would crash
		return ds, err
	}
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
	if ds.Dir, err = put("directory", s.DirectoryBytes(), pl.IndexAt); err != nil {
		return ds, err
	}
	ds.Bits = ds.Dir + cuda.DevPtr(s.DirectoryHeaders())
	if ds.Adj, err = put("adj", s.Adj, pl.AdjAt); err != nil {
		return ds, err
	}
	ds.AdjPinned = pl.AdjAt == Pinned && len(s.Adj) > 0
	if len(s.Weights) > 0 {
		if ds.W, err = alias(u32bytes(s.Weights)); err != nil {
			return ds, err
		}
	}
	return ds, nil
}

func u32bytes(x []uint32) []byte {
	if len(x) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&x[0])), 4*len(x))
}

// FirstArray is the device array of every vertex's first K in-neighbours (NONE-padded;
// out-neighbours on an undirected graph), K, and the bits of an entry (FirstBits: the
// entries are packed); 0, 0, 0 when the plan keeps none.
func (dg *Graph) FirstArray() (cuda.DevPtr, uint32, uint32) {
	if dg.First == nil {
		return 0, 0, 0
	}
	return dg.First.Ptr, uint32(dg.FirstK), uint32(FirstBits(dg.G.NumVertices()))
}

// Ptr is the device address of b.
func (b Buf[T]) Ptr() cuda.DevPtr { return cuda.DevPtr(b.Addr) }

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
		keep(c.Unload(dg.mod))
		dg.mod = nil
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

// fillFirst fills the first-neighbour array, when the plan keeps one, and waits for it.
func (dg *Graph) fillFirst(c *cuda.Ctx) error {
	if dg.First != nil {
		// first_fill ORs the packed entries into zeroed words
		if err := c.Memset32(dg.First.Ptr, 0, dg.Plan.First/4); err != nil {
			return err
		}
		for _, s := range dg.In {
			if err := launchFirstFill(c, dg.mod, dg.Grid(uint64(s.N), 256), 256, s.Adj, s.Dir, s.Bits, s.Lo, s.N,
				dg.First.Ptr, uint32(dg.FirstK), uint32(FirstBits(dg.G.NumVertices()))); err != nil {
				return err
			}
		}
	}
	return c.Sync()
}

// String says where the graph is, for -v.
func (dg *Graph) String() string {
	return fmt.Sprintf("%s (compute %d.%d, %d SMs, %s)\n%s", dg.Dev.Name, dg.Dev.CC[0], dg.Dev.CC[1], dg.Dev.SMs,
		bytesize.Format(dg.Dev.Total), dg.Plan)
}

// Kernels are an algorithm's kernels loaded for runs on a placed graph: each algorithm's
// GPU type holds them, and its Close closes them.
type Kernels struct {
	Graph *Graph       // the graph the runs read
	Mod   *cuda.Module // the kernels, nil once closed
}

// LoadKernels loads an algorithm's kernels (the fatbin image, named name in errors) into
// dg's device context, for runs on dg, with their list checks readied (guard): a run of
// them ends with CheckLists.
func (dg *Graph) LoadKernels(name string, image []byte) (Kernels, error) {
	var m *cuda.Module
	err := dg.Dev.Do(func(c *cuda.Ctx) error {
		var err error
		if m, err = c.Load(name, image); err != nil {
			return err
		}
		if err = dg.guard(c, m); err != nil {
			c.Unload(m)
			m = nil
		}
		return err
	})
	return Kernels{Graph: dg, Mod: m}, err
}

// Close unloads the kernels; closing them again does nothing.
func (k *Kernels) Close() error {
	if k.Mod == nil {
		return nil
	}
	err := k.Graph.Dev.Do(func(c *cuda.Ctx) error { return c.Unload(k.Mod) })
	k.Mod = nil
	return err
}
