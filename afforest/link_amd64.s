//go:build amd64 && !purego

#include "textflag.h"

// The links' steps (linkFrom's, afforest.go), in the registers every link routine
// keeps: AX comp, BX cu, SI j; R8 p1, R9 p2, R10 ph, R11 g.

// ROOTS(x) starts link j with x[j] (x the array's register): p1 = cu[j], p2 =
// comp[x[j]].
#define ROOTS(x) \
	MOVL (x)(SI*4), R9 \
	MOVL (BX)(SI*4), R8 \
	MOVL (AX)(R9*4), R9

// ROOTED(hi, lo, climb) takes the high root hi (a register, lo the other): ph =
// comp[hi]; where ph == hi, comp[hi] = lo, the link done (falls through), else on to
// climb.
#define ROOTED(hi, lo, climb) \
	MOVL (AX)(hi*4), R10 \
	CMPL R10, hi \
	JNE  climb \
	MOVL lo, (AX)(hi*4)

// CLIMB(hi, lo, loop) climbs where the high root hi is not its own parent (ph): g =
// comp[ph], comp[hi] = g, hi = g, lo = comp[lo]; back to loop.
#define CLIMB(hi, lo, loop) \
	MOVL (AX)(R10*4), R11 \
	MOVL R11, (AX)(hi*4) \
	MOVL R11, hi \
	MOVL (AX)(lo*4), lo \
	JMP  loop

// func linkGroupAsm(comp, cu, x0, x1 *uint32, n uint64)
//
// For j < n: p = linkFrom(comp, cu[j], x0[j]), then linkFrom(comp, p, x1[j]).
// Each link: p2 = comp[x]; while p1 != p2, high and low the larger and smaller
// (unsigned), ph = comp[high]; where ph == high, comp[high] = low and done; else g =
// comp[ph], comp[high] = g, p1 = g, p2 = comp[low]. The first link ends with p1 the
// low one (p1 == p2, or low hooked above high), which the second starts from. The
// case each link takes most on roads (the vertex's root the larger for its first
// neighbour, the neighbour's for its second) falls through to the next link; the
// other is out of line. Registers: AX comp, BX cu, CX x0, DX x1, SI j, DI n, R8 p1,
// R9 p2, R10 ph, R11 g.
TEXT ·linkGroupAsm(SB), NOSPLIT, $0-40
	MOVQ comp+0(FP), AX
	MOVQ cu+8(FP), BX
	MOVQ x0+16(FP), CX
	MOVQ x1+24(FP), DX
	MOVQ n+32(FP), DI
	XORQ SI, SI
	TESTQ DI, DI
	JEQ  done

next:
	// the first link: cu[j] with x0[j]
	ROOTS(CX)

loopA:
	CMPL R8, R9
	JEQ  secondLink
	JB   p2HighA             // p1 < p2: p2 the high root
	ROOTED(R8, R9, climb1A) // high p1, low p2
	MOVL R9, R8              // p1 the low one

secondLink:
	// the second link: from p1, with x1[j]
	MOVL (DX)(SI*4), R9
	MOVL (AX)(R9*4), R9

loopB:
	CMPL R8, R9
	JEQ  step
	JA   p1HighB             // p1 > p2: p1 the high root
	ROOTED(R9, R8, climb2B) // high p2, low p1

step:
	INCQ SI
	CMPQ SI, DI
	JB   next

done:
	RET

climb1A: // high p1, low p2
	CLIMB(R8, R9, loopA)

p2HighA: // high p2, low p1
	ROOTED(R9, R8, climb2A)
	JMP  secondLink

climb2A: // high p2, low p1
	CLIMB(R9, R8, loopA)

p1HighB: // high p1, low p2
	ROOTED(R8, R9, climb1B)
	JMP  step

climb1B: // high p1, low p2
	CLIMB(R8, R9, loopB)

climb2B: // high p2, low p1
	CLIMB(R9, R8, loopB)

// func linkFirstsAsm(comp, cu, x0 *uint32, n uint64, a uint32) (in uint64)
//
// linkFirstsGo's loop: for j < n, linkFrom(comp, cu[j], x0[j]), then bit j of in set
// where cu[j] is a, without a branch (the mask with the bit set taken by CMOVQEQ).
// Registers as linkGroupAsm's, DX a, R12 in.
TEXT ·linkFirstsAsm(SB), NOSPLIT, $0-48
	MOVQ comp+0(FP), AX
	MOVQ cu+8(FP), BX
	MOVQ x0+16(FP), CX
	MOVQ n+24(FP), DI
	MOVL a+32(FP), DX
	XORQ R12, R12
	XORQ SI, SI
	TESTQ DI, DI
	JEQ  firstsDone

firstsNext:
	ROOTS(CX)

firstsLoop:
	CMPL R8, R9
	JEQ  firstsCheck
	JB   firstsP2High        // p1 < p2: p2 the high root
	ROOTED(R8, R9, firstsClimb1) // high p1, low p2

firstsCheck:
	MOVQ R12, R11
	BTSQ SI, R11             // in with bit j set
	CMPL (BX)(SI*4), DX      // cu[j], after the link, against a
	CMOVQEQ R11, R12
	INCQ SI
	CMPQ SI, DI
	JB   firstsNext

