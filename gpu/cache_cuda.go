//go:build cuda

package gpu

import (
	"fmt"
	"time"
	"unsafe"

	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/internal/cuda"
)

// shard returns the device and host records of planned shard k (Plan.Shards' order: the
// out shards, then a directed graph's in shards).
func (dg *Graph) shard(k int) (*DevShard, *hostShard) {
	if k < len(dg.Out) {
		return &dg.Out[k], &dg.outHost[k]
	}
	k -= len(dg.Out)
	return &dg.In[k], &dg.inHost[k]
}

// entry is the shard table's row of a shard.
func entry(s DevShard, h hostShard) ShardEntry {
	e := ShardEntry{Adj: uint64(s.Adj), Dir: uint64(s.Dir), Bits: uint64(s.Bits), Lo: s.Lo, N: s.N}
	if h.pinned {
		e.Pinned = 1
	}
	return e
}

// writeRow copies planned shard k's table row to the device (after c.Sync: no kernel
// reads the table meanwhile).
func (dg *Graph) writeRow(c *cuda.Ctx, k int) error {
	ds, h := dg.shard(k)
	e := entry(*ds, *h)
	size := int64(unsafe.Sizeof(e))
	return c.HtoD(dg.OutTable.Ptr+cuda.DevPtr(int64(k)*size), unsafe.Pointer(&e), size)
}

// CacheLists fills the list cache when it is empty (docs/design-memory-plan.md): it copies
// the ADJ of Plan.Cache's pinned shards into the staging buffers and points their table
// rows and records there, so that every kernel and InShard/OutShard see them as resident
// lists until ReleaseCache. It waits for the device first: a prefetch may be filling the
// buffers. Copies run at the link's copy rate (a grid 2^26 shard of 96 MiB: about 2 ms).
func (dg *Graph) CacheLists(c *cuda.Ctx) error {
	if dg.cached || dg.region == nil || len(dg.Plan.Cache) == 0 {
		return nil
	}
	if err := c.Sync(); err != nil {
		return err
	}
	dg.ahead = nil
	t0 := time.Now()
	save := dg.savedHost == nil
	for _, e := range dg.Plan.Cache {
		ds, h := dg.shard(e.Shard)
		if !h.pinned || !ds.AdjPinned {
			return fmt.Errorf("stream: list cache: shard %d is not pinned", e.Shard)
		}
		if save {
			dg.savedAdj = append(dg.savedAdj, ds.Adj)
			dg.savedHost = append(dg.savedHost, *h)
		}
		at := dg.region.Ptr + cuda.DevPtr(e.Off)
		if err := c.HtoD(at, unsafe.Pointer(unsafe.SliceData(h.adj)), int64(len(h.adj))); err != nil {
			return err
		}
		ds.Adj, ds.AdjPinned = at, false
		h.pinned, h.chunks = false, nil
		if err := dg.writeRow(c, e.Shard); err != nil {
			return err
		}
	}
	dg.cached = true
	if dg.Log != nil {
		fmt.Fprintf(dg.Log, "stream: list cache: %s of pinned lists copied into the staging buffers in %.3f ms\n",
			bytesize.Format(dg.Plan.CacheBytes), 1e3*time.Since(t0).Seconds())
	}
	return nil
}

// ReleaseCache gives the staging buffers back to streaming: the cached shards' rows and
// records point at their pinned ADJ again. It waits for the kernels that read the cache.
// A step that streams calls it before its first copy (Sweep and Stream do); an algorithm
// that decides from InShard or OutShard whether to stream calls it before deciding.
func (dg *Graph) ReleaseCache(c *cuda.Ctx) error {
	if !dg.cached {
		return nil
	}
	if err := c.Sync(); err != nil {
		return err
	}
	for j, e := range dg.Plan.Cache {
		ds, h := dg.shard(e.Shard)
		ds.Adj, ds.AdjPinned = dg.savedAdj[j], true
		*h = dg.savedHost[j]
		if err := dg.writeRow(c, e.Shard); err != nil {
			return err
		}
	}
	dg.cached = false
	if dg.Log != nil {
		fmt.Fprintf(dg.Log, "stream: list cache given back to streaming (%s of lists read where they lie again)\n",
			bytesize.Format(dg.Plan.CacheBytes))
	}
	return nil
}
