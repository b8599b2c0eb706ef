//go:build amd64 && !purego

package store

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// haveBMI says whether headFirstBMI may run: the processor has BMI1 and BMI2 (TZCNT,
// BLSR, ANDN, BZHI, SHRX, PEXT) and POPCNT, and its PEXT is not microcoded
// (slowPEXT). Tests turn it off to hold HeadGroup's Go loop to the same references.
var haveBMI = cpu.X86.HasBMI1 && cpu.X86.HasBMI2 && cpu.X86.HasPOPCNT && !slowPEXT()

// slowPEXT says whether the processor is an AMD (or Hygon) one before Zen 3 (family
// 0x19), whose PEXT is microcoded: tens to hundreds of cycles a use, against 3 on
// Intel's cores since Haswell and AMD's since Zen 3.
func slowPEXT() bool {
	_, b, c, d := cpuid(0)
	amd := b == 0x68747541 && d == 0x69746e65 && c == 0x444d4163   // "AuthenticAMD"
	hygon := b == 0x6f677948 && d == 0x6e65476e && c == 0x656e6975 // "HygonGenuine"
	if !amd && !hygon {
		return false
	}
	a, _, _, _ := cpuid(1)
	family := a >> 8 & 0xf
	if family == 0xf {
		family += a >> 20 & 0xff
	}
	return family < 0x19
}

// cpuid is the CPUID instruction's four registers for a leaf (subleaf 0).
//
//go:noescape
func cpuid(leaf uint32) (a, b, c, d uint32)

// The offsets headfirst_amd64.s reads (a build error here when they move).
var _ = [1]struct{}{}[unsafe.Offsetof(headArgs{}.j0)-96]
var _ = [1]struct{}{}[unsafe.Offsetof(headArgs{}.wo)-128]
var _ = [1]struct{}{}[unsafe.Offsetof(headArgs{}.done)-136]
var _ = [1]struct{}{}[unsafe.Offsetof(headArgs{}.mixed)-8]
var _ = [1]struct{}{}[unsafe.Sizeof(headArgs{})-176]

// The codec's constants the assembly spells as numbers (headfirst_amd64.s's BLOCK_SIZE,
// PACKED_MIN, EXC_HEADER, COMPACT_MAX; scancompact_amd64.s's cConst+16, PackedMin): a
// build error here when they change.
var _ = [1]struct{}{}[BlockSize-64]
var _ = [1]struct{}{}[PackedMin-4]
var _ = [1]struct{}{}[excHeader-14]
var _ = [1]struct{}{}[compactMaxBytes-561]

// X1_OFF (store/headfirst_amd64.s) is x1's offset from x0 in HeadReader's arrays.
var _ = [1]struct{}{}[unsafe.Sizeof([DirGroup]uint32{})-256]

// headFirstBMI is HeadGroup's loops in assembly (store/headfirst_amd64.s) for the lists
// read without a call; headGroupBMI takes the others.
//
//go:noescape
func headFirstBMI(a *headArgs)

// headVec says whether headFirstBMI reads a group's short lists 8 at a time (vloop) by
// AVX2 before its loop takes the others. Tests turn it off and on.
var headVec = haveBMI && cpu.X86.HasAVX2
