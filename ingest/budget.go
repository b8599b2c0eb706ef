package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/internal/plural"
)

// DefaultMem is the memory budget when Options.Mem is 0: half of the physical memory,
// or of the cgroup's limit when that is lower, leaving the rest to the page cache that
// the spill files and shards go through.
func DefaultMem() int64 {
	m := MachineMem()
	if m <= 0 {
		m = 2 << 30
	}
	return m / 2
}

// MachineMem is the memory this process may use: the physical memory, or the cgroup's
// limit when that is lower; 0 when neither is known.
func MachineMem() int64 {
	m := physicalMem()
	if c := cgroupLimit(); c > 0 && (c < m || m <= 0) {
		m = c
	}
	return m
}

func physicalMem() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := procField(sc.Text(), "MemTotal:"); ok {
			return v
		}
	}
	return 0
}

// cgroupLimit reads the memory limit of a cgroup v2 (memory.max) or v1 hierarchy.
func cgroupLimit() int64 {
	for _, p := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		v, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64)
		if err == nil && v > 0 && v < 1<<60 {
			return v
		}
	}
	return 0
}

// procField parses a "/proc" line such as "VmHWM:   1234 kB" into bytes.
func procField(line, name string) (int64, bool) {
	if !strings.HasPrefix(line, name) {
		return 0, false
	}
	f := strings.Fields(line[len(name):])
	if len(f) == 0 {
		return 0, false
	}
	v, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil {
		return 0, false
	}
	if len(f) > 1 && strings.EqualFold(f[1], "kB") {
		v <<= 10
	}
	return v, true
}

// PeakRSS is the process's peak resident set (VmHWM), what the kernel charges, not just
// Go's heap; 0 where /proc is missing.
func PeakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := procField(line, "VmHWM:"); ok {
			return v
		}
	}
	return 0
}

// diskNeed estimates the disk an ingest of inBytes of input needs: the spill files and
// the shards together take about 10 bytes per stored directed edge, and an edge costs
// about 12 bytes of text (compressed text ~4x less, bin32 8 bytes, bin64 16).
func diskNeed(name string, inBytes int64, copies int64) int64 {
	perEdge := int64(12)
	lower := strings.ToLower(name)
	switch {
	case strings.HasSuffix(lower, ".gz"), strings.HasSuffix(lower, ".zst"):
		perEdge = 3
	case strings.Contains(lower, ".bin64") || strings.HasSuffix(lower, ".b64"):
		perEdge = 16
	case strings.Contains(lower, ".bin"):
		perEdge = 8
	}
	return inBytes / perEdge * copies * 10
}

// checkEdgesDisk refuses, before any edge is read, an input whose edge count is known
// (a generator, a Parquet file: edges, 0 when unknown) and whose graph clearly cannot
// fit the destination's file system: spilling everything, gen urand21 and kron21 (at
// --mem 200MiB) peaked at 12.8 and 10.9 bytes an input edge, spill files and shards
// together; the floor taken is 10, less what the spill tapes hold in memory, and never
// under 2 (the shards: each edge stored both ways, a byte or more each).
func (p *pipeline) checkEdgesDisk(edges uint64) error {
	if edges == 0 {
		return nil
	}
	e := int64(min(edges, math.MaxInt64/16))
	need := max(10*e-p.spillMem(), 2*e)
	if err := checkDisk(p.opt.diskParent(), need); err != nil {
		return fmt.Errorf("%w; %d input edges take about 10 bytes each while they spill", err, edges)
	}
	return nil
}

// diskParent is the directory the disk checks measure and name (Options.diskDir).
func (o *Options) diskParent() string {
	if o.diskDir != "" {
		return o.diskDir
	}
	return filepath.Dir(filepath.Clean(o.Dest))
}

// inTemp sets o's Dest to dest, a path inside a temporary directory of the destination's
// parent, keeping that parent for the disk checks.
func (o *Options) inTemp(dest string) {
	o.diskDir = o.diskParent()
	o.Dest, o.Force = dest, false
}

// checkDisk fails early when nothing can be created in dir (permissions, a read-only or
// virtual file system), naming that, or when its file system has clearly too little
// room for need.
func checkDisk(dir string, need int64) error {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil // store.Create names a missing parent
	}
	probe, err := os.MkdirTemp(dir, ".ooc-probe-")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("ingest: cannot create files in %s: %v (write elsewhere with -o)", dir, err)
	}
	os.Remove(probe)
	free, ok := freeBytes(dir)
	if !ok {
		return nil // no estimate possible; the writes will tell
	}
	if need > free {
		return fmt.Errorf("ingest: %s has %s free, the ingest needs about %s for spill files and shards (free some space or write elsewhere with -o)",
			dir, bytesize.Format(free), bytesize.Format(need))
	}
	return nil
}

