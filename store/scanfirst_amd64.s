//go:build amd64 && !purego

#include "textflag.h"

// The offsets of firstArgs's fields (store/scanfirst.go): the group's values, each
// broadcast by the prologue into the frame (V_ offsets from SP), then the rest.
#define A_WW 0
#define A_MO 8
#define A_MD 16
#define A_DMIN 24
#define A_SPAN 32
#define A_H0 40
#define A_H4 48
#define A_CNT 56
#define A_V0 64
#define A_NVM1 72
#define A_ALEN 80
#define A_ACAP8 88
#define A_TODO 96
#define A_PAIRS 104
#define A_ADJ 112
#define A_FRONT 120
#define A_WO 128
#define A_WWS 136
#define A_FOUND 144
#define A_EMPTY 152
#define A_MISS 160
#define A_DEGS 168
#define A_PARENT 176
#define A_MORE 184
#define A_LANES 192
#define A_PTAB 200
#define A_STEPS 208
#define A_TWO 216
#define A_THREE 224

#define V_WW 0
#define V_MO 32
#define V_MD 64
#define V_DMIN 96
#define V_SPAN 128
#define V_H0 160
#define V_H4 192
#define V_CNT 224
#define V_V0 256
#define V_NVM1 288
#define V_ALEN 320
#define V_ACAP8 352
#define V_TODO 384
#define V_WO 416
#define V_WWS 448
#define V_LOADED 480
#define V_LM 512
#define V_STEPS 1024
#define V_SPAN4 1032

DATA fLanes<>+0(SB)/8, $0
DATA fLanes<>+8(SB)/8, $1
DATA fLanes<>+16(SB)/8, $2
DATA fLanes<>+24(SB)/8, $3
GLOBL fLanes<>(SB), RODATA|NOPTR, $32

// stepLanes: j, the lanes of the step at j0 from stepLanes+8*j0
DATA stepLanes<>+0(SB)/8, $0
DATA stepLanes<>+8(SB)/8, $1
DATA stepLanes<>+16(SB)/8, $2
DATA stepLanes<>+24(SB)/8, $3
DATA stepLanes<>+32(SB)/8, $4
DATA stepLanes<>+40(SB)/8, $5
DATA stepLanes<>+48(SB)/8, $6
DATA stepLanes<>+56(SB)/8, $7
DATA stepLanes<>+64(SB)/8, $8
DATA stepLanes<>+72(SB)/8, $9
DATA stepLanes<>+80(SB)/8, $10
DATA stepLanes<>+88(SB)/8, $11
DATA stepLanes<>+96(SB)/8, $12
DATA stepLanes<>+104(SB)/8, $13
DATA stepLanes<>+112(SB)/8, $14
DATA stepLanes<>+120(SB)/8, $15
DATA stepLanes<>+128(SB)/8, $16
DATA stepLanes<>+136(SB)/8, $17
DATA stepLanes<>+144(SB)/8, $18
DATA stepLanes<>+152(SB)/8, $19
DATA stepLanes<>+160(SB)/8, $20
DATA stepLanes<>+168(SB)/8, $21
DATA stepLanes<>+176(SB)/8, $22
DATA stepLanes<>+184(SB)/8, $23
DATA stepLanes<>+192(SB)/8, $24
DATA stepLanes<>+200(SB)/8, $25
DATA stepLanes<>+208(SB)/8, $26
DATA stepLanes<>+216(SB)/8, $27
DATA stepLanes<>+224(SB)/8, $28
DATA stepLanes<>+232(SB)/8, $29
DATA stepLanes<>+240(SB)/8, $30
DATA stepLanes<>+248(SB)/8, $31
DATA stepLanes<>+256(SB)/8, $32
DATA stepLanes<>+264(SB)/8, $33
DATA stepLanes<>+272(SB)/8, $34
DATA stepLanes<>+280(SB)/8, $35
DATA stepLanes<>+288(SB)/8, $36
DATA stepLanes<>+296(SB)/8, $37
DATA stepLanes<>+304(SB)/8, $38
DATA stepLanes<>+312(SB)/8, $39
DATA stepLanes<>+320(SB)/8, $40
DATA stepLanes<>+328(SB)/8, $41
DATA stepLanes<>+336(SB)/8, $42
DATA stepLanes<>+344(SB)/8, $43
DATA stepLanes<>+352(SB)/8, $44
DATA stepLanes<>+360(SB)/8, $45
DATA stepLanes<>+368(SB)/8, $46
DATA stepLanes<>+376(SB)/8, $47
DATA stepLanes<>+384(SB)/8, $48
DATA stepLanes<>+392(SB)/8, $49
DATA stepLanes<>+400(SB)/8, $50
DATA stepLanes<>+408(SB)/8, $51
DATA stepLanes<>+416(SB)/8, $52
DATA stepLanes<>+424(SB)/8, $53
DATA stepLanes<>+432(SB)/8, $54
DATA stepLanes<>+440(SB)/8, $55
DATA stepLanes<>+448(SB)/8, $56
DATA stepLanes<>+456(SB)/8, $57
DATA stepLanes<>+464(SB)/8, $58
DATA stepLanes<>+472(SB)/8, $59
DATA stepLanes<>+480(SB)/8, $60
DATA stepLanes<>+488(SB)/8, $61
DATA stepLanes<>+496(SB)/8, $62
DATA stepLanes<>+504(SB)/8, $63
GLOBL stepLanes<>(SB), RODATA|NOPTR, $512

