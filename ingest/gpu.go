package ingest

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/store"
)

// Backends of Options.Backend: where phase 2 (sorting, deduplicating, encoding) runs.
const (
	BackendAuto = "auto" // the GPU when the build has one (-tags cuda), a device is present and the input suits it
	BackendCPU  = "cpu"
	BackendGPU  = "gpu" // the GPU or an error
)

// gpuMinBytes is the smallest input the automatic backend takes to the GPU: below it the
// CPU ingest finishes in about the time a CUDA context takes to start.
const gpuMinBytes = 64 << 20

// gpuMinMem is the smallest --mem the automatic backend takes to the GPU: the driver's
// context and the pinned staging buffers hold a few hundred MiB of host memory (0.47-1.2
// GiB measured on kron23 and kron26), which a smaller budget could not honour.
const gpuMinMem = 1 << 30

// autoLeavesToCPU says why the automatic backend keeps an input on the CPU whatever its
// size, or "" when it may take it to the GPU.
func autoLeavesToCPU(opt Options) string {
	if (opt.Backend == "" || opt.Backend == BackendAuto) && opt.Mem > 0 && opt.Mem < gpuMinMem {
		return fmt.Sprintf("leaves budgets under %d MiB (--mem) to the CPU", gpuMinMem>>20)
	}
	return ""
}

// gpuSkip is the error of a GPU ingest that did not take the input, or gave it up,
// and left nothing behind: the CPU ingest runs instead (an error with --backend gpu).
type gpuSkip struct {
	reason   string
	reread   bool // the input was (partly) read: the CPU ingest starts it again
	notBuilt bool // the build has no GPU ingest: --backend gpu is a usage error
}

func (e *gpuSkip) Error() string { return "the GPU ingest " + e.reason }

// Is makes a build without the GPU ingest bad input to --backend gpu (exit 2, as the
// engines' ErrNoBackend is), not a failure of the machine.
func (e *gpuSkip) Is(target error) bool { return e.notBuilt && target == parse.ErrBadInput }

// CheckBackend checks a backend name (Options.Backend, --backend); "" is auto.
func CheckBackend(s string) error {
	switch s {
	case "", BackendAuto, BackendCPU, BackendGPU:
		return nil
	}
	return fmt.Errorf("ingest: unknown backend %q (want auto, cpu or gpu): %w", s, parse.ErrBadInput)
}

// gpuEligible says why the GPU ingest cannot take an input, or "" when it can. It builds
// the graph from keys held in device memory; an input found too large for them is read
// again by the CPU ingest, so the GPU takes only inputs that can be read twice.
func gpuEligible(r io.Reader, size int64, opt Options) string {
	switch {
	case opt.Relabel:
		return "does not take --relabel"
	case !parse.Seekable(r):
		return "takes only regular files (it may have to give the input to the CPU ingest)"
	case (opt.Backend == "" || opt.Backend == BackendAuto) && size < gpuMinBytes:
		return fmt.Sprintf("leaves inputs under %d MiB to the CPU", gpuMinBytes>>20)
	}
	return autoLeavesToCPU(opt)
}

// gpuEdgesEligible says why the GPU ingest cannot take FromEdges' input, or "" when it
// can: the automatic backend wants hdr.Entries, the edges announced, to make an input of
// gpuMinBytes as 8-byte edges.
func gpuEdgesEligible(hdr parse.Header, opt Options) string {
	switch {
	case opt.Relabel:
		return "does not take --relabel"
	case (opt.Backend == "" || opt.Backend == BackendAuto) && hdr.Entries < gpuMinBytes/8:
		return fmt.Sprintf("leaves inputs of under %d edges to the CPU", gpuMinBytes/8)
	}
	return autoLeavesToCPU(opt)
}

// fromEdgesGPU is fileFromGPU for FromEdges: after a skip the CPU pipeline calls produce
// again.
func fromEdgesGPU(opt Options, input store.InputInfo, hdr parse.Header, produce func(emit func([]parse.Edge) error) error) (*Report, bool, error) {
	return tryGPU(opt, func() (*Report, error) { return gpuEdges(opt, input, hdr, produce) }, func() error { return nil })
}

// fileFromGPU runs the GPU ingest when the options let it, and says whether it did; on a
// skip the input is rewound for the CPU ingest.
func fileFromGPU(r io.Reader, info store.InputInfo, name string, size int64, opt Options) (*Report, bool, error) {
	var start int64
	f, _ := r.(*os.File)
	if f != nil {
		start, _ = f.Seek(0, io.SeekCurrent)
	}
	return tryGPU(opt, func() (*Report, error) { return gpuFile(r, info, name, size, opt) }, func() error {
		if f == nil {
			return errors.New("the input cannot be read again")
		}
		if _, err := f.Seek(start, io.SeekStart); err != nil {
			return fmt.Errorf("%s: rewinding the input for the CPU ingest: %w", name, err)
		}
		return nil
	})
}

// tryGPU runs a GPU ingest unless the options rule it out, and says whether it did: a
// skip hands the input to the CPU ingest (after rewind, when the GPU read some of it),
// except with --backend gpu, where it is the error.
func tryGPU(opt Options, run func() (*Report, error), rewind func() error) (*Report, bool, error) {
	if opt.Backend == BackendCPU {
		return nil, false, nil
	}
	rep, err := run()
	var skip *gpuSkip
	if err == nil || !errors.As(err, &skip) {
		return rep, true, err
	}
	if opt.Backend == BackendGPU {
		return nil, true, fmt.Errorf("ingest: --backend gpu: %w", err)
	}
	if skip.reread {
		if rerr := rewind(); rerr != nil {
			return nil, true, fmt.Errorf("ingest: %w; %w", err, rerr)
		}
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, "ingest: %v; building on the CPU\n", err)
		}
	}
	return nil, false, nil
}
