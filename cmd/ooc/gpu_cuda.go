//go:build cuda

package main

// A -tags cuda build links the "gpu" backend; it loads the NVIDIA driver only when a
// command asks for an engine, so the binary starts and runs the cpu backend anywhere.
import _ "github.com/oocgraph/ooc/internal/engine/gpu"
