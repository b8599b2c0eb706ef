// Package bfs is direction-optimizing breadth-first search (Beamer, Asanović, Patterson,
// SC 2012) on all cores. It reads a graph through store.Adjacency: on the compressed
// shards it decodes the delta-varint lists on the fly, without a decompressed copy of the
// graph; the same code runs on an uncompressed in-memory CSR (store.Flat), the baseline
// that shows what compression costs. bfs.cu holds the GPU kernels, embedded as Fatbin.
package bfs
