// Command corespeed prints how fast the core it runs on executes a fixed scalar chain
// now: the median nanoseconds of chunks of 10,000 iterations over -ms milliseconds.
//
// On the device's KVM guest each vCPU shares a physical core with another tenant's
// thread, and that sibling's load comes and goes within seconds: the chain's chunk took
// 1.7-2.0x its best time on the vCPUs whose sibling was busy (sd15, docs/log-2026-11-26.md),
// and ooc's searches slowed more than GAPBS's there (Slashdot 1.39x against 1.26x).
// scripts/cpu-vs-gapbs.py runs it around each measured set (env CORESPEED) to tell the
// times taken on a quiet core from the others. On amd64 the chain is eight dependent adds
// of an immediate an iteration, which the device's Xeon (Emerald Rapids) folds at
// rename: bound by the issue width the sibling shares, not by a latency it would not.
//
// Usage: taskset -c CORE corespeed [-ms 3]
package main

import (
	"flag"
	"fmt"
	"slices"
	"time"
)

const chunk = 10000

func main() {
	ms := flag.Int("ms", 3, "milliseconds to measure")
	flag.Parse()
	fmt.Println(measure(time.Duration(*ms) * time.Millisecond))
}

// measure is the median nanoseconds of a chunk of the chain over d.
func measure(d time.Duration) int64 {
	var ns []int64
	end := time.Now().Add(d)
	for len(ns) == 0 || time.Now().Before(end) {
		t := time.Now()
		chain(chunk)
		ns = append(ns, time.Since(t).Nanoseconds())
	}
	slices.Sort(ns)
	return ns[len(ns)/2]
}
