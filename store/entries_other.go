//go:build !amd64 || purego

package store

func entriesNarrow(h *uint32, b *byte, nb uintptr, adj *byte, nadj uintptr, lo, n uint32, dst *ListEntry, vs *uint32, nv int) int {
	panic("store: entriesNarrow without its assembly")
}

// haveEntriesNarrow says whether entriesNarrow may run: never here.
var haveEntriesNarrow = false