// The split of the memory budget (Options.Mem, --mem) among the pipeline's consumers:
// every share is computed by the methods below and nowhere else, and Budget reports them
// (ooc ingest -v prints it).

// heapLimit is the Go heap limit: the budget less runtimeMem (the binary and the runtime
// outside the heap).
func (p *pipeline) heapLimit() int64 { return p.mem - runtimeMem }

// live is the memory the pipeline's long-lived buffers may take: the Go heap limit less a
// fifth, so that the garbage of the parser and of grown buffers fits beside them without
// the collector running continuously.
func (p *pipeline) live() int64 {
	h := p.heapLimit()
	return h/5*4 + h%5*4/5 // h*4/5 without overflow: --mem may be near 2^63
}

// phase1Bytes is the memory of phase 1's buffers: parse blocks and batches, encoder
// buffers and the chunks.
func (p *pipeline) phase1Bytes() int64 {
	w := int64(p.workers)
	return (w+2)*parseBlock + w*parse.BatchSize*16 + w*encoderFixed + 8*int64(p.chunkKeys)*((w+2)*int64(p.dirs)+w)
}

// spillMem is how much of the spills' tapes may stay in memory: half the long-lived
// memory less phase 1's buffers, so that phase 2 keeps at least half for its tasks (the
// largest vertex it can sort depends on it) and the degree order's per-vertex arrays
// fit beside. opt.spillMem overrides it (tests: -1 keeps everything on disk).
func (p *pipeline) spillMem() int64 {
	if p.opt.spillMem != 0 {
		return max(p.opt.spillMem, 0)
	}
	return max(p.live()/2-p.phase1Bytes(), 0)
}

// headsLimit is the memory one split may keep the headers of its partition's blocks in:
// a 64th of the long-lived memory shared by the 2*workers splits held ahead (splitAhead),
// which sizePhase2 sets aside.
func (p *pipeline) headsLimit() int64 {
	if p.opt.headsMem != 0 {
		return max(p.opt.headsMem, 0)
	}
	return p.live() / int64(64*max(p.workers, 1))
}

// heldBytes is what the numbering's per-vertex arrays hold through phases 1 and 2:
// --relabel's distinct ids and their index, the degree order's permutation and its
// inverse. Both phases size their buffers from the long-lived memory less it.
func (p *pipeline) heldBytes() int64 {
	n := 8*int64(cap(p.ids)) + 4*int64(cap(p.perm)+cap(p.inv))
	if p.idx != nil {
		n += 4 * int64(cap(p.idx.start))
	}
	return n
}

// memForLive is the smallest budget, rounded up to a MiB, whose long-lived memory (live)
// is at least n: the least --mem an error may name, which must then pass the check that
// named it (live is four fifths of the heap limit, not the budget less a constant).
func memForLive(n int64) int64 {
	mem := runtimeMem + (n*5+3)/4
	return (mem + 1<<20 - 1) &^ (1<<20 - 1)
}

// given is the --mem the user gave: the pipeline's budget and a zstd window counted
// apart (budgetZstd). Errors name it, not the part left to the pipeline.
func (p *pipeline) given() int64 { return p.mem + p.opt.zstdWindow }

// givenFor is the --mem to name for a pipeline whose long-lived memory must hold n:
// memForLive and the zstd window (rounded up to a MiB).
func (p *pipeline) givenFor(n int64) int64 {
	return memForLive(n) + (p.opt.zstdWindow+1<<20-1)&^(1<<20-1)
}

// orderMem is what the degree order's per-vertex arrays may take: half the long-lived
// memory (the spills keep the rest).
func (p *pipeline) orderMem() int64 { return p.live() / 2 }

// relabelIDBytes is what --relabel's id set takes per distinct id while it grows:
// the old and the new array during a copy (addIDs).
const relabelIDBytes = 16

// relabelMemFor is the smallest budget whose id set share (orderMem) holds n distinct
// ids while the set grows, with 4% to spare for the sketch's error (tooManyIDs), rounded
// up to a MiB.
func relabelMemFor(n int64) int64 {
	share := relabelIDBytes * n * 104 / 100
	mem := runtimeMem + share*2*5/4 // orderMem is half of live, live four fifths of the heap limit
	return (mem + 1<<20 - 1) &^ (1<<20 - 1)
}

// mappedMem is how much of a graph built in the file's order (reorder.go) may stay
// mapped in the resident set while the BFS order and the second pass read its lists: an
// eighth of the long-lived memory (pager). The numbering's arrays take at most half
// (orderMem), the order sample and its encoding a sixteenth of the budget, and the first
// pass's buffers are gone by then.
func (p *pipeline) mappedMem() int64 { return p.live() / 8 }

