//go:build !amd64 || purego

package main

// chain runs n iterations of eight independent adds, bound by the issue width.
func chain(n int64) int64 {
	var a, b, c, d, e, f, g, h int64
	for i := int64(0); i < n; i++ {
		a += i
		b += i ^ 1
		c += i ^ 2
		d += i ^ 3
		e += i ^ 4
		f += i ^ 5
		g += i ^ 6
		h += i ^ 7
	}
	return a + b + c + d + e + f + g + h
}
