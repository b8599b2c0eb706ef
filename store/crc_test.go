package store

import (
	"math/rand/v2"
	"testing"
)

func TestCRC32CCombine(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 1<<17)
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	// Lengths around the powers of two the squaring steps through, and random ones.
	lens := []int{0, 1, 2, 3, 4, 7, 8, 9, 63, 64, 65, 1000, 4096, 65535, 65536}
	for range 30 {
		lens = append(lens, rng.IntN(len(buf)))
	}
	for _, n := range lens {
		a := rng.IntN(len(buf) - n + 1)
		whole := buf[:a+n]
		got := CRC32CCombine(CRC32C(whole[:a]), CRC32C(whole[a:]), int64(n))
		if want := CRC32C(whole); got != want {
			t.Fatalf("a %d bytes, b %d bytes: combined %08x, want %08x", a, n, got, want)
		}
	}
	// Worked example: CRC32C("123456789") = e3069283 (the standard check value).
	if got := CRC32CCombine(CRC32C([]byte("1234")), CRC32C([]byte("56789")), 5); got != 0xe3069283 {
		t.Fatalf("CRC32C of 1234|56789 = %08x, want e3069283", got)
	}
}
