package testseed

import "testing"

// TestSeedFromEnv: OOC_SEED is the seed when set.
func TestSeedFromEnv(t *testing.T) {
	t.Setenv("OOC_SEED", "18446744073709551615")
	if got := Seed(t); got != 1<<64-1 {
		t.Fatalf("Seed = %d under OOC_SEED=2^64-1", got)
	}
}
