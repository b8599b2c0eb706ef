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
		{Of(uint64(1), "entry"), "1 entry"},
		{Of(0, "entry"), "0 entries"},
		{Of(2, "search"), "2 searches"},
		{Of(1, "trailing byte"), "1 trailing byte"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
