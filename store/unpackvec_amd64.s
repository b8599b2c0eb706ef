//go:build amd64 && !purego

#include "textflag.h"

// The vectors of internal/lanes: each lane's index, and the lane each lane's
// predecessor sits in.
#define LANEIDX github·com∕oocgraph∕ooc∕internal∕lanes·index(SB)
#define PREDIDX github·com∕oocgraph∕ooc∕internal∕lanes·pred(SB)

DATA seven<>+0(SB)/4, $7
GLOBL seven<>(SB), RODATA|NOPTR, $4

// The gap decoder's constants: BX holds the vecTable. Y15 the byte shuffle, Y14 the
// shifts, Y13 the masks, R9 the high half's bytes from the group's first, Y9 each lane's
// predecessor's lane, Y8 lane 7, Y11 the sign bits (unsigned order by a signed compare),
// Y10 all ones (every lane above its predecessor so far).
#define GAPSETUP \
	VMOVDQU 0(BX), Y15; \
	VMOVDQU 32(BX), Y14; \
	VMOVDQU 64(BX), Y13; \
	MOVQ 96(BX), R9; \
	VMOVDQU PREDIDX, Y9; \
	VPBROADCASTD seven<>(SB), Y8; \
	VPCMPEQD Y11, Y11, Y11; \
	VPSLLD $31, Y11, Y11; \
	VPCMPEQD Y10, Y10, Y10

// A group of 8 gaps in Y0, from src at SI and the add entries at DX: the fields
// gathered a lane each (VPSHUFB, each 128-bit half from its own 16 bytes), shifted down
// and masked, the add entries added, the lanes summed in prefix order (two in-lane
// steps, then the low half's total into the high half) on top of the carry Y12.
#define GROUP \
	VMOVDQU (SI), X0; \
	VINSERTI128 $1, (SI)(R9*1), Y0, Y0; \
	VPSHUFB Y15, Y0, Y0; \
	VPSRLVD Y14, Y0, Y0; \
	VPAND Y13, Y0, Y0; \
	VPADDD (DX), Y0, Y0; \
	VPSLLDQ $4, Y0, Y1; \
	VPADDD Y1, Y0, Y0; \
	VPSLLDQ $8, Y0, Y1; \
	VPADDD Y1, Y0, Y0; \
	VPSHUFD $0xFF, Y0, Y1; \
	VPERM2I128 $0x08, Y1, Y1, Y1; \
	VPADDD Y1, Y0, Y0; \
	VPADDD Y12, Y0, Y0

// Y3: the lanes of Y0 above their predecessors (lane 0's is the carry Y12), unsigned.
#define ABOVE \
	VPXOR Y11, Y0, Y2; \
	VPXOR Y11, Y12, Y4; \
	VPERMD Y2, Y9, Y3; \
	VPBLENDD $1, Y4, Y3, Y3; \
	VPCMPGTD Y3, Y2, Y3

// GAPS's and GAPSCLAIM's whole groups, each followed by step (UNVISITED, or NOSTEP:
// nothing); then, with R10 and AX the last group's lane count (none: to gapsdone), Y7
// its lanes' mask.
#define WHOLE(step) \
	MOVQ CX, R10; \
	ANDQ $7, R10; \
	SHRQ $3, CX; \
	JZ part; \
loop: \
	GROUP; \
	VMOVDQU Y0, (DI); \
	ABOVE; \
	VPAND Y3, Y10, Y10; \
	VPERMD Y0, Y8, Y12; \
	step; \
	ADDQ $32, DI; \
	ADDQ $32, DX; \
	ADDQ R8, SI; \
	DECQ CX; \
	JNZ loop; \
part: \
	TESTQ R10, R10; \
	JZ gapsdone; \
	MOVL R10, AX; \
	VMOVD AX, X7; \
	VPBROADCASTD X7, Y7; \
	VPCMPGTD LANEIDX, Y7, Y7

#define NOSTEP

// GAPS's and GAPSCLAIM's last group: its lanes (Y7) stored and their checks folded
// into Y10; the lanes past them count as above.
#define PART \
	VPMASKMOVD Y0, Y7, (DI); \
	ABOVE; \
	VPCMPEQD Y5, Y5, Y5; \
	VPXOR Y5, Y7, Y5; \
	VPOR Y5, Y3, Y3; \
	VPAND Y3, Y10, Y10

