package pagerank

import "github.com/oocgraph/ooc/gpu"

// devState is the device memory of one run on the GPU, carved from the runtime's workspace.
type devState struct {
	score    gpu.Buf[float32] // the current scores
	contrib  gpu.Buf[float32] // score/out-degree of the previous iteration
	next     gpu.Buf[float32] // the contributions the current iteration writes
	outdeg   gpu.Buf[uint32]  // every vertex's out-degree
	counters gpu.Buf[uint64]  // cntChange, cntZero, cntDev
}

// The words of a run's counters buffer (kernels write them).
const (
	cntChange = 0  // f64: the iteration's L1 change
	cntZero   = 8  // u64: list bytes decoded from pinned host memory (zero-copy)
	cntDev    = 16 // u64: list bytes decoded from device memory
)

// takeState carves a run's state for n vertices from w: the one layout of it, measured by
// DeviceState.
func takeState(w *gpu.Workspace, n uint32) devState {
	v := int64(n) + 1
	return devState{
		score:    gpu.Take[float32](w, "scores", v),
		contrib:  gpu.Take[float32](w, "contrib", v),
		next:     gpu.Take[float32](w, "contrib-next", v),
		outdeg:   gpu.Take[uint32](w, "out-degrees", v),
		counters: gpu.Take[uint64](w, "counters", 4),
	}
}

// DeviceState is the workspace a run on the GPU needs for n vertices, for gpu.Make (see
// gpu.Largest).
func DeviceState(n uint32) []gpu.Item {
	w := gpu.Measure()
	takeState(w, n)
	return w.Items()
}
