package kcore

import "github.com/oocgraph/ooc/gpu"

// devState is the device memory of one run on the GPU, carved from the runtime's workspace.
// Three vertex arrays take turns: the alive vertices, compacted each level into a second
// array, and a level's frontier and next round's queue in the other two.
type devState struct {
	deg      gpu.Buf[uint32]    // current degree, at the end the core number
	lists    [3]gpu.Buf[uint32] // alive vertices and queues
	counters gpu.Buf[uint32]    // cnt* words
	edges    gpu.Buf[uint64]    // list entries read, list bytes read from pinned memory
	hubs     gpu.Buf[uint32]    // long lists queued for kc_peel_hub: hubCap out-lists, then hubCap in-lists
	hubCap   uint32
}

// The words of a run's counters buffer.
const (
	cntCount = 0 // u32: vertices appended by the last kernel
	cntLeast = 1 // u32: smallest degree kept by kc_compact
	cntBad   = 2 // u32: smallest vertex whose degree overflows 32 bits
	cntHubs  = 3 // u32 x 2: out-lists and in-lists queued for kc_peel_hub
	counters = 5
)

// maxHubs bounds the lists a round queues for kc_peel_hub per direction; kc_peel walks
// the others with a warp.
const maxHubs = 1 << 18

// takeState carves a run's state for n vertices from w: the one layout of it, measured by
// DeviceState.
func takeState(w *gpu.Workspace, n uint32) devState {
	v := int64(n) + 1
	hubCap := uint32(min(v, maxHubs))
	return devState{
		hubs:     gpu.Take[uint32](w, "kcore-hubs", 2*int64(hubCap)),
		hubCap:   hubCap,
		deg:      gpu.Take[uint32](w, "degrees", v),
		lists:    [3]gpu.Buf[uint32]{gpu.Take[uint32](w, "alive", v), gpu.Take[uint32](w, "queue-a", v), gpu.Take[uint32](w, "queue-b", v)},
		counters: gpu.Take[uint32](w, "counters", counters),
		edges:    gpu.Take[uint64](w, "edges", 2),
	}
}

// DeviceState is the workspace a run on the GPU needs for n vertices, for gpu.Make (see
// gpu.Largest).
func DeviceState(n uint32) []gpu.Item {
	w := gpu.Measure()
	takeState(w, n)
	return w.Items()
}
