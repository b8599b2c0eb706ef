//go:build amd64 && !purego

#include "textflag.h"

// The offsets of headArgs's fields (store/headfirst.go).
#define A_WW 0
#define A_MIXED 8
#define A_MD 16
#define A_DMIN 24
#define A_SPAN 32
#define A_H0 40
#define A_H4 48
#define A_CNT 56
#define A_V0 64
#define A_NV 72
#define A_ALIM 80
#define A_ACAP8 88
#define A_J0 96
#define A_J1 104
#define A_PAIRS 112
#define A_ADJ 120
#define A_WO 128
#define A_DONE 136
#define A_EMPTY 144
#define A_ONCE 152
#define A_X0 160
#define A_X1 168

// X1_OFF is where x1 lies from x0 (HeadReader's arrays are one [2][DirGroup]uint32).
#define X1_OFF 256

// The codec's constants (store/codec.go, store/decode.go): BlockSize, excHeader,
// compactMaxBytes, PackedMin.
#define BLOCK_SIZE 64
#define PACKED_MIN 4
#define EXC_HEADER 14
#define COMPACT_MAX 561

// The lanes, headFirstBMI's frame: each vertex's degree, and its list's start
// (start[j+1] is the end of j's list).
#define L_DEG 0
#define L_START 256

// The short lists' vector pass (vloop): whether it ran (V_MODE, nonzero: loop then
// reads one list of V_TODO at a time, A_J1 set past it), the lists it left, and j1.
#define V_MODE 520
#define V_TODO 528
#define V_J1 536

// GATHER7 packs the 7-bit groups of x's low five bytes into x (its bytes past the
// varint's end already cleared): one PEXT (BMI2); t is scratch.
#define GATHER7(x, t) \
	MOVQ $0x7f7f7f7f7f, t \
	PEXTQ t, x, x

// PAIRSTART turns a directory pair's zigzag start field z (its bits above the field
// already cleared) into the list's start: the signed offset from the list's line,
// R13>>BP (64 h0 + j span, over 64; BP holds 6). The shift's carry is the zigzag's
// sign, which SBB makes a mask of. t is scratch; AX is clobbered.
#define PAIRSTART(z, t) \
	SHRL $1, z \
	SBBL t, t \
	XORL t, z \
	SHRXQ BP, R13, AX \
	ADDL AX, z

// FIRSTNBR turns x, just shifted so that the carry is its zigzag's sign, into the
// neighbour f = v + unzigzag(x) (v in R10) and leaves to bad when f >= nv or is
// negative. t is scratch.
#define FIRSTNBR(x, t, bad) \
	SBBQ t, t \
	XORQ t, x \
	ADDQ R10, x \
	CMPQ x, A_NV(BX) \
	JAE bad

// STREAMAT(x) loads into x the 8 bytes of a compact block's stream (from SI+1 in ADJ,
// R9) at the byte of its bit R10, after checking that the stream's bits up to DX
// (rounded up to a byte: DX holds their count plus 7) end inside the list (BP): else
// the list is left (excnext). DX is clobbered.
#define STREAMAT(x) \
	SHRL $3, DX \
	LEAQ 1(SI)(DX*1), DX \
	CMPQ DX, BP \
	JA excnext \
	MOVL R10, DX \
	SHRL $3, DX \
	ADDQ SI, DX \
	MOVQ 1(R9)(DX*1), x

// pext2 gathers a 2-byte varint's value bits (PEXT's mask).
DATA pext2<>+0(SB)/4, $0x7f7f
GLOBL pext2<>(SB), RODATA|NOPTR, $4

// pext5 gathers the value bits of a varint of up to 5 bytes (its bytes past its end
// cleared); hibits are the bytes' continuation bits.
DATA pext5<>+0(SB)/8, $0x7f7f7f7f7f
GLOBL pext5<>(SB), RODATA|NOPTR, $8
DATA hibits<>+0(SB)/8, $0x8080808080808080
GLOBL hibits<>(SB), RODATA|NOPTR, $8

// hv holds vloop's lanes' constants, 8 dwords each: at 0 0x7f (a byte's value bits),
// 32 0x80 (its continuation bit), 64 0x3f80 (a second byte's value bits, shifted
// right by one), 96 0x8000 (the second byte's continuation bit), 128 1, 160 2, 192 3,
// 224 16, 256 -2, 288 4, 320 8, 352 the lanes' indices 0 to 7, 384 7; for vfloop, 416
// 0x80808080 (a dword's continuation bits), 448 0x1fc000 and 480 0xfe00000 (a third
// and a fourth byte's value bits, shifted right by 2 and 3), 512 32, 544 126 (a
// float's exponent bias less one), 576 0xff.
#define HV_DW(off, x) \
	DATA hv<>+(off)(SB)/8, $(x<<32|x) \
	DATA hv<>+(off+8)(SB)/8, $(x<<32|x) \
	DATA hv<>+(off+16)(SB)/8, $(x<<32|x) \
	DATA hv<>+(off+24)(SB)/8, $(x<<32|x)
HV_DW(0, 0x7f)
HV_DW(32, 0x80)
HV_DW(64, 0x3f80)
HV_DW(96, 0x8000)
HV_DW(128, 1)
HV_DW(160, 2)
HV_DW(192, 3)
HV_DW(224, 16)
HV_DW(256, 0xfffffffe)
HV_DW(288, 4)
HV_DW(320, 8)
DATA hv<>+352(SB)/8, $0x0000000100000000
DATA hv<>+360(SB)/8, $0x0000000300000002
DATA hv<>+368(SB)/8, $0x0000000500000004
DATA hv<>+376(SB)/8, $0x0000000700000006
HV_DW(384, 7)
HV_DW(416, 0x80808080)
HV_DW(448, 0x1fc000)
HV_DW(480, 0xfe00000)
HV_DW(512, 32)
HV_DW(544, 126)
HV_DW(576, 0xff)
GLOBL hv<>(SB), RODATA|NOPTR, $608

// EMPTYLIST finishes list j (CX) of no neighbours: x0[j] and x1[j] the vertex (R10),
// done and empty set.
#define EMPTYLIST \
	MOVL R10, (R8)(CX*4) \
	MOVL R10, X1_OFF(R8)(CX*4) \
	BTSQ CX, R12 \
	BTSQ CX, R13

