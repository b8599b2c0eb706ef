//go:build !cuda

package ingest

import "io"

// gpuFile is the GPU ingest; this build has none (-tags cuda adds it).
func gpuFile(io.Reader, string, int64, Options) (*Report, error) {
	return nil, &gpuSkip{reason: "is not in this build (built without -tags cuda)"}
}
