// Package ingest turns edge lists into graph directories (store/FORMAT.md) within a
// memory budget, on all cores, for inputs far larger than RAM.
//
// The input layer (package ingest/parse) decompresses, detects the format and emits batches
// of 0-based edges from several goroutines. The pipeline (File, FromEdges) then runs in
// two phases:
//
//	phase 1  every edge becomes one or two keys src<<32|dst (undirected: both ways;
//	         directed: out-key and transposed in-key), collected in a fixed number of
//	         chunks; the worker that fills a chunk up orders it by group (2^10 to
//	         2^13 source vertices, by the graph's size: groupsFor) and appends it to
//	         one spill file per
//	         direction, cut into blocks of one partition (2^17 source vertices) each,
//	         of fixed-width entries, recorded in an in-memory index.
//	phase 2  partitions in vertex order, small ones grouped and large ones split into
//	         vertex sub-ranges (between groups, from the group counts in the blocks'
//	         headers; a sub-range reads and decodes only the groups it overlaps), are
//	         decoded, fully sorted, deduplicated and encoded by all workers, and handed
//	         in order to store.CSRWriter, which cuts the shards; whichever worker is
//	         free writes the next task in order while the others sort. Phase 2's sort is the only full sort, and duplicates are dropped
//	         there alone: on kron21 this ran the whole ingest 1.6x faster than fully
//	         sorting and deduplicating each chunk in phase 1 as well.
//
// Memory: chunks, sort buffers and tasks are sized from Options.Mem, less what the
// parser and the Go runtime take, and the Go heap is limited to the budget while the
// ingest runs; peak RSS (VmHWM) stays below the budget (memory_test.go). The spill
// index (24 bytes per block) and, with --relabel, the distinct ids (8 bytes each) are
// not bounded by the budget; since duplicates are dropped only in phase 2, every copy of
// a repeated edge counts towards its vertex's keys until then. Disk: the spill files
// (about 4-5 bytes per directed edge copy) live in the graph's temporary directory
// beside the shards and vanish with it.
//
// With a GPU (a -tags cuda build, gpu_cuda.go, ingest/build.cu), phase 2 runs on the
// device instead, and phase 1 keeps no spill: the parse workers fill each edge's key, once,
// into pinned staging buffers that one goroutine copies to device memory as the parse goes
// on; the device makes the directed keys, sorts them (a stable LSD radix sort over the
// 2*bits(n-1) bits that matter), drops duplicates, counts degrees, sizes each list's
// blocks with a prefix sum and encodes the lists piece by piece, each piece (degrees, offsets, lists)
// copied back in one copy and handed to store.CSRWriter while the next is encoded. The
// degree order's permutation comes from the device's degree count (degreeOrder, on the
// host); --order auto compares the exact sizes of both orders. The keys must fit in device
// memory twice over; an input found too large is read again by the CPU pipeline, so the
// GPU takes regular files only. The shards are byte-identical to the CPU's.
//
// Output is deterministic: the same input gives byte-identical shards whatever the
// worker count, chunk sizes and budget, since every list is sorted and the writer cuts
// shards from the lists alone.
package ingest
