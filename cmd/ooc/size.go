package main

import "github.com/oocgraph/ooc/internal/bytesize"

// byteSize is a flag holding a byte count written as 512MiB, 8GiB, 6G or 1000000
// (--mem, --shard-size, --vram).
type byteSize int64

func (b *byteSize) String() string {
	if b == nil || *b == 0 {
		return ""
	}
	return bytesize.Format(int64(*b))
}

func (b *byteSize) Set(s string) error {
	n, err := bytesize.Parse(s)
	*b = byteSize(n)
	return err
}
