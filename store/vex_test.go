package store

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestVEXOnly holds the package's assembly to VEX-encoded instructions wherever an
// operand is an X or Y register: a legacy SSE instruction (MOVQ AX, X10) while the upper
// halves of the Y registers hold data cost an Intel Xeon hundreds of cycles a call (a
// scanCompactAVX2 call a list made urand22's search 2.9x slower there, not on AMD).
func TestVEXOnly(t *testing.T) {
	files, err := filepath.Glob("*.s")
	if err != nil || len(files) == 0 {
		t.Fatalf("no assembly found: %v", err)
	}
	vreg := regexp.MustCompile(`\b[XY]([0-9]|1[0-5])\b`)
	seen := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			if k := strings.Index(line, "//"); k >= 0 {
				line = line[:k]
			}
			line = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(line), "\\"))
			op, args, _ := strings.Cut(line, " ")
			if op == "" || strings.HasPrefix(op, "#") || strings.HasSuffix(op, ":") || !vreg.MatchString(args) {
				continue
			}
			seen++
			switch op {
			case "TEXT", "DATA", "GLOBL":
				continue
			}
			if op[0] != 'V' {
				t.Errorf("%s:%d: %s is not VEX-encoded: %s", f, i+1, op, line)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no instruction on an X or Y register found: the scan reads nothing")
	}
}
