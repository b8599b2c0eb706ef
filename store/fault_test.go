package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestFaultBecomesCorrupt: a shard truncated after it was opened faults its readers
// (SIGBUS on the lost pages); the checking goroutines turn the fault into a
// CorruptError naming the file, instead of crashing the process.
func TestFaultBecomesCorrupt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "g.ooc")
	lists := map[uint32][]uint32{}
	for v := uint32(0); v < 20000; v++ {
		lists[v] = []uint32{(v + 7919) % 20000, (v + 104729) % 20000}
	}
	buildGraph(t, dir, 20000, lists, CreateOptions{})
	g, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	shard := filepath.Join(dir, "out-00000.shard")
	if err := os.Truncate(shard, 8192); err != nil {
		t.Fatal(err)
	}
	err = func() (err error) {
		defer CatchFault(&err)
		return g.Check()
	}()
	var ce *CorruptError
	if !errors.As(err, &ce) || ce.Path != shard {
		t.Fatalf("got %v, want a CorruptError naming %s", err, shard)
	}
	t.Log(err)
}
