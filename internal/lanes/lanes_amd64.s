//go:build amd64 && !purego

#include "textflag.h"

// LANES defines sym, 8 doublewords: lane i holds the i-th value after sym.
#define LANES(sym, l0, l1, l2, l3, l4, l5, l6, l7) \
	DATA sym+0(SB)/4, $l0; \
	DATA sym+4(SB)/4, $l1; \
	DATA sym+8(SB)/4, $l2; \
	DATA sym+12(SB)/4, $l3; \
	DATA sym+16(SB)/4, $l4; \
	DATA sym+20(SB)/4, $l5; \
	DATA sym+24(SB)/4, $l6; \
	DATA sym+28(SB)/4, $l7; \
	GLOBL sym(SB), RODATA|NOPTR, $32

// index: each doubleword lane's index, 0 to 7.
LANES(·index, 0, 1, 2, 3, 4, 5, 6, 7)

// pred: the lane each doubleword lane's predecessor sits in, lane 0 taking lane 7's
// (VPERMD's control that rotates the lanes up by one).
LANES(·pred, 7, 0, 1, 2, 3, 4, 5, 6)
