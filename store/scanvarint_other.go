//go:build !amd64 || purego

package store

// scanVarintsBMI is never called without haveBMI.
func scanVarintsBMI(b *byte, p, ln, cp int, cur uint64, n int, nv uint64, front *uint64) (x uint64, k, next, status int) {
	panic("store: scanVarintsBMI without BMI1 and BMI2")
}