// The CX gaps to dst at DI, 8 a step: CX/8 whole groups and, where CX is not a multiple
// of 8, a last group of CX%8 lanes that reads its bytes and add entries as a whole one
// does but stores only its own lanes (VPMASKMOVD), whose checks alone count. Y12 ends as
// the last neighbour, Y10's lanes all ones where every neighbour is above the one before
// it. R8 is w, the bytes of a group.
#define GAPS \
	WHOLE(NOSTEP); \
	DECL AX; \
	VMOVD AX, X6; \
	VPBROADCASTD X6, Y6; \
	GROUP; \
	PART; \
	VPERMD Y0, Y6, Y12; \
gapsdone:

// The parent entries of the lanes Y1 masks gathered (R11 the base, Y2 the lanes less
// 2^31): the bits of the lanes whose entry is all ones, shifted by R14 (1 plus the
// group's first gap), go into R13. eq sets Y4's lanes that are all ones: EQONES makes
// the ones in Y1 (which the gather clears), EQY10 takes them from Y10. A lane not
// loaded keeps the zero it starts with and so is not set.
#define CLAIMBITS(eq) \
	VPXOR Y4, Y4, Y4; \
	VPGATHERDD Y1, (R11)(Y2*4), Y4; \
	eq; \
	VMOVMSKPS Y4, AX; \
	SHLXQ R14, AX, AX; \
	ORQ AX, R13

#define EQONES VPCMPEQD Y1, Y1, Y1; VPCMPEQD Y1, Y4, Y4
#define EQY10 VPCMPEQD Y10, Y4, Y4

// Y12: the last group's last lane (R10 its lane count) of Y0, the block's last neighbour.
#define LASTLANE \
	LEAL -1(R10), AX; \
	VMOVD AX, X5; \
	VPBROADCASTD X5, Y5; \
	VPERMD Y0, Y5, Y12

// A whole group's parent entries tested (Y6 the parent array's length less 2^31, signed,
// Y2 the lanes less 2^31): CLAIMBITS on the lanes below the length, then R14 moves on.
#define UNVISITED \
	VPCMPGTD Y2, Y6, Y1; \
	CLAIMBITS(EQONES); \
	ADDQ $8, R14

// GAPS with each group's parent entries tested as UNVISITED tests them; a last group
// loads its own lanes only. The last lane's index goes through Y5 (Y6 holds the length).
#define GAPSCLAIM \
	WHOLE(UNVISITED); \
	GROUP; \
	PART; \
	VPCMPGTD Y2, Y6, Y1; \
	VPAND Y7, Y1, Y1; \
	CLAIMBITS(EQONES); \
	LASTLANE; \
gapsdone:

// GAPSCLAIM for a block whose sums cannot pass 2^32 (first + n*(2^w + nv - 1) below it:
// a gap is its low part, below 2^w, plus its add entry, 1 plus an exception's high part
// below nv), so that every neighbour is above the one before it and ABOVE's order check
// has nothing to find: Y10 stays all ones and serves as CLAIMBITS's all-ones operand.
// Only the index less 2^31 (Y2) is made for the gather.
#define GAPSCLAIMNW \
	MOVQ CX, R10; \
	ANDQ $7, R10; \
	SHRQ $3, CX; \
	JZ partnw; \
loopnw: \
	GROUP; \
	VMOVDQU Y0, (DI); \
	VPXOR Y11, Y0, Y2; \
	VPERMD Y0, Y8, Y12; \
	VPCMPGTD Y2, Y6, Y1; \
	CLAIMBITS(EQY10); \
	ADDQ $8, R14; \
	ADDQ $32, DI; \
	ADDQ $32, DX; \
	ADDQ R8, SI; \
	DECQ CX; \
	JNZ loopnw; \
