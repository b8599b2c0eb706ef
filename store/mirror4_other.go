//go:build !amd64 || purego

package store

func claimMirror4s(es *ListEntry, vs *uint32, n int, pp, qp *uint32, tail, lim, nv int, m *uint64) (k, newTail int) {
	return 0, tail
}

const haveClaimMirror4s = false
