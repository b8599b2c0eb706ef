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

// GATHER3 packs the 7-bit groups of X's low three bytes (a varint of at most 3 bytes,
// the bytes after it cleared) into X. T and U are clobbered.
#define GATHER3(X, T, U) \
	MOVL X, T \
	SHRL $1, T \
	ANDL $0x3f80, T \
	MOVL X, U \
	SHRL $2, U \
	ANDL $0x1fc000, U \
	ANDL $0x7f, X \
	ORL T, X \
	ORL U, X

// func claimRoads1(ents *store.ListEntry, batch *uint32, k, nb int, pp, qp *uint32, tail, n int, m *uint64) (k2, tail2 int, examined uint64)
//
// claimRoads's loop (bfs/topdown.go) over the lists of batch[k:nb] (ents[k:nb] their
// entries) while each is a block of one to three varints whose neighbours lie below n:
// where its values are one byte each, from the list's word as claimRoads reads it, else
// (values of at most 3 bytes) as DecodeShortWord decodes them (the same lists taken,
// the same neighbours), all of a list decoded and checked before its claims. Each
// neighbour is claimed without a branch (claimAll). m is roadMask. It returns the index
// of the first list it left, the new tail and the neighbours examined; claimRoads takes
// that list. BMI1, BMI2 and POPCNT.
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
	// AX: the list's bytes, DX: its degree d (1 to 3). Its d varints of at most 3
	// bytes each (a graph of at most claimAllMax vertices has no larger value; other
	// lists go to done, and claimRoads to DecodeShortWord), decoded without a branch
	// on their lengths: each one's last byte from the high bits, the bytes after the
	// list read as varints of 0 (a third neighbour that is the second again, which
	// the claim leaves as it is).
	CMPL AX, $8
	JA done
	SHLL $3, AX
	BZHIQ AX, 16(SI), BX // w: the list's bytes, zeros after them
	MOVQ $0x8080808080808080, CX
	ANDNQ CX, BX, CX   // the varints' last bytes' high bits
	BZHIQ AX, CX, R12  // those of the list
	POPCNTQ R12, R14
	CMPL R14, DX
	JNE done           // not d varints
	DECL AX
	BTQ AX, R12
	JCC done           // bytes after the d-th varint
	TZCNTQ CX, R12     // e1: the first varint's last bit
	BLSRQ CX, CX
	TZCNTQ CX, R14     // e2
	BLSRQ CX, CX
	TZCNTQ CX, AX      // e3
	CMPL R12, $23
	JA done            // a first varint of more than 3 bytes
	SUBL R14, AX       // the third's bits
	CMPL AX, $24
	JA done
	INCL R12           // the second's first bit
	INCL R14           // the third's
	MOVL R14, CX
	SUBL R12, CX       // the second's bits
	CMPL CX, $24
	JA done
	SHRXQ R14, BX, DX
	BZHIQ AX, DX, DX
	GATHER3(DX, AX, R14) // the third value: a gap
	SHRXQ R12, BX, R14
	BZHIQ CX, R14, R14
	GATHER3(R14, AX, CX) // the second: a gap
	BZHIQ R12, BX, BX
	GATHER3(BX, AX, CX)  // the first: a zigzag delta from u
	SHRQ $1, BX        // its low bit to the carry
	SBBQ AX, AX
	XORQ AX, BX
	MOVL (DI), R12     // u
	ADDQ R12, BX       // the first neighbour
	JS done
	LEAQ (BX)(R14*1), AX
	ADDQ DX, AX
	CMPQ AX, n+56(FP)
	JGE done           // the last neighbour at or past n
	MOVL 0(SI), AX
	ADDQ AX, R13
	CLAIMALL(BX)
	ADDQ R14, BX
	CLAIMALL(BX)
	ADDQ DX, BX
	CLAIMALL(BX)
	JMP next

done:
	SUBQ batch+8(FP), DI
	SHRQ $2, DI
	MOVQ DI, k2+72(FP)
	MOVQ R11, tail2+80(FP)
	MOVQ R13, examined+88(FP)
	RET