// VLANES sets up vloop's and vfloop's lanes: V_J1 from a, Y0 zero, Y13 nv-1, Y12 alim
// (below 2^31), Y11 the lanes' vertices v, v+1, ..., v+7 (v in R10).
#define VLANES \
	MOVQ A_J1(BX), AX \
	MOVQ AX, V_J1(SP) \
	VPXOR Y0, Y0, Y0 \
	MOVQ A_NV(BX), AX \
	DECQ AX \
	VMOVQ AX, X13 \
	VPBROADCASTD X13, Y13 \
	VPBROADCASTD A_ALIM(BX), Y12 \
	VMOVQ R10, X11 \
	VPBROADCASTD X11, Y11 \
	VPADDD hv<>+352(SB), Y11, Y11

// func headFirstBMI(a *headArgs)
//
// HeadGroup's loops for the vertices j0 <= j < j1 of the group that a describes, their
// values in registers: first the directory pairs (each list's start, the next one's
// being its end, and degree into the lanes of its frame, as HeadGroup's directory loop
// decodes them; two pairs a load where both fit the word), then each list's first
// value from the 8 bytes at its first block (a short list's first value and the gap
// after it by one path without branches on their lengths, TZCNT's, their bits gathered
// by PEXT; a longer list's first value, and a short list that path leaves, by
// branches: a value of 1 or 2 bytes told apart by them, a longer one by its length
// from TZCNT, its bytes by BZHI and their bits gathered by PEXT; the mode bit dropped
// from PackedMin on) with HeadGroup's checks: its bytes
// inside the list, at most 5, the value below nv. It finishes (bit j of done) the
// lists without neighbours (also in empty: x0[j] and x1[j] the vertex), of
// one neighbour that ends at its value (x1[j] the vertex), the first mode's lists
// (once's input or more neighbours: PackedMin in first mode, none outside it; x1[j] the
// vertex, also in once) and the others of 2 or more whose second value (a gap after
// the first) ends inside the 8 bytes and the list (at its end for a list of two),
// below nv with the sum: a varint's, or outside first mode a compact block's first gap
// (headWord's reading and checks).
// Other lists are left unfinished, x0[j] and x1[j] undefined.
// Where headVec is set (AVX2), a group's pairs of at most 25 bits go through vpairs,
// 8 a step, and a road's group's short lists through vloop, 8 a step, or another
// first mode's group's lists through vfloop, 8 a step (headVecFirst), before the loop
// takes the lists it leaves; the same lists are finished with the same values.
TEXT ·headFirstBMI(SB), NOSPLIT, $544-8
	MOVQ a+0(FP), BX
	// the short lists' vector pass (vloop) where it may run (headVec), outside the
	// branch-free loop's groups, on a group of short lists (its smallest degree
	// below PackedMin, and at most headVecBytes/4 bytes a list on average) with 8
	// lists to read or more; its lanes are dwords, which hold every offset below
	// alim and every neighbour below nv where alim < 2^31 (VPGATHERDD's indices are
	// signed) and nv <= 2^31; else, in first mode, the first mode's vector pass
	// (vfloop, V_MODE 2) under the same bounds
	MOVQ $0, V_MODE(SP)
	CMPB ·headVec(SB), $0
	JEQ novec
	MOVQ A_J1(BX), AX
	SUBQ A_J0(BX), AX
	CMPQ AX, $8
	JB novec
	MOVL $0x80000000, DX
	CMPQ A_NV(BX), DX
	JA novec
	CMPQ A_ALIM(BX), DX
	JAE novec                    // 2^31 or more, or negative
	CMPQ A_MIXED(BX), $0
	JNE vfgate
	CMPQ A_DMIN(BX), $PACKED_MIN
	JAE vfgate
	MOVQ A_CNT(BX), AX
	IMULQ ·headVecBytes(SB), AX
	SHRQ $2, AX
	CMPQ A_SPAN(BX), AX
	JA vfgate
	MOVQ $1, V_MODE(SP)
	JMP novec
vfgate:
	CMPQ A_ONCE(BX), $PACKED_MIN
	JNE novec
	CMPB ·headVecFirst(SB), $0
	JEQ novec
	MOVQ $2, V_MODE(SP)
novec:
	MOVQ A_PAIRS(BX), R8
	MOVQ A_ADJ(BX), R9
	XORQ R12, R12                // done
	XORQ R13, R13                // empty
	XORQ R14, R14                // once
	// the pairs first, each list's start (and the next one's, or h4 after the
	// group's last vertex) and degree into lanes: the lists' loads in the loop after
	// it then depend on no decode, and many are under way at once
	MOVQ A_J1(BX), R10
	INCQ R10
	CMPQ R10, A_CNT(BX)
	CMOVQHI A_CNT(BX), R10       // the pairs to decode: to j1's, at most cnt
	LEAQ 0(SP), R11              // the lanes
	MOVQ A_J0(BX), CX
	MOVQ CX, R12
	IMULQ A_WW(BX), R12          // p: pair j's first bit
	MOVQ CX, R13
	IMULQ A_SPAN(BX), R13
	MOVQ A_H0(BX), AX
	SHLQ $6, AX
	ADDQ AX, R13                 // 64 h0 + j span
	MOVQ A_WO(BX), R14
	MOVQ A_WW(BX), R15
	MOVL $6, BP
	CMPB ·headVec(SB), $0
	JEQ spairs
	CMPQ R15, $25
	JA spairs
	CMPQ A_SPAN(BX), $(1<<26)
	JAE spairs
	LEAQ 8(CX), AX
	CMPQ AX, R10
	JBE vpairs                   // 8 pairs or more, each inside a dword from its byte
spairs:
	CMPQ R15, $28
	JA pairs
	MOVQ A_MD(BX), R9
	LEAQ 1(CX), AX
	CMPQ AX, R10
	JAE pairs1
	PCALIGN $32
pairs2:
	// two pairs from each word where they fit one (7 bits of offset and two pairs
	// of at most 28): most groups of roads and meshes
	MOVQ R12, DX
	SHRQ $3, DX
	MOVQ (R8)(DX*1), DI
	MOVL R12, AX
	ANDL $7, AX
	SHRXQ AX, DI, DI             // x: pair j, then pair j+1
	SHRXQ R14, DI, SI
	ANDQ R9, SI
	ADDL A_DMIN(BX), SI
	MOVL SI, L_DEG(R11)(CX*4)    // j's degree
	BZHIQ R14, DI, SI            // the start field: wo bits
	PAIRSTART(SI, DX)
	MOVL SI, L_START(R11)(CX*4)  // j's start
	ADDQ A_SPAN(BX), R13
	SHRXQ R15, DI, DI
	SHRXQ R14, DI, SI
	ANDQ R9, SI
	ADDL A_DMIN(BX), SI
	MOVL SI, (L_DEG+4)(R11)(CX*4) // j+1's degree
	BZHIQ R14, DI, DI
	PAIRSTART(DI, DX)
	MOVL DI, (L_START+4)(R11)(CX*4) // j+1's start
	ADDQ A_SPAN(BX), R13
	LEAQ (R12)(R15*2), R12
	ADDQ $2, CX
	LEAQ 1(CX), AX
	CMPQ AX, R10
	JB pairs2                    // both pairs to decode
