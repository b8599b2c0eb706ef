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

// EMPTYLIST finishes list j (CX) of no neighbours: x0[j] and x1[j] the vertex (R10),
// done and empty set.
#define EMPTYLIST \
	MOVL R10, (R8)(CX*4) \
	MOVL R10, X1_OFF(R8)(CX*4) \
	BTSQ CX, R12 \
	BTSQ CX, R13

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
TEXT ·headFirstBMI(SB), NOSPLIT, $520-8
	MOVQ a+0(FP), BX
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
	CMPQ A_MIXED(BX), $0
	JNE mloop
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
