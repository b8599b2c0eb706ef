package kernels

import (
	"fmt"
	"slices"
	"testing"
)

// TestImageEmbedded checks that every CUDA source's fatbin is embedded and holds SASS for
// sm_80/86/89/90 and PTX for compute_75; scripts/check-ptx.sh checks that it is current. The
// kernel names are inside compressed images: the cuda-tagged engine tests load every kernel.
func TestImageEmbedded(t *testing.T) {
	want := []string{"sass80", "sass86", "sass89", "sass90", "ptx75"}
	for _, name := range []string{"bfs", "afforest"} {
		b, err := Image(name)
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
		w := slices.Clone(want)
		slices.Sort(w)
		if !slices.Equal(got, w) {
			t.Errorf("%s.fatbin holds %v, want %v", name, got, w)
		}
	}
	if _, err := Image("nope"); err == nil {
		t.Error("Image(nope) succeeded")
	}
}

// TestFatbinEntriesRejects checks that truncated or foreign bytes give an error, not a panic.
func TestFatbinEntriesRejects(t *testing.T) {
	b, err := Image("bfs")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]byte{nil, []byte("not a fatbin at all"), b[:20], b[:len(b)-1]} {
		if _, err := FatbinEntries(bad); err == nil {
			t.Errorf("FatbinEntries accepted %d bad bytes", len(bad))
		}
	}
}