pairs1:
	CMPQ CX, R10
	JAE paired
pairs:
	MOVQ R12, DX
	SHRQ $3, DX
	MOVQ (R8)(DX*1), DI
	MOVL R12, AX
	ANDL $7, AX
	SHRXQ AX, DI, DI             // x
	SHRXQ R14, DI, SI
	ANDQ A_MD(BX), SI
	ADDL A_DMIN(BX), SI          // the degree
	BZHIQ R14, DI, DI            // z
	PAIRSTART(DI, DX)            // the start
	MOVL DI, L_START(R11)(CX*4)
	MOVL SI, L_DEG(R11)(CX*4)
	ADDQ A_WW(BX), R12
	ADDQ A_SPAN(BX), R13
	INCQ CX
	CMPQ CX, R10
	JB pairs
paired:
	MOVQ A_ADJ(BX), R9
	XORQ R12, R12                // done
	XORQ R13, R13                // empty
	XORQ R14, R14                // once
	CMPQ CX, A_CNT(BX)
	JB lists
	MOVL A_H4(BX), DI
	MOVL DI, L_START(R11)(CX*4)  // after the group's last vertex: h4
lists:
	MOVQ A_J0(BX), CX
	MOVQ A_X0(BX), R8
	MOVQ A_V0(BX), R10
	ADDQ CX, R10                 // v, kept with j
	CMPQ V_MODE(SP), $1
	JA vfirst
	CMPQ A_MIXED(BX), $0
	JNE mloop
	CMPQ V_MODE(SP), $0
	JNE vec
	JMP loop

	// a list of no neighbours, or of PackedMin or more (AX holds d-1), inside
	// ADJ, else it is left
notshort:
	TESTL R15, R15
	JZ isempty
	CMPL R11, BP
	JA next
	CMPQ BP, A_ALIM(BX)
	JGT next
	// q: the first block's start, start + FirstBlock(d); its 8 bytes inside the
	// mapping, else the list is left
	SHRL $6, AX
	LEAQ (R11)(AX*4), AX
	CMPQ AX, A_ACAP8(BX)
	JGT next
	MOVQ (R9)(AX*1), R11         // w
	CMPQ R15, A_ONCE(BX)
	JB first                     // outside first mode: first's branches, and the gap after
	// a first mode's list: its first value alone, whatever its length (TZCNT's),
	// its bytes by BZHI and their bits gathered by PEXT, with first's checks (at
	// most 5 bytes, inside the list, below nv); the lengths of social and web
	// graphs' first values come in no order
	ANDNQ hibits<>(SB), R11, DX  // bit 8k-1 set where a value ends at byte k
	TZCNTQ DX, DI                // 8k-1
	CMPQ DI, $40
	JAE next                     // longer than 5 bytes, or past the word
	INCQ DI                      // 8k
	MOVQ DI, SI
	SHRQ $3, SI
	ADDQ AX, SI                  // q + k
	CMPQ SI, BP
	JA next
	BZHIQ DI, R11, AX
	PEXTQ pext5<>(SB), AX, AX    // u
	SHRQ $2, AX                  // the mode bit, then the zigzag's sign
	FIRSTNBR(AX, DI, next)
	MOVL AX, (R8)(CX*4)
	JMP long

	PCALIGN $32
loop:
	MOVL (L_START+4)(SP)(CX*4), BP // end
	MOVL L_START(SP)(CX*4), R11  // start
	MOVL L_DEG(SP)(CX*4), R15    // d
	LEAL -1(R15), AX
	CMPL AX, $PACKED_MIN-1
	JAE notshort                 // d-1 from 3 on: no neighbours, or PackedMin or more
	CMPL R11, BP
	JA next                      // the list inside ADJ, else it is left
	CMPQ BP, A_ALIM(BX)
	JGT next                     // and its 8 bytes from its start inside the mapping
	SUBQ R11, BP                 // the list's bytes
	MOVQ (R9)(R11*1), R11        // w

	// a short list (fewer than PackedMin neighbours): its first value and the gap
	// after it by one path, whatever their lengths (1 to 5 bytes each, from TZCNT
	// of the word's clear continuation bits), x1 the vertex for a list of one; a
	// list of one or two, read whole, ends at its last value. On roads a sixth of
	// the lists have a value of two bytes or more, in no order: branches on the
	// lengths were mispredicted there. A list this path cannot read (a value past
	// 5 bytes or the word, a neighbour not below nv, the list's end where it must
	// not lie, or a list of one whose next bytes end no value within 5) goes to
	// first's branches (shortbad), w in R11 as it was. BP holds the list's bytes
	// here (its end less its start) and AX is scratch: shortbad sets q and the end
	// again.
	ANDNQ hibits<>(SB), R11, DX  // bit 8k-1 set where a value ends at byte k
	TZCNTQ DX, DI                // 8k1-1
	CMPQ DI, $40
	JAE shortbad                 // longer than 5 bytes, or past the word
	INCQ DI                      // 8k1
	SHRXQ DI, DX, DX
	TZCNTQ DX, DX                // 8k2-1, 64 where no value ends after the first
	CMPQ DX, $40
	JAE shortbad
	BZHIQ DI, R11, SI
	PEXTQ pext5<>(SB), SI, SI    // u
	SHRQ $1, SI                  // the carry: the zigzag's sign
	FIRSTNBR(SI, AX, shortbad)
	SHRXQ DI, R11, AX
	INCQ DX                      // 8k2
	BZHIQ DX, AX, AX
	PEXTQ pext5<>(SB), AX, AX    // g
	ADDQ SI, AX                  // x1 = f + g
	ADDQ DI, DX                  // the bits the two values take
	CMPL R15, $1
	CMOVQEQ R10, AX              // a list of one: x1 = v,
	CMOVQEQ DI, DX               // its value's bits alone
	CMPQ AX, A_NV(BX)
	JAE shortbad
	SHRQ $3, DX                  // the bytes the values take
	MOVQ BP, DI
	SUBQ DX, DI                  // the list's bytes after them
	JCS shortbad                 // past the list
	CMPL R15, $3
	SBBQ DX, DX
	TESTQ DX, DI
	JNZ shortbad                 // a list of one or two ends at its last value
	MOVL AX, X1_OFF(R8)(CX*4)
	MOVL SI, (R8)(CX*4)
	BTSQ CX, R12
	INCQ CX                      // next's, without the jump
	INCQ R10
	CMPQ CX, A_J1(BX)
	JB loop
	JMP done

