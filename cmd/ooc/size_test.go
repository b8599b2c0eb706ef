package main

import "testing"

func TestParseByteSize(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "100": 100, "1K": 1024, "512MiB": 512 << 20, "1.5GiB": 3 << 29, "6g": 6 << 30, "2KB": 2000} {
		if got, err := parseByteSize(in); err != nil || got != want {
			t.Errorf("parseByteSize(%q) = %d, %v, want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-1", "MiB", "1 XB", "1e30T"} {
		if _, err := parseByteSize(in); err == nil {
			t.Errorf("parseByteSize(%q) accepted", in)
		}
	}
	for _, n := range []int64{0, 1023, 1024, 3 << 29, 6 << 30} {
		back, err := parseByteSize(formatSize(n))
		if err != nil || back != n {
			t.Errorf("formatSize(%d) = %q reads back as %d, %v", n, formatSize(n), back, err)
		}
	}
}
