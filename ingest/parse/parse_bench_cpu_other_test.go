//go:build !unix

package parse

func cpuSeconds() float64 { return 0 }
