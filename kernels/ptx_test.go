package kernels

import (
	"bytes"
	"testing"
)

// TestPTXEmbedded checks that every CUDA source's PTX is embedded and exports its kernels;
// scripts/check-ptx.sh checks that it is current.
func TestPTXEmbedded(t *testing.T) {
	want := map[string][]string{
		"bfs":      {"bfs_init", "td_expand", "td_huge", "bu_sweep", "queue_bits", "queue_degrees"},
		"afforest": {"cc_init", "cc_sample", "cc_compress", "cc_gather", "cc_finish"},
	}
	for name, fns := range want {
		b, err := PTX(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte(".target sm_75")) {
			t.Errorf("%s.ptx: not built for compute_75", name)
		}
		for _, f := range fns {
			if !bytes.Contains(b, []byte(".entry "+f+"(")) {
				t.Errorf("%s.ptx lacks kernel %s", name, f)
			}
		}
	}
	if _, err := PTX("nope"); err == nil {
		t.Error("PTX(nope) succeeded")
	}
}
