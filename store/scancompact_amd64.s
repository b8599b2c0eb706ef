//go:build amd64 && !purego

#include "textflag.h"

// The vectors of internal/lanes: each lane's index, and the lane each lane's
// predecessor sits in.
#define LANEIDX github·com∕oocgraph∕ooc∕internal∕lanes·index(SB)
#define PREDIDX github·com∕oocgraph∕ooc∕internal∕lanes·pred(SB)

// cConst: 1, 7, 8, 31, 4 (each a doubleword, broadcast when loaded)
DATA cConst<>+0(SB)/4, $1
DATA cConst<>+4(SB)/4, $7
DATA cConst<>+8(SB)/4, $8
DATA cConst<>+12(SB)/4, $31
DATA cConst<>+16(SB)/4, $4
GLOBL cConst<>(SB), RODATA|NOPTR, $20

// The first group's exceptions from their records (scanMoreAVX2's fgroup):
// xLane: lane L holds the byte L+1 four times; xNeg: bytes of -1; xOnesW: words of 1;
// xRep4: at 8s, the bit 0 of each of four fields of s bits (s below 15).
DATA xLane<>+0(SB)/8, $0x0202020201010101
DATA xLane<>+8(SB)/8, $0x0404040403030303
DATA xLane<>+16(SB)/8, $0x0606060605050505
DATA xLane<>+24(SB)/8, $0x0808080807070707
GLOBL xLane<>(SB), RODATA|NOPTR, $32
DATA xNeg<>+0(SB)/8, $-1
DATA xNeg<>+8(SB)/8, $-1
DATA xNeg<>+16(SB)/8, $-1
DATA xNeg<>+24(SB)/8, $-1
GLOBL xNeg<>(SB), RODATA|NOPTR, $32
DATA xOnesW<>+0(SB)/8, $0x0001000100010001
DATA xOnesW<>+8(SB)/8, $0x0001000100010001
DATA xOnesW<>+16(SB)/8, $0x0001000100010001
DATA xOnesW<>+24(SB)/8, $0x0001000100010001
GLOBL xOnesW<>(SB), RODATA|NOPTR, $32
DATA xRep4<>+0(SB)/8, $0x0000000000000001
DATA xRep4<>+8(SB)/8, $0x000000000000000f
DATA xRep4<>+16(SB)/8, $0x0000000000000055
DATA xRep4<>+24(SB)/8, $0x0000000000000249
DATA xRep4<>+32(SB)/8, $0x0000000000001111
DATA xRep4<>+40(SB)/8, $0x0000000000008421
DATA xRep4<>+48(SB)/8, $0x0000000000041041
DATA xRep4<>+56(SB)/8, $0x0000000000204081
DATA xRep4<>+64(SB)/8, $0x0000000001010101
DATA xRep4<>+72(SB)/8, $0x0000000008040201
DATA xRep4<>+80(SB)/8, $0x0000000040100401
DATA xRep4<>+88(SB)/8, $0x0000000200400801
DATA xRep4<>+96(SB)/8, $0x0000001001001001
DATA xRep4<>+104(SB)/8, $0x0000008004002001
DATA xRep4<>+112(SB)/8, $0x0000040010004001
GLOBL xRep4<>(SB), RODATA|NOPTR, $120

// The frames' first 32 bytes: the group's neighbours, for the one found.
#define F_NBR 0

// The block scan's registers (both functions): R14 the stream, SI the group's low bits,
// DX the group's first gap, R8 w, R9 the table's high-half offset, DI front, BX wi, R10
// the next exception's bit, R11 the exceptions not yet decoded, R12 the next exception's
// gap (or 2^62 when none is left), R13 1 plus its high part shifted by w; Y15-Y13 the
// width's table, Y12 the carry (the last neighbour so far, broadcast; in a first group
// by fgroup, each lane's plus its exceptions' high parts), Y11 the sign bits,
// Y10 nv-1 with its sign bit flipped, Y9 PREDIDX, Y8 LANEIDX, Y7 the group's add lanes
// (1, or 1 plus an exception's high part shifted by w), Y6 the gaps left from the
// group's first.
// The add lanes stay in a register: an exception written into them in the frame made
// the group's 32-byte load wait on a 4-byte store, which cannot be forwarded.