shortbad:
	MOVL L_START(SP)(CX*4), AX   // q: the list's start
	ADDQ AX, BP                  // the list's end

first:
	// the first value of one byte or two (most first values of roads, meshes and
	// social graphs), told apart by branches as wordUvarint does: its value then
	// depends on no length (two bytes' bits gathered by PEXT of a fixed mask)
	TESTL $0x80, R11
	JNZ first2
	LEAQ 1(AX), SI               // q + k
	CMPQ SI, BP
	JA next
	MOVL $8, DX                  // 8k
	MOVL R11, AX
	ANDL $0x7f, AX               // u
	JMP gathered1
first2:
	TESTL $0x8000, R11
	JNZ firstn
	LEAQ 2(AX), SI               // q + k
	CMPQ SI, BP
	JA next
	MOVL $16, DX                 // 8k
	PEXTL pext2<>(SB), R11, AX   // u
	JMP gathered1
firstn:
	// the first value of 3 bytes or more: 8k-1 is the bit of its last byte's clear
	// high bit
	MOVQ $0x8080808080808080, DX
	ANDNQ DX, R11, DX
	TZCNTQ DX, DI
	CMPQ DI, $40
	JAE next                     // longer than 5 bytes, or past the word
	LEAQ 1(DI), DX               // 8k
	MOVQ DX, SI
	SHRQ $3, SI
	ADDQ AX, SI                  // q + k
	CMPQ SI, BP
	JA next
	BZHIQ DX, R11, AX            // its bytes
	GATHER7(AX, DI)              // u
gathered1:
	CMPL R15, $4
	JAE moded
	SHRQ $1, AX                  // the carry: the zigzag's sign
	FIRSTNBR(AX, DI, next)
	MOVL AX, (R8)(CX*4)
	CMPL R15, $1
	JEQ one

	// 2 or 3 neighbours, or a varint block outside first mode: the gap after the
	// first value, its last byte inside the word and the list, the gap and the
	// second neighbour below nv
gap:
	SHRXQ DX, R11, R11
	MOVQ $0x8080808080808080, DI
	ANDNQ DI, R11, DI
	TZCNTQ DI, DI                // 8k2-1
	CMPQ DI, $40
	JAE next
	LEAQ 1(DX)(DI*1), R15
	CMPQ R15, $64
	JA next                      // past the word
	LEAQ 1(DI), R15
	SHRQ $3, R15
	ADDQ SI, R15
	CMPQ R15, BP
	JA next                      // past the list
	JEQ gapin
	CMPL L_DEG(SP)(CX*4), $2
	JEQ next                     // a list of two, read whole, ends at its second value
gapin:
	LEAQ 1(DI), R15
	BZHIQ R15, R11, R11
	GATHER7(R11, DI)             // the gap
gapped:
	CMPQ R11, A_NV(BX)
	JAE next
	ADDQ AX, R11
	CMPQ R11, A_NV(BX)
	JAE next
	MOVL R11, X1_OFF(R8)(CX*4)
	BTSQ CX, R12
	JMP next

moded:
	// PackedMin or more neighbours: the mode bit, then the zigzag's sign shifted out
	SHRQ $2, AX
	FIRSTNBR(AX, DI, next)
	MOVL AX, (R8)(CX*4)
	CMPQ R15, A_ONCE(BX)
	JAE long

	// PackedMin or more neighbours outside first mode: the block's mode bit (w's
	// lowest) says whether a varint gap or a header follows the first value; a
	// compact block's header (with exceptions or without) is read here as
	// headWord reads it, the others (mirrored, packed) are left
	TESTL $1, R11
	JZ gap
	SHRXQ DX, R11, R11           // r: the header, then the stream
	MOVL $BLOCK_SIZE-1, DI
	DECL R15
	CMPL R15, DI
	CMOVLHI DI, R15              // n: the block's gaps, min(d, 64) - 1
	MOVBLZX R11, DI              // the header
	TESTL $0x80, DI
	JZ next                      // packed
	TESTL $0x40, DI
	JZ compact                   // a mirrored block's header, 0xff, has a width of 63
	// with exceptions: gap 0's low bits, and its high part where the first
	// exception names gap 0; the stream's 8-byte loads inside compactMaxBytes+8
	// bytes after its start s = q+k+1, which must lie inside the mapping
	ANDL $0x3f, DI               // wb
	CMPL DI, $32
	JA next
	LEAQ (1+COMPACT_MAX)(SI), DX
	CMPQ DX, A_ACAP8(BX)
	JGT next
	MOVL R15, R10
	IMULL DI, R10                // ebit: the exception header's first bit
	LEAL (EXC_HEADER+7)(R10), DX
	STREAMAT(R11)                // the exception header's word, inside the list
	MOVL R10, DX
	ANDL $7, DX
	SHRXQ DX, R11, R11           // the exception header
	MOVL R11, DX
	ANDL $63, DX                 // ne
	JZ excnext
	CMPL DX, R15
	JA excnext                   // more exceptions than gaps
	MOVL R11, R15
	SHRL $6, R15
	ANDL $7, R15                 // wi
	SHRL $9, R11
	ANDL $31, R11
	INCL R11                     // wh
	ADDL $EXC_HEADER, R10        // the first exception's bit
	LEAL 7(R10)(R15*1), DX
	ADDL R11, DX
	STREAMAT(DX)                 // the first exception's word, inside the list
	ANDL $7, R10
	SHRXQ R10, DX, DX            // e: the first exception's index step, high part
	MOVQ 1(R9)(SI*1), R10
	BZHIQ DI, R10, R10           // gap 0's low bits
	BZHIQ R15, DX, SI
	JNZ excdone                  // the first exception is not gap 0's
	SHRXQ R15, DX, DX
	BZHIQ R11, DX, DX            // gap 0's high part
	CMPQ DX, A_NV(BX)
	JAE excnext
	SHLXQ DI, DX, DX
	ORQ DX, R10
	CMPQ R10, A_NV(BX)
	JAE excnext
