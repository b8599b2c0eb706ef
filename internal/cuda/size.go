package cuda

import (
	"fmt"
	"strconv"
	"strings"
)

// Size formats a byte count with a binary unit.
func Size(n int64) string {
	const u = "KMGTPE"
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	f, i := float64(n)/1024, 0
	for f >= 1024 && i < len(u)-1 {
		f /= 1024
		i++
	}
	return fmt.Sprintf("%.1f %ciB", f, u[i])
}

// ParseSize reads sizes such as 3GiB, 512MiB, 6G, 100000 (bytes).
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, sfx := range []struct {
		s string
		m int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
		{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
		{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40}, {"B", 1}} {
		if strings.HasSuffix(t, sfx.s) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, sfx.s)), sfx.m
			break
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || f < 0 {
		return 0, fmt.Errorf("cuda: bad size %q (want e.g. 3GiB, 512MiB, 6G)", s)
	}
	return int64(f * float64(mult)), nil
}