partnw: \
	TESTQ R10, R10; \
	JZ donenw; \
	MOVL R10, AX; \
	VMOVD AX, X7; \
	VPBROADCASTD X7, Y7; \
	VPCMPGTD LANEIDX, Y7, Y7; \
	GROUP; \
	VPMASKMOVD Y0, Y7, (DI); \
	VPXOR Y11, Y0, Y2; \
	VPCMPGTD Y2, Y6, Y1; \
	VPAND Y7, Y1, Y1; \
	CLAIMBITS(EQY10); \
	LASTLANE; \
donenw:

// GAPSCLAIM, or GAPSCLAIMNW where the block's sums cannot pass 2^32: first + n*(2^w +
// nv - 1) below it (n in CX, w in R8). Both end at claimed.
#define CLAIM(nv, first) \
	MOVQ $1, AX; \
	SHLXQ R8, AX, AX; \
	ADDQ nv, AX; \
	DECQ AX; \
	IMULQ CX, AX; \
	ADDQ first, AX; \
	SHRQ $32, AX; \
	JNZ checked; \
	GAPSCLAIMNW; \
	JMP claimed; \
checked: \
	GAPSCLAIM; \
claimed:

// A compact block's header and exceptions (the first part of compactBlockAVX2,
// compactClaimAVX2 and UnvisitedBlock; its arguments name where each finds dst, b, h, n,
// first, blen and nv): w = h's width (DI); the low parts' n*w bits (AX); without
// exceptions the stream's length checked against blen, the add entries gapOnes's (no
// frame to fill); else the add array (frame bytes 0-287) filled with ones to entry 63,
// the exception header loaded from bit n*w (below 64*32: inside the view), its count
// (R13) 1 to n, its step width wi (R10) and high part width wh (R15), the stream's end
// checked against blen, then each exception from its bit on (the byte offset masked by
// compactMask: 8 bytes inside the view): j (DX) moved on by 1 plus its step (mi, R14),
// its high part (mh) shifted by w below nv (R11), 1 plus it stored at add[j&63]; the
// last j at most n. A failed check jumps to fail. It leaves the stream's length in bytes
// at 272(SP), SI = b, and the gap decoder set up for GAPS or GAPSCLAIM: w in R8, its
// vecTable in BX (GAPSETUP's constants loaded), DI = dst, DX = &add[1], CX = n, first
// broadcast in Y12.
#define COMPACTHEAD(DST, B, H, N, FIRST, BLEN, NV) \
	MOVQ B, SI; \
	MOVQ H, BX; \
	MOVQ BX, DI; \
	ANDQ $63, DI; \
	MOVQ N, CX; \
	MOVQ CX, AX; \
	IMULQ DI, AX; \
	TESTQ $0x40, BX; \
	JNZ header; \
	ADDQ $7, AX; \
	SHRQ $3, AX; \
	CMPQ AX, BLEN; \
	JGT fail; \
	MOVQ AX, 272(SP); \
	LEAQ ·gapOnes+4(SB), DX; \
	JMP gaps; \
header: \
	VPCMPEQD Y0, Y0, Y0; \
	VPSRLD $31, Y0, Y0; \
	VMOVDQU Y0, 0(SP); \
	VMOVDQU Y0, 32(SP); \
	VMOVDQU Y0, 64(SP); \
	VMOVDQU Y0, 96(SP); \
	VMOVDQU Y0, 128(SP); \
	VMOVDQU Y0, 160(SP); \
	VMOVDQU Y0, 192(SP); \
	VMOVDQU Y0, 224(SP); \
	MOVQ AX, R9; \
	SHRQ $3, R9; \
	MOVQ (SI)(R9*1), BX; \
	MOVQ AX, R8; \
	ANDQ $7, R8; \
	SHRXQ R8, BX, BX; \
	MOVQ BX, R13; \
	ANDQ $63, R13; \
	JZ fail; \
	CMPQ R13, CX; \
	JGT fail; \
	MOVQ BX, R10; \
	SHRQ $6, R10; \
	ANDQ $7, R10; \
	MOVQ BX, R15; \
	SHRQ $9, R15; \
	ANDQ $31, R15; \
	INCQ R15; \
	ADDQ $14, AX; \
	LEAQ (R10)(R15*1), R12; \
	MOVQ R13, R9; \
	IMULQ R12, R9; \
	LEAQ 7(AX)(R9*1), R9; \
	SHRQ $3, R9; \
	CMPQ R9, BLEN; \
	JGT fail; \
	MOVQ R9, 272(SP); \
	MOVQ $1, R14; \
	SHLXQ R10, R14, R14; \
	DECQ R14; \
	MOVQ $1, R9; \
	SHLXQ R15, R9, R15; \
	DECQ R15; \
	MOVQ NV, R11; \
	XORQ DX, DX; \
