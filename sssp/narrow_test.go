package sssp

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

// TestNarrow: the width holds the largest weight and no narrower one would, and the
// narrowed weights read back, little-endian, as the weights.
func TestNarrow(t *testing.T) {
	for maxW, want := range map[uint32]uint32{0: 0, 1: 0, 255: 0, 256: 1, 65535: 1, 65536: 2, math.MaxUint32: 2} {
		if got := shiftFor(maxW); got != want {
			t.Errorf("shiftFor(%d) = %d, want %d", maxW, got, want)
		}
	}
	r := rand.New(rand.NewPCG(3, 3))
	for _, maxW := range []uint32{255, 4000, math.MaxUint32} {
		src := make([]uint32, 3<<20+17) // several of narrow's pieces and a ragged end
		for i := range src {
			src[i] = r.Uint32N(maxW) + 1
			if maxW == math.MaxUint32 {
				src[i] = r.Uint32()
			}
		}
		shift := shiftFor(maxW)
		dst := make([]byte, len(src)<<shift)
		narrow(dst, src, shift)
		for i, w := range src {
			var got uint32
			switch shift {
			case 0:
				got = uint32(dst[i])
			case 1:
				got = uint32(binary.LittleEndian.Uint16(dst[2*i:]))
			default:
				got = binary.LittleEndian.Uint32(dst[4*i:])
			}
			if got != w {
				t.Fatalf("max %d: weight %d narrowed to %d, want %d", maxW, i, got, w)
			}
		}
	}
}
