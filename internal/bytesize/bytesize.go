// Package bytesize reads and prints byte counts the way users type them on the command
// line (--mem 8GiB, --vram 3GiB, --shard-size 512MiB) and the way ooc reports them.
package bytesize

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ErrSyntax is returned by Parse for anything that is not a byte count.
var ErrSyntax = errors.New("bad size: want a number of bytes with an optional unit, e.g. 512MiB, 8GiB, 6G")

// ErrTooLarge is returned by Parse for a byte count of 2^63 or more (an int64 holds less).
var ErrTooLarge = errors.New("size too large: want less than 8 EiB (2^63 bytes)")

var units = []struct {
	s string
	m float64
}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"PiB", 1 << 50}, {"EiB", 1 << 60},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
	{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40}, {"B", 1}}

// Parse reads a byte count with an optional binary (KiB, K) or decimal (KB) unit, in
// any case: "512MiB", "6G", "1.5 GiB", "4096". The number is written in decimal (digits,
// a point, an exponent: no "1_000" or "0x1p30", as ids and weights); a count that is not
// zero but under one byte ("0.5", "1e-10GiB") is refused, since 0 means a default.
func Parse(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := 1.0
	for _, u := range units {
		if len(t) > len(u.s) && strings.EqualFold(t[len(t)-len(u.s):], u.s) {
			t, mult = strings.TrimSpace(t[:len(t)-len(u.s)]), u.m
			break
		}
	}
	if t == "" || strings.Trim(t, "0123456789.eE+-") != "" {
		return 0, ErrSyntax
	}
	if mult == 1 && strings.Trim(t, "0123456789") == "" {
		// whole bytes in digits: exact up to 2^63-1, which a float64 rounds up
		n, err := strconv.ParseInt(t, 10, 64)
		switch {
		case errors.Is(err, strconv.ErrRange):
			return 0, ErrTooLarge
		case err != nil:
			return 0, ErrSyntax
		}
		return n, nil
	}
	f, err := strconv.ParseFloat(t, 64)
	switch {
	case errors.Is(err, strconv.ErrRange) && f > 0, err == nil && (math.IsInf(f*mult, 1) || f*mult >= math.MaxInt64):
		return 0, ErrTooLarge
	case err != nil || math.IsNaN(f) || f < 0:
		return 0, ErrSyntax
	}
	mant, _, _ := strings.Cut(strings.ToLower(t), "e")
	if f*mult < 1 && strings.ContainsAny(mant, "123456789") {
		return 0, ErrSyntax // not zero, yet no whole byte: it would read as 0, the default
	}
	return int64(f * mult), nil
}

// Format prints a byte count with a binary unit ("1.5 GiB"), which Parse reads back.
func Format(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	f, i := float64(n)/1024, 0
	for f >= 1024 && i < len("KMGTPE")-1 {
		f /= 1024
		i++
	}
	return fmt.Sprintf("%.1f %ciB", f, "KMGTPE"[i])
}
