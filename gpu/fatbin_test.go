package gpu

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFatbins checks that every CUDA source in the module has its fatbin beside it (the
// one its package embeds), holding SASS for sm_80/86/89/90 and PTX for compute_75;
// scripts/check-ptx.sh checks that it is current. The kernel names are inside compressed
// images: the cuda-tagged tests load every kernel.
func TestFatbins(t *testing.T) {
	want := []string{"sass80", "sass86", "sass89", "sass90", "ptx75"}
	slices.Sort(want)
	sources, err := filepath.Glob("../*/*.cu")
	if err != nil || len(sources) == 0 {
		t.Fatalf("no CUDA sources found beside gpu/ (%v)", err)
	}
	for _, cu := range sources {
		name := strings.TrimSuffix(cu, ".cu") + ".fatbin"
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		es, err := FatbinEntries(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var got []string
		for _, e := range es {
			k := "sass"
			if e.PTX {
				k = "ptx"
			}
			got = append(got, fmt.Sprintf("%s%d", k, e.Arch))
			if e.Size <= 0 {
				t.Errorf("%s: empty %s%d image", name, k, e.Arch)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s holds %v, want %v", name, got, want)
		}
	}
}

// TestFatbinEntriesRejects checks that truncated or foreign bytes give an error, not a panic.
func TestFatbinEntriesRejects(t *testing.T) {
	b, err := os.ReadFile("../bfs/bfs.fatbin")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]byte{nil, []byte("not a fatbin at all"), b[:20], b[:len(b)-1]} {
		if _, err := FatbinEntries(bad); err == nil {
			t.Errorf("FatbinEntries accepted %d bad bytes", len(bad))
		}
	}
}
