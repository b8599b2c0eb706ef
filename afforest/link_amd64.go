//go:build amd64 && !purego

package afforest

import "unsafe"

// haveLinkAsm says whether linkGroup, linkFirsts and linkMixed run their assembly
// (every amd64 processor has the instructions it uses). TestLinkGroupAsm holds it to
// the Go loops, which other architectures and the purego build run.
const haveLinkAsm = true

// linkGroupAsm is linkGroupGo's loop in assembly: for j < n, link the vertex whose
// label is cu[j] with x0[j] and then with x1[j], on the labels at comp, unchecked
// (linkFrom's contract: every x below the labels' count). It leaves the labels as
// linkGroupGo does, store for store.
//
//go:noescape
func linkGroupAsm(comp, cu, x0, x1 *uint32, n uint64)

// linkGroupFast is linkGroupAsm on linkGroup's slices (len(x1) >= len(x0) and
// len(cu) >= len(x0), checked by the caller).
func linkGroupFast(comp, cu, x0, x1 []uint32) {
	linkGroupAsm((*uint32)(labels(comp)), unsafe.SliceData(cu), unsafe.SliceData(x0), unsafe.SliceData(x1), uint64(len(x0)))
}

// linkFirstsAsm is linkFirstsGo's loop in assembly: for j < n, link the vertex whose
// label is cu[j] with x0[j], and set bit j of in where cu[j] is then a (n <= 64).
//
//go:noescape
func linkFirstsAsm(comp, cu, x0 *uint32, n uint64, a uint32) (in uint64)

// linkFirstsFast is linkFirstsAsm on linkFirsts's slices (len(cu) >= len(x0), checked
// by the caller).
func linkFirstsFast(comp, cu, x0 []uint32, a uint32) uint64 {
	return linkFirstsAsm((*uint32)(labels(comp)), unsafe.SliceData(cu), unsafe.SliceData(x0), uint64(len(x0)), a)
}

// linkMixedAsm is linkMixedGo's loop in assembly: for j < n, link the vertex whose
// label is cu[j] with x0[j], then with x1[j] where bit j of once is clear, else set
// bit j of in where cu[j] is a (n <= 64).
//
//go:noescape
func linkMixedAsm(comp, cu, x0, x1 *uint32, n, once uint64, a uint32) (in uint64)

// linkMixedFast is linkMixedAsm on linkMixed's slices (len(x1) >= len(x0) and
// len(cu) >= len(x0), checked by the caller).
func linkMixedFast(comp, cu, x0, x1 []uint32, once uint64, a uint32) uint64 {
	return linkMixedAsm((*uint32)(labels(comp)), unsafe.SliceData(cu), unsafe.SliceData(x0), unsafe.SliceData(x1), uint64(len(x0)), once, a)
}

// passEightAsm is passSkipped's steps of eight in assembly: it returns the index of
// the first step of eight of tail (n labels) whose labels, each replaced by its
// parent's, are not all sk, or n rounded down to a multiple of 8.
//
//go:noescape
func passEightAsm(comp, tail *uint32, n uint64, sk uint32) (k uint64)

// passEight is passEightAsm on passSkipped's slices.
func passEight(comp, tail []uint32, sk uint32) int {
	return int(passEightAsm((*uint32)(labels(comp)), unsafe.SliceData(tail), uint64(len(tail)), sk))
}