excdone:
	LEAQ 1(R10), R11             // the gap
	MOVQ A_V0(BX), R10
	ADDQ CX, R10                 // v again
	JMP gapped
excnext:
	MOVQ A_V0(BX), R10
	ADDQ CX, R10                 // v again
	JMP next
compact:
	// without exceptions: 1 plus the stream's first wb bits, which end inside the
	// word; the stream's n gaps inside the list
	ANDL $0x3f, DI               // wb
	CMPL DI, $32
	JA next
	LEAQ 8(DX)(DI*1), DX
	CMPQ DX, $64
	JA next                      // past the word
	IMULL DI, R15
	ADDL $7, R15
	SHRL $3, R15
	LEAQ 1(SI)(R15*1), R15
	CMPQ R15, BP
	JA next                      // the stream past the list
	SHRQ $8, R11
	BZHIQ DI, R11, R11
	INCQ R11                     // the gap
	JMP gapped

one:
	CMPQ SI, BP
	JEQ vertex                   // a list of one ends at its value, else it is left
	JMP next
long:
	BTSQ CX, R14                 // the first mode's
vertex:
	MOVL R10, X1_OFF(R8)(CX*4)
	BTSQ CX, R12
	JMP next

isempty:
	EMPTYLIST

next:
	INCQ CX
	INCQ R10
	CMPQ CX, A_J1(BX)
	JB loop

done:
	CMPQ V_MODE(SP), $0
	JNE vmore
done2:
	MOVQ R12, A_DONE(BX)
	MOVQ R13, A_EMPTY(BX)
	MOVQ R14, A_ONCE(BX)
	// the next group's loop (mixedNext; headArgs.mixed's high bytes stay 0):
	// branch-free where n <= 8 l <= 6 n, l the lists in once, n = j1 - j0: 8 l - n
	// <= 5 n, unsigned (no list in once outside first mode: 0 there)
	POPCNTQ R14, AX
	SHLQ $3, AX
	MOVQ A_J1(BX), DX
	SUBQ A_J0(BX), DX            // n
	SUBQ DX, AX                  // 8 l - n
	LEAQ (DX)(DX*4), DX
	XORL SI, SI
	CMPQ AX, DX
	SETLS SI
	MOVQ SI, A_MIXED(BX)
	VZEROUPPER                   // the vector passes' upper halves cleared for Go's SSE code
	RET

	// The branch-free loop, for a first mode's groups that mix lists of one
	// neighbour, of two or three and of PackedMin or more (mixedGroup): every
	// list with neighbours takes one path, its cases chosen by CMOV and masks
	// instead of branches. The first value at q = start + FirstBlock(d) (the
	// mode bit dropped from PackedMin on), its length from TZCNT of the word's
	// clear continuation bits; then the gap after it, its end the next clear
	// bit, read whatever d is and kept only for 2 or 3 neighbours (x1 is the
	// vertex otherwise, and a list of PackedMin or more goes to once). The
	// checks are the branches' loop's: each value at most 5 bytes, the values
	// used inside the word and the list (a list of one or two ending at its
	// last), each neighbour below nv; a list that fails one is left unfinished.
	PCALIGN $32
mloop:
	MOVL (L_START+4)(SP)(CX*4), BP // end
	MOVL L_START(SP)(CX*4), R11  // start
	MOVL L_DEG(SP)(CX*4), R15    // d
	TESTL R15, R15
	JZ misempty
	CMPQ BP, A_ALIM(BX)
	JGT mnext                    // the list inside ADJ (from its start on: end - q below), else it is left
	LEAL -1(R15), AX
	SHRL $6, AX
	LEAQ (R11)(AX*4), SI         // q: FirstBlock(d) is 4((d-1)/64) for d >= 1
	CMPQ SI, A_ACAP8(BX)
	JGT mnext
	MOVQ (R9)(SI*1), R11         // w
	SUBQ SI, BP                  // the list's bytes from q (negative: none)
	ANDNQ hibits<>(SB), R11, DX  // bit 8k-1 set where a value ends at byte k
	TZCNTQ DX, DI                // 8k1-1
	CMPQ DI, $40
	JAE mnext                    // longer than 5 bytes, or past the word
	INCQ DI                      // 8k1
	BZHIQ DI, R11, AX
	PEXTQ pext5<>(SB), AX, AX    // u
	CMPL R15, $PACKED_MIN
	SBBL SI, SI
	INCL SI                      // 1 from PackedMin on: the mode bit
	SHRXQ SI, AX, AX
	SHRQ $1, AX                  // the carry: the zigzag's sign
	FIRSTNBR(AX, SI, mnext)
	MOVL AX, (R8)(CX*4)
	BLSRQ DX, DX
	TZCNTQ DX, DX                // 8(k1+k2)-1; 64 and the carry where the word holds no end
	SBBQ SI, SI                  // -1 there
	INCQ DX
	BZHIQ DX, R11, R11
	SHRXQ DI, R11, R11
	PEXTQ pext5<>(SB), R11, R11  // g: a gap of up to 5 bytes (k2 checked below)
	ADDQ AX, R11                 // f + g
	SUBQ DI, DX                  // 8k2
	ORQ SI, DX                   // or -1 past the word
	LEAL -2(R15), SI
	CMPL SI, $2                  // the carry: 2 or 3 neighbours, x1 = f + g
	CMOVQCC R10, R11             // else the vertex
	SBBQ SI, SI
	ANDQ SI, DX                  // 8k2 where the gap is used, else 0
	CMPQ DX, $40
	JA mnext                     // longer than 5 bytes, or past the word
	ADDQ DI, DX
	SHRQ $3, DX                  // the bytes the values used take
	SUBQ DX, BP                  // the list's bytes after them
	JS mnext                     // past the list
	CMPL R15, $3
	SBBQ SI, SI
	TESTQ SI, BP
	JNZ mnext                    // a list of one or two, read whole, ends at its last value
	CMPQ R11, A_NV(BX)
	JAE mnext                    // x1 >= nv (so g < nv too, f being below it)
	MOVL R11, X1_OFF(R8)(CX*4)
	BTSQ CX, R12
	MOVQ R14, SI
	BTSQ CX, SI
	CMPL R15, $PACKED_MIN
	CMOVQCC SI, R14              // PackedMin or more: the first mode's
