//go:build amd64 && !purego

#include "textflag.h"

// The lane each lane's predecessor sits in, lane 0 taking the carry's.
DATA rotIdx<>+0(SB)/4, $7
DATA rotIdx<>+4(SB)/4, $0
DATA rotIdx<>+8(SB)/4, $1
DATA rotIdx<>+12(SB)/4, $2
DATA rotIdx<>+16(SB)/4, $3
DATA rotIdx<>+20(SB)/4, $4
DATA rotIdx<>+24(SB)/4, $5
DATA rotIdx<>+28(SB)/4, $6
GLOBL rotIdx<>(SB), RODATA|NOPTR, $32

DATA seven<>+0(SB)/4, $7
GLOBL seven<>(SB), RODATA|NOPTR, $4

// func unpackAddAVX2(dst *uint32, src *byte, add *uint32, tab *vecTable, w uintptr, groups int, first uint64) (last uint32, ok bool)
//
// Each group of 8 fields of w bits (w bytes of src) is gathered a field per 32-bit lane
// (VPSHUFB: the 4 bytes holding it, each 128-bit half from its own 16 loaded bytes),
// shifted down (VPSRLVD) and masked; the add entries are added (the gaps) and the lanes
// summed in prefix order (two in-lane steps, then the low half's total into the high
// half) on top of the carry, the last neighbour so far. ok is false when some neighbour
// is not above the one before it (unsigned, in 32 bits): a sum wrapped.
TEXT ·unpackAddAVX2(SB), NOSPLIT, $0-61
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ add+16(FP), DX
	MOVQ tab+24(FP), BX
	MOVQ w+32(FP), R8
	MOVQ groups+40(FP), CX
	VMOVDQU 0(BX), Y15           // the byte shuffle
	VMOVDQU 32(BX), Y14          // the shifts
	VMOVDQU 64(BX), Y13          // the masks
	MOVQ 96(BX), R9              // the high half's bytes from the group's first
	VMOVDQU rotIdx<>(SB), Y9
	VPBROADCASTD seven<>(SB), Y8
	VPBROADCASTD first+48(FP), Y12
	VPCMPEQD Y11, Y11, Y11
	VPSLLD $31, Y11, Y11         // the sign bits: unsigned order by a signed compare
	VPCMPEQD Y10, Y10, Y10       // every lane above its predecessor so far

loop:
	VMOVDQU (SI), X0
	VINSERTI128 $1, (SI)(R9*1), Y0, Y0
	VPSHUFB Y15, Y0, Y0
	VPSRLVD Y14, Y0, Y0
	VPAND Y13, Y0, Y0
	VPADDD (DX), Y0, Y0          // the gaps
	VPSLLDQ $4, Y0, Y1
	VPADDD Y1, Y0, Y0
	VPSLLDQ $8, Y0, Y1
	VPADDD Y1, Y0, Y0            // prefix sums within each half
	VPSHUFD $0xFF, Y0, Y1
	VPERM2I128 $0x08, Y1, Y1, Y1 // the low half's total, in the high half only
	VPADDD Y1, Y0, Y0
	VPADDD Y12, Y0, Y0           // the neighbours
	VMOVDQU Y0, (DI)
	VPXOR Y11, Y0, Y2
	VPXOR Y11, Y12, Y4
	VPERMD Y2, Y9, Y3
	VPBLENDD $1, Y4, Y3, Y3      // each lane's predecessor
	VPCMPGTD Y3, Y2, Y3
	VPAND Y3, Y10, Y10
	VPERMD Y0, Y8, Y12           // the carry: the last neighbour
	ADDQ $32, DI
	ADDQ $32, DX
	ADDQ R8, SI
	DECQ CX
	JNZ loop

	VMOVD X12, AX
	MOVL AX, last+56(FP)
	VMOVMSKPS Y10, AX
	CMPL AX, $0xFF
	SETEQ ok+60(FP)
	VZEROUPPER
	RET
