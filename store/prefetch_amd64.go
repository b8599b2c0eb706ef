//go:build amd64 && !purego

package store

// prefetchLines asks for the cache lines of [p, p+n) (store/prefetch_amd64.s).
//
//go:noescape
func prefetchLines(p *byte, n uintptr)

const havePrefetch = true

// prefetchAt asks for the cache line at base + offs[i] for each i below n
// (store/prefetch_amd64.s).
//
//go:noescape
func prefetchAt(base *byte, offs *uint32, n int)

// prefetchIdx4 asks for the cache line of base[idx[i]] (4-byte elements) for each i
// below n (store/prefetch_amd64.s).
//
//go:noescape
func prefetchIdx4(base *uint32, idx *uint32, n int)