// fConst: 1 and 0xffffffff (quadwords, broadcast when loaded), then VPMADDUBSW's
// multipliers of a value's bytes (1 and 128: two 7-bit groups to 14 bits in a word)
DATA fConst<>+0(SB)/8, $1
DATA fConst<>+8(SB)/8, $0xffffffff
DATA fConst<>+16(SB)/8, $0x8001800180018001
GLOBL fConst<>(SB), RODATA|NOPTR, $24

// fNarrow: VPERMD's control that puts the low doublewords of 4 quadword lanes in the
// low 16 bytes
DATA fNarrow<>+0(SB)/8, $0x0000000200000000
DATA fNarrow<>+8(SB)/8, $0x0000000600000004
DATA fNarrow<>+16(SB)/8, $0
DATA fNarrow<>+24(SB)/8, $0
GLOBL fNarrow<>(SB), RODATA|NOPTR, $32

#define VC_7 0
#define VC_511 32
#define VC_63 64
#define VC_HIGH 96
#define VC_7F 128
#define VC_MADD2 160
#define VC_HI28 192
#define VC_3 224
#define VC_SIGN 256
#define VC_4 288
#define VC_BYTE1 320
#define VC_5 352

// vConst: each quadword constant 4 times, a 32-byte operand at VC_x (no broadcast);
// VC_MADD2 is VPMADDWD's multipliers (1 and 2^14: two 14-bit words to 28 bits), VC_HI28
// what takes a value's second 28 bits from bit 32 to bit 28 (t - (t>>32)*(2^32-2^28))
DATA vConst<>+0(SB)/8, $0x7
DATA vConst<>+8(SB)/8, $0x7
DATA vConst<>+16(SB)/8, $0x7
DATA vConst<>+24(SB)/8, $0x7
DATA vConst<>+32(SB)/8, $0x1ff
DATA vConst<>+40(SB)/8, $0x1ff
DATA vConst<>+48(SB)/8, $0x1ff
DATA vConst<>+56(SB)/8, $0x1ff
DATA vConst<>+64(SB)/8, $0x3f
DATA vConst<>+72(SB)/8, $0x3f
DATA vConst<>+80(SB)/8, $0x3f
DATA vConst<>+88(SB)/8, $0x3f
DATA vConst<>+96(SB)/8, $0x8080808080808080
DATA vConst<>+104(SB)/8, $0x8080808080808080
DATA vConst<>+112(SB)/8, $0x8080808080808080
DATA vConst<>+120(SB)/8, $0x8080808080808080
DATA vConst<>+128(SB)/8, $0x7f7f7f7f7f7f7f7f
DATA vConst<>+136(SB)/8, $0x7f7f7f7f7f7f7f7f
DATA vConst<>+144(SB)/8, $0x7f7f7f7f7f7f7f7f
DATA vConst<>+152(SB)/8, $0x7f7f7f7f7f7f7f7f
DATA vConst<>+160(SB)/8, $0x4000000140000001
DATA vConst<>+168(SB)/8, $0x4000000140000001
DATA vConst<>+176(SB)/8, $0x4000000140000001
DATA vConst<>+184(SB)/8, $0x4000000140000001
DATA vConst<>+192(SB)/8, $0xf0000000
DATA vConst<>+200(SB)/8, $0xf0000000
DATA vConst<>+208(SB)/8, $0xf0000000
DATA vConst<>+216(SB)/8, $0xf0000000
DATA vConst<>+224(SB)/8, $0x3
DATA vConst<>+232(SB)/8, $0x3
DATA vConst<>+240(SB)/8, $0x3
DATA vConst<>+248(SB)/8, $0x3
DATA vConst<>+256(SB)/8, $0x8000000000000000
DATA vConst<>+264(SB)/8, $0x8000000000000000
DATA vConst<>+272(SB)/8, $0x8000000000000000
DATA vConst<>+280(SB)/8, $0x8000000000000000
DATA vConst<>+288(SB)/8, $0x4
DATA vConst<>+296(SB)/8, $0x4
DATA vConst<>+304(SB)/8, $0x4
DATA vConst<>+312(SB)/8, $0x4
DATA vConst<>+320(SB)/8, $0x101010101010101
DATA vConst<>+328(SB)/8, $0x101010101010101
DATA vConst<>+336(SB)/8, $0x101010101010101
DATA vConst<>+344(SB)/8, $0x101010101010101
DATA vConst<>+352(SB)/8, $0x5
DATA vConst<>+360(SB)/8, $0x5
DATA vConst<>+368(SB)/8, $0x5
DATA vConst<>+376(SB)/8, $0x5
GLOBL vConst<>(SB), RODATA|NOPTR, $384

