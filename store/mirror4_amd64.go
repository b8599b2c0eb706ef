//go:build amd64 && !purego

package store

// claimMirror4s is ClaimMirror4s's loop in registers (store/mirror4_amd64.s) over es[0:n]
// and vs[0:n] (n > 0): lim is nv-4. It returns the lists it expanded and the new tail.
//
//go:noescape
func claimMirror4s(es *ListEntry, vs *uint32, n int, pp, qp *uint32, tail, lim, nv int) (k, newTail int)

// haveClaimMirror4s says whether claimMirror4s may run: where headFirstBMI may (BMI1,
// BMI2 and a PEXT that is not microcoded). Tests turn it off to hold the Go loop to the
// same references.
var haveClaimMirror4s = haveBMI
