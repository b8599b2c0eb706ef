package ingest

import _ "embed" // for the fatbin below

//go:generate ../scripts/gen-ptx.sh
//go:generate go run ../tools/kernelgen build.cu

// buildFatbin is build.cu compiled by scripts/gen-ptx.sh into one compressed fatbin with
// native SASS for sm_80/86/89/90 and PTX for compute_75, ready for cuModuleLoadData: the
// driver picks the SASS for the GPU at hand, or JIT-compiles the PTX on any other GPU
// from Turing on.
//
//go:embed build.fatbin
var buildFatbin []byte
