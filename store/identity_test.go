package store

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestGraphIdentity: a graph's identity follows its content: the same lists built twice
// give the same bytes and identity; one edge more gives another identity, in the
// manifest and in every shard's header.
func TestGraphIdentity(t *testing.T) {
	dir := t.TempDir()
	lists := symmetric([][2]uint32{{0, 1}, {1, 2}, {2, 3}})
	a := buildGraph(t, filepath.Join(dir, "a.ooc"), 4, lists, CreateOptions{})
	b := buildGraph(t, filepath.Join(dir, "b.ooc"), 4, lists, CreateOptions{})
	c := buildGraph(t, filepath.Join(dir, "c.ooc"), 4, symmetric([][2]uint32{{0, 1}, {1, 2}, {2, 3}, {0, 3}}), CreateOptions{})
	if a.GraphID == "" || a.GraphID != b.GraphID || a.GraphID == c.GraphID {
		t.Fatalf("identities %q %q %q: want the first two equal and the third different", a.GraphID, b.GraphID, c.GraphID)
	}
	sa, _ := os.ReadFile(filepath.Join(dir, "a.ooc", "out-00000.shard"))
	sb, _ := os.ReadFile(filepath.Join(dir, "b.ooc", "out-00000.shard"))
	if !bytes.Equal(sa, sb) {
		t.Errorf("the same graph built twice gave different shard bytes")
	}
	for _, d := range []string{"a.ooc", "c.ooc"} {
		g, err := Open(filepath.Join(dir, d))
		if err != nil {
			t.Fatal(err)
		}
		if s := g.Out().Shards[0]; s.Version != Version || hex16(s.GraphID) != g.M.GraphID {
			t.Errorf("%s: shard version %d, id %016x; manifest %s", d, s.Version, s.GraphID, g.M.GraphID)
		}
		g.Close()
	}
}

func hex16(x uint64) string { return hex8(uint32(x>>32)) + hex8(uint32(x)) }
