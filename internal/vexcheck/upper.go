package vexcheck

import (
	"fmt"
	"regexp"
	"strings"
)

// yreg matches a Y register operand (Y0-Y15).
var yreg = regexp.MustCompile(`\bY([0-9]|1[0-5])\b`)

// label matches a statement's leading label.
var label = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*:`)

// call matches a statement that may be a macro's use: its name and, in parentheses,
// its arguments.
var call = regexp.MustCompile(`^(\w+)\s*(?:\((.*)\))?$`)

// stmt is an instruction and the line of the file it comes from (a macro's use: the
// line that uses it).
type stmt struct {
	text string
	line int
}

// macro is a #define's parameters and body statements.
type macro struct {
	params []string
	body   []string
}

// Upper reports each RET of an assembly function that names a Y register whose
// instruction before it (labels passed over) is not VZEROUPPER, as
// "name:line: RET after Y registers without VZEROUPPER in FUNC". Upper halves left
// dirty past the return make the caller's SSE code (the runtime's memmove, any cgo
// library) pay a transition or a false dependency on every instruction. Macros are
// expanded, their arguments in their bodies (a macro named by an argument too), so a
// Y register or a RET inside one counts where it is used. A function that names a Y
// register on some path only is held to it on every RET: none of the repository's
// returns early before its vector code.
func Upper(name, src string) []string {
	macros := map[string]macro{}
	type fn struct {
		name string
		body []stmt
	}
	var fns []*fn
	for _, l := range logicalLines(src) {
		t := strings.TrimSpace(l.text)
		if rest, ok := strings.CutPrefix(t, "#define"); ok {
			rest = strings.TrimSpace(rest)
			k := strings.IndexAny(rest, " \t(")
			if k < 0 {
				macros[rest] = macro{}
				continue
			}
			var m macro
			body := rest[k:]
			if rest[k] == '(' {
				e := strings.IndexByte(rest, ')')
				if e < 0 {
					continue
				}
				for _, p := range strings.Split(rest[k+1:e], ",") {
					m.params = append(m.params, strings.TrimSpace(p))
				}
				body = rest[e+1:]
			}
			m.body = statements(body)
			macros[rest[:k]] = m
			continue
		}
		if strings.HasPrefix(t, "#") {
			continue
		}
		for _, s := range statements(t) {
			if strings.HasPrefix(s, "TEXT") {
				f, _, _ := strings.Cut(s, ",")
				fns = append(fns, &fn{name: strings.TrimSpace(strings.TrimPrefix(f, "TEXT"))})
			} else if len(fns) > 0 {
				f := fns[len(fns)-1]
				f.body = append(f.body, expand(macros, stmt{s, l.line}, 0)...)
			}
		}
	}
	var bad []string
	for _, f := range fns {
		usesY := false
		for _, s := range f.body {
			usesY = usesY || yreg.MatchString(s.text)
		}
		if !usesY {
			continue
		}
		prev := ""
		for _, s := range f.body {
			op, _, _ := strings.Cut(s.text, " ")
			if op == "RET" && prev != "VZEROUPPER" {
				bad = append(bad, fmt.Sprintf("%s:%d: RET after Y registers without VZEROUPPER in %s", name, s.line, f.name))
			}
			prev = op
		}
	}
	return bad
}

// logicalLines joins each line ending in a backslash to the next, as a #define's body
// is written, with a ';' between (the assembler ends a statement at each), comments
// cut; each keeps the number of its first line.
func logicalLines(src string) []stmt {
	var out []stmt
	cur, first, open := "", 0, false
	for i, line := range strings.Split(src, "\n") {
		if k := strings.Index(line, "//"); k >= 0 {
			line = line[:k]
		}
		line = strings.TrimRight(line, " \t")
		more := strings.HasSuffix(line, "\\")
		line = strings.TrimSuffix(line, "\\")
		if open {
			cur += ";" + line
		} else {
			cur, first = line, i+1
		}
		if open = more; !open {
			out = append(out, stmt{cur, first})
		}
	}
	if open {
		out = append(out, stmt{cur, first})
	}
	return out
}

// statements splits a line into its statements, their labels left out.
func statements(line string) []string {
	var out []string
	for _, s := range strings.Split(line, ";") {
		s = strings.Join(strings.Fields(s), " ")
		for {
			loc := label.FindStringIndex(s)
			if loc == nil {
				break
			}
			s = strings.TrimSpace(s[loc[1]:])
		}
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// expand is s with the macro it uses replaced by its body, its arguments put in, and
// the macros that body uses expanded in turn (to a depth of 16).
func expand(macros map[string]macro, s stmt, depth int) []stmt {
	m := call.FindStringSubmatch(s.text)
	if m == nil || depth > 16 {
		return []stmt{s}
	}
	mac, ok := macros[m[1]]
	if !ok {
		return []stmt{s}
	}
	var args []string
	if m[2] != "" {
		args = strings.Split(m[2], ",")
	}
	var out []stmt
	for _, b := range mac.body {
		for i, p := range mac.params {
			if i < len(args) {
				b = regexp.MustCompile(`\b`+regexp.QuoteMeta(p)+`\b`).ReplaceAllString(b, strings.TrimSpace(args[i]))
			}
		}
		for _, t := range statements(b) {
			out = append(out, expand(macros, stmt{t, s.line}, depth+1)...)
		}
	}
	return out
}
