package vexcheck

import (
	"strings"
	"testing"
)

// TestScan holds Scan to the forms the repository's assembly uses: a legacy
// instruction on an X or Y register is found, in a macro body too, and a VEX one,
// a general-register one, a comment or a label is not.
func TestScan(t *testing.T) {
	src := `#define LOAD(r) \
	MOVOU (r), X3 \
	VPADDD Y1, Y2, Y3
TEXT ·f(SB), NOSPLIT, $0-8
	MOVQ AX, X10            // the legacy form
	VMOVQ AX, X10
	MOVQ X, AX              // a macro argument named X
	PEXTQ BX, CX, DX
	// MOVQ AX, X1 in a comment
loop:
	PXOR X15, X15
	VZEROUPPER
	RET
`
	checkScan(t, src, 5,
		"f.s:2: MOVOU is not VEX-encoded: MOVOU (r), X3",
		"f.s:5: MOVQ is not VEX-encoded: MOVQ AX, X10",
		"f.s:11: PXOR is not VEX-encoded: PXOR X15, X15")
}

// checkScan holds Scan of src to the findings want and seen instructions on X or Y
// registers.
func checkScan(t *testing.T, src string, seen int, want ...string) {
	t.Helper()
	bad, n, err := Scan("f.s", strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(bad, "\n") != strings.Join(want, "\n") {
		t.Errorf("found\n%s\nwant\n%s", strings.Join(bad, "\n"), strings.Join(want, "\n"))
	}
	if n != seen {
		t.Errorf("seen %d instructions on X or Y registers, want %d", n, seen)
	}
}

func TestDirWithoutAssembly(t *testing.T) {
	if _, _, err := Dir(t.TempDir()); err == nil {
		t.Error("a directory without .s files passed")
	}
}

// TestScanStatements holds Scan to every instruction of a line: those after a ';'
// (groupword_amd64.s writes its macros' calls so), after a label, and on a #define
// line itself, as the assembler reads them.
func TestScanStatements(t *testing.T) {
	src := `#define ZERO PXOR X2, X2
#define ONE(r) VPCMPEQD r, r, r; MOVOU r, X4
TEXT ·f(SB), NOSPLIT, $0-8
	VMOVD AX, X14; PXOR X1, X1
	MOVQ AX, BX; VMOVQ AX, X10
done: MOVQ AX, X3
	VZEROUPPER; RET
`
	checkScan(t, src, 6,
		"f.s:1: PXOR is not VEX-encoded: PXOR X2, X2",
		"f.s:2: MOVOU is not VEX-encoded: MOVOU r, X4",
		"f.s:4: PXOR is not VEX-encoded: PXOR X1, X1",
		"f.s:6: MOVQ is not VEX-encoded: MOVQ AX, X3")
}
