package kernels

import (
	"embed"
	"fmt"
)

// The GPU engine's kernels are CUDA C (bfs.cu, afforest.cu, graph.cuh), compiled by nvcc to
// PTX for compute_75 and embedded here; the driver JIT-compiles the PTX for the GPU at hand.
//go:generate ../scripts/gen-ptx.sh

//go:embed ptx/*.ptx
var ptxFS embed.FS

// PTX returns the embedded PTX of kernels/NAME.cu.
func PTX(name string) ([]byte, error) {
	b, err := ptxFS.ReadFile("ptx/" + name + ".ptx")
	if err != nil {
		return nil, fmt.Errorf("kernels: no embedded PTX for %s.cu: %w", name, err)
	}
	return b, nil
}
