package sssp

import _ "embed" // for the fatbin below

//go:generate ../scripts/gen-ptx.sh
//go:generate go run ../tools/kernelgen sssp.cu

// Fatbin is sssp.cu compiled by scripts/gen-ptx.sh into one compressed fatbin with native
// SASS for sm_80/86/89/90 and PTX for compute_75, ready for cuModuleLoadData.
//
//go:embed sssp.fatbin
var Fatbin []byte
