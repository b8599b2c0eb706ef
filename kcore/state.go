package kcore

import "github.com/oocgraph/ooc/gpu"

// devState is the device memory of one run on the GPU, carved from the runtime's workspace.
// Three vertex arrays take turns: the alive vertices, compacted each level into a second
// array, and a level's frontier and next round's queue in the other two (kcore.cu's
// control words say which is which).
type devState struct {
	deg    gpu.Buf[uint32]    // current degree, at the end the core number
	lists  [3]gpu.Buf[uint32] // alive vertices and queues
	ctl    gpu.Buf[uint32]    // ctl* words
	acc    gpu.Buf[uint64]    // acc* running counters
	rec    gpu.Buf[uint64]    // ring of level records, recWords each
	hubs   gpu.Buf[uint32]    // long lists queued for kc_peel_hub: hubCap out-lists, then hubCap in-lists
	hubNb  gpu.Buf[uint32]    // their block counts
	hubCap uint32
}

// kcore.cu's control words (C_*), the step kinds (STEP_*), the running counters (A_*) and
// the level records (R_WORDS, RING); TestDeviceConstants compares the two files.
const (
	ctlMode   = 0
	ctlK      = 1
	ctlAlive  = 2
	ctlFront  = 3
	ctlNext   = 4
	ctlNA     = 5
	ctlNF     = 6
	ctlNN     = 7
	ctlNS     = 8
	ctlLeast  = 9
	ctlBad    = 10
	ctlHubs   = 11
	ctlLevel  = 13
	ctlHubMax = 14
	ctlWords  = 16

	stepRound = 0
	stepLevel = 1
	stepDone  = 2

	accEdges   = 0
	accBytes   = 1
	accRemoved = 2
	accRounds  = 3
	accWords   = 4

	recWords = 2 + accWords
	recRing  = 1024
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
		hubs:   gpu.Take[uint32](w, "kcore-hubs", 2*int64(hubCap)),
		hubNb:  gpu.Take[uint32](w, "kcore-hub-blocks", 2*int64(hubCap)),
		hubCap: hubCap,
		deg:    gpu.Take[uint32](w, "degrees", v),
		lists:  [3]gpu.Buf[uint32]{gpu.Take[uint32](w, "alive", v), gpu.Take[uint32](w, "queue-a", v), gpu.Take[uint32](w, "queue-b", v)},
		ctl:    gpu.Take[uint32](w, "control", ctlWords),
		acc:    gpu.Take[uint64](w, "counters", accWords),
		rec:    gpu.Take[uint64](w, "level-records", recRing*recWords),
	}
}

// DeviceState is the workspace a run on the GPU needs for n vertices, for gpu.Make (see
// gpu.Largest).
func DeviceState(n uint32) []gpu.Item {
	w := gpu.Measure()
	takeState(w, n)
	return w.Items()
}
