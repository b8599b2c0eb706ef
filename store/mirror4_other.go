//go:build !amd64 || purego

package store

func claimMirror4s(es *ListEntry, vs *uint32, n int, pp, qp *uint32, tail, lim, nv int) (k, newTail int) {
	panic("store: claimMirror4s without its assembly")
}

// haveClaimMirror4s says whether claimMirror4s may run: never here.
var haveClaimMirror4s = false
