package parse

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"testing"
)

// benchEdges is the size of the generated benchmark input: about 3.2 M
// edges, ~50 MB of text with ids up to 2^26 like Friendster's.
const benchEdges = 1 << 22 * 3 / 4

var benchInput struct {
	once        sync.Once
	text, gz    []byte
	bin32       []byte
	edges       int
	textPerEdge float64
}

func benchData(b testing.TB) {
	benchInput.once.Do(func() {
		x := uint64(0x9e3779b97f4a7c15)
		var text []byte
		bin := make([]byte, 0, benchEdges*8)
		text = append(text, "# Directed graph: generated\n# Nodes: 67108864\n"...)
		for range benchEdges {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			u, v := x&(1<<26-1), x>>38
			text = strconv.AppendUint(text, u, 10)
			text = append(text, '\t')
			text = strconv.AppendUint(text, v, 10)
			text = append(text, '\n')
			bin = binary.LittleEndian.AppendUint32(bin, uint32(u))
			bin = binary.LittleEndian.AppendUint32(bin, uint32(v))
		}
		benchInput.text, benchInput.bin32, benchInput.edges = text, bin, benchEdges
		benchInput.gz = compress(b, "gzip", text)
	})
}

// benchParse runs ParseOnly over in and reports edges per second of wall
// time and per second of CPU time (the per-core rate).
func benchParse(b *testing.B, in []byte, opt ParseOptions) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for b.Loop() {
		res, err := ParseOnly(bytes.NewReader(in), opt)
		if err != nil {
			b.Fatal(err)
		}
		if res.Edges != uint64(benchInput.edges) {
			b.Fatalf("%d edges, want %d", res.Edges, benchInput.edges)
		}
	}
	cpu := cpuSeconds() - cpu0
	total := float64(benchInput.edges) * float64(b.N)
	b.ReportMetric(total/b.Elapsed().Seconds(), "edges/s")
	if cpu > 0 {
		b.ReportMetric(total/cpu, "edges/cpu-s")
	}
}

func BenchmarkParseSNAP(b *testing.B) {
	benchData(b)
	for _, w := range []int{1, 2, 4, 8, 16} {
		if w > runtime.GOMAXPROCS(0) && w > 2 {
			continue
		}
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			benchParse(b, benchInput.text, ParseOptions{Workers: w, MaxID: 1<<32 - 2})
		})
	}
}

// BenchmarkParseSNAPGzip is bound by the serial gzip decoder; parsing
// overlaps with it in the other workers.
func BenchmarkParseSNAPGzip(b *testing.B) {
	benchData(b)
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			benchParse(b, benchInput.gz, ParseOptions{Workers: w, MaxID: 1<<32 - 2})
		})
	}
}

func BenchmarkParseBin32(b *testing.B) {
	benchData(b)
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			benchParse(b, benchInput.bin32, ParseOptions{Workers: w, Format: FormatBin32, MaxID: 1<<32 - 2})
		})
	}
}

// BenchmarkParseSNAPBlock is the hot loop alone: one worker, one block of
// ~50 MB, no reader, no channels.
func BenchmarkParseSNAPBlock(b *testing.B) {
	benchData(b)
	p := &parser{path: "bench"}
	w := &worker{p: p, emit: func([]Edge) error { return nil }, batch: make([]Edge, 0, BatchSize), maxID: 1<<32 - 2}
	blk := &block{data: benchInput.text}
	b.SetBytes(int64(len(blk.data)))
	cpu0 := cpuSeconds()
	for b.Loop() {
		if err := parseSNAPBlock(w, blk); err != nil {
			b.Fatal(err)
		}
	}
	cpu := cpuSeconds() - cpu0
	b.ReportMetric(float64(benchInput.edges)*float64(b.N)/cpu, "edges/cpu-s")
}
