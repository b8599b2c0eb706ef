package gpu

import (
	"os"
	"reflect"
	"regexp"
	"strconv"
	"testing"
)

// TestShardEntryLayout holds gpu.ShardEntry to store/graph.cuh's struct Shard: the
// header's static_asserts (which nvcc checks against the C struct) must name every field
// of ShardEntry, in order, at its Go offset, and the size must agree.
func TestShardEntryLayout(t *testing.T) {
	b, err := os.ReadFile("../store/graph.cuh")
	if err != nil {
		t.Fatal(err)
	}
	size := regexp.MustCompile(`static_assert\(sizeof\(Shard\) == (\d+),`).FindSubmatch(b)
	if size == nil {
		t.Fatal("store/graph.cuh: no static_assert on sizeof(Shard)")
	}
	if n, _ := strconv.Atoi(string(size[1])); uintptr(n) != reflect.TypeFor[ShardEntry]().Size() {
		t.Errorf("sizeof(Shard) is %d in store/graph.cuh, ShardEntry is %d bytes", n, reflect.TypeFor[ShardEntry]().Size())
	}
	// C field name -> Go field name
	goName := map[string]string{"adj": "Adj", "dir": "Dir", "bits": "Bits", "lo": "Lo", "n": "N", "pinned": "Pinned", "pad": "Pad"}
	asserts := regexp.MustCompile(`static_assert\(offsetof\(Shard, (\w+)\) == (\d+),`).FindAllSubmatch(b, -1)
	typ := reflect.TypeFor[ShardEntry]()
	if len(asserts) != typ.NumField() {
		t.Fatalf("store/graph.cuh asserts %d offsets of Shard, ShardEntry has %d fields", len(asserts), typ.NumField())
	}
	for i, a := range asserts {
		c, off := string(a[1]), string(a[2])
		f := typ.Field(i)
		if goName[c] != f.Name {
			t.Errorf("field %d: Shard.%s in store/graph.cuh, ShardEntry.%s in Go", i, c, f.Name)
		}
		if n, _ := strconv.Atoi(off); uintptr(n) != f.Offset {
			t.Errorf("Shard.%s is at %s in store/graph.cuh, ShardEntry.%s at %d", c, off, f.Name, f.Offset)
		}
	}
}
