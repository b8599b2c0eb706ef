//go:build amd64 && !purego

package store

// scanVarintsBMI is scanVarints's loop in assembly (store/scanvarint_amd64.s) for
// haveBMI: list's bytes at b, its length ln and capacity cp; front holds a bit for every
// value below nv. It returns what scanVarints returns.
//
//go:noescape
func scanVarintsBMI(b *byte, p, ln, cp int, cur uint64, n int, nv uint64, front *uint64) (x uint64, k, next, status int)

// The statuses scanvarint_amd64.s spells as numbers: a build error here when they change.
var _ = [1]struct{}{}[NotFound]
var _ = [1]struct{}{}[Found-1]
var _ = [1]struct{}{}[Malformed-2]
var _ = [1]struct{}{}[scanSlow-3]
