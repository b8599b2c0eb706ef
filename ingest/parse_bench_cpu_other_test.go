//go:build !unix

package ingest

func cpuSeconds() float64 { return 0 }
