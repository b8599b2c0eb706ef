package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// byteSize is a flag holding a byte count written as 512MiB, 8GiB, 6G or 1000000
// (--mem, --shard-size, --vram).
type byteSize int64

func (b *byteSize) String() string {
	if b == nil || *b == 0 {
		return ""
	}
	return formatSize(int64(*b))
}

func (b *byteSize) Set(s string) error {
	n, err := parseByteSize(s)
	*b = byteSize(n)
	return err
}

var errSize = errors.New("bad size: want a number of bytes with an optional unit, e.g. 512MiB, 8GiB, 6G")

// parseByteSize reads a byte count with an optional binary (KiB, K) or decimal (KB)
// unit, in any case.
func parseByteSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	units := []struct {
		s string
		m float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
		{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
		{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40}, {"B", 1}}
	mult := 1.0
	for _, u := range units {
		if len(t) > len(u.s) && strings.EqualFold(t[len(t)-len(u.s):], u.s) {
			t, mult = strings.TrimSpace(t[:len(t)-len(u.s)]), u.m
			break
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || f < 0 || math.IsInf(f*mult, 0) || f*mult > math.MaxInt64 {
		return 0, errSize
	}
	return int64(f * mult), nil
}

// formatSize prints a byte count with a binary unit, as parseByteSize reads it back.
func formatSize(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	f, unit := float64(n), ""
	for _, u := range []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"} {
		if f < 1024 {
			break
		}
		f, unit = f/1024, u
	}
	return fmt.Sprintf("%.1f %s", f, unit)
}
