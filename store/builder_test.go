package store

import "testing"

// TestShardNames: --force recognizes every name the writer gives a shard, and nothing else.
func TestShardNames(t *testing.T) {
	for _, d := range []Direction{Out, In} {
		for _, i := range []int{0, 7, 99999, 123456} {
			if name := shardName(d, i); !isShardName(name) {
				t.Errorf("%s not recognized as a shard's name", name)
			}
		}
	}
	for _, name := range []string{"out-0001.shard", "in-00001.shard.tmp", "both-00001.shard", "out-0000a.shard", "out-.shard", "out-00001", "ids.bin", "manifest.json", "OUT-00001.shard"} {
		if isShardName(name) {
			t.Errorf("%s recognized as a shard's name", name)
		}
	}
}