mnext:
	INCQ CX
	INCQ R10
	CMPQ CX, A_J1(BX)
	JB mloop
	JMP done

misempty:
	EMPTYLIST
	JMP mnext

	// The short lists' vector pass, 8 lists a step (vertices j to j+7, lanes 0 to
	// 7 of Y registers of dwords) while 8 are left in [j0, j1): it finishes the
	// lists of one to three neighbours whose first value and, for two or three, the
	// gap after it take one or two bytes each (roads' lists, nearly all), as
	// loop's short path reads them and with its checks: the list inside ADJ and its
	// 8 bytes from its start inside the mapping (start <= end <= alim), each
	// neighbour below nv, the values inside the list and a list of one or two
	// ending at its last value. Each list's first 4 bytes by one gather (lanes
	// whose list fails the bounds load nothing). The lanes' values are stored
	// whatever they are (x0 and x1 of a list not finished are undefined); the
	// lists they leave (in no order on roads: a value of 3 bytes or more, a long
	// or empty list) then go through loop one at a time (vmore), in order, so that
	// a list refused is the first one. Y0 is zero, Y11 the lanes' vertices, Y12
	// alim and Y13 nv-1.
	// The directory pairs by AVX2 (headVec), 8 a step while 8 are left (the rest by
	// spairs), where a pair and its bit's offset in its first byte fit a dword (ww
	// <= 25) and j span does for every j (span < 2^26): pair j's dword from its
	// first bit's byte by a gather, shifted by the bit, its degree and start field
	// as pairs2 reads them; the start field's line, (64 h0 + j span)>>6, as h0 +
	// (j span)>>6. CX is j, R10 the pairs' end, R12 p (pair j's bit) and R13 64 h0
	// + j span, both set again for spairs.
vpairs:
	VMOVQ R12, X1
	VPBROADCASTD X1, Y1
	VMOVQ R15, X2
	VPBROADCASTD X2, Y2
	VPMULLD hv<>+352(SB), Y2, Y3
	VPADDD Y3, Y1, Y1            // p of each lane's pair
	VPSLLD $3, Y2, Y2            // 8 ww
	VMOVQ R14, X4
	VPBROADCASTD X4, Y4          // wo
	VPBROADCASTD A_MD(BX), Y5    // md
	VPBROADCASTD A_DMIN(BX), Y6  // dmin
	VPCMPEQD Y7, Y7, Y7
	VPSLLVD Y4, Y7, Y7
	VPCMPEQD Y3, Y3, Y3
	VPXOR Y3, Y7, Y7             // mo: wo low bits
	VPBROADCASTD A_H0(BX), Y8    // h0
	VPBROADCASTD A_SPAN(BX), Y9
	VMOVQ CX, X10
	VPBROADCASTD X10, Y10
	VPADDD hv<>+352(SB), Y10, Y10
	VPMULLD Y9, Y10, Y10         // j span of each lane
	VPSLLD $3, Y9, Y9            // 8 span
	PCALIGN $32
vpair:
	VPSRLD $3, Y1, Y11
	VPCMPEQD Y12, Y12, Y12
	VPXOR Y13, Y13, Y13
	VPGATHERDD Y12, (R8)(Y11*1), Y13
	VPAND hv<>+384(SB), Y1, Y11
	VPSRLVD Y11, Y13, Y13        // x: the pair at bit 0
	VPSRLVD Y4, Y13, Y11
	VPAND Y5, Y11, Y11
	VPADDD Y6, Y11, Y11
	VMOVDQU Y11, L_DEG(SP)(CX*4) // the degrees
	VPAND Y7, Y13, Y13           // z
	VPSLLD $31, Y13, Y11
	VPSRAD $31, Y11, Y11
	VPSRLD $1, Y13, Y13
	VPXOR Y11, Y13, Y13
	VPSRLD $6, Y10, Y11
	VPADDD Y8, Y11, Y11
	VPADDD Y11, Y13, Y13
	VMOVDQU Y13, L_START(SP)(CX*4) // the starts
	VPADDD Y2, Y1, Y1
	VPADDD Y9, Y10, Y10
	ADDQ $8, CX
	LEAQ 8(CX), AX
	CMPQ AX, R10
	JBE vpair
	MOVQ CX, R12
	IMULQ R15, R12
	MOVQ CX, R13
	IMULQ A_SPAN(BX), R13
	MOVQ A_H0(BX), AX
	SHLQ $6, AX
	ADDQ AX, R13
	JMP spairs

vec:
	VLANES
	PCALIGN $32
