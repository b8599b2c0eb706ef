//go:build amd64 && !purego

#include "textflag.h"

// func claimRoads1(ents *store.ListEntry, batch *uint32, k, nb int, pp, qp *uint32, tail, n int, m *uint64) (k2, tail2 int, examined uint64)
//
// claimRoads's loop (bfs/topdown.go) over the lists of batch[k:nb] (ents[k:nb] their
// entries) while each is a list of one to three one-byte varints whose neighbours lie
// below n: each neighbour claimed without a branch (claimAll), the tail advancing for
// those whose parent was unreached. m is roadMask. It returns the index of the first
// list it left, the new tail and the neighbours examined; claimRoads takes that list.
TEXT ·claimRoads1(SB), NOSPLIT, $0-96
	MOVQ k+16(FP), CX
	MOVQ ents+0(FP), SI
	LEAQ (CX)(CX*2), AX
	LEAQ (SI)(AX*8), SI // &ents[k]
	MOVQ batch+8(FP), DI
	MOVQ nb+24(FP), R8
	LEAQ (DI)(R8*4), R8 // the end of batch
	LEAQ (DI)(CX*4), DI // &batch[k]
	MOVQ pp+32(FP), R9
	MOVQ qp+40(FP), R10
	MOVQ tail+48(FP), R11
	XORQ R13, R13

loop:
	CMPQ DI, R8
	JAE done
	MOVL 0(SI), DX     // d
	LEAL -1(DX), AX
	CMPL AX, $2
	JA done            // not 1 to 3 neighbours
	MOVL 8(SI), AX
	SUBL 4(SI), AX
	CMPL AX, DX
	JNE done           // values of several bytes: claimRoads's DecodeShortWord
	MOVQ m+64(FP), CX
	MOVQ 16(SI), BX
	ANDQ (CX)(DX*8), BX // w: the list's d bytes
	TESTQ $0x808080, BX
	JNE done
	MOVL (DI), R12     // u
	MOVQ BX, AX
	ANDL $0xff, AX
	MOVQ AX, CX
	SHRQ $1, AX
	ANDL $1, CX
	NEGQ CX
	XORQ CX, AX
	ADDQ R12, AX       // x: the first neighbour
	TESTQ AX, AX
	JL done
	MOVQ BX, CX
	SHRQ $8, CX
	ANDL $0xff, CX
	ADDQ AX, CX
	MOVQ BX, R14
	SHRQ $16, R14
	ADDQ R14, CX
	CMPQ CX, n+56(FP)
	JGE done           // the last neighbour at or past n
	ADDQ DX, R13

claim:
	MOVL (R9)(AX*4), CX
	CMPL CX, $-1       // carry where the parent is set
	CMOVLEQ R12, CX
	MOVL CX, (R9)(AX*4)
	MOVL AX, (R10)(R11*4)
	SBBQ $-1, R11      // the tail past v where it was unreached
	SHRQ $8, BX
	JEQ next           // no gap left but zeros: the vertex just claimed
	MOVQ BX, CX
	ANDL $0xff, CX
	ADDL CX, AX
	JMP claim

next:
	ADDQ $24, SI
	ADDQ $4, DI
	JMP loop

done:
	SUBQ batch+8(FP), DI
	SHRQ $2, DI
	MOVQ DI, k2+72(FP)
	MOVQ R11, tail2+80(FP)
	MOVQ R13, examined+88(FP)
	RET
