// Package kernels holds the compute kernels of ooc. The pure-Go files are the CPU
// engine's kernels: direction-optimizing BFS (Beamer et al., SC 2012) that decodes the
// delta-varint shards on the fly, on all cores, without a decompressed copy of the graph.
// The same code also runs on an uncompressed in-memory CSR (Flat), the baseline that
// shows what compression costs. The CUDA kernels of the GPU engine live beside them
// behind the cuda build tag.
package kernels
