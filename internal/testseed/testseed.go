// Package testseed gives random tests their seed. It imports nothing of ooc, so that
// every package's tests can use it, store's (which testgraph imports) included.
package testseed

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
)

// Seed is a random test's seed: OOC_SEED when set, else a fresh one, logged so that
// OOC_SEED reproduces a failure. A malformed OOC_SEED fails the test.
func Seed(tb testing.TB) uint64 {
	tb.Helper()
	seed := rand.Uint64()
	if s := os.Getenv("OOC_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			tb.Fatalf("OOC_SEED=%q: %v", s, err)
		}
	}
	tb.Logf("seed %d (OOC_SEED=%d reproduces)", seed, seed)
	return seed
}