vloop:
	VMOVDQU L_START(SP)(CX*4), Y1   // start
	VMOVDQU (L_START+4)(SP)(CX*4), Y2 // end
	VMOVDQU L_DEG(SP)(CX*4), Y3  // d
	// ok (Y4): 1 <= d <= 3, start <= end <= alim; the gather's mask
	VPSUBD hv<>+128(SB), Y3, Y4
	VPMINUD hv<>+160(SB), Y4, Y5
	VPCMPEQD Y4, Y5, Y4          // d-1 <= 2, unsigned
	VPMAXUD Y1, Y2, Y5
	VPCMPEQD Y2, Y5, Y5          // start <= end
	VPAND Y5, Y4, Y4
	VPMINUD Y12, Y2, Y5
	VPCMPEQD Y2, Y5, Y5          // end <= alim
	VPAND Y5, Y4, Y4
	VMOVDQU Y4, Y5
	VPXOR Y6, Y6, Y6
	VPGATHERDD Y5, (R9)(Y1*1), Y6 // w: the list's first 4 bytes
	// the first value (m0 in Y7: one byte), u in Y8; two bytes need the second's
	// continuation bit clear
	VPAND hv<>+32(SB), Y6, Y7
	VPCMPEQD Y0, Y7, Y7          // m0
	VPAND hv<>+0(SB), Y6, Y8
	VPSRLD $1, Y6, Y9
	VPAND hv<>+64(SB), Y9, Y9
	VPANDN Y9, Y7, Y9            // the second byte's bits, where there is one
	VPOR Y9, Y8, Y8              // u
	VPAND hv<>+96(SB), Y6, Y9
	VPCMPEQD Y0, Y9, Y9
	VPOR Y7, Y9, Y9
	VPAND Y9, Y4, Y4             // at most 2 bytes
	// the gap after it: w shifted by 8 bytes or 16 (16 + 8 m0), m1 in Y10, g in Y9
	VPSLLD $3, Y7, Y9
	VPADDD hv<>+224(SB), Y9, Y9
	VPSRLVD Y9, Y6, Y6
	VPAND hv<>+32(SB), Y6, Y10
	VPCMPEQD Y0, Y10, Y10        // m1
	VPAND hv<>+0(SB), Y6, Y9
	VPSRLD $1, Y6, Y5
	VPAND hv<>+64(SB), Y5, Y5
	VPANDN Y5, Y10, Y5
	VPOR Y5, Y9, Y9              // g
	VPAND hv<>+96(SB), Y6, Y5
	VPCMPEQD Y0, Y5, Y5
	VPOR Y10, Y5, Y5             // the gap at most 2 bytes
	VPCMPEQD hv<>+128(SB), Y3, Y6 // d == 1: no gap read
	VPOR Y6, Y5, Y5
	VPAND Y5, Y4, Y4
	// f = v + unzigzag(u) (Y8), x1 = f + g or v for d == 1 (Y9), each below nv:
	// unsigned, so a negative f (2^31 or more as a dword) fails too
	VPSLLD $31, Y8, Y5
	VPSRAD $31, Y5, Y5
	VPSRLD $1, Y8, Y8
	VPXOR Y5, Y8, Y8
	VPADDD Y11, Y8, Y8           // f
	VPADDD Y8, Y9, Y9
	VPBLENDVB Y6, Y11, Y9, Y9    // x1
	VPMINUD Y13, Y8, Y5
	VPCMPEQD Y8, Y5, Y5
	VPAND Y5, Y4, Y4
	VPMINUD Y13, Y9, Y5
	VPCMPEQD Y9, Y5, Y5
	VPAND Y5, Y4, Y4
	// the bytes the values take, 4 + m0 + m1 (2 + m0 for d == 1), against the
	// list's: equal, or at most them for d == 3
	VPBLENDVB Y6, hv<>+256(SB), Y10, Y10
	VPSUBD Y1, Y2, Y5
	VPSUBD hv<>+288(SB), Y5, Y5
	VPSUBD Y7, Y5, Y5
	VPSUBD Y10, Y5, Y5           // the list's bytes after the values
	VPCMPEQD Y0, Y5, Y7
	VPCMPGTD Y5, Y0, Y10         // past the list
	VPCMPEQD hv<>+192(SB), Y3, Y3
	VPANDN Y3, Y10, Y3
	VPOR Y7, Y3, Y3
	VPAND Y3, Y4, Y4
	VMOVDQU Y8, (R8)(CX*4)
	VMOVDQU Y9, X1_OFF(R8)(CX*4)
	VMOVMSKPS Y4, AX
	SHLXQ CX, AX, AX
	ORQ AX, R12
	VPADDD hv<>+320(SB), Y11, Y11
	ADDQ $8, CX
	LEAQ 8(CX), AX
	CMPQ AX, V_J1(SP)
	JBE vloop
vleft:
	// the lists left: [j0, j1) less those finished (j1-j0 >= 8)
	MOVQ V_J1(SP), AX
	SUBQ A_J0(BX), AX
	MOVL $64, DX
	SUBQ AX, DX
	MOVQ $-1, AX
	SHRXQ DX, AX, AX
	MOVQ A_J0(BX), DX
	SHLXQ DX, AX, AX
	ANDNQ AX, R12, AX
	MOVQ AX, V_TODO(SP)
vmore:
	// the next list vloop left, through loop alone (j1 just past it), or j1 back
	MOVQ V_TODO(SP), AX
	TESTQ AX, AX
	JZ vend
	TZCNTQ AX, CX
	BLSRQ AX, AX
	MOVQ AX, V_TODO(SP)
	LEAQ 1(CX), AX
	MOVQ AX, A_J1(BX)
	MOVQ A_V0(BX), R10
	ADDQ CX, R10
	JMP loop
vend:
	MOVQ V_J1(SP), AX
	MOVQ AX, A_J1(BX)
	JMP done2

// VGATHER7 packs the 7-bit groups of each dword lane of x (a varint of up to 4 bytes,
// its bytes past its end cleared) into u; t is scratch.
#define VGATHER7(x, t, u) \
	VPAND hv<>+0(SB), x, u \
	VPSRLD $1, x, t \
	VPAND hv<>+64(SB), t, t \
	VPOR t, u, u \
	VPSRLD $2, x, t \
	VPAND hv<>+448(SB), t, t \
	VPOR t, u, u \
	VPSRLD $3, x, t \
	VPAND hv<>+480(SB), t, t \
	VPOR t, u, u

// VARINTEND sets l to the lowest bit of x's dword lanes' clear continuation bits (bit
// 8k-1 where a varint from byte 0 ends at byte k, 0 where none does within 4 bytes)
// and m to the mask of the bytes up to it (2l-1) with x's bits.
#define VARINTEND(x, l, m) \
	VPANDN hv<>+416(SB), x, l \
	VPSUBD l, Y0, m \
	VPAND m, l, l \
	VPADDD l, l, m \
	VPSUBD hv<>+128(SB), m, m \
	VPAND x, m, m

// VBITS8K turns l, VARINTEND's lowest bit (nonzero), into 8k: the float exponent of
// 2^(8k-1) (bit 31's negative float has it too), less the bias, plus one.
#define VBITS8K(l) \
	VCVTDQ2PS l, l \
	VPSRLD $23, l, l \
	VPAND hv<>+576(SB), l, l \
	VPSUBD hv<>+544(SB), l, l

	// The first mode's vector pass, 8 lists a step (vertices j to j+7, lanes 0 to
	// 7 of Y registers of dwords) while 8 are left in [j0, j1), for a first mode's
	// group: it finishes as loop and mloop do the lists without neighbours, the
	// lists of one neighbour ending at their value, those of two or three whose
	// first value and the gap after it take at most 4 bytes each and lie inside the
	// list (a list of two ending at its second), and those of PackedMin or more
	// (once) whose first value at q = start + FirstBlock(d) takes at most 4 bytes
	// inside the list, the mode bit dropped; each neighbour below nv; the list
	// inside ADJ and q inside it (start <= end <= alim, q <= end: so q's 8 bytes lie
	// inside the mapping, and q < 2^31, start being below it and FirstBlock(d) below
	// 2^28). Each list's 4 bytes at q by one gather, the 4 after them by a second
	// for the lists of two or three. The lanes' values are stored whatever they are;
	// the lists left go through loop one at a time (vmore), in order. Y0 is zero,
	// Y11 the lanes' vertices, Y12 alim and Y13 nv-1.
