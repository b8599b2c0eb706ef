//go:build amd64 && !purego

package store

// claimMirror4s is ClaimMirror4s's loop in registers (store/mirror4_amd64.s) over es[0:n]
// and vs[0:n]: lim is nv-4, m is &varintMask[0]. It returns the lists it expanded and
// the new tail.
//
//go:noescape
func claimMirror4s(es *ListEntry, vs *uint32, n int, pp, qp *uint32, tail, lim, nv int, m *uint64) (k, newTail int)

const haveClaimMirror4s = true
