//go:build amd64 && !purego

package store

import "unsafe"

// The offsets scanfirst_amd64.s reads (a build error here when they move).
var _ = [1]struct{}{}[unsafe.Offsetof(firstArgs{}.pairs)-384]
var _ = [1]struct{}{}[unsafe.Offsetof(firstArgs{}.parent)-464]
var _ = [1]struct{}{}[unsafe.Offsetof(firstArgs{}.todoV)-472]
var _ = [1]struct{}{}[unsafe.Offsetof(firstArgs{}.lanes)-512]
var _ = [1]struct{}{}[unsafe.Offsetof(vecLanes{}.w)-1024]

// scanFirstAVX2 is ScanGroup's first step on AVX2 (store/scanfirst_amd64.s): for the
// vertices of a.todo, the first neighbour of each list tested against the frontier, 4
// vertices a step.
//
//go:noescape
func scanFirstAVX2(a *firstArgs)
