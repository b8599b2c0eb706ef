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

// openCommitted commits b, a builder of n vertices writing to dir, opens the graph and
// closes it when the test ends.
func openCommitted(tb testing.TB, b *Builder, dir string, n uint32) *Graph {
	tb.Helper()
	if err := b.Commit(&Manifest{Vertices: n, Created: fixtureCreated}); err != nil {
		tb.Fatal(err)
	}
	g, err := Open(dir)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { g.Close() })
	return g
}
