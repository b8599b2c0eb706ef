//go:build amd64 && !purego

package store

import "unsafe"

// scanCompactAVX2 is scanCompact's loop over a compact block's gaps on AVX2
// (store/scancompact_amd64.s), 8 gaps a step; see scanCompactVec.
//
//go:noescape
func scanCompactAVX2(b *byte, tab *vecTable, w, n, first, nv uint64, front *uint64, ebit, ne, wi, mh, wiwh uint64) (x, k, status uint64)

// The offsets scancompact_amd64.s reads (a build error here when they move).
var _ = [1]struct{}{}[unsafe.Offsetof(moreArgs{}.extra)-88]
var _ = [1]struct{}{}[unsafe.Sizeof(vecTable{})-104]
var _ = [1]struct{}{}[unsafe.Offsetof(vecLanes{}.pk)-768]

// scanMoreAVX2 is scanMoreVec's scan (store/scancompact_amd64.s).
//
//go:noescape
func scanMoreAVX2(a *moreArgs)
