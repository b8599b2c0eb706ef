// Package parallel runs loops over index ranges on several goroutines.
package parallel

import (
	"fmt"
	"runtime"
	"sync/atomic"

	"github.com/oocgraph/ooc/internal/fault"
)

// For runs body over [0, n) in chunks of chunk items handed out dynamically, on
// workers goroutines; w is the worker's index, for per-worker state. Dynamic chunks keep
// skewed work (a hub's list in one chunk) from idling the other cores.
func For(workers, n, chunk int, body func(w, lo, hi int)) {
	if n <= 0 {
		return
	}
	workers = min(workers, (n+chunk-1)/chunk)
	if workers <= 1 {
		for lo := 0; lo < n; lo += chunk {
			body(0, lo, min(lo+chunk, n))
		}
		return
	}
	var next atomic.Int64
	var wg fault.Group
	for w := range workers {
		wg.Go(func() {
			for {
				lo := int(next.Add(int64(chunk))) - chunk
				if lo >= n {
					return
				}
				body(w, lo, min(lo+chunk, n))
			}
		})
	}
	wg.Wait()
}

// MaxWorkers bounds a worker count: every worker holds its own buffers (frontiers,
// parse blocks, peeling queues), and a count far past the cores only multiplies them.
// gen and ingest/parse, below this package, hold the same bound.
const MaxWorkers = 4096

// CheckWorkers refuses a worker count below 0 or past MaxWorkers, naming it as field
// (e.g. "bfs: Options.Workers"). Every worker count, a flag of the CLI or a field of
// the API, follows one rule: 0 asks for the default (GOMAXPROCS), 1 to MaxWorkers is
// used as given, and any other count is refused, as a slip (a count computed below
// zero, or a size passed for a count) rather than a request.
func CheckWorkers(field string, n int) error {
	if n < 0 || n > MaxWorkers {
		return fmt.Errorf("%s %d: want 0 (GOMAXPROCS) to %d goroutines", field, n, MaxWorkers)
	}
	return nil
}

// Workers resolves a worker count that CheckWorkers accepted: 0 means GOMAXPROCS (a
// count past MaxWorkers is MaxWorkers).
func Workers(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return min(n, MaxWorkers)
}
