package vexcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUpper holds Upper to the shapes the repository's assembly has: a function on Y
// registers returns through VZEROUPPER, labels between them passed over; the Y
// registers and the RET may sit in macros, one of them named by another's argument,
// with or without ';' between a body's lines; a function on X or general registers
// alone needs none, and one that clears them before its vector code still does.
func TestUpper(t *testing.T) {
	src := `#define NOSTEP
#define SUM(step) \
	VPADDD Y1, Y2, Y3; \
	step; \
	ADDQ $8, SI
#define WIDE VPXOR Y0, Y0, Y0
#define THEN(step) step; ADDQ $1, SI
#define QUIT \
	VPXOR Y1, Y1, Y1 \
	RET
#define DONE(r) \
	MOVQ r, ret+8(FP) \
	VZEROUPPER \
	RET
TEXT ·ok(SB), NOSPLIT, $0-8
	SUM(NOSTEP)
	JZ done
	VZEROUPPER
	RET
done:
	VZEROUPPER
end:
	RET
TEXT ·viaMacro(SB), NOSPLIT, $0-16
	SUM(WIDE)
	DONE(AX)
TEXT ·scalar(SB), NOSPLIT, $0-8
	VMOVQ AX, X1
	RET
TEXT ·missing(SB), NOSPLIT, $0-8
	SUM(NOSTEP)
	JZ done
	RET
done:
	VZEROUPPER; RET
TEXT ·argY(SB), NOSPLIT, $0-8
	THEN(WIDE)
	MOVQ AX, BX
	RET
TEXT ·zeroFirst(SB), NOSPLIT, $0-8
	VZEROUPPER
	VMOVDQU (SI), Y1
	RET
TEXT ·quit(SB), NOSPLIT, $0-8
	QUIT
`
	got := Upper("f.s", src)
	want := []string{
		"f.s:33: RET after Y registers without VZEROUPPER in ·missing(SB)",
		"f.s:39: RET after Y registers without VZEROUPPER in ·argY(SB)",
		"f.s:43: RET after Y registers without VZEROUPPER in ·zeroFirst(SB)",
		"f.s:45: RET after Y registers without VZEROUPPER in ·quit(SB)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("found\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestUpperRepository: every VZEROUPPER of the repository's assembly taken out in turn
// is reported by Dir, so the check reads each function that needs one.
func TestUpperRepository(t *testing.T) {
	files, err := filepath.Glob("../../*/*.s")
	if err != nil {
		t.Fatal(err)
	}
	cut := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		for at := 0; ; at++ {
			i := nthIndex(src, "VZEROUPPER", at)
			if i < 0 {
				break
			}
			mutant := src[:i] + "NOP" + src[i+len("VZEROUPPER"):]
			if bad := Upper(f, mutant); len(bad) == 0 {
				t.Errorf("%s: VZEROUPPER number %d taken out, nothing reported", f, at+1)
			}
			cut++
		}
		if bad := Upper(f, src); len(bad) > 0 {
			t.Errorf("%s", strings.Join(bad, "\n"))
		}
	}
	if cut == 0 {
		t.Fatal("no VZEROUPPER found in the repository's assembly")
	}
	t.Logf("%d VZEROUPPERs in %d files, each missed", cut, len(files))
}

// nthIndex is the index of s's n-th (from 0) instance of sub, or -1.
func nthIndex(s, sub string, n int) int {
	at := 0
	for ; n >= 0; n-- {
		i := strings.Index(s[at:], sub)
		if i < 0 {
			return -1
		}
		if n == 0 {
			return at + i
		}
		at += i + len(sub)
	}
	return -1
}
