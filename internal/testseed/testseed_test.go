package testseed

import "testing"

// TestSeedFromEnv: OOC_SEED is the seed when set.
func TestSeedFromEnv(t *testing.T) {
	t.Setenv("OOC_SEED", "18446744073709551615")
	if got := Seed(t); got != 1<<64-1 {
		t.Fatalf("Seed = %d under OOC_SEED=2^64-1", got)
	}
}

// TestSeedOncePerTest: without OOC_SEED, every call of one test returns the seed its
// first call drew, so that the seed logged reproduces all of them.
func TestSeedOncePerTest(t *testing.T) {
	t.Setenv("OOC_SEED", "")
	a, b := Seed(t), Seed(t)
	if a != b {
		t.Fatalf("two calls of one test drew %d and %d", a, b)
	}
	var sub [2]uint64
	for i := range sub {
		t.Run("sub", func(t *testing.T) { sub[i] = Seed(t) })
	}
	if sub[0] == sub[1] && sub[0] == a {
		t.Fatalf("subtests and their parent share seed %d", a)
	}
}
