//go:build amd64 && !purego

package store

import "unsafe"

// The offsets scanfirst_amd64.s reads (a build error here when they move).
var _ = [1]struct{}{}[unsafe.Offsetof(firstArgs{}.todo)-96]
var _ = [1]struct{}{}[unsafe.Offsetof(firstArgs{}.wo)-128]
var _ = [1]struct{}{}[unsafe.Offsetof(firstArgs{}.parent)-176]
var _ = [1]struct{}{}[unsafe.Offsetof(firstArgs{}.lanes)-192]
var _ = [1]struct{}{}[unsafe.Offsetof(vecLanes{}.w)-1024]
var _ = [1]struct{}{}[unsafe.Offsetof(firstArgs{}.ptab)-200]
var _ = [1]struct{}{}[unsafe.Sizeof(pairTab{})-64]
var _ = [1]struct{}{}[unsafe.Offsetof(firstArgs{}.steps)-208]
var _ = [1]struct{}{}[unsafe.Offsetof(firstArgs{}.two)-216]
var _ = [1]struct{}{}[unsafe.Offsetof(firstArgs{}.three)-224]

// scanFirstAVX2 is ScanGroup's first step on AVX2 (store/scanfirst_amd64.s): for the
// vertices of a.todo, the first neighbour of each list tested against the frontier, 4
// vertices a step.
//
//go:noescape
func scanFirstAVX2(a *firstArgs)
