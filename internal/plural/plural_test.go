package plural

import "testing"

func TestOf(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{Of(1, "shard"), "1 shard"},
		{Of(0, "shard"), "0 shards"},
		{Of(uint64(2), "shard"), "2 shards"},
		{Of(uint32(1), "vertex"), "1 vertex"},
		{Of(int64(4039), "vertex"), "4039 vertices"},
		{Of(1, "input edge"), "1 input edge"},
		{Of(3, "input edge"), "3 input edges"},
		{Of(2, "isolated vertex"), "2 isolated vertices"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
