//go:build !amd64 || purego

package bfs

import "github.com/oocgraph/ooc/store"

func claimRoads1(ents *store.ListEntry, batch *uint32, k, nb int, pp, qp *uint32, tail, n int, m *uint64) (k2, tail2 int, examined uint64) {
	return k, tail, 0
}

// haveClaimRoads1 says whether claimRoads1 may run: never here.
var haveClaimRoads1 = false