// LEB decodes the LEB128 value of w (Y3) from bit Y5 on (a multiple of 8, each
// lane's), given w's bytes that end a value (Y8, none shifted in from past w): Y4 its
// value below 2^35 and Y7 its length in bytes (8 where none ends it in w; past 5, Y4
// is not the value). It writes Y0 and Y10.
#define LEB \
	VPSRLVQ Y5, Y3, Y0 \
	VPSRLVQ Y5, Y8, Y4 \
	VPSUBQ Y4, Y12, Y7 \
	VPAND Y7, Y4, Y4 \
	VPSLLQ $1, Y4, Y10 \
	VPSUBQ Y9, Y10, Y10 \
	VPAND Y10, Y0, Y0 \
	VPAND vConst<>+VC_BYTE1(SB), Y10, Y7 \
	VPSADBW Y12, Y7, Y7 \
	VPAND vConst<>+VC_7F(SB), Y0, Y4 \
	VPMADDUBSW Y4, Y13, Y4 \
	VPMADDWD vConst<>+VC_MADD2(SB), Y4, Y4 \
	VPSRLQ $32, Y4, Y0 \
	VPMULUDQ vConst<>+VC_HI28(SB), Y0, Y0 \
	VPSUBQ Y0, Y4, Y4

// NIBBLES sets bit 4i of r where mask m (a register) has a bit among 4i..4i+3: the steps
// of 4 lanes to take. It writes AX and DX.
#define NIBBLES(m, r) \
	MOVQ m, AX \
	MOVQ m, DX \
	SHRQ $1, DX \
	ORQ DX, AX \
	MOVQ AX, DX \
	SHRQ $2, DX \
	ORQ DX, AX \
	MOVQ $0x1111111111111111, DX \
	ANDQ DX, AX \
	MOVQ AX, r

// STEP takes the lowest step of r (bit 4i for step i, not zero) off it: CX its first
// lane's j, Y15 the j of each lane. It writes AX. Each pass runs the steps that a.steps
// names: every step of a group with sparseSteps vertices to look at or more (a loop of
// 16, predicted), else those with a vertex of todo (pass two: a loaded lane). On the
// sparse groups of a later bottom-up level a test of each of the 16 steps mispredicted
// about a quarter of them; a loop over the steps taken mispredicts its exit once.
#define STEP(r) \
	BSFQ r, CX \
	LEAQ -1(r), AX \
	ANDQ AX, r \
	LEAQ stepLanes<>(SB), AX \
	VMOVDQU (AX)(CX*8), Y15

// HEADS ends pass one's step at CX (Y4 d, Y5 start, Y6 end, Y15 the lanes' j, Y3 x):
// lanes.end, the lanes not to load (start > end, end > len(adj), d == 0, q+8 > cap(adj),
// where q = start + FirstBlock(d): 4*((d+63)/64 - 1) for d > 0), the loaded lanes (of
// todo, and q < end: q+k <= end is checked in pass two), their lists' first 8 bytes
// gathered into lanes.w (x where not loaded), lanes.start, lanes.deg and lanes.pk (q,
// below end for the loaded lanes), the step's loaded lanes in the frame for pass two,
// and the masks of the empty lanes (R13) and the loaded ones (V_LOADED). It writes AX,
// Y0-Y3, Y6-Y8.
#define HEADS \
	VPERMD Y6, Y14, Y7 \
	VMOVDQU X7, 256(SI)(CX*4) \
	VPCMPGTQ Y6, Y5, Y7 \
	VPCMPGTQ V_ALEN(SP), Y6, Y8 \
	VPOR Y8, Y7, Y7 \
	VPCMPEQQ Y12, Y4, Y0 \
	VPOR Y0, Y7, Y7 \
	VPADDQ vConst<>+VC_63(SB), Y4, Y8 \
	VPSRLQ $6, Y8, Y8 \
	VPSUBQ Y9, Y8, Y8 \
	VPSLLQ $2, Y8, Y8 \
	VPADDQ Y8, Y5, Y8 \
	VPCMPGTQ V_ACAP8(SP), Y8, Y1 \
	VPOR Y1, Y7, Y7 \
	VMOVDQU V_TODO(SP), Y1 \
	VPSRLVQ Y15, Y1, Y1 \
	VPAND Y9, Y1, Y1 \
	VPCMPEQQ Y9, Y1, Y1 \
	VPANDN Y1, Y7, Y1 \
	VPCMPGTQ Y8, Y6, Y2 \
	VPAND Y2, Y1, Y1 \
	VMOVDQU Y1, Y2 \
	VPGATHERQQ Y2, (R9)(Y8*1), Y3 \
	VMOVDQU Y3, 1024(SI)(CX*8) \
	VPERMD Y5, Y14, Y6 \
	VMOVDQU X6, 0(SI)(CX*4) \
	VPERMD Y4, Y14, Y6 \
	VMOVDQU X6, 512(SI)(CX*4) \
	VPERMD Y8, Y14, Y6 \
	VMOVDQU X6, 768(SI)(CX*4) \
	VMOVDQU Y1, V_LM(SP)(CX*8) \
	VMOVMSKPD Y0, AX \
	SHLQ CX, AX \
	ORQ AX, R13 \
	VMOVMSKPD Y1, AX \
	SHLQ CX, AX \
	ORQ AX, V_LOADED(SP)

