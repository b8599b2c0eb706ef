//go:build amd64 && !purego

#include "textflag.h"

// func chain(n int64) int64
TEXT ·chain(SB), NOSPLIT, $0-16
	MOVQ n+0(FP), CX
	XORQ AX, AX
	TESTQ CX, CX
	JLE done
loop:
	ADDQ $1, AX
	ADDQ $1, AX
	ADDQ $1, AX
	ADDQ $1, AX
	ADDQ $1, AX
	ADDQ $1, AX
	ADDQ $1, AX
	ADDQ $1, AX
	DECQ CX
	JNZ loop
done:
	MOVQ AX, ret+8(FP)
	RET
