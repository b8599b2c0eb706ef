package bfs

import (
	"github.com/oocgraph/ooc/gpu"
	"github.com/oocgraph/ooc/store"
)

// The words of a search's counters buffer, which bottom-up sweeps write.
const (
	cntOut     = 0  // u32: vertices emitted into the out queue
	cntChecked = 16 // u64: edges examined bottom-up
	cntSample  = 32 // 2 x u64: bu_sample's entries and vertices
	cntGather  = 48 // u64: td_gather_index's lists (from bit 40) and bytes
)

// A batch of top-down levels writes a record of recWords 64-bit words per level (bfs.cu's
// REC_* words), and the batch's end time into the record after its last level.
const (
	recWords    = 8
	recCount    = 0 // u32 vertices emitted
	recDegrees  = 1 // out-degree sum of the emitted vertices
	recExamined = 2 // out-degree sum of the level's input queue
	recLink     = 3 // list bytes decoded from pinned shards
	recT0       = 4 // %globaltimer (ns) when the level's first launch began
	recLeft     = 5 // edges left unchecked after the level (int64)
	recRan      = 6 // 1 when the level ran
	recLong     = 7 // blocks of the long lists queued (low 32 bits), long lists queued (high 32 bits)
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
	long, longAt   gpu.Buf[uint32] // the long lists td_expand leaves to td_long, and the index of each one's first block among them
	counters       gpu.Buf[uint64] // the cnt* words
	recs           gpu.Buf[uint64] // a batch's level records (rec* words)
	shardBytes     gpu.Buf[uint64] // per in shard: list bytes decoded from pinned, from device memory
	ranges         gpu.Buf[uint32] // td_levels' vertex ranges, two words each (at most one per shard)
	barrier        gpu.Buf[uint32] // td_levels' grid barrier: blocks arrived, generation
}

// takeState carves a search's state for n vertices, a long-list queue of long entries
// (longCap) and shards shards from w: the one layout of it, measured by
// DeviceState.
func takeState(w *gpu.Workspace, n uint32, long uint64, shards int) devState {
	v := int64(n) + 1
	words := (v + 31) / 32
	return devState{
		parent:     gpu.Take[uint32](w, "parent", v),
		level:      gpu.Take[uint32](w, "level", v),
		queueA:     gpu.Take[uint32](w, "queue-a", v),
		queueB:     gpu.Take[uint32](w, "queue-b", v),
		visited:    gpu.Take[uint32](w, "visited", words),
		frontier:   gpu.Take[uint32](w, "frontier", words),
		next:       gpu.Take[uint32](w, "next", words),
		long:       gpu.Take[uint32](w, "long-lists", int64(long)+1),
		longAt:     gpu.Take[uint32](w, "long-list-blocks", int64(long)+1),
		counters:   gpu.Take[uint64](w, "counters", 8),
		recs:       gpu.Take[uint64](w, "level-records", (maxBatch+1)*recWords),
		shardBytes: gpu.Take[uint64](w, "shard-bytes", 2*int64(max(shards, 1))),
		ranges:     gpu.Take[uint32](w, "level-ranges", 2*int64(max(shards, 1))),
		barrier:    gpu.Take[uint32](w, "barrier", 2),
	}
}

// longCap is the long-list queue's entries: at most one per out-list of more than
// gpu.LongDegree neighbours (bounded from the directory's group headers), and no more than
// a top-down level under GAPBS's default rule holds (its lists' degrees sum to at most the
// edges over alpha). A list that finds the queue full is expanded by its own thread
// (bfs.cu's queueLong), so the cap bounds memory, never answers.
func longCap(shards []gpu.ShardSize) uint64 {
	var long, edges uint64
	for _, s := range shards {
		if s.Dir == store.Out {
			long += s.Long
			edges += s.Edges
		}
	}
	return min(long, edges/(DefaultAlpha*gpu.LongDegree)+1)
}

// DeviceState is the workspace a search on the GPU needs for n vertices and the planned
// shards, for gpu.Make (see gpu.Largest).
func DeviceState(n uint32, shards []gpu.ShardSize) []gpu.Item {
	w := gpu.Measure()
	takeState(w, n, longCap(shards), len(shards))
	return w.Items()
}