exc: \
	MOVQ AX, CX; \
	SHRQ $3, CX; \
	ANDQ $1023, CX; \
	MOVQ (SI)(CX*1), BX; \
	MOVQ AX, R8; \
	ANDQ $7, R8; \
	SHRXQ R8, BX, BX; \
	ADDQ R12, AX; \
	MOVQ R14, R9; \
	ANDQ BX, R9; \
	LEAQ 1(DX)(R9*1), DX; \
	SHRXQ R10, BX, BX; \
	ANDQ R15, BX; \
	SHLXQ DI, BX, BX; \
	CMPQ BX, R11; \
	JAE fail; \
	INCQ BX; \
	MOVQ DX, R9; \
	ANDQ $63, R9; \
	MOVL BX, (SP)(R9*4); \
	DECQ R13; \
	JNZ exc; \
	CMPQ DX, N; \
	JA fail; \
	LEAQ 4(SP), DX; \
gaps: \
	MOVQ DI, R8; \
	LEAQ ·vecTables(SB), BX; \
	IMULQ $104, DI; \
	ADDQ DI, BX; \
	MOVQ DST, DI; \
	MOVQ N, CX; \
	GAPSETUP; \
	VPBROADCASTD FIRST, Y12

// func unpackAddAVX2(dst *uint32, src *byte, add *uint32, tab *vecTable, w uintptr, n int, first uint64) (last uint32, ok bool)
//
// The n gaps of src (w bits each, group g of 8 from byte g*w on) plus the add entries,
// summed on top of first, to dst (GAPS). ok is false when some neighbour is not above
// the one before it (unsigned, in 32 bits): a sum wrapped.
TEXT ·unpackAddAVX2(SB), NOSPLIT, $0-61
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ add+16(FP), DX
	MOVQ tab+24(FP), BX
	MOVQ w+32(FP), R8
	MOVQ n+40(FP), CX
	GAPSETUP
	VPBROADCASTD first+48(FP), Y12
	GAPS
	VMOVD X12, AX
	MOVL AX, last+56(FP)
	VMOVMSKPS Y10, AX
	CMPL AX, $0xFF
	SETEQ ok+60(FP)
	VZEROUPPER
	RET

// func compactBlockAVX2(dst *uint32, b *byte, h uintptr, n int, first uint64, blen int, nv uint64) (end int, last uint32, ok bool)
//
// A compact block of n gaps decoded whole from its header byte h and its stream b (blen
// bytes of it the list's): w = h's width, the n low parts of w bits, then where h says
// so the exception header (count, step width wi, high part width wh) and the exceptions,
// each read as exceptionsWhole reads it: its index step (wi bits) moves j on by 1 plus
// it, its high part (the wh bits above) shifted by w must be below nv and goes to the add
// array (72 entries in the frame, ones to entry 63; a last group of 7 also reads entry
// 64, for the lane past gap 63 that it neither stores nor checks; a block without
// exceptions reads gapOnes instead) at j, plus the 1; the
// last j must be at most n. Then the gaps plus the add entries, summed on top of first,
// to dst (GAPS). ok is false where the count is 0 or above n, the stream passes blen,
// an exception fails its check or some neighbour is not above the one before it
// (unsigned, in 32 bits); end is the stream's length in bytes.
TEXT ·compactBlockAVX2(SB), NOSPLIT, $288-69
	COMPACTHEAD(dst+0(FP), b+8(FP), h+16(FP), n+24(FP), first+32(FP), blen+40(FP), nv+48(FP))
	GAPS
	MOVQ 272(SP), AX
	MOVQ AX, end+56(FP)
	VMOVD X12, AX
	MOVL AX, last+64(FP)
	VMOVMSKPS Y10, AX
	CMPL AX, $0xFF
	SETEQ ok+68(FP)
	VZEROUPPER
	RET