// sampleEntries is the size of the automatic order's sample within a budget of mem bytes:
// with its encoding (16 bytes an entry held, 16 more while one order's keys are sorted)
// at most a sixteenth of the budget, at least 16K entries, at most sampleCap.
func sampleEntries(mem int64) int { return int(min(sampleCap, max(mem/512, 1<<14))) }

// gpuStagingMem is what the GPU ingest's pinned staging buffers may take: a quarter of
// the long-lived memory.
func (p *pipeline) gpuStagingMem() int64 { return p.live() / 4 }

// budgetZstd counts the window of a zstd input's first frame (zstd --long: up to 2 GiB
// the decoder holds in memory) against the budget: opt.Mem becomes what is left for the
// pipeline, and a window above a quarter of the budget is refused with the --mem that
// would take it. It returns the reader to parse: r itself when it can be read at an
// offset (a file), else r behind a buffer it peeked into.
func budgetZstd(r io.Reader, name string, opt *Options) (io.Reader, error) {
	head := make([]byte, 18) // a zstd frame header's largest size
	var n int
	var err error
	if ra, ok := r.(io.ReaderAt); ok {
		n, err = ra.ReadAt(head, 0)
	}
	if n == 0 && err != nil && err != io.EOF || n == 0 && !isReaderAt(r) {
		br := bufio.NewReaderSize(r, 64<<10)
		b, _ := br.Peek(len(head))
		n, r = copy(head, b), br
	}
	window := parse.ZstdWindow(head[:n])
	if window <= 0 {
		return r, nil
	}
	mem := opt.Mem
	if mem <= 0 {
		mem = DefaultMem()
	}
	if window > mem/4 {
		return nil, fmt.Errorf("ingest: %s: its zstd frames use a window of %s (zstd --long), which the decoder holds in memory: more than a quarter of the %s budget; give --mem %s or more: %w",
			name, bytesize.Format(window), bytesize.Format(mem), bytesize.Format(4*window), ErrMemTooSmall)
	}
	opt.Mem, opt.zstdWindow = mem-window, window
	return r, nil
}

// parquetPageMem is what a Parquet input's pages being read may take with w workers: the
// parser's share of phase 1 (a block per worker and two, phase1Bytes) less the reader's
// own batch buffers, 2 MiB a worker.
func parquetPageMem(w int) int64 { return int64(w+2)*parseBlock - int64(w)*2<<20 }

// Budget is the split of an ingest's memory budget, as the pipeline sized it.
type Budget struct {
	Total      int64 `json:"total"`       // --mem (default DefaultMem), less a zstd --long window
	ZstdWindow int64 `json:"zstd_window"` // the decoder's window, counted apart
	HeapLimit  int64 `json:"heap_limit"`  // Go's memory limit: Total less the runtime's own
	Live       int64 `json:"live"`        // long-lived buffers: the heap limit less a fifth for garbage
	Phase1     int64 `json:"phase1"`      // parse blocks and batches, encoder buffers, chunks
	SpillTapes int64 `json:"spill_tapes"` // spilled chunks kept in memory instead of on disk
	SplitHeads int64 `json:"split_heads"` // block headers a split partition may keep, per split
	OrderMem   int64 `json:"order_mem"`   // the degree or BFS order's per-vertex arrays at most
	MappedMem  int64 `json:"mapped_mem"`  // the first graph's mapped pages between releases (two-pass orders)
	Sample     int   `json:"sample"`      // entries of the automatic order's sample
	Workers    int   `json:"workers"`     // after fitting phase 1's buffers
}

// budget reports the split.
func (p *pipeline) budget() Budget {
	return Budget{Total: p.mem, ZstdWindow: p.opt.zstdWindow, HeapLimit: p.heapLimit(), Live: p.live(),
		Phase1: p.phase1Bytes(), SpillTapes: p.spillMem(), SplitHeads: p.headsLimit(), OrderMem: p.orderMem(), MappedMem: p.mappedMem(),
		Sample: sampleEntries(p.mem), Workers: p.workers}
}

// String is the split in one line, for -v.
func (b Budget) String() string {
	f := bytesize.Format
	s := fmt.Sprintf("memory budget %s: heap limit %s, long-lived %s (phase 1 buffers %s for %s, spill tapes in memory %s, vertex order arrays up to %s, split headers %s each), order sample %d entries, a first graph's pages mapped %s between releases",
		f(b.Total), f(b.HeapLimit), f(b.Live), f(b.Phase1), plural.Of(b.Workers, "worker"), f(b.SpillTapes), f(b.OrderMem), f(b.SplitHeads), b.Sample, f(b.MappedMem))
	if b.ZstdWindow > 0 {
		s += ", zstd window " + f(b.ZstdWindow) + " apart"
	}
	return s
}