// NEXTEXC decodes the exception at bit R10 of the stream: its gap (the last one's plus
// 1 plus its step) into R12, its high part shifted by w, plus 1, into R13; R10 past it,
// R11 one less. It jumps to bail where the gap is not below n or the shifted high part
// not below nv. The step is the low wi (BX) bits, cut by BZHI; mh masks a high part,
// wiwh is the two widths summed. The shifts are BMI2's (SHRX, SHLX): one uop each, no
// count in CX. Clobbers AX, CX.
#define NEXTEXC(mh, wiwh, n, nv, bail) \
	MOVQ R10, AX \
	SHRQ $3, AX \
	ANDQ $1023, AX \
	MOVQ R10, CX \
	ANDQ $7, CX \
	SHRXQ CX, (R14)(AX*1), AX \
	BZHIQ BX, AX, CX \
	LEAQ 1(R12)(CX*1), R12 \
	SHRXQ BX, AX, AX \
	ANDQ mh, AX \
	SHLXQ R8, AX, AX \
	ADDQ wiwh, R10 \
	DECQ R11 \
	CMPQ R12, n \
	JAE bail \
	CMPQ AX, nv \
	JAE bail \
	LEAL 1(AX), R13

// GAPS makes the group's 8 neighbours in Y0 (each lane the one before plus 1 plus its
// field plus its exception's part) and sets Y4 to the lanes of gaps below n that are
// not above the neighbour before them or not below nv (unsigned, 32 bits); Y5 holds the
// lanes of gaps below n. Resets the add lanes to ones.
#define GAPS \
	VMOVDQU (SI), X0 \
	VINSERTI128 $1, (SI)(R9*1), Y0, Y0 \
	VPSHUFB Y15, Y0, Y0 \
	VPSRLVD Y14, Y0, Y0 \
	VPAND Y13, Y0, Y0 \
	VPADDD Y7, Y0, Y0 \
	VPBROADCASTD cConst<>+0(SB), Y7 \
	VPSLLDQ $4, Y0, Y1 \
	VPADDD Y1, Y0, Y0 \
	VPSLLDQ $8, Y0, Y1 \
	VPADDD Y1, Y0, Y0 \
	VPSHUFD $0xFF, Y0, Y1 \
	VPERM2I128 $0x08, Y1, Y1, Y1 \
	VPADDD Y1, Y0, Y0 \
	VPADDD Y12, Y0, Y0 \
	VPCMPGTD Y8, Y6, Y5 \
	VPXOR Y11, Y0, Y2 \
	VPXOR Y11, Y12, Y4 \
	VPERMD Y2, Y9, Y3 \
	VPBLENDD $1, Y4, Y3, Y3 \
	VPCMPGTD Y3, Y2, Y3 \
	VPCMPGTD Y10, Y2, Y4 \
	VPANDN Y3, Y4, Y3 \
	VPANDN Y5, Y3, Y4

// BITS sets AX to the lanes of Y5 whose neighbour's bit is set in front (DI): the
// 32-bit word x>>5 gathered, bit x&31 of it. Clobbers Y1, Y2, Y5.
#define BITS \
	VPSRLD $5, Y0, Y1 \
	VPXOR Y2, Y2, Y2 \
	VPGATHERDD Y5, (DI)(Y1*4), Y2 \
	VPBROADCASTD cConst<>+12(SB), Y1 \
	VPAND Y1, Y0, Y1 \
	VPSRLVD Y1, Y2, Y2 \
	VPSLLD $31, Y2, Y2 \
	VMOVMSKPS Y2, AX

// SETADD sets add lane AX (below 8) to R13. Clobbers Y1, Y2.
#define SETADD \
	VMOVD R13, X1 \
	VPBROADCASTD X1, Y1 \
	VMOVD AX, X2 \
	VPBROADCASTD X2, Y2 \
	VPCMPEQD Y8, Y2, Y2 \
	VPBLENDVB Y2, Y1, Y7, Y7

