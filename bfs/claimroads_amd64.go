//go:build amd64 && !purego

package bfs

import (
	"github.com/oocgraph/ooc/store"
	"golang.org/x/sys/cpu"
)

// claimRoads1 is claimRoads's loop over lists of one to three values in registers
// (bfs/claimroads_amd64.s): from batch[k] (ents[k] its entry) to batch[nb-1] while each
// is one, into the parent array at pp and the queue at qp; n is the vertex count, m is
// &roadMask[0]. It returns the index of the first list it left, the new tail and the
// neighbours examined.
//
//go:noescape
func claimRoads1(ents *store.ListEntry, batch *uint32, k, nb int, pp, qp *uint32, tail, n int, m *uint64) (k2, tail2 int, examined uint64)

// haveClaimRoads1 says whether claimRoads1 may run: the processor has BMI1, BMI2 and
// POPCNT. Tests turn it off to hold claimRoads's Go loop to the same rule.
var haveClaimRoads1 = cpu.X86.HasBMI1 && cpu.X86.HasBMI2 && cpu.X86.HasPOPCNT
