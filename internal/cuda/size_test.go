package cuda

import "testing"

func TestSize(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{{0, "0 B"}, {1023, "1023 B"}, {1024, "1.0 KiB"}, {3 << 30, "3.0 GiB"}, {1536 << 20, "1.5 GiB"}} {
		if got := Size(c.n); got != c.want {
			t.Errorf("Size(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
