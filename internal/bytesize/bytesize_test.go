package bytesize

import (
	"errors"
	"math"
	"testing"
)

func TestParse(t *testing.T) {
	for s, want := range map[string]int64{"4096": 4096, "512MiB": 512 << 20, "6G": 6 << 30, "1.5 GiB": 3 << 29,
		"2kb": 2000, "3gib": 3 << 30, "0": 0, "7B": 7, "0.0": 0, "0e5": 0, "1e3": 1000, ".5KiB": 512, "1.9": 1, "9223372036854775807": math.MaxInt64, "9223372036854775807B": math.MaxInt64} {
		if got, err := Parse(s); err != nil || got != want {
			t.Errorf("Parse(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"1e30TiB", "8EiB", "9223372036854775808", "8388608TiB", "1e400"} {
		if _, err := Parse(s); !errors.Is(err, ErrTooLarge) {
			t.Errorf("Parse(%q): %v, want ErrTooLarge", s, err)
		}
	}
	for _, s := range []string{"", "12XB", "-1", "GiB", "abc", "NaN", "-1e400",
		"0.5", "0.9B", "1e-400", "1e-10GiB", "1_000", "0x1p10", "Infinity", "1 000"} {
		if _, err := Parse(s); !errors.Is(err, ErrSyntax) {
			t.Errorf("Parse(%q): %v, want ErrSyntax", s, err)
		}
	}
}

func TestFormatParsesBack(t *testing.T) {
	for _, n := range []int64{0, 1023, 1024, 1536, 512 << 20, 3 << 30, 1 << 50} {
		s := Format(n)
		got, err := Parse(s)
		if err != nil || got < n-n/100 || got > n+n/100 {
			t.Errorf("Format(%d) = %q parses to %d, %v", n, s, got, err)
		}
	}
	if s := Format(3 << 30); s != "3.0 GiB" {
		t.Errorf("Format(3GiB) = %q", s)
	}
}

func TestFormatExact(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{{0, "0 B"}, {1023, "1023 B"}, {1024, "1.0 KiB"}, {3 << 30, "3.0 GiB"}, {1536 << 20, "1.5 GiB"}} {
		if got := Format(c.n); got != c.want {
			t.Errorf("Format(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
