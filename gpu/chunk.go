package gpu

import (
	"fmt"
	"os"

	"github.com/oocgraph/ooc/internal/bytesize"
)

// StageChunk is the default size C of each of the two device staging buffers through which
// a bottom-up sweep may stream a pinned shard's adjacency (64 MiB: a few milliseconds of
// copy at PCIe Gen4-Gen5 rates, so the copy of one chunk hides behind the sweep of the
// previous one). OOC_GPU_STAGE overrides it (e.g. "64KiB", for tests with tiny shards).
const StageChunk = 64 << 20

// stageChunk is StageChunk or OOC_GPU_STAGE.
func stageChunk() (int64, error) {
	v := os.Getenv("OOC_GPU_STAGE")
	if v == "" {
		return StageChunk, nil
	}
	n, err := bytesize.Parse(v)
	if err != nil || n < 64 {
		return 0, fmt.Errorf("stream: OOC_GPU_STAGE=%q: want a byte count of at least 64 (e.g. 64MiB)", v)
	}
	return n, nil
}

// Chunk is a vertex sub-range [A, B) of a shard (indices from the shard's first vertex)
// whose lists occupy the ADJ bytes [Start, End). Start is the first list's offset rounded
// down to 8. The kernels read lists through aligned 8- or 16-byte loads: a staging buffer
// (16-byte aligned) that holds [Start, End) at its start, addressed through base =
// staging - Start, keeps every load the decoder makes inside the buffer (which has 16
// bytes of slack at its end).
// Stream is false for a single list larger than C: it is read zero-copy.
type Chunk struct {
	A, B       uint32
	Start, End int64
	Stream     bool
}

// Bytes is what streaming the chunk copies.
func (c Chunk) Bytes() int64 { return c.End - c.Start }

// Chunks splits a shard of n vertices whose i-th list starts at ADJ byte off(i) (off(n)
// is the ADJ length; offsets do not decrease) into chunks of at most c bytes each,
// greedily in vertex order; consecutive lists larger than c form one zero-copy chunk.
// The chunks cover [0, n) exactly, in order.
func Chunks(n uint32, off func(i uint32) uint32, c int64) []Chunk {
	if n == 0 || c <= 0 {
		return nil
	}
	var out []Chunk
	for a := uint32(0); a < n; {
		start := int64(off(a)) &^ 7
		// largest b in (a, n] with off(b)-start <= c
		lo, hi := a, n
		for lo < hi {
			m := lo + (hi-lo+1)/2
			if int64(off(m))-start <= c {
				lo = m
			} else {
				hi = m - 1
			}
		}
		if lo == a { // list a alone is larger than c
			if k := len(out) - 1; k >= 0 && !out[k].Stream && out[k].B == a {
				out[k].B, out[k].End = a+1, int64(off(a+1))
			} else {
				out = append(out, Chunk{A: a, B: a + 1, Start: int64(off(a)), End: int64(off(a + 1))})
			}
			a++
			continue
		}
		out = append(out, Chunk{A: a, B: lo, Start: start, End: int64(off(lo)), Stream: true})
		a = lo
	}
	return out
}
