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

// func claimMirror4s(es *ListEntry, vs *uint32, n int, pp, qp *uint32, tail, lim, nv int, m *uint64) (k, newTail int)
//
// ClaimMirror4s's loop (store/mirror4.go) over es[0:n] and vs[0:n]: lim is nv-4, m is
// varintMask. It returns how many lists it expanded and the new tail. Every value in
// registers: the Go loop spilled its index, a varint's length and a shifted word.
TEXT ·claimMirror4s(SB), NOSPLIT, $0-88
	MOVQ es+0(FP), SI
	MOVQ vs+8(FP), DI
	MOVQ n+16(FP), R8
	LEAQ (DI)(R8*4), R8 // the end of vs
	MOVQ pp+24(FP), R9
	MOVQ qp+32(FP), R10
	MOVQ tail+40(FP), R11

loop:
	CMPQ DI, R8
	JAE done
	CMPL 0(SI), $4
	JNE done           // not of degree 4
	CMPQ R11, lim+48(FP)
	JGT done           // no room for 4 in the queue
	MOVQ 16(SI), AX    // w: the list's first 8 bytes
	MOVL AX, CX
	NOTL CX
	ANDL $0x808080, CX
	ORL $-2147483648, CX
	BSFL CX, CX
	SHRL $3, CX
	INCL CX            // k1: the first varint's bytes, 4 when more than 3
	CMPL CX, $3
	JA done
	MOVL CX, DX
	SHLL $3, CX
	MOVQ AX, BX
	SHRQ CX, BX        // r: the bytes after the first varint
	CMPB BX, $0xff
	JNE done           // no mirror header
	SHRQ $8, BX
	MOVL BX, CX
	NOTL CX
	ANDL $0x808080, CX
	ORL $-2147483648, CX
	BSFL CX, CX
	SHRL $3, CX
	INCL CX            // k2: the gap's bytes
	CMPL CX, $3
	JA done
	LEAL 1(DX)(CX*1), R12
	ADDL 4(SI), R12
	CMPL R12, 8(SI)
	JNE done           // the list is not exactly its k1+1+k2 bytes

	// u and g: the varints' 7-bit groups gathered, masked to their lengths
	MOVQ AX, R12
	ANDL $0x7f, AX
	MOVQ R12, R13
	SHRQ $1, R12
	ANDL $0x3f80, R12
	ORQ R12, AX
	SHRQ $2, R13
	ANDL $0x1fc000, R13
	ORQ R13, AX
	MOVQ m+64(FP), R12
	ANDQ (R12)(DX*8), AX // u
	MOVQ BX, R13
	ANDL $0x7f, BX
	MOVQ R13, R14
	SHRQ $1, R13
	ANDL $0x3f80, R13
	ORQ R13, BX
	SHRQ $2, R14
	ANDL $0x1fc000, R14
	ORQ R14, BX
	ANDQ (R12)(CX*8), BX // g
	BTL $0, AX
	JAE done           // u's low bit (a mirrored block) clear

	// x0 = v + unzigzag(u>>1), x1 = x0 + g; the mirror 2v-x1 and 2v-x0
	MOVQ AX, CX
	SHRQ $2, AX
	SHRQ $1, CX
	ANDL $1, CX
	NEGQ CX
	XORQ CX, AX
	MOVL (DI), DX      // v
	ADDQ DX, AX        // x0
	TESTQ AX, AX
	JL done
	ADDQ AX, BX        // x1
	CMPQ BX, DX
	JGT done           // x1 > v
	LEAQ (DX)(DX*1), DX
	MOVQ DX, CX
	SUBQ AX, CX        // 2v-x0
	CMPQ CX, nv+56(FP)
	JGE done           // past the last vertex
	SUBQ BX, DX        // 2v-x1
	MOVL (DI), R12
	CLAIM(AX, c0)
	CLAIM(BX, c1)
	CLAIM(DX, c2)
	CLAIM(CX, c3)
	ADDQ $24, SI
	ADDQ $4, DI
	JMP loop

done:
	SUBQ vs+8(FP), DI
	SHRQ $2, DI
	MOVQ DI, k+72(FP)
	MOVQ R11, newTail+80(FP)
	RET
