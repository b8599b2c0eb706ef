//go:build amd64 && !purego

#include "textflag.h"

// index: each doubleword lane's index, 0 to 7.
DATA ·index+0(SB)/4, $0
DATA ·index+4(SB)/4, $1
DATA ·index+8(SB)/4, $2
DATA ·index+12(SB)/4, $3
DATA ·index+16(SB)/4, $4
DATA ·index+20(SB)/4, $5
DATA ·index+24(SB)/4, $6
DATA ·index+28(SB)/4, $7
GLOBL ·index(SB), RODATA|NOPTR, $32

// pred: the lane each doubleword lane's predecessor sits in, lane 0 taking lane 7's
// (VPERMD's control that rotates the lanes up by one).
DATA ·pred+0(SB)/4, $7
DATA ·pred+4(SB)/4, $0
DATA ·pred+8(SB)/4, $1
DATA ·pred+12(SB)/4, $2
DATA ·pred+16(SB)/4, $3
DATA ·pred+20(SB)/4, $4
DATA ·pred+24(SB)/4, $5
DATA ·pred+28(SB)/4, $6
GLOBL ·pred(SB), RODATA|NOPTR, $32