vfirst:
	VLANES
	PCALIGN $32
vfloop:
	VMOVDQU L_START(SP)(CX*4), Y1   // start
	VMOVDQU (L_START+4)(SP)(CX*4), Y2 // end
	VMOVDQU L_DEG(SP)(CX*4), Y3  // d
	// E (Y14): d == 0; ok (Y4): d >= 1, start <= end <= alim, q <= end
	VPCMPEQD Y0, Y3, Y14
	VPMAXUD Y1, Y2, Y5
	VPCMPEQD Y2, Y5, Y5          // start <= end
	VPMINUD Y12, Y2, Y6
	VPCMPEQD Y2, Y6, Y6          // end <= alim
	VPAND Y6, Y5, Y5
	VPANDN Y5, Y14, Y4
	VPSUBD hv<>+128(SB), Y3, Y7
	VPSRLD $6, Y7, Y7
	VPSLLD $2, Y7, Y7
	VPADDD Y1, Y7, Y7            // q: FirstBlock(d) is 4((d-1)/64) for d >= 1
	VPMAXUD Y7, Y2, Y5
	VPCMPEQD Y2, Y5, Y5          // q <= end
	VPAND Y5, Y4, Y4
	VPSUBD Y7, Y2, Y2            // the list's bytes from q
	// D23 (Y10): 2 or 3 neighbours, and ok
	VPSUBD hv<>+160(SB), Y3, Y10
	VPMINUD hv<>+128(SB), Y10, Y5
	VPCMPEQD Y10, Y5, Y10        // d-2 <= 1, unsigned
	VPAND Y4, Y10, Y10
	VMOVDQU Y4, Y5
	VPXOR Y8, Y8, Y8
	VPGATHERDD Y5, (R9)(Y7*1), Y8 // w0: the 4 bytes at q
	VPTEST Y10, Y10
	JZ vfw0                      // no D23 lane: w1 not needed
	VMOVDQU Y10, Y5
	VPXOR Y9, Y9, Y9
	VPGATHERDD Y5, 4(R9)(Y7*1), Y9 // w1: the 4 after them, for D23
vfw0:
	// the first value: at most 4 bytes (Y5: its end's bit), u in Y1
	VARINTEND(Y8, Y5, Y6)
	VPCMPEQD Y0, Y5, Y7
	VPANDN Y4, Y7, Y4            // no end within 4 bytes: left
	VGATHER7(Y6, Y7, Y1)         // u
	VBITS8K(Y5)                 // 8k1
	// D4 (Y15): PackedMin or more, the mode bit dropped
	VPMAXUD hv<>+288(SB), Y3, Y15
	VPCMPEQD Y3, Y15, Y15
	VPSRLD $31, Y15, Y6
	VPSRLVD Y6, Y1, Y1
	// f = v + unzigzag(u), below nv (unsigned: a negative f fails too)
	VPSLLD $31, Y1, Y6
	VPSRAD $31, Y6, Y6
	VPSRLD $1, Y1, Y1
	VPXOR Y6, Y1, Y1
	VPADDD Y11, Y1, Y1           // f
	VPMINUD Y13, Y1, Y6
	VPCMPEQD Y1, Y6, Y6
	VPAND Y6, Y4, Y4
	// without a D23 lane the gap's steps below change neither ok nor 8k1, and x1
	// is v in every lane
	VPTEST Y10, Y10
	JZ vfnogap
	// the gap after it (D23's): the 4 bytes from the first value's end, from w0
	// and w1 (shifts of 32 give 0)
	VPSRLVD Y5, Y8, Y8
	VMOVDQU hv<>+512(SB), Y6
	VPSUBD Y5, Y6, Y6            // 32 - 8k1
	VPSLLVD Y6, Y9, Y9
	VPOR Y9, Y8, Y8
	VARINTEND(Y8, Y9, Y6)
	VPCMPEQD Y0, Y9, Y7
	VPAND Y10, Y7, Y7
	VPANDN Y4, Y7, Y4            // D23's gap past 4 bytes: left
	VGATHER7(Y6, Y7, Y8)         // g
	VBITS8K(Y9)                 // 8k2
	// x1 = f + g for D23, below nv (f below nv and g below 2^28: no wrap), else v
	VPADDD Y1, Y8, Y8
	VPMINUD Y13, Y8, Y6
	VPCMPEQD Y8, Y6, Y6
	VPANDN Y10, Y6, Y6
	VPANDN Y4, Y6, Y4
	VPBLENDVB Y10, Y8, Y11, Y8   // x1
	// the bytes the values used against the list's from q: at most them, equal
	// for d <= 2
	VPAND Y10, Y9, Y9
	VPADDD Y9, Y5, Y5
	JMP vfbytes
vfnogap:
	VMOVDQU Y11, Y8              // x1: v
vfbytes:
	VPSRLD $3, Y5, Y5
	VPSUBD Y5, Y2, Y2            // the list's bytes after the values
	VPCMPGTD Y2, Y0, Y5          // past the list
	VPANDN Y4, Y5, Y4
	VPMINUD hv<>+160(SB), Y3, Y5
	VPCMPEQD Y3, Y5, Y5          // d <= 2
	VPCMPEQD Y0, Y2, Y6
	VPANDN Y5, Y6, Y5            // and bytes after its last value
	VPANDN Y4, Y5, Y4
	VPBLENDVB Y14, Y11, Y1, Y1   // x0: f, or v for E
	VMOVDQU Y1, (R8)(CX*4)
	VMOVDQU Y8, X1_OFF(R8)(CX*4)
	VPAND Y15, Y4, Y15           // once
	VPOR Y14, Y4, Y4             // done
	VMOVMSKPS Y4, AX
	SHLXQ CX, AX, AX
	ORQ AX, R12
	VMOVMSKPS Y14, AX
	SHLXQ CX, AX, AX
	ORQ AX, R13
	VMOVMSKPS Y15, AX
	SHLXQ CX, AX, AX
	ORQ AX, R14
	VPADDD hv<>+320(SB), Y11, Y11
	ADDQ $8, CX
	LEAQ 8(CX), AX
	CMPQ AX, V_J1(SP)
	JBE vfloop
	JMP vleft

// func cpuid(leaf uint32) (a, b, c, d uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	XORL CX, CX
	CPUID
	MOVL AX, a+8(FP)
	MOVL BX, b+12(FP)
	MOVL CX, c+16(FP)
	MOVL DX, d+20(FP)
	RET
