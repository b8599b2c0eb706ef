//go:build amd64 && !purego

package store

// entriesNarrow is entries' loop in registers (store/entries_amd64.s): it fills dst[k]
// for vs[k] from k = 0 while the vertex lies in the shard and its entry takes no other
// path (a pair that does not fit one load, a list's first word past the mapping's end),
// and returns how many it filled.
//
//go:noescape
func entriesNarrow(h *uint32, b *byte, nb uintptr, adj *byte, nadj uintptr, lo, n uint32, dst *ListEntry, vs *uint32, nv int, m *uint32) int

const haveEntriesNarrow = true
