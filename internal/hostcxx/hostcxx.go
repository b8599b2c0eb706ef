// Package hostcxx compiles pieces of the project's CUDA sources as host C++ in tests, with
// the CUDA qualifiers defined away by the caller's harness, so that device code is held to
// its Go twin on machines without a GPU. A test that uses it skips where g++ is missing;
// CheckDefines, which compiles nothing, runs everywhere.
package hostcxx

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// defineRE matches a source's integer #defines.
var defineRE = regexp.MustCompile(`(?m)^#define ([A-Z_][A-Z0-9_]*) (\d+)`)

// CheckDefines holds the integer #defines of the CUDA source at path to want, the Go
// constants that read the words, steps and counters they name, and returns the source for
// the caller's further checks.
func CheckDefines(tb testing.TB, path string, want map[string]int) []byte {
	tb.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	got := map[string]int{}
	for _, m := range defineRE.FindAllStringSubmatch(string(src), -1) {
		v, _ := strconv.Atoi(m[2])
		got[m[1]] = v
	}
	for name, w := range want {
		if g, ok := got[name]; !ok || g != w {
			tb.Errorf("%s: %s = %d (defined %v), Go says %d", filepath.Base(path), name, g, ok, w)
		}
	}
	return src
}

// Prelude stands before the cut code in a harness: the C headers harnesses use, and the
// CUDA names the device code needs defined for the host (qualifiers away, uint4, __ldg
// as a plain load, atomicCAS as a plain compare and store).
const Prelude = `#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
struct uint4 { uint32_t x, y, z, w; };
struct ulonglong2 { unsigned long long x, y; };
#define __device__
#define __constant__
#define __forceinline__ inline
template <class T> static inline T __ldg(const T *p) { return *p; }
static inline unsigned long long atomicCAS(unsigned long long *p, unsigned long long c, unsigned long long v) {
	unsigned long long o = *p;
	if (o == c) *p = v;
	return o;
}
`

// Source is the text of one CUDA source file, read to be cut into a harness.
type Source struct {
	tb   testing.TB
	path string
	text string
}

// Read reads the source at path. It skips the test when no g++ is on PATH, since nothing
// cut from the source could be compiled.
func Read(tb testing.TB, path string) *Source {
	tb.Helper()
	if _, err := exec.LookPath("g++"); err != nil {
		tb.Skip("no g++")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return &Source{tb: tb, path: path, text: string(b)}
}

// Cut returns the text from the first occurrence of from up to the first occurrence of
// to, which must come after it: the markers are comments or declarations in the source,
// so a rename there fails the test rather than compiling the wrong piece.
func (s *Source) Cut(from, to string) string {
	s.tb.Helper()
	a, b := strings.Index(s.text, from), strings.Index(s.text, to)
	if a < 0 || b < a {
		s.tb.Fatalf("%s: no %q before %q", s.path, from, to)
	}
	return s.text[a:b]
}

// Build compiles the C++17 program code in a temporary directory of tb and returns the
// executable's path.
func Build(tb testing.TB, code string) string {
	tb.Helper()
	cxx, err := exec.LookPath("g++")
	if err != nil {
		tb.Skip("no g++")
	}
	dir := tb.TempDir()
	src, bin := filepath.Join(dir, "check.cc"), filepath.Join(dir, "check")
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		tb.Fatal(err)
	}
	if out, err := exec.Command(cxx, "-O1", "-std=c++17", "-o", bin, src).CombinedOutput(); err != nil {
		tb.Fatalf("g++: %v\n%s", err, out)
	}
	return bin
}
