package sssp

import "github.com/oocgraph/ooc/gpu"

// devState is the device memory of one run on the GPU, carved from the runtime's
// workspace: the distances, the round stamps (the parents once the distances are final),
// where each vertex's weights start in its shard's weights, three queues (the near queue,
// the next one and the far pile, whose roles rotate: sssp.cu's control words say which is
// which), the far pile's membership bits, the out-shards' weight addresses, the control
// words, the running counters and the ring of round records; for held rounds (sssp.cu)
// the queue's membership bits, the out-shards streamed, and per chunk its first vertex,
// its queued vertices, their edges and the largest degree among them.
type devState struct {
	dist    gpu.Buf[uint32]
	stamp   gpu.Buf[uint32]
	wOff    gpu.Buf[uint32]
	queues  [3]gpu.Buf[uint32]
	farBits gpu.Buf[uint32]
	wts     gpu.Buf[uint64] // two words per out-shard: address, pinned
	ctl     gpu.Buf[uint32] // ctl* words
	acc     gpu.Buf[uint64] // acc* running counters
	rec     gpu.Buf[uint64] // ring of round records, recWords each
	hubs    gpu.Buf[uint32] // long lists queued for sp_relax_hub: hubCap vertices
	hubNb   gpu.Buf[uint32] // their block counts
	hubCap  uint32
	hold    gpu.Buf[uint32] // bits: the held round's vertices of streamed out-shards
	skip    gpu.Buf[uint32] // per out-shard: 1 when its vertices go chunk by chunk in held rounds
	chLo    gpu.Buf[uint32] // per chunk (at most maxChunks): its first vertex
	chCnt   gpu.Buf[uint32] // ... the held round's vertices in it
	chDeg   gpu.Buf[uint64] // ... and their out-edges
	chMax   gpu.Buf[uint32] // ... and the largest out-degree among them
}

// sssp.cu's control words (C_*), the step kinds (STEP_*), the running counters (A_*) and
// the round records (R_WORDS, RING); TestDeviceConstants compares the two files.
const (
	ctlMode   = 0
	ctlBin    = 1
	ctlFront  = 2
	ctlNext   = 3
	ctlFar    = 4
	ctlNF     = 5
	ctlNN     = 6
	ctlFN     = 7
	ctlKN     = 8
	ctlRound  = 9
	ctlMinBin = 10
	ctlBad    = 11
	ctlSteps  = 12
	ctlHubs   = 13
	ctlHubMax = 14
	ctlHold   = 15
	ctlHeld   = 16
	ctlNsv    = 17
	ctlBpns   = 18
	ctlHoldNs = 19
	ctlFloat  = 20
	ctlWords  = 21

	stepRound = 0
	stepBin   = 1
	stepEnd   = 2
	stepDone  = 3
	stepHold  = 4

	accEdges = 0
	accBytes = 1
	accWords = 2

	recWords = 3 + accWords
	recRing  = 1024
)

// hubBlocks is sssp.cu's HUB_BLOCKS: lists of more blocks go to the hub kernels.
const hubBlocks = 64

// maxHubs bounds the long lists a round queues for sp_relax_hub; sp_relax walks the
// others itself.
const maxHubs = 1 << 18

// maxChunks bounds the chunks of held rounds (sssp.cu's sp_hold_mark counts through
// shared memory up to 1024 of them, in global memory beyond); a run with more holds none.
const maxChunks = 1 << 14

// takeState carves a run's state for n vertices and outShards out-shards from w: the one
// layout of it, measured by DeviceState.
func takeState(w *gpu.Workspace, n uint32, outShards int) devState {
	v := int64(n) + 1
	hubCap := uint32(min(v, maxHubs))
	return devState{
		hubs:   gpu.Take[uint32](w, "sssp-hubs", int64(hubCap)),
		hubNb:  gpu.Take[uint32](w, "sssp-hub-blocks", int64(hubCap)),
		hubCap: hubCap,
		dist:   gpu.Take[uint32](w, "sssp-dist", v),
		stamp:  gpu.Take[uint32](w, "sssp-stamp", v),
		wOff:   gpu.Take[uint32](w, "sssp-weight-offsets", v),
		queues: [3]gpu.Buf[uint32]{gpu.Take[uint32](w, "sssp-queue-a", v), gpu.Take[uint32](w, "sssp-queue-b", v),
			gpu.Take[uint32](w, "sssp-queue-c", v)},
		farBits: gpu.Take[uint32](w, "sssp-far-bits", v/32+1),
		wts:     gpu.Take[uint64](w, "sssp-weight-sections", 2*(int64(outShards)+1)),
		ctl:     gpu.Take[uint32](w, "sssp-control", ctlWords),
		acc:     gpu.Take[uint64](w, "sssp-counters", accWords),
		rec:     gpu.Take[uint64](w, "sssp-round-records", recRing*recWords),
		hold:    gpu.Take[uint32](w, "sssp-hold-bits", v/32+1),
		skip:    gpu.Take[uint32](w, "sssp-streamed-shards", int64(outShards)+1),
		chLo:    gpu.Take[uint32](w, "sssp-chunk-first", maxChunks),
		chCnt:   gpu.Take[uint32](w, "sssp-chunk-vertices", maxChunks),
		chDeg:   gpu.Take[uint64](w, "sssp-chunk-edges", maxChunks),
		chMax:   gpu.Take[uint32](w, "sssp-chunk-degree", maxChunks),
	}
}

// DeviceState is the workspace a run on the GPU needs for n vertices and the shards of
// a graph (gpu.Sizes), for gpu.Make (see gpu.Largest).
func DeviceState(n uint32, shards []gpu.ShardSize) []gpu.Item {
	w := gpu.Measure()
	takeState(w, n, len(shards))
	return w.Items()
}
