//go:build amd64 && !purego

#include "textflag.h"

// func entriesNarrow(h *uint32, b *byte, nb uintptr, adj *byte, nadj uintptr, lo, n uint32, dst *ListEntry, vs *uint32, nv int, m *uint32) int
//
// Shard.Entries's loop (store/entries.go, entries) over vs[0:nv] into dst, for as long
// as each vertex lies in the shard (v-lo < n), its group's pairs fit one load (2*wo+wd
// <= 57), that load lies in b's nb bytes and its list's first word in adj's nadj
// bytes; it returns how many it filled, and entries takes the vertex it stopped at.
// h is the shard's group headers (4 words a group, the sentinel after them), m is
// lowMask. Every value in registers: the Go loop spilled about twenty a vertex.
TEXT ·entriesNarrow(SB), NOSPLIT, $0-88
	MOVQ dst+48(FP), R13
	MOVQ vs+56(FP), BX
	MOVQ nv+64(FP), R14
	LEAQ (BX)(R14*4), R14 // the end of vs

loop:
	CMPQ BX, R14
	JAE done
	MOVL (BX), AX
	SUBL lo+40(FP), AX // i
	CMPL AX, n+44(FP)
	JAE done           // outside the shard
	MOVL AX, R12
	ANDL $63, R12      // j
	LEAL 1(AX), DX     // i+1, at most n
	SHRL $6, AX
	SHLQ $4, AX
	ADDQ h+0(FP), AX   // the group's header
	MOVL 12(AX), R8
	MOVL R8, R10
	SHRL $16, R10
	ANDL $0xff, R10    // wo
	MOVL R8, R11
	SHRL $24, R11      // wd
	LEAL (R11)(R10*2), CX
	CMPL CX, $57
	JA done            // a pair that does not fit one load
	SHRL $8, R8
	ANDL $0xff, R8     // dmin
	LEAL (R10)(R11*1), R9 // wo+wd
	MOVL R9, CX
	IMULL R12, CX
	MOVL 4(AX), SI
	SHLQ $6, SI
	ADDQ SI, CX        // p: the pair's bit
	MOVQ CX, SI
	SHRQ $3, SI
	LEAQ 8(SI), DI
	CMPQ DI, nb+16(FP)
	JA done            // the load past b's end
	ADDQ b+8(FP), SI
	MOVQ (SI), DI
	ANDL $7, CX
	SHRQ CX, DI        // x: the pair and the next one's start
	MOVL (AX), SI      // the group's adj
	MOVL 16(AX), AX    // the next group's
	MOVL AX, CX
	SUBL SI, CX        // span
	CMPL R12, $63
	JEQ last
	CMPL DX, n+44(FP)
	JAE last

	// End: the next pair's start, at its part (j+1)*span/64 of the span
	LEAL 1(R12), AX
	IMULQ CX, AX
	SHRQ $6, AX
	ADDL SI, AX
	IMULQ CX, R12
	SHRQ $6, R12
	ADDL SI, R12       // the line's start for j
	MOVQ m+72(FP), SI
	MOVL (SI)(R10*4), DX  // mo
	MOVL (SI)(R11*4), R11 // md
	MOVL R9, CX
	MOVQ DI, R9
	SHRQ CX, R9
	ANDL DX, R9
	MOVL R9, SI
	SHRL $1, R9
	ANDL $1, SI
	NEGL SI
	XORL SI, R9
	ADDL R9, AX
	MOVL AX, 8(R13)
	JMP startdeg

last:
	// the group's last pair or the shard's last vertex: the list ends where the next
	// group's lists start
	MOVL AX, 8(R13)
	IMULQ CX, R12
	SHRQ $6, R12
	ADDL SI, R12
	MOVQ m+72(FP), SI
	MOVL (SI)(R10*4), DX  // mo
	MOVL (SI)(R11*4), R11 // md

startdeg:
	MOVL DI, AX
	ANDL DX, AX
	MOVL AX, SI
	SHRL $1, AX
	ANDL $1, SI
	NEGL SI
	XORL SI, AX
	ADDL R12, AX       // Start
	MOVL AX, 4(R13)
	MOVL R10, CX
	SHRQ CX, DI
	ANDL R11, DI
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
	JMP loop

done:
	SUBQ vs+56(FP), BX
	SHRQ $2, BX
	MOVQ BX, ret+80(FP)
	RET