// func scanFirstAVX2(a *firstArgs)
//
// ScanGroup's first step for the group that a describes, 4 vertices a step (a 64-bit
// lane each): the directory pair (where the pair width is at most pairTabMax, from one
// 16-byte load placed in the lanes by a.ptab's shuffle and shifts; else a gather from
// the packed pairs), the degree, the list's
// start and end, the first value of the list (a gather of 8 bytes at the first block,
// LEB128 gathered without a branch) and its bit in the frontier (a gather). Each lane
// makes ScanGroup's checks; a lane that fails one, or whose list's first 8 bytes do not
// load, is left to the scalar loop (neither found, nor empty, nor a miss). Outputs:
// found (its first neighbour in the frontier, or by pass four its second or third;
// that neighbour in parent[j]), empty (degree 0), miss (read whole, no neighbour in the
// frontier), more (the first neighbour not in the frontier, more to scan: the lane's
// start, end, degree, first value's end and first 8 bytes in lanes, its first neighbour
// in parent), degs (the found vertices' degrees summed), two and three (pass four's),
// for the lanes of todo.
//
// It runs in three passes over the group's steps: the first decodes each lane's pair
// and gathers its list's first 8 bytes into lanes (a lane whose first value would start
// at or past its list's end is not loaded: lanes.pk holds q in 32 bits meanwhile), the
// second reads them back, decodes and checks the first values (a list of one, read
// whole, must end at its value: else it is left to the scalar loop) into parent, the
// third gathers their frontier words and tests their bits. In one pass each step's
// hundred operations waited on its own gather of list heads and filled the scheduler,
// so that the next step's gathers issued late: two passes took the group's first
// neighbours about a third faster, for about 25 more instructions a step. The third
// pass does the same for the frontier gathers: the second pass's long decodes do not
// share the scheduler with operations that wait on a gather (soc-Slashdot0902's first
// bottom-up level 2-4% faster on the device's Xeon, for 1 more instruction a step).
// The constants are 32-byte operands (vConst), not broadcast in the loop; pass one
// leaves each step's mask of loaded lanes in the frame for pass two, which leaves its
// checked lanes there for pass three, and the 32-bit fields leave their quadword lanes
// by one VPERMD. A fourth pass, over the steps with such lanes only, reads on the
// lists of two or three neighbours that missed at their first value, from the word
// pass one gathered (ScanGroup's loop took them one call each: 89% of the lists it took
// on soc-Slashdot0902's first bottom-up level; miss then holds the lists it read whole,
// two those it read past their first value and three those read to their third). The
// frame is past NOSPLIT's limit: the function checks its stack.
TEXT ·scanFirstAVX2(SB), $1064-8
	MOVQ a+0(FP), BX
	// the group's values broadcast here: a vector load of values stored one by one
	// just before would wait for those stores
	VPBROADCASTQ A_WW(BX), Y0
	VMOVDQU Y0, V_WW(SP)
	VPBROADCASTQ A_MO(BX), Y0
	VMOVDQU Y0, V_MO(SP)
	VPBROADCASTQ A_MD(BX), Y0
	VMOVDQU Y0, V_MD(SP)
	VPBROADCASTQ A_DMIN(BX), Y0
	VMOVDQU Y0, V_DMIN(SP)
	VPBROADCASTQ A_SPAN(BX), Y0
	VMOVDQU Y0, V_SPAN(SP)
	VPBROADCASTQ A_H0(BX), Y0
	VMOVDQU Y0, V_H0(SP)
	VPBROADCASTQ A_H4(BX), Y0
	VMOVDQU Y0, V_H4(SP)
	MOVQ A_CNT(BX), AX
	DECQ AX
	VMOVQ AX, X0
	VPBROADCASTQ X0, Y0
	VMOVDQU Y0, V_CNT(SP)        // cnt-1
	VPBROADCASTQ A_V0(BX), Y0
	VMOVDQU Y0, V_V0(SP)
	VPBROADCASTQ A_NVM1(BX), Y0
	VMOVDQU Y0, V_NVM1(SP)
	VPBROADCASTQ A_ALEN(BX), Y0
	VMOVDQU Y0, V_ALEN(SP)
	VPBROADCASTQ A_ACAP8(BX), Y0
	VMOVDQU Y0, V_ACAP8(SP)
	VPBROADCASTQ A_TODO(BX), Y0
	VMOVDQU Y0, V_TODO(SP)
	VPBROADCASTQ A_WO(BX), Y0
	VMOVDQU Y0, V_WO(SP)         // shift count: wo
	VPBROADCASTQ A_WWS(BX), Y0
	VMOVDQU Y0, V_WWS(SP)        // shift count: wo + wd
	MOVQ A_PAIRS(BX), R8
	MOVQ A_ADJ(BX), R9
	MOVQ A_FRONT(BX), R10
	MOVQ A_TODO(BX), R11
	MOVQ A_PARENT(BX), DI
	MOVQ A_LANES(BX), SI
	VPBROADCASTQ fConst<>+8(SB), Y13 // 2^32-1
	VMOVDQU fNarrow<>(SB), Y14   // the quadword lanes' low halves to 16 bytes
	MOVQ A_STEPS(BX), AX
	MOVQ AX, V_STEPS(SP)
	MOVQ A_PTAB(BX), BX          // the pairs' shuffles, or nil (a is read again at the end)
	VPXOR Y12, Y12, Y12          // zero
	VPBROADCASTQ fConst<>+0(SB), Y9 // ones
	XORQ R12, R12                // found
	XORQ R13, R13                // empty
	XORQ R14, R14                // miss
	MOVQ $0, V_LOADED(SP)        // the lanes whose first 8 bytes load

	// pass one: each lane's pair, degree, start and end, and its list's first 8 bytes,
	// for the steps of a.steps (bit 4i of R14 for step i)
	MOVQ V_STEPS(SP), R14
	TESTQ R14, R14
	JZ doneA
	MOVQ $0x1111111111111111, AX
	CMPQ R14, AX
	JNE chunk
	TESTQ BX, BX
	JZ chunk
	// a dense group (every step, in order) whose pairs load by a.ptab takes each
	// step's starts from the ends of the step before: Y10's lane 3 holds the end before
	// the step's first lane (for step 0 the first vertex's start, decoded here), Y11
	// h0*64 + (j+1)*span for the step's lanes (4*span more a step)
	MOVQ a+0(FP), DX
	MOVQ (R8), AX                // the first pair from bit 0
	ANDQ A_MO(DX), AX            // z
	MOVQ AX, CX
	SHRQ $1, CX
	ANDQ $1, AX
	NEGQ AX
	XORQ CX, AX                  // unzigzag(z)
	ADDQ A_H0(DX), AX
	MOVL AX, CX                  // start, in 32 bits
	VMOVQ CX, X10
	VPBROADCASTQ X10, Y10
	VMOVDQU stepLanes<>+8(SB), Y11 // 1, 2, 3, 4
	VPMULUDQ V_SPAN(SP), Y11, Y11
	VMOVDQU V_H0(SP), Y0
	VPSLLQ $6, Y0, Y0
	VPADDQ Y0, Y11, Y11
	VMOVDQU V_SPAN(SP), Y0
	VPSLLQ $2, Y0, Y0
	VMOVDQU Y0, V_SPAN4(SP)
	XORQ CX, CX                  // j0
	VMOVDQU stepLanes<>(SB), Y15 // j