firstsDone:
	MOVQ R12, in+40(FP)
	RET

firstsClimb1: // high p1, low p2
	CLIMB(R8, R9, firstsLoop)

firstsP2High: // high p2, low p1
	ROOTED(R9, R8, firstsClimb2)
	JMP  firstsCheck

firstsClimb2: // high p2, low p1
	CLIMB(R9, R8, firstsLoop)

// func linkMixedAsm(comp, cu, x0, x1 *uint32, n, once uint64, a uint32) (in uint64)
//
// linkMixedGo's loop: for j < n, linkFrom(comp, cu[j], x0[j]); then where bit j of
// once is clear, linkFrom(comp, cu[j], x1[j]) (out of line: the groups it runs on are
// nearly all first-mode lists), else bit j of in set where cu[j] is a, as
// linkFirstsAsm sets it. Registers as linkGroupAsm's, but DI a (n is read from the
// frame), R12 in, R13 once.
TEXT ·linkMixedAsm(SB), NOSPLIT, $0-64
	MOVQ comp+0(FP), AX
	MOVQ cu+8(FP), BX
	MOVQ x0+16(FP), CX
	MOVQ x1+24(FP), DX
	MOVQ once+40(FP), R13
	MOVL a+48(FP), DI
	XORQ R12, R12
	XORQ SI, SI
	CMPQ SI, n+32(FP)
	JAE  mixedDone

mixedNext:
	ROOTS(CX)

mixedLoopA:
	CMPL R8, R9
	JEQ  mixedKind
	JB   mixedP2HighA        // p1 < p2: p2 the high root
	ROOTED(R8, R9, mixedClimb1A) // high p1, low p2

mixedKind:
	BTQ  SI, R13
	JCC  mixedSecond         // a list of two or more neighbours read: its second link

	MOVQ R12, R10
	BTSQ SI, R10             // in with bit j set
	CMPL (BX)(SI*4), DI      // cu[j], after the link, against a
	CMOVQEQ R10, R12

mixedStep:
	INCQ SI
	CMPQ SI, n+32(FP)
	JB   mixedNext

mixedDone:
	MOVQ R12, in+56(FP)
	RET

mixedClimb1A: // high p1, low p2
	CLIMB(R8, R9, mixedLoopA)

mixedP2HighA: // high p2, low p1
	ROOTED(R9, R8, mixedClimb2A)
	JMP  mixedKind

mixedClimb2A: // high p2, low p1
	CLIMB(R9, R8, mixedLoopA)

mixedSecond:
	// the second link: cu[j], loaded again, with x1[j]
	ROOTS(DX)

mixedLoopB:
	CMPL R8, R9
	JEQ  mixedStep
	JA   mixedP1HighB        // p1 > p2: p1 the high root
	ROOTED(R9, R8, mixedClimb2B) // high p2, low p1
	JMP  mixedStep

mixedP1HighB: // high p1, low p2
	ROOTED(R8, R9, mixedClimb1B)
	JMP  mixedStep

mixedClimb1B: // high p1, low p2
	CLIMB(R8, R9, mixedLoopB)

mixedClimb2B: // high p2, low p1
	CLIMB(R9, R8, mixedLoopB)

// PASSLABEL replaces the label at byte off of the step (tail at BX, k in SI) by its
// parent's (comp at AX) and ORs it, XORed with sk (DX), into R8, through R9.
#define PASSLABEL(off) \
	MOVL off(BX)(SI*4), R9 \
	MOVL (AX)(R9*4), R9 \
	MOVL R9, off(BX)(SI*4) \
	XORL DX, R9 \
	ORL  R9, R8

// func passEightAsm(comp, tail *uint32, n uint64, sk uint32) (k uint64)
//
// passSkipped's steps of eight: for each eight vertices of tail from k = 0 (while
// k+8 <= n), each label replaced by its parent's label (tail[i] = comp[tail[i]], stored
// before the next is loaded), and the eight tested against sk at once; k is the first
// step whose eight are not all sk, else the multiple of 8 at or below n. Registers: AX
// comp, BX tail, CX n rounded down to a multiple of 8, DX sk, SI k, R8 the step's
// labels XORed with sk and ORed, R9 the next label.
TEXT ·passEightAsm(SB), NOSPLIT, $0-40
	MOVQ comp+0(FP), AX
	MOVQ tail+8(FP), BX
	MOVQ n+16(FP), CX
	MOVL sk+24(FP), DX
	ANDQ $-8, CX
	XORQ SI, SI
	CMPQ SI, CX
	JAE  passDone

passStep:
	MOVL (BX)(SI*4), R8
	MOVL (AX)(R8*4), R8
	MOVL R8, (BX)(SI*4)
	XORL DX, R8
	PASSLABEL(4)
	PASSLABEL(8)
	PASSLABEL(12)
	PASSLABEL(16)
	PASSLABEL(20)
	PASSLABEL(24)
	PASSLABEL(28)
	JNE  passDone            // one of the eight is not sk
	ADDQ $8, SI
	CMPQ SI, CX
	JB   passStep

passDone:
	MOVQ SI, k+32(FP)
	RET
