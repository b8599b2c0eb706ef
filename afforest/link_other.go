//go:build !amd64 || purego

package afforest

// haveLinkAsm is false: linkGroup, linkFirsts and linkMixed run their Go loops on
// this architecture or build.
const haveLinkAsm = false

// linkGroupFast is never called without haveLinkAsm.
func linkGroupFast(comp, cu, x0, x1 []uint32) {
	panic("afforest: linkGroupFast without its assembly")
}

// linkFirstsFast is never called without haveLinkAsm.
func linkFirstsFast(comp, cu, x0 []uint32, a uint32) uint64 {
	panic("afforest: linkFirstsFast without its assembly")
}

// linkMixedFast is never called without haveLinkAsm.
func linkMixedFast(comp, cu, x0, x1 []uint32, once uint64, a uint32) uint64 {
	panic("afforest: linkMixedFast without its assembly")
}

// passEight is never called without haveLinkAsm.
func passEight(comp, tail []uint32, sk uint32) int {
	panic("afforest: passEight without its assembly")
}