chunkD:
	// the pairs and the degrees as below
	MOVQ V_WW(SP), AX
	IMULQ CX, AX
	MOVQ AX, DX
	SHRQ $3, DX
	ANDQ $4, AX
	SHLQ $4, AX
	VBROADCASTI128 (R8)(DX*1), Y3
	VPSHUFB (BX)(AX*1), Y3, Y3
	VPSRLVQ 32(BX)(AX*1), Y3, Y3 // x
	VPSRLVQ V_WO(SP), Y3, Y4
	VPAND V_MD(SP), Y4, Y4
	VPADDQ V_DMIN(SP), Y4, Y4
	VPAND Y13, Y4, Y4            // d
	// end as below, the line from Y11
	VPSRLVQ V_WWS(SP), Y3, Y6
	VPAND V_MO(SP), Y6, Y6
	VPSRLQ $1, Y6, Y7
	VPAND Y9, Y6, Y6
	VPSUBQ Y6, Y12, Y6
	VPXOR Y7, Y6, Y6
	VPSRLQ $6, Y11, Y8           // h0 + (j+1)*span>>6
	VPADDQ Y8, Y6, Y6
	VPAND Y13, Y6, Y6
	VPCMPEQQ V_CNT(SP), Y15, Y7  // j == cnt-1
	VPBLENDVB Y7, V_H4(SP), Y6, Y6 // end
	VPADDQ V_SPAN4(SP), Y11, Y11
	// start: the end of the lane before (for lane 0, lane 3 of the step before)
	VPERM2I128 $0x21, Y6, Y10, Y5
	VPALIGNR $8, Y5, Y6, Y5      // start
	VMOVDQU Y6, Y10
	HEADS
	ADDQ $4, CX
	VPADDQ vConst<>+VC_4(SB), Y15, Y15
	CMPQ CX, $64
	JLT chunkD
	JMP doneA

chunk:
	STEP(R14)

	// the pair: x = 8 bytes at bit j*ww of the pairs, shifted to it
	TESTQ BX, BX
	JZ gatherPairs
	// from 16 bytes at the first lane's byte (below dirArea-16 for ww <= pairTabMax)
	MOVQ V_WW(SP), AX
	IMULQ CX, AX                 // the first lane's bit
	MOVQ AX, DX
	SHRQ $3, DX
	ANDQ $4, AX                  // 0 or 4: j0 is a multiple of 4
	SHLQ $4, AX                  // its pairTab
	VBROADCASTI128 (R8)(DX*1), Y3
	VPSHUFB (BX)(AX*1), Y3, Y3
	VPSRLVQ 32(BX)(AX*1), Y3, Y3 // x
	JMP havePairs
gatherPairs:
	VPMULUDQ V_WW(SP), Y15, Y0
	VPAND vConst<>+VC_7(SB), Y0, Y1 // bit offset in its byte
	VPSRLQ $3, Y0, Y0
	VPAND vConst<>+VC_511(SB), Y0, Y0 // byte, below dirArea-8
	VPCMPEQQ Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	VPGATHERQQ Y2, (R8)(Y0*1), Y3
	VPSRLVQ Y1, Y3, Y3           // x
