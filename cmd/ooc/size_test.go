package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/internal/bytesize"
)

func TestByteSizeFlag(t *testing.T) {
	var b byteSize
	if err := b.Set("1.5GiB"); err != nil || int64(b) != 3<<29 || b.String() != "1.5 GiB" {
		t.Fatalf("Set(1.5GiB): %d %q %v", b, b.String(), err)
	}
	if err := b.Set("12XB"); !errors.Is(err, bytesize.ErrSyntax) {
		t.Fatalf("Set(12XB): %v, want bytesize.ErrSyntax", err)
	}
	var zero byteSize
	if zero.String() != "" {
		t.Fatalf("zero prints %q, want empty (flag default)", zero.String())
	}
}

// TestRealNumberUnderflow: --tolerance and --delta refuse a number written nonzero that
// float64 rounds to 0: --delta 1e-400 ran with the default bin width, --tolerance 1e-400
// was refused as "--tolerance 0", a number the user never wrote. A zero written as such
// keeps its meaning, and the smallest subnormal is a positive number.
func TestRealNumberUnderflow(t *testing.T) {
	g := bfsGraph(t)
	for _, c := range []struct{ cmd, flag string }{{"pagerank", "--tolerance"}, {"sssp", "--delta"}} {
		for _, v := range []string{"1e-400", "-1e-400", "0x1p-2000", "0.0001e-999", "+1E-330"} {
			args := []string{c.cmd, c.flag, v, g}
			if c.cmd == "sssp" {
				args = append([]string{"sssp", "--unit-weights", "--src", "0"}, args[1:]...)
			}
			code, stdout, stderr := runCLI(t, "", args...)
			want := fmt.Sprintf("ooc %s: invalid value %q for flag -%s: nonzero but closer to 0 than a float64 holds", c.cmd, v, c.flag[2:])
			if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", args, code, stderr, want)
			}
		}
	}
	for _, v := range []string{"0", "-0", "0e5", "0.000e-999", "0x0p-2000"} {
		if code, stdout, stderr := runCLI(t, "", "sssp", "--unit-weights", "--src", "0", "--delta", v, g); code != exitOK || !strings.Contains(stdout, "(delta 1)") {
			t.Errorf("--delta %s: exit %d, %q %q; want the default bin width", v, code, stdout, stderr)
		}
	}
	if code, _, stderr := runCLI(t, "", "pagerank", "--tolerance", "5e-324", "--max-iters", "3", g); code != exitOK {
		t.Errorf("--tolerance 5e-324: exit %d, %q", code, stderr)
	}
	for _, c := range []struct{ in, want string }{{"1e400", "value out of range"}, {"x", "parse error"}, {"", "parse error"}} {
		if code, _, stderr := runCLI(t, "", "pagerank", "--tolerance", c.in, g); code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("--tolerance %q: exit %d, %q; want %q", c.in, code, stderr, c.want)
		}
	}
}

// TestDecimalFlags: integer flags read a leading zero as decimal (--scale 010 is 10, as
// --src 010 is vertex 10; the flag package read it as octal 8), and their defaults and
// limits stay: 2^63-1 and 2^64-1 taken, one more out of range.
func TestDecimalFlags(t *testing.T) {
	var i int
	var u uint64
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	intFlag(fs, &i, "i", -1, "`N`")
	uintFlag(fs, &u, "u", 7, "`X`")
	if i != -1 || u != 7 || fs.Lookup("i").DefValue != "-1" || fs.Lookup("u").DefValue != "7" {
		t.Fatalf("defaults: %d %d %q %q", i, u, fs.Lookup("i").DefValue, fs.Lookup("u").DefValue)
	}
	for _, c := range []struct {
		args []string
		i    int
		u    uint64
	}{
		{[]string{"-i", "010", "-u", "010"}, 10, 10},
		{[]string{"-i", "-08", "-u", "09"}, -8, 9},
		{[]string{"-i", "9223372036854775807", "-u", "18446744073709551615"}, math.MaxInt, math.MaxUint64},
	} {
		if err := fs.Parse(c.args); err != nil || i != c.i || u != c.u {
			t.Errorf("%v: %d %d %v, want %d %d", c.args, i, u, err, c.i, c.u)
		}
	}
	for _, args := range [][]string{{"-i", "0x10"}, {"-i", "1e3"}, {"-i", "9223372036854775808"}, {"-u", "-1"}, {"-u", "18446744073709551616"}, {"-u", ""}} {
		if err := fs.Parse(args); err == nil {
			t.Errorf("%v: taken", args)
		}
	}
	g := bfsGraph(t)
	code, stdout, stderr := runCLI(t, "", "bfs", "--sources", "03", g)
	if code != exitOK || !strings.Contains(stdout, "median of 3 sources") {
		t.Errorf("bfs --sources 03: exit %d, %q %q", code, stdout, stderr)
	}
}
