//go:build amd64 && !purego

#include "textflag.h"

// func prefetchLines(p *byte, n uintptr)
//
// A PREFETCHT0 every 64 bytes of [p, p+n): a hint, which never faults.
TEXT ·prefetchLines(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	ADDQ SI, CX

loop:
	CMPQ SI, CX
	JAE done
	PREFETCHT0 (SI)
	ADDQ $64, SI
	JMP loop

done:
	RET

// func prefetchAt(base *byte, offs *uint32, n int)
//
// A PREFETCHT0 at base + offs[i] for each i below n.
TEXT ·prefetchAt(SB), NOSPLIT, $0-24
	MOVQ base+0(FP), SI
	MOVQ offs+8(FP), DI
	MOVQ n+16(FP), CX
	XORQ AX, AX

loop:
	CMPQ AX, CX
	JGE done
	MOVL (DI)(AX*4), DX
	PREFETCHT0 (SI)(DX*1)
	INCQ AX
	JMP loop

done:
	RET

// func prefetchIdx4(base *uint32, idx *uint32, n int)
//
// A PREFETCHT0 at base + 4*idx[i] for each i below n (n > 0).
TEXT ·prefetchIdx4(SB), NOSPLIT, $0-24
	MOVQ base+0(FP), SI
	MOVQ idx+8(FP), DI
	MOVQ n+16(FP), CX
	LEAQ (DI)(CX*4), CX

loop:
	MOVL (DI), DX
	PREFETCHT0 (SI)(DX*4)
	ADDQ $4, DI
	CMPQ DI, CX
	JB loop
	RET