// NEXTGROUP moves the scan's carry, lanes and pointers to the next group of 8 gaps.
#define NEXTGROUP \
	VPBROADCASTD cConst<>+4(SB), Y1 \
	VPERMD Y0, Y1, Y12 \
	VPBROADCASTD cConst<>+8(SB), Y1 \
	VPSUBD Y1, Y6, Y6 \
	ADDQ $8, DX \
	ADDQ R8, SI

// LONGLANES sets in CX the bits sh..sh+7 of the eight lanes at L_DEG+off whose degree is
// at least Y3's (PackedMin): min(degree, Y3) equals Y3 exactly there.
#define LONGLANES(off, sh) \
	VPMINUD (L_DEG+off)(SI), Y3, Y0 \
	VPCMPEQD Y3, Y0, Y0 \
	VMOVMSKPS Y0, AX \
	SHLQ $sh, AX \
	ORQ AX, CX

// CONSTS loads the vector constants that do not depend on the block; nv is in AX. Its
// move to X10 is VEX-encoded (VMOVQ) like every vector instruction here: a legacy SSE
// one while the upper halves of the Y registers hold data costs an Intel Xeon hundreds
// of cycles (measured: a scanCompactAVX2 call a list made urand22's search 2.9x slower).
#define CONSTS \
	VMOVDQU PREDIDX, Y9 \
	VMOVDQU LANEIDX, Y8 \
	VPBROADCASTD cConst<>+0(SB), Y7 \
	VPCMPEQD Y11, Y11, Y11 \
	VPSLLD $31, Y11, Y11 \
	DECQ AX \
	VMOVQ AX, X10 \
	VPBROADCASTD X10, Y10 \
	VPXOR Y11, Y10, Y10

// TABLE loads vecTables[w] (its address in AX) into Y15-Y13 and R9.
#define TABLE \
	VMOVDQU 0(AX), Y15 \
	VMOVDQU 32(AX), Y14 \
	VMOVDQU 64(AX), Y13 \
	MOVQ 96(AX), R9

// RESULT returns scanCompactAVX2's results: the neighbour found, the gaps taken, the
// status.
#define RESULT(rx, rk, rst) \
	MOVQ rx, x+96(FP) \
	MOVQ rk, k+104(FP) \
	MOVQ rst, status+112(FP) \
	VZEROUPPER \
	RET

// func scanCompactAVX2(b *byte, tab *vecTable, w, n, first, nv uint64, front *uint64, ebit, ne, wi, mh, wiwh uint64) (x, k, status uint64)
//
// scanCompact's loop on the AVX2 unit: the n gaps of a compact block whose stream starts
// at b (w <= vecMaxWidth bits each, group g of 8 from byte g*w on; tab is vecTables[w]),
// with ne exceptions from bit ebit on (a step of wi bits, masked by mi, then a high part
// masked by mh; wiwh bits each), made into neighbours 8 a step after first and their
// bits in front tested by one gather. Each exception is decoded when the groups before
// its gap are done, and written into its group's add lanes. status is NotFound (no
// neighbour in front), Found (x the first one, made by the k-th gap), or 3: a bail,
// where the block holds something that the scalar loop refuses or checks in an order of
// its own (an exception's gap not below n, a high part not below nv, a neighbour not
// below nv or not above the one before it in 32 bits), and the caller scans it again.
// first < nv <= 2^32; front holds nv bits; b's exception area and 16 bytes at each
// group's high half load.
TEXT ·scanCompactAVX2(SB), NOSPLIT, $32-120
	MOVQ b+0(FP), R14
	MOVQ w+16(FP), R8
	MOVQ front+48(FP), DI
	MOVQ ebit+56(FP), R10
	MOVQ ne+64(FP), R11
	MOVQ wi+72(FP), BX
	MOVQ nv+40(FP), AX
	CONSTS
	MOVQ tab+8(FP), AX
	TABLE
	VPBROADCASTD first+32(FP), Y12
	VPBROADCASTD n+24(FP), Y6
	MOVQ R14, SI
	XORQ DX, DX
	MOVQ $-1, R12
	TESTQ R11, R11
	JZ noexc
	NEXTEXC(mh+80(FP), wiwh+88(FP), n+24(FP), nv+40(FP), bail)
	JMP group

