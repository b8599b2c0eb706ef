//go:build amd64 && !purego

#include "textflag.h"

// RESULT returns x (BX), k (register kr), next (AX) and status st.
#define RESULT(kr, st) \
	MOVQ BX, x+64(FP) \
	MOVQ kr, k+72(FP) \
	MOVQ AX, next+80(FP) \
	MOVQ $st, status+88(FP) \
	RET

// func scanVarintsBMI(b *byte, p, ln, cp int, cur uint64, n int, nv uint64, front *uint64) (x uint64, k, next, status int)
//
// scanVarints's loop (store/scan.go) on BMI1 and BMI2: every value's length from the
// stop bits of one 64-bit load (TZCNT), its 7-bit groups by one PEXT, so that a list
// whose values mix one and more bytes takes no branch on a value's length. The statuses
// are decode.go's (NotFound 0, Found 1, Malformed 2) and scanSlow (3). cur comes in below
// nv (a neighbour already checked), so that no sum wraps and a gap of nv or more makes
// a neighbour past nv.
TEXT ·scanVarintsBMI(SB), NOSPLIT, $0-96
	MOVQ b+0(FP), SI
	MOVQ p+8(FP), AX
	MOVQ ln+16(FP), R8
	MOVQ cp+24(FP), R9
	MOVQ cur+32(FP), BX
	MOVQ n+40(FP), CX
	MOVQ nv+48(FP), R10
	MOVQ front+56(FP), DI
	XORL DX, DX                       // k
	TESTQ CX, CX
	JLE  notfound
	SUBQ $8, R9                       // the last p whose word loads: cap-8
	JLT  slow                         // a list whose capacity holds no word
	MOVQ $0x8080808080808080, R11
	MOVQ $0x7f7f7f7f7f7f7f7f, R12

loop:
	CMPQ  AX, R9                      // unsigned: p < 0 too
	JHI   slow
	MOVQ  (SI)(AX*1), R13             // w
	ANDNQ R11, R13, R14               // the stop bits: bit 8b-1 where a value of b bytes ends
	TZCNTQ R14, R14
	INCQ  R14                         // 8b (65 where no byte of w ends it)
	CMPQ  R14, $40
	JHI   slow                        // more than five bytes
	MOVQ  R14, R15
	SHRQ  $3, R15
	ADDQ  AX, R15                     // the position after the value
	CMPQ  R15, R8
	JHI   slow                        // it ends past the list
	BZHIQ R14, R12, R14               // the value's bytes' 7-bit groups
	PEXTQ R14, R13, R14               // u
	MOVQ  R15, AX
	INCQ  DX
	ADDQ  R14, BX                     // cur += u: below 2^32 + 2^35, no wrap
	CMPQ  BX, R10
	JCC   malformed                   // cur >= nv, and so u >= nv (cur came in below nv)
	MOVQ  BX, R15
	SHRQ  $6, R15
	MOVQ  (DI)(R15*8), R15
	BTQ   BX, R15
	JCS   found
	CMPQ  DX, CX
	JLT   loop

notfound:
	RESULT(CX, 0)

found:
	RESULT(DX, 1)

malformed:
	RESULT(DX, 2)

slow:
	RESULT(DX, 3)