fail:
	MOVB $0, ok+68(FP)
	VZEROUPPER
	RET

// func compactClaimAVX2(dst *uint32, b *byte, h uintptr, n int, first uint64, blen int, nv uint64, parent *uint32, plen uint64) (end int, last uint32, ok bool, mask uint64)
//
// compactBlockAVX2 that also tests each neighbour's parent entry as it is made, 8 a step
// by one gather (GAPSCLAIM): bit i+1 of mask is set where dst[i] < plen and parent[dst[i]]
// is all ones (unreached). The gather sign-extends its 32-bit indexes, so it takes each
// index less 2^31 (its sign bit flipped, as the order check has it in Y2) from parent +
// 4*2^31: every index below 2^32 reaches its entry. A block whose sums cannot pass 2^32
// (first + n*(2^w + nv - 1) below it: every block of a graph of fewer than 2^25
// vertices) goes through GAPSCLAIMNW, without the order check, which has nothing to
// find there; the last neighbour's check against nv (the caller's) bounds them all.
TEXT ·compactClaimAVX2(SB), NOSPLIT, $288-96
	COMPACTHEAD(dst+0(FP), b+8(FP), h+16(FP), n+24(FP), first+32(FP), blen+40(FP), nv+48(FP))
	MOVQ parent+56(FP), R11
	MOVQ $0x200000000, AX
	ADDQ AX, R11                 // parent + 4*2^31: the base of the indexes less 2^31
	VPBROADCASTD plen+64(FP), Y6
	VPXOR Y11, Y6, Y6            // plen, signed for an unsigned compare
	XORQ R13, R13                // the mask
	MOVQ $1, R14                 // its bit for the group's first lane
	CLAIM(nv+48(FP), first+32(FP))
	MOVQ 272(SP), AX
	MOVQ AX, end+72(FP)
	MOVQ R13, mask+88(FP)
	VMOVD X12, AX
	MOVL AX, last+80(FP)
	VMOVMSKPS Y10, AX
	CMPL AX, $0xFF
	SETEQ ok+84(FP)
	VZEROUPPER
	RET

fail:
	MOVB $0, ok+84(FP)
	VZEROUPPER
	RET