havePairs:

	// the degree d = dmin + field, in 32 bits
	VPSRLVQ V_WO(SP), Y3, Y4
	VPAND V_MD(SP), Y4, Y4
	VPADDQ V_DMIN(SP), Y4, Y4
	VPAND Y13, Y4, Y4            // d

	// start = h0 + j*span>>6 + unzigzag(z), in 32 bits
	VPAND V_MO(SP), Y3, Y5
	VPSRLQ $1, Y5, Y6
	VPAND Y9, Y5, Y5
	VPSUBQ Y5, Y12, Y5
	VPXOR Y6, Y5, Y5
	VPMULUDQ V_SPAN(SP), Y15, Y0 // j*span
	VPSRLQ $6, Y0, Y6
	VPADDQ Y6, Y5, Y5
	VPADDQ V_H0(SP), Y5, Y5
	VPAND Y13, Y5, Y5            // start

	// end: the next pair's start, or h4 for the group's last vertex
	VPSRLVQ V_WWS(SP), Y3, Y6
	VPAND V_MO(SP), Y6, Y6
	VPSRLQ $1, Y6, Y7
	VPAND Y9, Y6, Y6
	VPSUBQ Y6, Y12, Y6
	VPXOR Y7, Y6, Y6
	VPADDQ V_SPAN(SP), Y0, Y8    // (j+1)*span
	VPSRLQ $6, Y8, Y8
	VPADDQ Y8, Y6, Y6
	VPADDQ V_H0(SP), Y6, Y6
	VPAND Y13, Y6, Y6
	VPCMPEQQ V_CNT(SP), Y15, Y7  // j == cnt-1
	VPBLENDVB Y7, V_H4(SP), Y6, Y6 // end
	HEADS

	TESTQ R14, R14
	JNZ chunk
doneA:
	ANDQ R11, R13
	VPXOR Y11, Y11, Y11          // the found vertices' degrees
	// pass two: the first values of the loaded lanes, decoded and checked, for the
	// steps of a.steps, in a sparse group those with a loaded lane (bit 4i of R8)
	MOVQ V_LOADED(SP), R11
	MOVQ V_STEPS(SP), R8
	MOVQ $0x1111111111111111, AX
	CMPQ R8, AX
	JEQ allB                     // every step, as pass one took them
	NIBBLES(R11, R8)
allB:
	MOVQ R8, R14                 // pass three's steps
	XORQ DX, DX                  // degree 4 or more
	XORQ R9, R9                  // checked
	XORQ BX, BX                  // degree 1
	XORQ R12, R12                // found
	VPBROADCASTQ fConst<>+16(SB), Y13 // VPMADDUBSW's byte multipliers (Y13 is free in pass two)
	TESTQ R8, R8
	JZ doneC

chunkB:
	STEP(R8)
	VMOVDQU V_LM(SP)(CX*8), Y1   // the loaded lanes (pass one wrote them where any)
	VPMOVZXDQ 512(SI)(CX*4), Y4  // d
	VPMOVZXDQ 256(SI)(CX*4), Y6  // end
	VPMOVZXDQ 768(SI)(CX*4), Y8  // q
	VMOVDQU 1024(SI)(CX*8), Y3   // w

	// the first value: its bytes up to the first without the high bit
	VPANDN vConst<>+VC_HIGH(SB), Y3, Y2            // high bits clear
	VPSUBQ Y2, Y12, Y7
	VPAND Y7, Y2, Y2             // the lowest: bit 8k-1 (none: 0)
	VPSLLQ $1, Y2, Y10
	VPSUBQ Y9, Y10, Y10          // the value's bytes: all ones (none, or k = 8: all 8)
	VPAND Y10, Y3, Y3
	// k: the bytes of that mask, a one from each summed by VPSADBW
	VPAND vConst<>+VC_BYTE1(SB), Y10, Y7
	VPSADBW Y12, Y7, Y7          // k
	VPCMPGTQ vConst<>+VC_5(SB), Y7, Y10
	VPANDN Y1, Y10, Y1           // k <= 5
	VPADDQ Y8, Y7, Y7            // q + k
	VPERMD Y7, Y14, Y10
	VMOVDQU X10, 768(SI)(CX*4)   // lanes.pk
	VPCMPEQQ Y6, Y7, Y0
	VPCMPEQQ Y9, Y4, Y5          // d == 1: the list read whole
	VPANDN Y5, Y0, Y0
	VPANDN Y1, Y0, Y1            // a list of one ends at its value
	VPCMPGTQ Y6, Y7, Y7
	VPANDN Y1, Y7, Y1            // q + k <= end

	// u: the 7-bit groups, joined in pairs to words (VPMADDUBSW), in pairs of those to
	// 28 bits a doubleword (VPMADDWD), and the high doubleword's 28 bits moved down
	// next to the low's (at most 35 bits: k <= 5)
	VPAND vConst<>+VC_7F(SB), Y3, Y2
	VPMADDUBSW Y2, Y13, Y2
	VPMADDWD vConst<>+VC_MADD2(SB), Y2, Y2
	VPSRLQ $32, Y2, Y6
	VPMULUDQ vConst<>+VC_HI28(SB), Y6, Y6
	VPSUBQ Y6, Y2, Y2            // u
	// the mode bit below it from PackedMin (4) on (DX: the lanes of degree 4 or more)
	VPCMPGTQ vConst<>+VC_3(SB), Y4, Y10
	VMOVMSKPD Y10, AX
	SHLQ CX, AX
	ORQ AX, DX
	VPAND Y9, Y10, Y10
	VPSRLVQ Y10, Y2, Y2
	// f = v0 + j + unzigzag(u)
	VPSRLQ $1, Y2, Y6
	VPAND Y9, Y2, Y2
	VPSUBQ Y2, Y12, Y2
	VPXOR Y6, Y2, Y2
	VPADDQ V_V0(SP), Y2, Y2
	VPADDQ Y15, Y2, Y2           // f
	// f < nv, unsigned
	VPXOR vConst<>+VC_SIGN(SB), Y2, Y6
	VPCMPGTQ V_NVM1(SP), Y6, Y6
	VPANDN Y1, Y6, Y1            // checked: the first neighbour is f

	// the checked lanes (for pass three), the parents (every lane: pass three reads
	// them back, ScanGroup the found ones, and scanRest the first neighbour of the
	// others), the masks of the checked lanes and of those of degree 1
	VMOVDQU Y1, V_LM(SP)(CX*8)
	VPERMD Y2, Y14, Y6
	VMOVDQU X6, (DI)(CX*4)
	VMOVMSKPD Y1, AX
	SHLQ CX, AX
	ORQ AX, R9
	VMOVMSKPD Y5, AX
	SHLQ CX, AX
	ORQ AX, BX

	TESTQ R8, R8
	JNZ chunkB

	// pass three: the frontier's word at each checked lane's f (the other lanes load
	// nothing and keep the destination's zero), f's bit moved to the sign bit: found;
	// the found vertices' degrees summed
