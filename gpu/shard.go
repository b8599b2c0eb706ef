package gpu

// ShardEntry is one row of the shard table through which kernels find the shard of any
// vertex: struct Shard of store/graph.cuh. This is its one Go definition; shard_test.go
// checks its size and field offsets against the static_asserts of the header, which nvcc
// checks against the C struct.
type ShardEntry struct {
	Adj    uint64 // adj: device pointer, or the device alias of pinned host memory
	Dir    uint64 // dir: DIRECTORY's group headers
	Bits   uint64 // bits: DIRECTORY's packed pairs
	Lo, N  uint32 // lo, n: the shard's first vertex and its vertex count
	Pinned uint32 // pinned: 1 when Adj is pinned host memory (list reads cross the link)
	Pad    uint32 // pad
}
