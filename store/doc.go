// Package store is ooc's on-disk graph format and every codec of it: the writer (Create,
// Builder, CSRWriter), the reader (Open, Graph, Shard), the vertex directory
// (directory.go), the upgrade of older versions (Upgrade, legacy.go), the list codec
// (AppendList, DecodeList and ListIter; the readers the engines call inline, Head and
// HeadGroup, ScanList and ScanGroup, Shard.Entries, with their amd64 assembly; Compressed
// behind the Adjacency interface), verification (Graph.Check, Verify) and the device decoder header
// graph.cuh, which the CUDA kernels include. FORMAT.md specifies every byte; this comment is the map.
//
// A graph is a directory; each shard file holds one direction's lists of a vertex range:
//
//	NAME.ooc/
//	  manifest.json       counts, shards, checksums; written last (the commit point)
//	  out-00000.shard ... out-adjacency of [lo, hi) per shard
//	  in-00000.shard ...  the transpose, directed graphs only
//	  ids.bin             original ids, when vertices were renumbered
//
//	shard:  +--------+-----+-----------+-----------+--------+
//	        | header | ADJ | DIRECTORY | (WEIGHTS) | footer |
//	        +--------+-----+-----------+-----------+--------+
//	        every section 4096-aligned, each with its CRC32C in the header's table
//
//	directory: per group of 64 vertices a 16-byte header (ADJ offset, packed word,
//	first neighbour index, smallest degree, widths wo and wd), then per vertex its
//	list's start as its difference from a straight line across the group (wo bits)
//	and its degree less the smallest (wd bits).
//
//	one list (degree d, vertex v): ceil(d/64) blocks of 64 neighbours; a block index
//	(4 bytes per block after the first) then per block the first neighbour as a zigzag
//	varint of its difference from v, the gaps after it as varints or, in a block of 4
//	or more, packed at the block's width above its smallest gap, with the rare wider
//	gaps as exceptions: [5, 7, 300] of vertex 5 is 0x00 0x02 0xA5 0x02.
//
// The format is written in two more places, each held byte-identical to this package by
// tests: ingest's CPU encoder (ingest/chunkenc.go) and the GPU ingest's encode kernel
// (ingest/build.cu).
//
// # Caveats
//
// Open maps every shard and a raw ids.bin read-only (a compact one, FORMAT.md, it decodes
// into memory); Shard.Adj, Shard.Weights, the slices
// Shard.List, Shard.ListAt and DirCursor.At return and the lists an Adjacency returns
// without copying (Flat returns its own memory; Compressed decodes into the caller's
// buffer) point into those
// mappings or into the Graph. They are valid only until Graph.Close: touching one after
// Close faults (SIGSEGV), it does not return an error. Copy what must outlive the graph.
// A page lost under an open graph (a file truncated or rewritten while mapped) raises
// SIGBUS on the goroutine that touches it, which crashes the process unless that
// goroutine runs in an internal/fault Group and the caller recovers with CatchFault.
//
// Open checks what takes no time per vertex: the manifest, each shard's header, section
// table and footer, each directory's length and sentinel. The directory's groups and the
// lists' lengths and block indexes are checked by Graph.Check (ooc.Open runs it) and, one
// shard's directory alone, by Shard.CheckDirectory; before those, Degree and ListAt read
// a damaged directory's fields as they are and may panic (an index out of range), so
// call one of them before reading a graph that may be damaged. They are the engines'
// inline readers, and a check in them would cost every search; Shard.Neighbors, which
// returns an error, checks its shard's directory itself at its first call. Once the
// directory holds, the list decoders never index past a list and never return a
// neighbour outside the graph, on any bytes, but only the checksums (Check) say the
// bytes are the ones that were written.
//
// A Graph may be read from many goroutines at once. Close waits for the reads held by
// Graph.Use (every engine run and Check hold one) and refuses new ones; a caller that
// reads lists itself while another goroutine may close the graph holds one too.
package store
