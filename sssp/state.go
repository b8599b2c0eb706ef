package sssp

import "github.com/oocgraph/ooc/gpu"

// devState is the device memory of one run on the GPU, carved from the runtime's
// workspace: the distances, the round stamps (the parents once the distances are final),
// where each vertex's weights start in its shard, three queues (the near queue, the next
// one and the far pile, whose roles rotate), the far pile's membership bits, the
// out-shards' weight addresses and the counters.
type devState struct {
	dist     gpu.Buf[uint32]
	stamp    gpu.Buf[uint32]
	wOff     gpu.Buf[uint32]
	queues   [3]gpu.Buf[uint32]
	farBits  gpu.Buf[uint32]
	wts      gpu.Buf[uint64]
	counters gpu.Buf[uint64] // cnt* words
}

// The words of a run's counters buffer.
const (
	cntNext   = 0 // vertices appended to the next near queue
	cntEdges  = 1 // list entries read
	cntBad    = 2 // low 32 bits: the smallest vertex whose distance would overflow
	cntFar    = 3 // vertices in the far pile
	cntMinBin = 4 // sp_far_min's answer
	cntKeep   = 5 // vertices sp_split keeps in the far pile
	counters  = 6
)

// takeState carves a run's state for n vertices and outShards out-shards from w: the one
// layout of it, measured by DeviceState.
func takeState(w *gpu.Workspace, n uint32, outShards int) devState {
	v := int64(n) + 1
	return devState{
		dist:  gpu.Take[uint32](w, "sssp-dist", v),
		stamp: gpu.Take[uint32](w, "sssp-stamp", v),
		wOff:  gpu.Take[uint32](w, "sssp-weight-offsets", v),
		queues: [3]gpu.Buf[uint32]{gpu.Take[uint32](w, "sssp-queue-a", v), gpu.Take[uint32](w, "sssp-queue-b", v),
			gpu.Take[uint32](w, "sssp-queue-c", v)},
		farBits:  gpu.Take[uint32](w, "sssp-far-bits", v/32+1),
		wts:      gpu.Take[uint64](w, "sssp-weight-sections", int64(outShards)+1),
		counters: gpu.Take[uint64](w, "sssp-counters", counters),
	}
}

// DeviceState is the workspace a run on the GPU needs for n vertices and the shards of
// a graph (gpu.Sizes), for gpu.Make (see gpu.Largest).
func DeviceState(n uint32, shards []gpu.ShardSize) []gpu.Item {
	w := gpu.Measure()
	takeState(w, n, len(shards))
	return w.Items()
}