noexc:
	MOVQ $0x4000000000000000, R12

group:
	// the exceptions of the group's gaps into its add lanes
	LEAQ 8(DX), AX
	CMPQ R12, AX
	JAE gaps
	MOVQ R12, AX
	SUBQ DX, AX
	SETADD
	TESTQ R11, R11
	JZ noexc
	NEXTEXC(mh+80(FP), wiwh+88(FP), n+24(FP), nv+40(FP), bail)
	JMP group

gaps:
	GAPS
	VPTEST Y4, Y4
	JNZ bail
	BITS
	TESTL AX, AX
	JNZ found
	MOVQ n+24(FP), AX
	SUBQ DX, AX
	CMPQ AX, $8
	JLE notfound
	NEXTGROUP
	JMP group

found:
	VMOVDQU Y0, F_NBR(SP)
	BSFL AX, AX
	MOVL F_NBR(SP)(AX*4), CX
	LEAQ 1(DX)(AX*1), DX
	RESULT(CX, DX, $1)

notfound:
	MOVQ n+24(FP), AX
	RESULT($0, AX, $0)

bail:
	RESULT($0, $0, $3)

// moreArgs (store/scancompact.go)
#define M_ADJ 0
#define M_ACAP 8
#define M_FRONT 16
#define M_NV 24
#define M_TODO 32
#define M_LANES 40
#define M_PARENT 48
#define M_FOUND 56
#define M_MISS 64
#define M_CONT 72
#define M_DEGS 80
#define M_EXTRA 88

// vecLanes (store/scanfirst.go)
#define L_END 256
#define L_DEG 512
#define L_PK 768
#define L_W 1024

// scanMoreAVX2's frame past its first 32 bytes (40 to 63 spare)
#define F_XI 32
#define F_N 64
#define F_MH 80
#define F_WIWH 88
#define F_TODO 96
#define F_J 104
#define F_NEXT 112
#define F_D 120
#define F_NV 128

// FOUNDLIST adds list j (F_J) to a's (BX) found with parent r, the gaps it took (DX) to
// extra and its degree (F_D) to degs, and goes on to the next lane.
#define FOUNDLIST(r) \
	MOVQ F_J(SP), CX \
	MOVQ M_PARENT(BX), AX \
	MOVL r, (AX)(CX*4) \
	MOVQ $1, AX \
	SHLQ CX, AX \
	ORQ AX, M_FOUND(BX) \
	ADDQ DX, M_EXTRA(BX) \
	MOVQ F_D(SP), AX \
	ADDQ AX, M_DEGS(BX) \
	JMP lane

// func scanMoreAVX2(a *moreArgs)
//
// scanRest on the AVX2 unit for each list of a.todo whose first block is compact, of a
// width up to vecMaxWidth: the lists that scanFirstAVX2 left with their first neighbour
// not in the frontier (a.lanes says what it read; the first neighbour is in
// a.parent), each block scanned as scanCompactAVX2 scans it, after scanCompact's checks
// of its header and length. A list found is added to found (its parent in parent, its
// degree to degs), a list of one block found in none of its neighbours to miss, and a
// list of more blocks whose first one holds none of them to cont (the first block's end
// in lanes.pk; a list of one block read to its end without a find ends there, else it is
// left); extra counts the neighbours checked past the first of each of these
// lists but those of cont. A list of one block of varints (mode bit clear) is scanned
// on too, a gap a step by scalar loads (vlist), and added to found or miss the same way.
// The lists of other codings, whose view of the stream would pass cap(adj) (at most acap
// bytes from adj), or that bail, are left to the caller.
TEXT ·scanMoreAVX2(SB), NOSPLIT, $136-8
	MOVQ a+0(FP), BX
	MOVQ M_FRONT(BX), DI
	MOVQ M_NV(BX), AX
	MOVQ AX, F_NV(SP)
	CONSTS
	// the lists of fewer than PackedMin neighbours (varints, left to the caller) out
	// of todo at once: a lane whose degree is not above 3 (unsigned) is not scanned
	MOVQ M_LANES(BX), SI
	VPBROADCASTD cConst<>+16(SB), Y3
	VPMINUD (L_DEG+0)(SI), Y3, Y0
	VPCMPEQD Y3, Y0, Y0
	VMOVMSKPS Y0, CX
	LONGLANES(32, 8)
	LONGLANES(64, 16)
	LONGLANES(96, 24)
	LONGLANES(128, 32)
	LONGLANES(160, 40)
	LONGLANES(192, 48)
	LONGLANES(224, 56)
	MOVQ M_TODO(BX), AX
	ANDQ CX, AX
	MOVQ AX, F_TODO(SP)

