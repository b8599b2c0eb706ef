//go:build amd64 && !purego

#include "textflag.h"

// For applyFoundAVX2: the shift that takes bit i (mod 32) of a word to a lane's sign bit,
// lane k of row r holding bit 8r+k: 31-(8r+k).
DATA signShift<>+0(SB)/4, $31
DATA signShift<>+4(SB)/4, $30
DATA signShift<>+8(SB)/4, $29
DATA signShift<>+12(SB)/4, $28
DATA signShift<>+16(SB)/4, $27
DATA signShift<>+20(SB)/4, $26
DATA signShift<>+24(SB)/4, $25
DATA signShift<>+28(SB)/4, $24
DATA signShift<>+32(SB)/4, $23
DATA signShift<>+36(SB)/4, $22
DATA signShift<>+40(SB)/4, $21
DATA signShift<>+44(SB)/4, $20
DATA signShift<>+48(SB)/4, $19
DATA signShift<>+52(SB)/4, $18
DATA signShift<>+56(SB)/4, $17
DATA signShift<>+60(SB)/4, $16
DATA signShift<>+64(SB)/4, $15
DATA signShift<>+68(SB)/4, $14
DATA signShift<>+72(SB)/4, $13
DATA signShift<>+76(SB)/4, $12
DATA signShift<>+80(SB)/4, $11
DATA signShift<>+84(SB)/4, $10
DATA signShift<>+88(SB)/4, $9
DATA signShift<>+92(SB)/4, $8
DATA signShift<>+96(SB)/4, $7
DATA signShift<>+100(SB)/4, $6
DATA signShift<>+104(SB)/4, $5
DATA signShift<>+108(SB)/4, $4
DATA signShift<>+112(SB)/4, $3
DATA signShift<>+116(SB)/4, $2
DATA signShift<>+120(SB)/4, $1
DATA signShift<>+124(SB)/4, $0
GLOBL signShift<>(SB), RODATA|NOPTR, $128

// UNREACHED8 sets bits off..off+7 of R8 where p[off..off+7] (SI) is all ones (Y15).
#define UNREACHED8(off) \
	VPCMPEQD (4*off)(SI), Y15, Y0 \
	VMOVMSKPS Y0, AX \
	SHLQ $off, AX \
	ORQ AX, R8

// func unreachedAVX2(p *uint32) uint64
//
// Bit k of the result is set where p[k] (k < 64) is unreached (all ones): 8 entries a
// compare, without a branch.
TEXT ·unreachedAVX2(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), SI
	VPCMPEQD Y15, Y15, Y15
	VPCMPEQD (SI), Y15, Y0
	VMOVMSKPS Y0, R8
	UNREACHED8(8)
	UNREACHED8(16)
	UNREACHED8(24)
	UNREACHED8(32)
	UNREACHED8(40)
	UNREACHED8(48)
	UNREACHED8(56)
	MOVQ R8, ret+8(FP)
	VZEROUPPER
	RET

// MASK8 sets the sign bit of Y1's lane k where bit 8*(row/32)+k of the 32-bit half of
// found in Y14 is set (row: 0, 32, 64 or 96, signShift's row).
#define MASK8(row) \
	VPSLLVD signShift<>+row(SB), Y14, Y1

// PARENT8 stores par's entries off..off+7 (SI) into parent (DI) where Y1's sign bit is set.
#define PARENT8(off) \
	VMOVDQU (4*off)(SI), Y0 \
	VPMASKMOVD Y0, Y1, (4*off)(DI)

// LEVEL8 stores Y13 into level's entries off..off+7 (R9) where Y1's sign bit is set.
#define LEVEL8(off) \
	VPMASKMOVD Y13, Y1, (4*off)(R9)

// func applyFoundAVX2(parent, par, level *uint32, found uint64, lv uint32)
//
// For each bit k of found (k < 64): parent[k] = par[k], and level[k] = lv where level
// is not nil; the other entries are not written. Masked stores 8 entries a step,
// without a branch but the one on level.
TEXT ·applyFoundAVX2(SB), NOSPLIT, $0-36
	MOVQ parent+0(FP), DI
	MOVQ par+8(FP), SI
	MOVQ level+16(FP), R9
	MOVQ found+24(FP), AX
	VMOVD AX, X14
	VPBROADCASTD X14, Y14        // found's low half
	MOVL lv+32(FP), CX
	VMOVD CX, X13
	VPBROADCASTD X13, Y13
	SHRQ $32, AX
	TESTQ R9, R9
	JZ nolevel
	MASK8(0); PARENT8(0); LEVEL8(0)
	MASK8(32); PARENT8(8); LEVEL8(8)
	MASK8(64); PARENT8(16); LEVEL8(16)
	MASK8(96); PARENT8(24); LEVEL8(24)
	VMOVD AX, X14
	VPBROADCASTD X14, Y14        // found's high half
	MASK8(0); PARENT8(32); LEVEL8(32)
	MASK8(32); PARENT8(40); LEVEL8(40)
	MASK8(64); PARENT8(48); LEVEL8(48)
	MASK8(96); PARENT8(56); LEVEL8(56)
	VZEROUPPER
	RET

nolevel:
	MASK8(0); PARENT8(0)
	MASK8(32); PARENT8(8)
	MASK8(64); PARENT8(16)
	MASK8(96); PARENT8(24)
	VMOVD AX, X14
	VPBROADCASTD X14, Y14        // found's high half
	MASK8(0); PARENT8(32)
	MASK8(32); PARENT8(40)
	MASK8(64); PARENT8(48)
	MASK8(96); PARENT8(56)
	VZEROUPPER
	RET
