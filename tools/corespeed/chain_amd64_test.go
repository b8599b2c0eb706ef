//go:build amd64 && !purego

package main

import "testing"

// TestChainAdds: the assembly's chain runs its n iterations of eight adds of 1 (none for
// n <= 0), so a loop or an add lost from it shows.
func TestChainAdds(t *testing.T) {
	for _, n := range []int64{-3, 0, 1, 2, 1000} {
		if got, want := chain(n), 8*max(n, 0); got != want {
			t.Errorf("chain(%d) = %d, want %d", n, got, want)
		}
	}
}