chunkC:
	BSFQ R14, CX
	LEAQ -1(R14), AX
	ANDQ AX, R14
	VPMOVZXDQ (DI)(CX*4), Y6     // f
	VMOVDQU V_LM(SP)(CX*8), Y7   // checked
	VPSRLQ $6, Y6, Y2
	VPXOR Y3, Y3, Y3
	VPGATHERQQ Y7, (R10)(Y2*8), Y3
	VPANDN vConst<>+VC_63(SB), Y6, Y6 // 63 - f%64
	VPSLLVQ Y6, Y3, Y3
	VMOVMSKPD Y3, AX
	SHLQ CX, AX
	ORQ AX, R12                  // found
	VPCMPGTQ Y3, Y12, Y3
	VPMOVZXDQ 512(SI)(CX*4), Y4  // d
	VPAND Y3, Y4, Y4
	VPADDQ Y4, Y11, Y11
	TESTQ R14, R14
	JNZ chunkC

	// pass four: the checked lanes of degree 2 or 3 not found (R8): their second value,
	// and for degree 3 the third, from the word pass one gathered (each value's end
	// within the word, at most 5 bytes, within the list; the neighbours below nv) and
	// their bits in the frontier. A lane found at the second, or at the third with its
	// list read whole, or of degree 2 read whole, is done (R8; DX those of degree 3
	// read to the third): found (R12, its parent the value found) or a miss read whole
	// (BX). The others stay more: ScanGroup's loop reads them again, and refuses those
	// that ScanList refuses
	MOVQ R12, AX
	ORQ BX, AX
	ORQ DX, AX
	NOTQ AX
	ANDQ R9, AX                  // checked, not found, of degree 2 or 3
	JZ doneC
	MOVQ AX, R8
	VMOVQ AX, X0
	VPBROADCASTQ X0, Y0
	VMOVDQU Y0, V_TODO(SP)       // the candidates, for their lanes' masks
	NIBBLES(R8, R14)
	XORQ R8, R8                  // done past the first value
	XORQ DX, DX                  // done at the third
