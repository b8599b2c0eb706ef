//go:build amd64 && !purego

#include "textflag.h"

// CLAIM claims X (a neighbour, checked in [0, nv)) for v (R12): where its parent (R9 the
// parent array) is 2^32-1, it becomes v and X goes to the queue (R10) at the tail (R11),
// which advances.
#define CLAIM(X, next) \
	CMPL (R9)(X*4), $-1 \
	JNE next \
	MOVL R12, (R9)(X*4) \
	MOVL X, (R10)(R11*4) \
	INCQ R11 \
next:

// func claimMirror4s(es *ListEntry, vs *uint32, n int, pp, qp *uint32, tail, lim, nv int) (k, newTail int)
//
// ClaimMirror4s's loop (store/mirror4.go) over es[0:n] and vs[0:n]: lim is nv-4. It
// returns how many lists it expanded and the new tail. Every value in registers; a
// varint's end by ANDN and TZCNT (BMI1), its bytes by BZHI and their 7-bit groups by
// PEXT (BMI2).
TEXT ·claimMirror4s(SB), NOSPLIT, $0-80
	MOVQ es+0(FP), SI
	MOVQ vs+8(FP), DI
	MOVQ n+16(FP), R8
	LEAQ (DI)(R8*4), R8 // the end of vs
	MOVQ pp+24(FP), R9
	MOVQ qp+32(FP), R10
	MOVQ tail+40(FP), R11
	MOVL $0x80808080, R15 // the high bits of 4 bytes
	MOVL $0x7f7f7f, R14   // the value bits of 3
	CMPQ DI, R8
	JAE done

loop:
	CMPL 0(SI), $4
	JNE done           // not of degree 4
	CMPQ R11, lim+48(FP)
	JGT done           // no room for 4 in the queue
	MOVQ 16(SI), AX    // w: the list's first 8 bytes
	ANDNL R15, AX, CX
	TZCNTL CX, CX      // 8*k1-1: k1 the first varint's bytes (past 4 bytes: 32)
	CMPL CX, $23
	JA done            // more than 3
	INCL CX
	SHRXQ CX, AX, BX   // r: the bytes after the first varint
	BZHIQ CX, AX, AX
	PEXTQ R14, AX, AX  // u
	CMPB BX, $0xff
	JNE done           // no mirror header
	SHRQ $8, BX
	ANDNL R15, BX, DX
	TZCNTL DX, DX      // 8*k2-1: k2 the gap's bytes
	CMPL DX, $23
	JA done
	INCL DX
	LEAL 8(CX)(DX*1), R12
	SHRL $3, R12       // k1+1+k2
	ADDL 4(SI), R12
	CMPL R12, 8(SI)
	JNE done           // the list is not exactly its k1+1+k2 bytes
	BZHIQ DX, BX, BX
	PEXTQ R14, BX, BX  // g
	SHRQ $1, AX
	JCC done           // u's low bit (a mirrored block) clear
	SHRQ $1, AX        // the zigzag delta's low bit to the carry
	SBBQ CX, CX
	XORQ CX, AX
	MOVL (DI), R12     // v
	ADDQ R12, AX       // x0
	JS done
	ADDQ AX, BX        // x1
	CMPQ BX, R12
	JGT done           // x1 > v
	LEAQ (R12)(R12*1), DX
	MOVQ DX, CX
	SUBQ AX, CX        // 2v-x0
	CMPQ CX, nv+56(FP)
	JGE done           // past the last vertex
	SUBQ BX, DX        // 2v-x1
	CLAIM(AX, c0)
	CLAIM(BX, c1)
	CLAIM(DX, c2)
	CLAIM(CX, c3)
	ADDQ $24, SI
	ADDQ $4, DI
	CMPQ DI, R8
	JB loop

done:
	SUBQ vs+8(FP), DI
	SHRQ $2, DI
	MOVQ DI, k+64(FP)
	MOVQ R11, newTail+72(FP)
	RET