lane:
	MOVQ F_TODO(SP), AX
	TESTQ AX, AX
	JZ done
	BSFQ AX, CX
	LEAQ -1(AX), DX
	ANDQ DX, AX
	MOVQ AX, F_TODO(SP)
	MOVQ CX, F_J(SP)
	MOVQ a+0(FP), BX
	MOVQ M_LANES(BX), SI
	MOVL L_DEG(SI)(CX*4), AX
	MOVQ AX, F_D(SP)
	MOVL L_END(SI)(CX*4), R13    // the list's end in adj
	MOVL L_PK(SI)(CX*4), R10     // the first value's end: the header byte
	MOVQ L_W(SI)(CX*8), DX       // the first value's bytes
	MOVQ $64, R12
	CMPQ AX, R12
	CMOVQCS AX, R12              // c, the first block's neighbours
	CMPQ R12, $4
	JCS lane                     // below PackedMin: varints
	TESTQ $1, DX
	JZ vlist                     // the mode bit: varints
	CMPQ R10, R13
	JCC lane                     // no header byte in the list
	LEAQ 1033(R10), AX
	CMPQ AX, M_ACAP(BX)
	JHI lane                     // the stream's view would pass the mapping
	MOVQ M_PARENT(BX), AX
	MOVL (AX)(CX*4), AX
	CMPQ AX, F_NV(SP)
	JCC lane                     // a first neighbour not below nv
	MOVQ M_ADJ(BX), R14
	MOVBQZX (R14)(R10*1), AX     // the header byte
	CMPQ AX, $0xFF
	JEQ lane                     // mirrored
	TESTQ $0x80, AX
	JZ lane                      // packed
	MOVQ AX, R8
	ANDQ $63, R8
	CMPQ R8, $25
	JHI lane                     // wider than vecMaxWidth
	LEAQ 1(R14)(R10*1), R14      // the stream
	INCQ R10                     // its start in adj
	DECQ R12
	MOVQ R12, F_N(SP)            // n, the gaps
	IMULQ R8, R12                // their low bits
	TESTQ $0x40, AX
	JNZ exchdr
	LEAQ 7(R12), AX
	SHRQ $3, AX
	ADDQ R10, AX                 // the block's end
	CMPQ AX, R13
	JHI lane
	MOVQ AX, F_NEXT(SP)
	XORQ R11, R11
	JMP setup

exchdr:
	LEAQ 21(R12), AX
	SHRQ $3, AX
	ADDQ R10, AX
	CMPQ AX, R13
	JHI lane                     // the exception header past the list
	MOVQ R12, AX
	SHRQ $3, AX
	MOVQ R12, CX
	ANDQ $7, CX
	SHRXQ CX, (R14)(AX*1), AX    // the exception header
	MOVQ AX, R11
	ANDQ $63, R11                // ne
	JZ lane
	CMPQ R11, F_N(SP)
	JHI lane
	MOVQ AX, BX
	SHRQ $6, BX
	ANDQ $7, BX                  // wi
	SHRQ $9, AX
	ANDQ $31, AX
	INCQ AX                      // wh
	MOVQ $-1, DX
	BZHIQ AX, DX, DX
	MOVQ DX, F_MH(SP)
	ADDQ BX, AX
	MOVQ AX, F_WIWH(SP)
	MOVQ AX, CX                  // s, an exception's bits
	ADDQ $14, R12                // the first exception's bit
	IMULQ R11, AX
	LEAQ 7(R12)(AX*1), AX
	SHRQ $3, AX
	ADDQ R10, AX                 // the block's end
	CMPQ AX, R13
	JHI lane
	MOVQ AX, F_NEXT(SP)
	MOVQ R12, R10
	CMPQ CX, $14
	JLS fgroup                   // else four exceptions past one word

