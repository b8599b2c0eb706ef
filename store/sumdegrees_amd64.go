//go:build amd64 && !purego

package store

import (
	"golang.org/x/sys/cpu"

	_ "github.com/oocgraph/ooc/internal/lanes" // LANEIDX
)

// sumDegreesAVX2 sums the degrees of vs[0], vs[stride], ... eight a step, up to
// blocks steps, while a step's vertices lie in the shard and their directory reads
// within b's nb bytes (store/sumdegrees_amd64.s); it returns the sum and how many
// vertices that is, a multiple of 8.
//
//go:noescape
func sumDegreesAVX2(h *uint32, b *byte, nb uintptr, lo, n uint32, vs *uint32, stride, blocks int) (sum uint64, k int)

// haveSumDegreesVec says whether sumDegreesAVX2 may run: the processor has AVX2. Tests
// turn it off to hold the Go loop to the same references.
var haveSumDegreesVec = cpu.X86.HasAVX2
