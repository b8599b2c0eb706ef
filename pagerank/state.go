package pagerank

import (
	"github.com/oocgraph/ooc/gpu"
	"github.com/oocgraph/ooc/store"
)

// devState is the device memory of one run on the GPU, carved from the runtime's workspace.
type devState struct {
	score    gpu.Buf[float32] // the current scores
	contrib  gpu.Buf[float32] // score/out-degree of the previous iteration
	next     gpu.Buf[float32] // the contributions the current iteration writes
	outdeg   gpu.Buf[uint32]  // every vertex's out-degree
	counters gpu.Buf[uint64]  // cntChange, cntZero, cntDev
	hubs     gpu.Buf[uint32]  // lists of more than hubBlocks blocks, queued by pr_pull
	hubNb    gpu.Buf[uint32]  // their block counts
	hubSum   gpu.Buf[float64] // their sums
	hubCount gpu.Buf[uint32]  // queued, and the most blocks of one; pr_hub_finish empties the queue
}

// hubBlocks is pagerank.cu's HUB_BLOCKS: a launch over at most e edges queues at most
// e/(hubBlocks*BlockSize)+1 lists.
const hubBlocks = 64

// The words of a run's counters buffer (kernels write them).
const (
	cntChange = 0  // f64: the iteration's L1 change
	cntZero   = 8  // u64: list bytes decoded from pinned host memory (zero-copy)
	cntDev    = 16 // u64: list bytes decoded from device memory
)

// takeState carves a run's state for n vertices and a direction of at most maxEdges edges
// from w: the one layout of it, measured by DeviceState.
func takeState(w *gpu.Workspace, n uint32, maxEdges uint64) devState {
	v := int64(n) + 1
	hubs := int64(maxEdges/(hubBlocks*store.BlockSize)) + 1
	return devState{
		score:    gpu.Take[float32](w, "scores", v),
		contrib:  gpu.Take[float32](w, "contrib", v),
		next:     gpu.Take[float32](w, "contrib-next", v),
		outdeg:   gpu.Take[uint32](w, "out-degrees", v),
		counters: gpu.Take[uint64](w, "counters", 4),
		hubs:     gpu.Take[uint32](w, "hubs", hubs),
		hubNb:    gpu.Take[uint32](w, "hub-blocks", hubs),
		hubSum:   gpu.Take[float64](w, "hub-sums", hubs),
		hubCount: gpu.Take[uint32](w, "hub-count", 2),
	}
}

// DeviceState is the workspace a run on the GPU needs for n vertices and the planned
// shards, for gpu.Make (see gpu.Largest).
func DeviceState(n uint32, shards []gpu.ShardSize) []gpu.Item {
	w := gpu.Measure()
	takeState(w, n, gpu.MaxDirEdges(shards))
	return w.Items()
}
