//go:build !linux

package pages

const (
	huge     = 0
	populate = 0
)

const pageSize = 4096

// advise does nothing outside Linux: the stores fault the pages in.
func advise(b []byte, advice int) {}
