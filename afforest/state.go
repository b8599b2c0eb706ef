package afforest

import "github.com/oocgraph/ooc/gpu"

// devState is the device memory of one run on the GPU, carved from the runtime's
// workspace: Afforest's own, shared with no other algorithm.
type devState struct {
	comp     gpu.Buf[uint32] // the label of every vertex
	idx, got gpu.Buf[uint32] // sampled vertices and their labels
	counters gpu.Buf[uint64] // [0]: list bytes decoded from pinned shards
}

// takeState carves a run's state for n vertices and samples samples from w: the one
// layout of it, measured by DeviceState.
func takeState(w *gpu.Workspace, n uint32, samples int) devState {
	return devState{
		comp:     gpu.Take[uint32](w, "labels", int64(n)+1),
		idx:      gpu.Take[uint32](w, "samples", int64(samples)),
		got:      gpu.Take[uint32](w, "sample-labels", int64(samples)),
		counters: gpu.Take[uint64](w, "counters", 8),
	}
}

// DeviceState is the workspace a run on the GPU needs for n vertices with opt, for
// gpu.Make (see gpu.Largest).
func DeviceState(n uint32, opt Options) []gpu.Item {
	w := gpu.Measure()
	takeState(w, n, opt.WithDefaults().Samples)
	return w.Items()
}
