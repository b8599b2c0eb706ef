package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestGeneratedCurrent fails when a committed *_kernels_cuda.go differs from what
// kernelgen makes of the .cu beside it (run scripts/gen-ptx.sh, or go generate).
func TestGeneratedCurrent(t *testing.T) {
	sources, err := filepath.Glob("../../*/*.cu")
	if err != nil || len(sources) == 0 {
		t.Fatalf("no CUDA sources found (%v)", err)
	}
	for _, cu := range sources {
		want, err := Generate(cu)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(Output(cu))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./%s", Output(cu), filepath.Base(filepath.Dir(cu)))
		}
	}
}

func TestCamel(t *testing.T) {
	for in, want := range map[string]string{"td_expand": "tdExpand", "s_adj": "sAdj", "K": "K", "i0": "i0"} {
		if got := camel(in, false); got != want {
			t.Errorf("camel(%q) = %q, want %q", in, got, want)
		}
	}
}
