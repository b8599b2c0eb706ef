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

// TestCooperative: a kernel is launched cooperatively when it waits at gridSync itself
// or calls a device function that does, directly or through another device function; a
// kernel whose text such a function's definition follows is not, also where that
// function returns a pointer.
func TestCooperative(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"store", "k"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	h, err := os.ReadFile("../../" + header)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, header), h, 0o644); err != nil {
		t.Fatal(err)
	}
	src := `template <bool X> __device__ void levels(uint32_t *bar);

extern "C" __global__ void own(uint32_t *bar) {
	if (bar) gridSync(bar);
}

extern "C" __global__ void plain(uint32_t *bar) {
	bar[0] = 1;
}

__device__ __forceinline__ uint32_t *outer(uint32_t *bar) {
	levels<false>(bar);
	return bar;
}

template <bool X>
__device__ __forceinline__ void levels(uint32_t *bar) {
	gridSync(bar);
}

__device__ __forceinline__ void gridSync(uint32_t *bar) {
	atomicAdd(bar, 1);
}

extern "C" __global__ void viaTemplate(uint32_t *bar) {
	levels<true>(bar);
}

extern "C" __global__ void viaOuter(uint32_t *bar) {
	outer(bar)[0] = 1;
}

extern "C" __global__ void plain2(uint32_t *bar) {
	bar[1] = 1;
}

__device__ __forceinline__ uint32_t *syncs(uint32_t *bar) {
	gridSync(bar);
	return bar;
}
`
	cu := filepath.Join(dir, "k", "k.cu")
	if err := os.WriteFile(cu, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := Generate(cu)
	if err != nil {
		t.Fatal(err)
	}
	for name, coop := range map[string]bool{"own": true, "plain": false, "viaTemplate": true, "viaOuter": true, "plain2": false} {
		want := `ctx.Launch(mod, "` + name + `"`
		if coop {
			want = `ctx.LaunchCooperative(mod, "` + name + `"`
		}
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("%s: want %s in\n%s", name, want, out)
		}
	}
}
