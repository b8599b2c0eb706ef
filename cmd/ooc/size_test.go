package main

import (
	"errors"
	"testing"

	"github.com/oocgraph/ooc/internal/bytesize"
)

func TestByteSizeFlag(t *testing.T) {
	var b byteSize
	if err := b.Set("1.5GiB"); err != nil || int64(b) != 3<<29 || b.String() != "1.5 GiB" {
		t.Fatalf("Set(1.5GiB): %d %q %v", b, b.String(), err)
	}
	if err := b.Set("12XB"); !errors.Is(err, bytesize.ErrSyntax) {
		t.Fatalf("Set(12XB): %v, want bytesize.ErrSyntax", err)
	}
	var zero byteSize
	if zero.String() != "" {
		t.Fatalf("zero prints %q, want empty (flag default)", zero.String())
	}
}
