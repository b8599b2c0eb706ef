//go:build amd64 && !purego

#include "textflag.h"

// internal/lanes's vector of each lane's index.
#define LANEIDX github·com∕oocgraph∕ooc∕internal∕lanes·index(SB)

DATA eight<>+0(SB)/4, $8
GLOBL eight<>(SB), RODATA|NOPTR, $4

// func unvisitedAVX2(parent *uint32, plen uint64, nbrs *uint32, n uint64) uint64
//
// Bit k of the result is set where k < n, nbrs[k] < plen and parent[nbrs[k]] is all
// ones (unreached): 8 neighbours a step, their parents loaded by one gather, lanes at
// or past n or with an index at or past plen not loaded. nbrs has room for 8 values
// from each multiple of 8 below n. The gather sign-extends its 32-bit indexes, so it
// takes each index less 2^31 (its sign bit flipped) from parent + 4*2^31: every index
// below 2^32 then reaches its entry, those of 2^31 or more too.
TEXT ·unvisitedAVX2(SB), NOSPLIT, $0-40
	MOVQ parent+0(FP), SI
	MOVQ $0x200000000, AX
	ADDQ AX, SI                  // parent + 4*2^31: the base of the indexes less 2^31
	MOVQ nbrs+16(FP), DI
	MOVQ n+24(FP), R8
	VPBROADCASTD plen+8(FP), Y15
	VPCMPEQD Y14, Y14, Y14       // all ones: unreached
	VPSLLD $31, Y14, Y13         // the sign bits
	VPXOR Y13, Y15, Y15          // plen, signed for an unsigned compare
	VMOVDQU LANEIDX, Y12   // the lanes' index in the step
	VPBROADCASTD eight<>(SB), Y11
	MOVL R8, AX
	VMOVD AX, X10
	VPBROADCASTD X10, Y10        // n
	XORQ CX, CX                  // the step's first neighbour
	XORQ R9, R9                  // the mask

loop:
	CMPQ CX, R8
	JAE done
	VMOVDQU (DI)(CX*4), Y0
	VPCMPGTD Y12, Y10, Y1        // k < n
	VPXOR Y13, Y0, Y5            // nbrs[k] - 2^31, signed
	VPCMPGTD Y5, Y15, Y2         // nbrs[k] < plen
	VPAND Y2, Y1, Y1
	VMOVDQU Y1, Y3
	VPXOR Y4, Y4, Y4
	VPGATHERDD Y3, (SI)(Y5*4), Y4
	VPCMPEQD Y14, Y4, Y4
	VPAND Y1, Y4, Y4
	VMOVMSKPS Y4, AX
	SHLQ CX, AX
	ORQ AX, R9
	VPADDD Y11, Y12, Y12
	ADDQ $8, CX
	JMP loop

done:
	MOVQ R9, ret+32(FP)
	VZEROUPPER
	RET
