package ingest

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/ingest/parse"
)

// TestBackendChoice: --backend cpu builds on the CPU; --backend gpu builds on a GPU or
// fails saying why, never on the CPU in silence; an unknown backend is bad input.
// (gpu_cuda_test.go checks the GPU's graphs against the CPU's, where a GPU is present.)
func TestBackendChoice(t *testing.T) {
	path := writeEdgeFile(t, []parse.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 0}})
	dir := t.TempDir()
	rep, err := File(path, Options{Dest: filepath.Join(dir, "cpu.ooc"), Backend: BackendCPU})
	if err != nil || rep.Backend != BackendCPU {
		t.Fatalf("--backend cpu: %v, built on %q", err, rep.Backend)
	}
	rep, err = File(path, Options{Dest: filepath.Join(dir, "gpu.ooc"), Backend: BackendGPU})
	switch {
	case err == nil && !strings.HasPrefix(rep.Backend, BackendGPU):
		t.Errorf("--backend gpu built on %q", rep.Backend)
	case err != nil && !strings.Contains(err.Error(), "--backend gpu"):
		t.Errorf("--backend gpu failed without saying so: %v", err)
	}
	if _, err := File(path, Options{Dest: filepath.Join(dir, "x.ooc"), Backend: "tpu"}); !errors.Is(err, parse.ErrBadInput) {
		t.Errorf("--backend tpu: %v, want bad input", err)
	}
	// a small file goes to the CPU with the automatic backend, GPU or not
	rep, err = File(path, Options{Dest: filepath.Join(dir, "auto.ooc")})
	if err != nil || rep.Backend != BackendCPU {
		t.Errorf("automatic backend on 3 edges: %v, built on %q", err, rep.Backend)
	}
}

func writeEdgeFile(t *testing.T, edges []parse.Edge) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "edges.txt")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "# %d edges\n", len(edges))
	for _, e := range edges {
		fmt.Fprintf(w, "%d\t%d\n", e.U, e.V)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

// TestAutoBackendMemFloor: the automatic backend leaves a --mem below the GPU ingest's
// host floor to the CPU, for files and generators alike; an explicit --backend gpu and
// the default budget are not held back by it.
func TestAutoBackendMemFloor(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "edges")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	big := parse.Header{Entries: 1 << 30}
	for _, c := range []struct {
		opt  Options
		held bool
	}{
		{Options{Mem: 48 << 20}, true},
		{Options{Mem: gpuMinMem - 1, Backend: BackendAuto}, true},
		{Options{Mem: gpuMinMem}, false},
		{Options{}, false},
		{Options{Mem: 48 << 20, Backend: BackendGPU}, false},
	} {
		file := gpuEligible(f, 1<<40, c.opt)
		gen := gpuEdgesEligible(big, c.opt)
		if held := strings.Contains(file, "--mem"); held != c.held {
			t.Errorf("%+v: file %q, want held back %v", c.opt, file, c.held)
		}
		if held := strings.Contains(gen, "--mem"); held != c.held {
			t.Errorf("%+v: generator %q, want held back %v", c.opt, gen, c.held)
		}
	}
}