// LISTTABLE loads the table of width w (R8) as TABLE does, and broadcasts the first
// neighbour of list j (F_J), held in a.parent, to Y12; it leaves a.parent in AX and j
// in CX. Defined in scanMoreAVX2's body, so that vet checks a+0(FP) against its frame.
#define LISTTABLE \
	IMUL3Q $104, R8, AX \
	LEAQ ·vecTables(SB), CX \
	ADDQ CX, AX \
	TABLE \
	MOVQ F_J(SP), CX \
	MOVQ a+0(FP), AX \
	MOVQ M_PARENT(AX), AX \
	VPBROADCASTD (AX)(CX*4), Y12

setup:
	LISTTABLE
	VPBROADCASTD F_N(SP), Y6
	MOVQ R14, SI
	XORQ DX, DX
	MOVQ $-1, R12
	TESTQ R11, R11
	JZ mnoexc
	NEXTEXC(F_MH(SP), F_WIWH(SP), F_N(SP), F_NV(SP), mbail)
	JMP mgroup

mnoexc:
	MOVQ $0x4000000000000000, R12

mgroup:
	LEAQ 8(DX), AX
	CMPQ R12, AX
	JAE mgaps
	MOVQ R12, AX
	SUBQ DX, AX
	SETADD
	TESTQ R11, R11
	JZ mnoexc
	NEXTEXC(F_MH(SP), F_WIWH(SP), F_N(SP), F_NV(SP), mbail)
	JMP mgroup

mgaps:
	GAPS
	VPTEST Y4, Y4
	JNZ mbail
	BITS
	TESTL AX, AX
	JNZ mfound
	MOVQ F_N(SP), AX
	SUBQ DX, AX
	CMPQ AX, $8
	JLE mnotfound
	NEXTGROUP
	JMP mgroup

mfound:
	VMOVDQU Y0, F_NBR(SP)
	BSFL AX, AX
	MOVL F_NBR(SP)(AX*4), R13    // the neighbour found
	LEAQ 1(DX)(AX*1), DX         // the gaps it took
	MOVQ a+0(FP), BX
	FOUNDLIST(R13)

mnotfound:
	MOVQ a+0(FP), BX
	MOVQ F_J(SP), CX
	MOVQ $1, AX
	SHLQ CX, AX
	CMPQ F_D(SP), $64
	JHI mcont
	MOVQ M_LANES(BX), SI
	MOVL L_END(SI)(CX*4), DX
	CMPQ DX, F_NEXT(SP)
	JNE lane                     // bytes after the list's one block: left to the caller
	ORQ AX, M_MISS(BX)
	MOVQ F_N(SP), AX
	ADDQ AX, M_EXTRA(BX)
	JMP lane

mcont:
	ORQ AX, M_CONT(BX)
	MOVQ M_LANES(BX), SI
	MOVQ F_NEXT(SP), AX
	MOVL AX, L_PK(SI)(CX*4)
	JMP lane

