//go:build !amd64 || purego

package store

func prefetchLines(p *byte, n uintptr) {}

const havePrefetch = false

func prefetchAt(base *byte, offs *uint32, n int) {}

func prefetchIdx4(base *uint32, idx *uint32, n int) {}
