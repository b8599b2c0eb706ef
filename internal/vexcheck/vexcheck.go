// Package vexcheck finds legacy-SSE instructions in Go assembly. A legacy SSE
// instruction (MOVQ AX, X10) run while the upper halves of the Y registers hold data
// costs an Intel Xeon hundreds of cycles a call (an SSE/AVX transition; a
// scanCompactAVX2 call a list made urand22's search 2.9x slower there, not on AMD), so
// the repository's amd64 assembly uses VEX forms wherever an operand is an X or Y
// register. Each package with assembly holds its .s files to it in a test, and to
// Upper: a VZEROUPPER before each return of a function that uses Y registers.
package vexcheck

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// vreg matches an X or Y register operand (X0-X15, Y0-Y15).
var vreg = regexp.MustCompile(`\b[XY]([0-9]|1[0-5])\b`)

// Dir checks every .s file of dir (a package directory) by Scan. It returns the
// legacy-encoded lines found and how many instructions on an X or Y register were
// read; an error if dir holds no assembly.
func Dir(dir string) (bad []string, seen int, err error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.s"))
	if err != nil {
		return nil, 0, err
	}
	if len(files) == 0 {
		return nil, 0, fmt.Errorf("vexcheck: no .s file in %s", dir)
	}
	for _, f := range files {
		r, err := os.Open(f)
		if err != nil {
			return nil, 0, err
		}
		b, n, err := Scan(filepath.Base(f), r)
		r.Close()
		if err != nil {
			return nil, 0, err
		}
		bad = append(bad, b...)
		seen += n
	}
	return bad, seen, nil
}

// Scan reads one assembly file, named name in the lines it returns, and reports each
// instruction that names an X or Y register and whose mnemonic is not a VEX form
// (V...), as "name:line: op is not VEX-encoded: text". It reads every statement of a
// line as the assembler does: those after a ';', after a label, and in macro bodies,
// the #define line's own included; and each RET that Upper reports. seen counts the
// instructions on X or Y registers read, TEXT, DATA and GLOBL lines included.
func Scan(name string, r io.Reader) (bad []string, seen int, err error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, 0, err
	}
	for i, line := range strings.Split(string(src), "\n") {
		if k := strings.Index(line, "//"); k >= 0 {
			line = line[:k]
		}
		line = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(line), "\\"))
		if rest, ok := strings.CutPrefix(line, "#define"); ok {
			line = macroBody(rest)
		} else if strings.HasPrefix(line, "#") {
			continue
		}
		for _, stmt := range strings.Split(line, ";") {
			stmt = strings.TrimSpace(stmt)
			op, args, _ := strings.Cut(stmt, " ")
			if strings.HasSuffix(op, ":") { // a label, then perhaps an instruction
				op, args, _ = strings.Cut(strings.TrimSpace(args), " ")
			}
			if op == "" || !vreg.MatchString(args) {
				continue
			}
			seen++
			switch op {
			case "TEXT", "DATA", "GLOBL":
				continue
			}
			if op[0] != 'V' {
				stmt = strings.TrimSpace(op + " " + strings.TrimSpace(args))
				bad = append(bad, fmt.Sprintf("%s:%d: %s is not VEX-encoded: %s", name, i+1, op, stmt))
			}
		}
	}
	return append(bad, Upper(name, string(src))...), seen, nil
}

// macroBody is what follows a #define's name and parameters on its line: the start of
// its body.
func macroBody(rest string) string {
	rest = strings.TrimLeft(rest, " \t")
	k := strings.IndexAny(rest, " \t(")
	if k < 0 {
		return "" // the name alone
	}
	if rest[k] == '(' {
		if e := strings.IndexByte(rest, ')'); e >= 0 {
			return rest[e+1:]
		}
		return ""
	}
	return rest[k:]
}

// Test fails t for each legacy-encoded instruction in dir's assembly, and when the scan
// reads no instruction on an X or Y register at all and wantVector says the package has
// some (a scan that reads nothing would pass everything).
func Test(t testing.TB, dir string, wantVector bool) {
	t.Helper()
	bad, seen, err := Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bad {
		t.Error(b)
	}
	if wantVector && seen == 0 {
		t.Errorf("no instruction on an X or Y register found in %s: the scan reads nothing", dir)
	}
}
