// Package testseed gives random tests their seed. It imports nothing of ooc, so that
// every package's tests can use it, store's (which testgraph imports) included.
package testseed

import (
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"
)

var (
	mu    sync.Mutex
	drawn = map[string]uint64{} // a test's seed by its name, once drawn
)

// Seed is a random test's seed: OOC_SEED when set, else one drawn at the test's first
// call and returned by every later call of the same test, so that the one seed logged
// reproduces all of a failing test's random inputs. A malformed OOC_SEED fails the test.
func Seed(tb testing.TB) uint64 {
	tb.Helper()
	if s := os.Getenv("OOC_SEED"); s != "" {
		seed, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			tb.Fatalf("OOC_SEED=%q: %v", s, err)
		}
		return seed
	}
	mu.Lock()
	defer mu.Unlock()
	seed, ok := drawn[tb.Name()]
	if !ok {
		seed = rand.Uint64()
		drawn[tb.Name()] = seed
		tb.Logf("seed %d (OOC_SEED=%d reproduces)", seed, seed)
	}
	return seed
}
