//go:build amd64 && !purego

#include "textflag.h"

// ZIGZAG decodes the zigzag code in X (z>>1 ^ -(z&1), 32 bits): the shift leaves the
// low bit in the carry, SBB spreads it. T is clobbered.
#define ZIGZAG(X, T) \
	SHRL $1, X \
	SBBL T, T \
	XORL T, X

// func entriesNarrow(h *uint32, b *byte, nb uintptr, adj *byte, nadj uintptr, lo, n uint32, dst *ListEntry, vs *uint32, nv int) int
//
// Shard.Entries's loop (store/entries.go, entries) over vs[0:nv] (nv > 0) into dst, for
// as long as each vertex lies in the shard (v-lo < n), its group's pairs fit one load
// (2*wo+wd <= 57), that load lies in b's nb bytes and its list's first word in adj's
// nadj bytes; it returns how many it filled, and entries takes the vertex it stopped
// at. h is the shard's group headers (4 words a group, the sentinel after them). Every
// value in registers: a header's widths and dmin loaded a byte each, the pairs shifted
// and masked by BMI2 (SHRX, BZHI: no shift count in CX, no mask from a table).
TEXT ·entriesNarrow(SB), NOSPLIT, $0-80
	MOVQ dst+48(FP), R13
	MOVQ vs+56(FP), BX
	MOVQ nv+64(FP), R14
	LEAQ (BX)(R14*4), R14 // the end of vs
	MOVQ h+0(FP), R15

loop:
	MOVL (BX), AX
	SUBL lo+40(FP), AX // i
	CMPL AX, n+44(FP)
	JAE done           // outside the shard
	MOVL AX, R12
	ANDL $63, R12      // j
	LEAL 1(AX), DX     // i+1, at most n
	SHRL $6, AX
	SHLQ $4, AX        // the group's header at R15+AX
	MOVBLZX 14(R15)(AX*1), R10 // wo
	MOVBLZX 15(R15)(AX*1), R11 // wd
	LEAL (R11)(R10*2), CX
	CMPL CX, $57
	JA done            // a pair that does not fit one load
	MOVBLZX 13(R15)(AX*1), R8 // dmin
	LEAL (R10)(R11*1), R9 // wo+wd
	MOVL R9, CX
	IMULL R12, CX
	MOVL 4(R15)(AX*1), SI
	SHLQ $6, SI
	ADDQ SI, CX        // p: the pair's bit
	MOVQ CX, SI
	SHRQ $3, SI
	LEAQ 8(SI), DI
	CMPQ DI, nb+16(FP)
	JA done            // the load past b's end
	ADDQ b+8(FP), SI
	ANDL $7, CX
	SHRXQ CX, (SI), DI // x: the pair and the next one's start
	MOVL (R15)(AX*1), SI // the group's adj
	MOVL 16(R15)(AX*1), CX
	SUBL SI, CX        // span
	TESTL $63, DX
	JEQ last           // j = 63
	CMPL DX, n+44(FP)
	JAE last           // the shard's last vertex

	// the line's starts for j and j+1, j*span/64 and (j+1)*span/64 of the span
	IMULQ CX, R12
	LEAQ (R12)(CX*1), AX
	SHRQ $6, R12
	SHRQ $6, AX
	ADDL SI, R12
	ADDL SI, AX
	SHRXQ R9, DI, DX   // the next pair
	BZHIL R10, DX, DX  // its coded start
	ZIGZAG(DX, CX)
	ADDL DX, AX
	MOVL AX, 8(R13)    // End: the next pair's start

startdeg:
	BZHIL R10, DI, AX
	ZIGZAG(AX, CX)
	ADDL R12, AX       // Start
	MOVL AX, 4(R13)
	SHRXQ R10, DI, DI
	BZHIL R11, DI, DI
	ADDL R8, DI        // Deg
	MOVL DI, 0(R13)
	LEAQ 8(AX), CX
	CMPQ CX, nadj+32(FP)
	JA done            // the list's first word past adj's end: tailWord
	ADDQ adj+24(FP), AX
	MOVQ (AX), CX
	MOVQ CX, 16(R13)   // Head
	ADDQ $24, R13
	ADDQ $4, BX
	CMPQ BX, R14
	JB loop

done:
	SUBQ vs+56(FP), BX
	SHRQ $2, BX
	MOVQ BX, ret+72(FP)
	RET

last:
	// the group's last pair or the shard's last vertex: the list ends where the next
	// group's lists start
	LEAL (SI)(CX*1), AX
	MOVL AX, 8(R13)
	IMULQ CX, R12
	SHRQ $6, R12
	ADDL SI, R12
	JMP startdeg
