//go:build amd64 && !purego

package store

import "golang.org/x/sys/cpu"

// entriesNarrow is entries' loop in registers (store/entries_amd64.s): it fills dst[k]
// for vs[k] from k = 0 (nv > 0 of them) while the vertex lies in the shard and its
// entry takes no other path (a pair that does not fit one load, a list's first word
// past the mapping's end), and returns how many it filled.
//
//go:noescape
func entriesNarrow(h *uint32, b *byte, nb uintptr, adj *byte, nadj uintptr, lo, n uint32, dst *ListEntry, vs *uint32, nv int) int

// haveEntriesNarrow says whether entriesNarrow may run: the processor has BMI2 (SHRX,
// BZHI). Tests turn it off to hold the Go loop to the same
// references.
var haveEntriesNarrow = cpu.X86.HasBMI2