fgroup:
	// The first group's exceptions without a branch on them: the first four exceptions'
	// records (s bits each, one word from the first's bit R12 on), their steps and high
	// parts by PEXT into 16-bit words by PDEP, the steps summed into gap indexes i_k
	// (words of 0x7FFF past ne), the high parts summed (below 2^16: wh is at most 14).
	// Lane L's neighbour takes the sum of the high parts of the exceptions with i_k at
	// most L, shifted by w: the count of those picks it. It joins the carry, past the
	// lanes' sums. The four below ne are checked: the last one's gap below n, and the
	// first neighbour plus their high parts' sum, shifted, below nv (as in every whole
	// list), so that no lane's sum wraps in 32 bits. A fifth that may lie in the group
	// sends the list to the loop (fmore) with the four in the carry.
	MOVQ R12, AX
	SHRQ $3, AX
	MOVQ R12, SI
	ANDQ $7, SI
	SHRXQ SI, (R14)(AX*1), AX    // the four records
	LEAQ xRep4<>(SB), SI
	MOVQ (SI)(CX*8), SI          // bit 0 of each
	MOVQ $-1, R13
	BZHIQ BX, R13, R13           // mi
	MOVQ R13, R9
	IMULQ SI, R9                 // the steps' bits
	SHLQ $2, CX
	MOVQ $-1, SI
	BZHIQ CX, SI, SI             // the records' bits
	ANDNQ SI, R9, SI             // the high parts' bits
	PEXTQ SI, AX, SI             // the high parts, wh bits each
	PEXTQ R9, AX, R9             // the steps, wi bits each
	MOVQ $0x0001000100010001, CX
	IMULQ CX, R13
	PDEPQ R13, R9, R9            // the steps, a word each
	IMULQ CX, DX
	PDEPQ DX, SI, DX             // the high parts, a word each
	IMULQ CX, R9                 // the steps summed from word 0
	MOVL $4, R13
	CMPQ R11, R13
	CMOVQCS R11, R13
	SHLQ $4, R13                 // 16 min(ne, 4)
	MOVQ $-1, SI
	BZHIQ R13, SI, SI            // the words below ne
	ANDQ SI, DX                  // high parts past ne cleared
	IMULQ CX, DX                 // the high parts summed from word 0
	MOVQ $0x0003000200010000, CX
	ADDQ CX, R9                  // i_k in word k
	LEAQ -16(R13), AX
	SHRXQ AX, R9, AX
	MOVWQZX AX, AX               // the last i_k below ne
	CMPQ AX, F_N(SP)
	JCC mbail                    // a gap not below n
	MOVQ DX, R12
	SHRQ $48, R12
	SHLXQ R8, R12, R12           // the high parts' sum, shifted
	MOVQ $0x7FFF7FFF7FFF7FFF, AX
	ANDNQ AX, SI, AX
	ORQ AX, R9                   // words past ne 0x7FFF
	MOVQ R9, F_XI(SP)
	MOVQ R9, R13
	SHRQ $48, R13                // i_3
	MOVL $7, CX
	CMPQ R11, $4
	CMOVQLS CX, R13              // or 7 where no fifth follows
	VMOVQ R9, X1
	VPACKSSWB X1, X1, X1         // i_k in byte k (saturated at 127)
	VPBROADCASTD X1, Y1
	VMOVDQU xLane<>(SB), Y5
	VPCMPGTB Y1, Y5, Y3          // byte k of lane L: i_k at most L
	VPMADDUBSW xNeg<>(SB), Y3, Y3
	VPMADDWD xOnesW<>(SB), Y3, Y3 // -255 times the count: the count in bits 0-2
	VMOVQ DX, X2
	VPSLLDQ $2, X2, X2
	VPMOVZXWD X2, Y2             // lane c: the sum of the first c high parts
	VMOVQ R8, X5
	VPSLLD X5, Y2, Y2
	VPERMD Y2, Y3, Y3            // lane L's part of the carry
	LISTTABLE
	MOVL (AX)(CX*4), AX
	ADDQ R12, AX
	CMPQ AX, F_NV(SP)
	JCC mbail                    // the first neighbour plus that sum not below nv
	VPADDD Y3, Y12, Y12
	VPBROADCASTD F_N(SP), Y6
	MOVQ R14, SI
	XORQ DX, DX
	CMPQ R13, $7
	JCS fmore
	GAPS
	VPTEST Y4, Y4
	JNZ mbail
	BITS
	TESTL AX, AX
	JNZ mfound
	MOVQ F_N(SP), AX
	CMPQ AX, $8
	JLE mnotfound
	// the state past the group's exceptions: c1 of the four below lane 8 (words of
	// the first c1 below 8: bit 15 of each plus 0x7FF8 clear), the last one's gap
	MOVQ F_XI(SP), AX
	MOVQ $0x7FF87FF87FF87FF8, CX
	ADDQ AX, CX
	MOVQ $0x8000800080008000, R13
	ANDQ R13, CX
	TZCNTQ CX, CX
	SHRQ $4, CX                  // c1
	LEAQ -1(CX), R13
	SHLQ $4, R13
	SHRXQ R13, AX, R12
	MOVWQZX R12, R12
	MOVQ $-1, AX
	TESTQ CX, CX
	CMOVQEQ AX, R12              // the last one's gap, or -1
	MOVQ F_WIWH(SP), AX
	IMULQ CX, AX
	ADDQ AX, R10
	SUBQ CX, R11
	JZ fnone
	NEXTEXC(F_MH(SP), F_WIWH(SP), F_N(SP), F_NV(SP), mbail)
	NEXTGROUP
	JMP mgroup

