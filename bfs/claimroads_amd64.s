//go:build amd64 && !purego

#include "textflag.h"

// CLAIMALL claims X (a neighbour below n) for u (R12) without a branch on its parent
// (claimAll): the parent (R9 the parent array) written back, u where it was unreached,
// X written to the queue (R10) at the tail (R11), which advances where it was. CX is
// clobbered.
#define CLAIMALL(X) \
	MOVL (R9)(X*4), CX \
	CMPL CX, $-1 \
	CMOVLEQ R12, CX \
	MOVL CX, (R9)(X*4) \
	MOVL X, (R10)(R11*4) \
	SBBQ $-1, R11

// VARINT decodes the next varint of the list's bytes in BX (the low byte first; R14 of
// them left) into AX, as DecodeShortWord reads them: at most 5 bytes, 7 bits each, the
// low group first. A list that ends inside it or a sixth byte goes to done. CX and DX
// are clobbered.
#define VARINT(more, last) \
	XORL AX, AX \
	XORL CX, CX \
more: \
	DECL R14 \
	JL done \
	MOVBLZX BX, DX \
	SHRQ $8, BX \
	BTRL $7, DX \
	JCC last \
	SHLQ CX, DX \
	ORQ DX, AX \
	ADDL $7, CX \
	CMPL CX, $28 \
	JA done \
	JMP more \
last: \
	SHLQ CX, DX \
	ORQ DX, AX

// GAP checks the gap in AX (below n, and the neighbour it leads to from the one at
// prev(SP) below n) and stores that neighbour at next(SP).
#define GAP(prev, next) \
	CMPQ AX, n+56(FP) \
	JAE done \
	ADDQ prev(SP), AX \
	CMPQ AX, n+56(FP) \
	JGE done \
	MOVQ AX, next(SP)

// func claimRoads1(ents *store.ListEntry, batch *uint32, k, nb int, pp, qp *uint32, tail, n int, m *uint64) (k2, tail2 int, examined uint64)
//
// claimRoads's loop (bfs/topdown.go) over the lists of batch[k:nb] (ents[k:nb] their
// entries) while each is a block of one to three varints whose neighbours lie below n:
// where its values are one byte each, from the list's word as claimRoads reads it, else
// as DecodeShortWord decodes them (the same lists taken, the same neighbours), all of a
// list decoded and checked before its claims. Each neighbour is claimed without a branch
// (claimAll). m is roadMask. It returns the index of the first list it left, the new
// tail and the neighbours examined; claimRoads takes that list. The frame holds a list's
// neighbours of several-byte values.
TEXT ·claimRoads1(SB), NOSPLIT, $24-96
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
	MOVQ m+64(FP), R15
	XORQ R13, R13
	CMPQ DI, R8
	JAE done

loop:
	MOVL 0(SI), DX     // d
	LEAL -1(DX), AX
	CMPL AX, $2
	JA done            // not 1 to 3 neighbours
	MOVL 8(SI), AX
	SUBL 4(SI), AX
	CMPL AX, DX
	JNE multi          // values of several bytes
	MOVQ 16(SI), BX
	ANDQ (R15)(DX*8), BX // w: the list's d bytes
	TESTQ $0x808080, BX
	JNE done
	MOVL (DI), R12     // u
	MOVBQZX BX, AX
	SHRL $1, AX        // the zigzag delta's low bit to the carry
	SBBQ CX, CX
	XORQ CX, AX
	ADDQ R12, AX       // x: the first neighbour
	JS done
	MOVBLZX BH, CX
	ADDQ AX, CX
	MOVQ BX, R14
	SHRQ $16, R14
	ADDQ R14, CX
	CMPQ CX, n+56(FP)
	JGE done           // the last neighbour at or past n
	ADDQ DX, R13
	CLAIMALL(AX)
	SHRQ $8, BX
	JEQ next           // no gap left but zeros: the vertex just claimed

claim:
	MOVBQZX BX, CX
	ADDL CX, AX
	CLAIMALL(AX)
	SHRQ $8, BX
	JNE claim

next:
	ADDQ $24, SI
	ADDQ $4, DI
	CMPQ DI, R8
	JB loop
	JMP done

multi:
	// AX: the list's bytes, DX: its degree d (1 to 3); at most 8 bytes, at least d
	CMPL AX, $8
	JA done
	CMPL AX, DX
	JB done
	MOVL AX, R14
	MOVQ 16(SI), BX
	VARINT(more0, last0)
	SHRQ $1, AX        // the zigzag delta's low bit to the carry
	SBBQ CX, CX
	XORQ CX, AX
	MOVL (DI), CX
	ADDQ CX, AX        // the first neighbour: v + the zigzag delta
	TESTQ AX, AX
	JL done
	CMPQ AX, n+56(FP)
	JGE done
	MOVQ AX, 0(SP)
	CMPL 0(SI), $1
	JEQ decoded
	VARINT(more1, last1)
	GAP(0, 8)
	CMPL 0(SI), $2
	JEQ decoded
	VARINT(more2, last2)
	GAP(8, 16)

decoded:
	TESTL R14, R14
	JNE done           // bytes past the d-th varint
	MOVL 0(SI), DX
	ADDQ DX, R13
	MOVL (DI), R12     // u
	MOVQ 0(SP), AX
	CLAIMALL(AX)
	CMPL DX, $1
	JEQ next
	MOVQ 8(SP), AX
	CLAIMALL(AX)
	CMPL DX, $2
	JEQ next
	MOVQ 16(SP), AX
	CLAIMALL(AX)
	JMP next

done:
	SUBQ batch+8(FP), DI
	SHRQ $2, DI
	MOVQ DI, k2+72(FP)
	MOVQ R11, tail2+80(FP)
	MOVQ R13, examined+88(FP)
	RET
