//go:build !linux

package pages

import "unsafe"

const populate = 0

const pageSize = 4096

// advise does nothing outside Linux: the stores fault the pages in.
func advise(b []byte, advice int) {}

// adviseHuge does nothing outside Linux.
func adviseHuge(b []byte, obj unsafe.Pointer) {}