chunkE:
	STEP(R14)
	VPMOVZXDQ 768(SI)(CX*4), Y6  // pk: the first value's end
	VPMOVZXDQ 0(SI)(CX*4), Y5    // start: the first value's start below degree 64
	VPSUBQ Y5, Y6, Y5
	VPSLLQ $3, Y5, Y5            // the second value's first bit in w
	VMOVDQU 1024(SI)(CX*8), Y3   // w
	VPANDN vConst<>+VC_HIGH(SB), Y3, Y8 // the bytes of w that end a value
	LEB                          // u2, k2
	VPMOVZXDQ (DI)(CX*4), Y0     // f
	VPADDQ Y0, Y4, Y2            // cur2
	VPCMPGTQ vConst<>+VC_5(SB), Y7, Y10 // refused: k2 > 5
	VPSLLQ $3, Y7, Y0
	VPADDQ Y0, Y5, Y5            // the third value's first bit
	VPADDQ Y6, Y7, Y6            // p2: the second value's end
	VPMOVZXDQ 256(SI)(CX*4), Y4  // end
	VPCMPGTQ Y4, Y6, Y0
	VPOR Y0, Y10, Y10            // refused: past the list's end
	VPCMPEQQ Y4, Y6, Y7
	VMOVDQU Y7, V_WO(SP)         // the list ends at the second value
	VPXOR vConst<>+VC_SIGN(SB), Y2, Y0
	VPCMPGTQ V_NVM1(SP), Y0, Y0
	VPOR Y0, Y10, Y10            // refused: cur2 >= nv
	VMOVDQU V_TODO(SP), Y1
	VPSRLVQ Y15, Y1, Y1
	VPAND Y9, Y1, Y1
	VPCMPEQQ Y9, Y1, Y1          // the step's candidates
	VPANDN Y1, Y10, Y1           // e2: those not refused
	VPSRLQ $6, Y2, Y0
	VPXOR Y10, Y10, Y10
	VMOVDQU Y1, Y7
	VPGATHERQQ Y7, (R10)(Y0*8), Y10
	VPANDN vConst<>+VC_63(SB), Y2, Y0 // 63 - cur2%64
	VPSLLVQ Y0, Y10, Y10
	VPCMPGTQ Y10, Y12, Y10       // found at cur2
	VMOVDQU Y10, V_WWS(SP)
	// the third value, for degree 3: its list must end at it
	LEB                          // u3, k3
	VPCMPGTQ vConst<>+VC_5(SB), Y7, Y10 // k3 > 5
	VPADDQ Y6, Y7, Y7            // p3
	VPMOVZXDQ 256(SI)(CX*4), Y0  // end
	VPCMPEQQ Y0, Y7, Y7          // the list ends at the third value
	VPANDN Y7, Y10, Y7           // ... of at most 5 bytes
	VPADDQ Y2, Y4, Y4            // cur3
	VPXOR vConst<>+VC_SIGN(SB), Y4, Y0
	VPCMPGTQ V_NVM1(SP), Y0, Y0
	VPANDN Y7, Y0, Y7            // ... below nv
	VPMOVZXDQ 512(SI)(CX*4), Y6  // d
	VPCMPEQQ vConst<>+VC_3(SB), Y6, Y0 // d == 3
	VPAND Y0, Y7, Y7
	VPAND Y1, Y7, Y7
	VMOVDQU V_WWS(SP), Y10       // found at cur2
	VPANDN Y7, Y10, Y7           // e3: of e2, degree 3, not found at cur2, read whole at cur3
	VMOVDQU V_WO(SP), Y3
	VPANDN Y3, Y0, Y3
	VPAND Y1, Y3, Y3             // of e2, degree 2, read whole at cur2
	VPSRLQ $6, Y4, Y5
	VPXOR Y8, Y8, Y8
	VMOVDQU Y7, Y1
	VPGATHERQQ Y1, (R10)(Y5*8), Y8
	VPANDN vConst<>+VC_63(SB), Y4, Y5 // 63 - cur3%64
	VPSLLVQ Y5, Y8, Y8
	VPCMPGTQ Y8, Y12, Y8         // found at cur3 (of e3)
	VPBLENDVB Y8, Y4, Y2, Y2     // the value found
	VPOR Y8, Y10, Y10            // found
	VMOVMSKPD Y10, AX
	SHLQ CX, AX
	ORQ AX, R12
	VPAND Y10, Y6, Y0
	VPADDQ Y0, Y11, Y11          // their degrees
	VPERMD Y2, Y14, Y0
	VPERMD Y10, Y14, Y5
	VPMASKMOVD X0, X5, (DI)(CX*4) // their parents
	VMOVMSKPD Y7, AX
	SHLQ CX, AX
	ORQ AX, DX                   // e3: read to the third value
	VPOR Y3, Y7, Y7
	VPOR Y10, Y7, Y7             // done
	VMOVMSKPD Y7, AX
	SHLQ CX, AX
	ORQ AX, R8
	VPANDN Y7, Y10, Y7           // done, not found: a miss read whole
	VMOVMSKPD Y7, AX
	SHLQ CX, AX
	ORQ AX, BX
	TESTQ R14, R14
	JNZ chunkE
	MOVQ a+0(FP), AX
	MOVQ DX, A_THREE(AX)
doneC:
	// miss: checked, not found, read whole (degree 1, or by pass four: BX); more:
	// checked, not found, more to read
	MOVQ R12, AX
	NOTQ AX
	ANDQ AX, R9
	MOVQ BX, DX
	NOTQ DX
	ANDQ R9, DX
	ANDQ BX, R9
	MOVQ R9, R14
	ANDQ R11, R12
	ANDQ R11, R14
	ANDQ R11, DX
	MOVQ a+0(FP), BX
	MOVQ DX, A_MORE(BX)
	MOVQ R12, A_FOUND(BX)
	MOVQ R13, A_EMPTY(BX)
	MOVQ R14, A_MISS(BX)
	MOVQ R8, A_TWO(BX)
	VEXTRACTI128 $1, Y11, X0
	VPADDQ X0, X11, X0
	VPSHUFD $0x4E, X0, X1
	VPADDQ X1, X0, X0
	VMOVQ X0, A_DEGS(BX)
	VZEROUPPER
	RET
