//go:build !cuda

package ingest

import (
	"io"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/store"
)

// gpuFile is the GPU ingest; this build has none (-tags cuda adds it).
func gpuFile(io.Reader, store.InputInfo, string, int64, Options) (*Report, error) {
	return nil, &gpuSkip{reason: "is not in this build (built without -tags cuda)", notBuilt: true}
}

// gpuEdges is FromEdges on the GPU; this build has none.
func gpuEdges(Options, store.InputInfo, parse.Header, func(emit func([]parse.Edge) error) error) (*Report, error) {
	return nil, &gpuSkip{reason: "is not in this build (built without -tags cuda)", notBuilt: true}
}
