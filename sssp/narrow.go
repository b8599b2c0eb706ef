package sssp

import (
	"encoding/binary"
	"math"

	"github.com/oocgraph/ooc/internal/parallel"
)

// shiftFor is the log2 of the bytes that hold every weight up to maxW.
func shiftFor(maxW uint32) uint32 {
	switch {
	case maxW <= math.MaxUint8:
		return 0
	case maxW <= math.MaxUint16:
		return 1
	}
	return 2
}

// narrow writes the weights of src into dst (len(src) << shift bytes) at 1 << shift bytes
// each, little-endian as the GPU reads them, on all cores; each weight must fit that width.
func narrow(dst []byte, src []uint32, shift uint32) {
	parallel.For(parallel.Workers(0), len(src), 1<<20, func(_, lo, hi int) {
		switch shift {
		case 0:
			for i, w := range src[lo:hi] {
				dst[lo+i] = uint8(w)
			}
		case 1:
			for i, w := range src[lo:hi] {
				binary.LittleEndian.PutUint16(dst[2*(lo+i):], uint16(w))
			}
		default:
			for i, w := range src[lo:hi] {
				binary.LittleEndian.PutUint32(dst[4*(lo+i):], w)
			}
		}
	})
}