// func UnvisitedBlock(dst []uint32, list []byte, pos int, v, c, nv uint32, parent []uint32) (next int, mask uint64, st int)
//
// DecodeUnvisited's vector path in one call (see UnvisitedBlock's Go comment): where
// haveVec and haveShiftX are set, len(dst) is c (vecMinGaps+1 to BlockSize) and the word
// at pos lies inside the list's capacity, the first value is read from that word (at
// most 5 bytes), the first neighbour made from it as blockFirst makes it and the header
// byte after it read; a block that the vector decoder does not take (a longer value,
// the header at or past the list's end, a first neighbour not below nv, not packed, a
// header not compact or wider than vecMaxWidth, the stream's compactArea bytes past
// the capacity) returns st 0 with nothing written. Else the stream goes through
// COMPACTHEAD and GAPSCLAIM (GAPSCLAIMNW where no sum can wrap) as in compactClaimAVX2,
// from frame slots (b 280, h 288, n 296, first 304, blen 312, nv 320, the second
// neighbour's slot 328); the first neighbour is stored and its parent entry tested for
// mask bit 0. st is 1 with next the position after the block, or 2 where a check fails
// (malformed bytes).
TEXT ·UnvisitedBlock(SB), NOSPLIT, $336-120
	CMPB ·haveVec(SB), $0
	JEQ other
	CMPB ·haveShiftX(SB), $0
	JEQ other
	MOVL c+60(FP), AX
	CMPQ AX, dst_len+8(FP)
	JNE other
	SUBL $5, AX
	CMPL AX, $59
	JA other                     // c from vecMinGaps+1 to BlockSize
	MOVQ pos+48(FP), R8
	TESTQ R8, R8
	JLT other
	LEAQ 8(R8), AX
	CMPQ AX, list_cap+40(FP)
	JGT other
	MOVQ list_base+24(FP), SI
	MOVQ (SI)(R8*1), BX          // the word at pos
	MOVQ $0x8080808080808080, DX
	MOVQ BX, CX
	NOTQ CX
	ANDQ DX, CX
	BSFQ CX, CX                  // 8 times the first value's bytes less 1, plus 7
	JZ other
	SHRQ $3, CX                  // its bytes less 1
	CMPQ CX, $4
	JA other
	MOVQ $0x7f7f7f7f7f, DX
	PEXTQ DX, BX, AX             // the 7-bit groups of 5 bytes
	LEAQ 7(CX)(CX*2), R9
	LEAQ 0(R9)(CX*4), R9         // 7 times the value's bytes
	MOVQ $1, DX
	SHLXQ R9, DX, DX
	DECQ DX
	ANDQ DX, AX                  // the first value x
	LEAQ 8(CX*8), R9
	SHRXQ R9, BX, R10
	ANDQ $0xff, R10              // the header byte h
	LEAQ 2(R8)(CX*1), R11        // s: the position after the header byte
	LEAQ -1(R11), R12
	MOVQ list_len+32(FP), R13
	CMPQ R12, R13
	JGE other                    // the header at or past the list's end
	BTQ $0, AX
	JCC other                    // not packed
	SHRQ $1, AX                  // u, zigzag
	MOVQ AX, DX
	SHRQ $1, DX
	ANDQ $1, AX
	NEGQ AX
	XORQ DX, AX
	MOVL v+56(FP), DX
	ADDQ DX, AX                  // the first neighbour f
	MOVL nv+64(FP), DX
	CMPQ AX, DX
	JCC other                    // not a vertex below nv
	MOVQ DX, 320(SP)
	TESTQ $0x80, R10
	JZ other
	CMPQ R10, $0xff
	JEQ other
	MOVQ R10, DX
	ANDQ $63, DX
	CMPQ DX, $25
	JA other                     // wider than vecMaxWidth
	LEAQ 1032(R11), DX
	CMPQ DX, list_cap+40(FP)
	JGT other                    // the stream's view (compactArea bytes) past the capacity
	MOVQ AX, 304(SP)
	MOVQ R10, 288(SP)
	SUBQ R11, R13
	MOVQ R13, 312(SP)
	ADDQ R11, SI
	MOVQ SI, 280(SP)
	MOVL c+60(FP), DX
	DECQ DX
	MOVQ DX, 296(SP)
	MOVQ dst_base+0(FP), DX
	ADDQ $4, DX
	MOVQ DX, 328(SP)
	COMPACTHEAD(328(SP), 280(SP), 288(SP), 296(SP), 304(SP), 312(SP), 320(SP))
	MOVQ parent_base+72(FP), R11
	MOVQ $0x200000000, AX
	ADDQ AX, R11                 // parent + 4*2^31: the base of the indexes less 2^31
	MOVQ parent_len+80(FP), R12
	MOVL $0xffffffff, AX
	CMPQ R12, AX
	CMOVQHI AX, R12              // plen: len(parent), at most 2^32-1
	VMOVD R12, X6
	VPBROADCASTD X6, Y6
	VPXOR Y11, Y6, Y6            // plen, signed for an unsigned compare
	XORQ R13, R13                // the mask
	MOVQ $1, R14                 // its bit for the group's first lane
	CLAIM(320(SP), 304(SP))
	VMOVMSKPS Y10, AX
	CMPL AX, $0xFF
	JNE fail
	VMOVD X12, AX                // the last neighbour
	CMPQ AX, 320(SP)
	JCC fail
	MOVQ 304(SP), AX
	MOVQ dst_base+0(FP), DI
	MOVL AX, (DI)
	CMPQ AX, R12
	JCC root
	MOVQ parent_base+72(FP), SI
	CMPL (SI)(AX*4), $-1
	JNE root
	ORQ $1, R13
root:
	MOVQ R13, mask+104(FP)
	MOVQ list_len+32(FP), AX
	SUBQ 312(SP), AX             // s
	ADDQ 272(SP), AX             // plus the stream's length
	MOVQ AX, next+96(FP)
	MOVQ $1, st+112(FP)
	VZEROUPPER
	RET

other:
	MOVQ $0, st+112(FP)
	VZEROUPPER
	RET

fail:
	MOVQ $2, st+112(FP)
	VZEROUPPER
	RET
