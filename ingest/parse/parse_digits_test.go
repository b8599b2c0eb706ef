package parse

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestScanUint compares the scanner with strconv for every
// id length, every terminator class and every position near a block's end.
func TestScanUint(t *testing.T) {
	const seed = 5
	r := rand.New(rand.NewPCG(seed, seed))
	terms := []byte{' ', '\t', ',', '\n', '\r', 'x', '/', ':', 0, 0xff, '.', '-'}
	for digits := 1; digits <= 24; digits++ {
		for range 200 {
			s := make([]byte, digits)
			for k := range s {
				s[k] = byte('0' + r.IntN(10))
			}
			if r.IntN(4) == 0 {
				s[0] = '9' // near the overflow boundary more often
			}
			pad := r.IntN(20)
			in := append(append([]byte(nil), s...), terms[r.IntN(len(terms))])
			in = append(in, make([]byte, pad)...)
			want, err := strconv.ParseUint(string(s), 10, 64)
			v, j, ok := scanUint(in, 0)
			if ok != (err == nil) || (ok && (v != want || j != digits)) {
				t.Fatalf("seed %d: scanUint(%q) = %d, %d, %v; want %d, %d, %v", seed, in, v, j, ok, want, digits, err == nil)
			}
		}
	}
}

func TestScanUintAtEnd(t *testing.T) {
	for _, s := range []string{"0", "7", "12345678", "123456789", "1234567890123456", "18446744073709551615"} {
		v, j, ok := scanUint([]byte(s), 0)
		want, _ := strconv.ParseUint(s, 10, 64)
		if !ok || v != want || j != len(s) {
			t.Errorf("scanUint(%q) = %d, %d, %v", s, v, j, ok)
		}
	}
}
