//go:build unix

package parse

import "syscall"

// cpuSeconds is the user+system CPU time of the process so far: edges per
// CPU-second is the honest per-core rate, since the reader goroutine and the
// garbage collector run beside the workers.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