fnone:
	MOVQ $0x4000000000000000, R12
	NEXTGROUP
	JMP mgroup

fmore:
	// the four in the carry, the state at the fourth
	MOVQ R13, R12
	MOVQ F_WIWH(SP), AX
	LEAQ (R10)(AX*4), R10
	SUBQ $4, R11
	NEXTEXC(F_MH(SP), F_WIWH(SP), F_N(SP), F_NV(SP), mbail)
	JMP mgroup

vlist:
	// a list of one block of varints: its gaps from the first value's end on, each
	// loaded as one word, its length from its end byte and its value from its 7-bit
	// groups without a branch on the length (a branch mispredicts where the lengths
	// mix, as they do where the encoder chose varints); anything else the caller
	// checks is left to it. A gap of more than 5 bytes, or one that ends past the list,
	// or a neighbour not below nv, or bytes after the last gap: the caller's
	CMPQ AX, $64
	JHI lane                     // blocks after this one
	LEAQ 8(R13), R9
	CMPQ R9, M_ACAP(BX)
	JHI lane                     // a word at the list's last byte would pass the mapping
	MOVQ M_PARENT(BX), R9
	MOVL (R9)(CX*4), R9          // cur: the first neighbour
	CMPQ R9, F_NV(SP)
	JCC lane
	MOVQ M_ADJ(BX), R14
	DECQ R12                     // n, the gaps
	XORQ DX, DX                  // the gaps checked
	MOVQ $0x8080808080808080, SI
	MOVQ $0x7f0000000, R11

vloop:
	MOVQ (R14)(R10*1), AX
	MOVQ AX, CX
	NOTQ CX
	ANDQ SI, CX
	BSFQ CX, CX                  // 8k-1 where the gap ends at byte k
	JZ lane                      // no end in 8 bytes
	SHRQ $3, CX
	INCQ CX                      // k
	CMPQ CX, $5
	JHI lane                     // longer than 5 bytes
	ADDQ CX, R10
	CMPQ R10, R13
	JHI lane                     // past the list's end (or none left)
	MOVQ AX, R8
	ANDQ $0x7f, R8
	MOVQ AX, BX
	SHRQ $1, BX
	ANDQ $0x3f80, BX
	ORQ BX, R8
	MOVQ AX, BX
	SHRQ $2, BX
	ANDQ $0x1fc000, BX
	ORQ BX, R8
	MOVQ AX, BX
	SHRQ $3, BX
	ANDQ $0xfe00000, BX
	ORQ BX, R8
	SHRQ $4, AX
	ANDQ R11, AX
	ORQ AX, R8
	IMUL3Q $7, CX, CX
	BZHIQ CX, R8, R8             // the gap: its k bytes' 7k bits
	ADDQ R8, R9
	CMPQ R9, F_NV(SP)
	JCC lane                     // a neighbour (so a gap) not below nv
	MOVQ R9, BX
	SHRQ $6, BX
	MOVQ (DI)(BX*8), BX
	INCQ DX
	BTQ R9, BX
	JCS vfound
	CMPQ DX, R12
	JCS vloop
	CMPQ R10, R13
	JNE lane                     // bytes after its last gap
	MOVQ a+0(FP), BX
	MOVQ F_J(SP), CX
	MOVQ $1, AX
	SHLQ CX, AX
	ORQ AX, M_MISS(BX)
	ADDQ R12, M_EXTRA(BX)
	JMP lane

vfound:
	MOVQ a+0(FP), BX
	FOUNDLIST(R9)

mbail:
	// a block with something the scalar loop checks in an order of its own: the
	// lane is left to the caller, and the add lanes to ones again
	VPBROADCASTD cConst<>+0(SB), Y7
	JMP lane

done:
	VZEROUPPER
	RET
