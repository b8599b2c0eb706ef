//go:build amd64 && !purego

#include "textflag.h"

#define LANEIDX github·com∕oocgraph∕ooc∕internal∕lanes·index(SB)

// func sumDegreesAVX2(h *uint32, b *byte, nb uintptr, lo, n uint32, vs *uint32, stride, blocks int) (sum uint64, k int)
//
// Shard.SumDegrees's and SumDegreesEvery's loop (store/entries.go) eight vertices a
// step: vs[0], vs[stride], ... of up to blocks steps of eight, the degree of each by
// three gathers (its group's widths and dmin, the group's first word, the 4 bytes at
// the degree's bit), for as long as a step's eight vertices lie in the shard (v-lo <
// n, n > 0), their groups' words within b (h[1] <= nb/8, nb < 2^30 bytes), their
// degrees narrow enough for a 4-byte load (wd <= 25) and those loads inside b's nb
// bytes. It returns the sum of the degrees and how many vertices that is (a multiple
// of 8); the caller's Go loop takes the step it stopped at. h is the shard's group
// headers (4 words a group, the sentinel after them).
TEXT ·sumDegreesAVX2(SB), NOSPLIT, $0-72
	MOVQ h+0(FP), R8
	MOVQ b+8(FP), R9
	MOVQ nb+16(FP), AX
	MOVQ AX, BX
	SUBQ $4, AX
	VMOVQ AX, X11
	VPBROADCASTD X11, Y11 // nb-4: the last byte a 4-byte load may start at
	SHRQ $3, BX
	VMOVQ BX, X10
	VPBROADCASTD X10, Y10 // nb/8: the most a group's first word may be
	MOVL lo+24(FP), AX
	VMOVQ AX, X15
	VPBROADCASTD X15, Y15
	MOVL n+28(FP), AX
	DECL AX
	VMOVQ AX, X14
	VPBROADCASTD X14, Y14 // n-1
	MOVL $0xff, AX
	VMOVQ AX, X13
	VPBROADCASTD X13, Y13
	MOVL $63, AX
	VMOVQ AX, X12
	VPBROADCASTD X12, Y12
	MOVL $25, AX
	VMOVQ AX, X9
	VPBROADCASTD X9, Y9   // the widest degree a 4-byte load holds at any bit of its first byte
	MOVL $7, AX
	VMOVQ AX, X6
	VPBROADCASTD X6, Y6
	MOVQ stride+40(FP), BX
	LEAQ 0(BX*4), AX
	VMOVQ AX, X7
	VPBROADCASTD X7, Y7
	VPMULLD LANEIDX, Y7, Y7 // the lanes' byte offsets in vs: 4 stride each
	MOVQ BX, DX
	SHLQ $5, DX           // a step's bytes of vs
	MOVQ vs+32(FP), SI
	MOVQ blocks+48(FP), CX
	XORQ R10, R10         // steps done
	VPXOR Y8, Y8, Y8      // the sums, 4 quadwords
	TESTQ CX, CX
	JEQ done

loop:
	CMPQ BX, $1
	JNE strided
	VMOVDQU (SI), Y0
	JMP have

strided:
	VPCMPEQD Y1, Y1, Y1
	VPXOR Y0, Y0, Y0
	VPGATHERDD Y1, (SI)(Y7*1), Y0

have:
	VPSUBD Y15, Y0, Y0    // i
	VPMINUD Y14, Y0, Y1
	VPCMPEQD Y0, Y1, Y1   // i <= n-1, unsigned
	VPMOVMSKB Y1, AX
	NOTL AX
	TESTL AX, AX
	JNZ done              // a vertex outside the shard
	VPSRLD $6, Y0, Y1
	VPSLLD $4, Y1, Y1     // the group's header, 16 bytes a group
	VPCMPEQD Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	VPGATHERDD Y2, 12(R8)(Y1*1), Y3 // h[3]: widths, dmin
	VPCMPEQD Y2, Y2, Y2
	VPXOR Y4, Y4, Y4
	VPGATHERDD Y2, 4(R8)(Y1*1), Y4  // h[1]: the group's first word
	VPAND Y12, Y0, Y0     // j
	VPSRLD $16, Y3, Y1
	VPAND Y13, Y1, Y1     // wo
	VPSRLD $24, Y3, Y2    // wd
	VPADDD Y1, Y2, Y5
	VPMULLD Y0, Y5, Y5
	VPADDD Y1, Y5, Y5     // the degree's bit in the group's words: j*(wo+wd)+wo
	VPMINUD Y10, Y4, Y0
	VPCMPEQD Y4, Y0, Y0   // h[1] <= nb/8
	VPMINUD Y9, Y2, Y1
	VPCMPEQD Y2, Y1, Y1   // wd <= 25
	VPAND Y1, Y0, Y0
	VPSLLD $3, Y4, Y4
	VPSRLD $3, Y5, Y1
	VPADDD Y1, Y4, Y4     // the degree's first byte in b
	VPMINUD Y11, Y4, Y1
	VPCMPEQD Y4, Y1, Y1   // at most nb-4
	VPAND Y1, Y0, Y0
	VPMOVMSKB Y0, AX
	NOTL AX
	TESTL AX, AX
	JNZ done              // a lane the Go loop takes
	VPXOR Y1, Y1, Y1
	VPGATHERDD Y0, (R9)(Y4*1), Y1 // the 4 bytes at the degree's first byte
	VPAND Y6, Y5, Y5
	VPSRLVD Y5, Y1, Y1
	VPCMPEQD Y0, Y0, Y0
	VPSLLVD Y2, Y0, Y0
	VPANDN Y1, Y0, Y1     // the degree's wd bits
	VPSRLD $8, Y3, Y3
	VPAND Y13, Y3, Y3     // dmin
	VPADDD Y3, Y1, Y1     // the degrees
	VPMOVZXDQ X1, Y0
	VPADDQ Y0, Y8, Y8
	VEXTRACTI128 $1, Y1, X1
	VPMOVZXDQ X1, Y1
	VPADDQ Y1, Y8, Y8
	ADDQ DX, SI
	INCQ R10
	CMPQ R10, CX
	JB loop

done:
	VEXTRACTI128 $1, Y8, X0
	VPADDQ X0, X8, X0
	VPSHUFD $0x4e, X0, X1
	VPADDQ X1, X0, X0
	VMOVQ X0, AX
	MOVQ AX, sum+56(FP)
	SHLQ $3, R10
	MOVQ R10, k+64(FP)
	VZEROUPPER
	RET
