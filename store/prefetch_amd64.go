//go:build amd64 && !purego

package store

// prefetchLines asks for the cache lines of [p, p+n) (store/prefetch_amd64.s).
//
//go:noescape
func prefetchLines(p *byte, n uintptr)

const havePrefetch = true
