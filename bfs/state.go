package bfs

import (
	"github.com/oocgraph/ooc/gpu"
	"github.com/oocgraph/ooc/store"
)

// HugeBlocks is the smallest threshold of td_expand (bfs.cu) above which lists are
// expanded by whole thread blocks; the huge list holds at most one entry per such list.
const HugeBlocks = 8

// The words of a search's counters buffer, which bottom-up sweeps write.
const (
	cntOut     = 0  // u32: vertices emitted into the out queue
	cntChecked = 16 // u64: edges examined bottom-up
)

// A batch of top-down levels writes a record of recWords 64-bit words per level (bfs.cu's
// REC_* words), and the batch's end time into the record after its last level.
const (
	recWords    = 8
	recCount    = 0 // u32 vertices emitted, then u32 huge lists queued
	recDegrees  = 1 // out-degree sum of the emitted vertices
	recExamined = 2 // out-degree sum of the level's input queue
	recLink     = 3 // list bytes decoded from pinned shards
	recT0       = 4 // %globaltimer (ns) when the level's first launch began
	recLeft     = 5 // edges left unchecked after the level (int64)
	recRan      = 6 // 1 when the level ran
)

// Top-down levels queued between two reads of the records: the first batch of a top-down
// phase, and the most (the batch doubles while the phase lasts).
const (
	firstBatch = 4
	maxBatch   = 256
)

// devState is the device memory of one search on the GPU, carved from the runtime's
// workspace.
type devState struct {
	parent, level  gpu.Buf[uint32] // per vertex
	queueA, queueB gpu.Buf[uint32] // the frontier queues, swapped each level
	visited        gpu.Buf[uint32] // bitmaps, one bit per vertex
	frontier, next gpu.Buf[uint32]
	huge           gpu.Buf[uint32] // lists td_expand leaves to td_huge
	counters       gpu.Buf[uint64] // the cnt* words
	recs           gpu.Buf[uint64] // a batch's level records (rec* words)
	shardBytes     gpu.Buf[uint64] // per in shard: list bytes decoded from pinned, from device memory
}

// takeState carves a search's state for n vertices, a direction of at most maxEdges
// edges and shards shards from w: the one layout of it, measured by DeviceState.
func takeState(w *gpu.Workspace, n uint32, maxEdges uint64, shards int) devState {
	v := int64(n) + 1
	words := (v + 31) / 32
	huge := int64(maxEdges/(HugeBlocks*store.BlockSize)) + 1
	return devState{
		parent:     gpu.Take[uint32](w, "parent", v),
		level:      gpu.Take[uint32](w, "level", v),
		queueA:     gpu.Take[uint32](w, "queue-a", v),
		queueB:     gpu.Take[uint32](w, "queue-b", v),
		visited:    gpu.Take[uint32](w, "visited", words),
		frontier:   gpu.Take[uint32](w, "frontier", words),
		next:       gpu.Take[uint32](w, "next", words),
		huge:       gpu.Take[uint32](w, "huge", huge),
		counters:   gpu.Take[uint64](w, "counters", 8),
		recs:       gpu.Take[uint64](w, "level-records", (maxBatch+1)*recWords),
		shardBytes: gpu.Take[uint64](w, "shard-bytes", 2*int64(max(shards, 1))),
	}
}

// DeviceState is the workspace a search on the GPU needs for n vertices and the planned
// shards, for gpu.Make (see gpu.Largest).
func DeviceState(n uint32, shards []gpu.ShardSize) []gpu.Item {
	w := gpu.Measure()
	takeState(w, n, gpu.MaxDirEdges(shards), len(shards))
	return w.Items()
}
