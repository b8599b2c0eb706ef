package ingest

import (
	"flag"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/oocgraph/ooc/gen"
	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/store"
)

// The benchmark's size is a flag: the 100M-edge run belongs on a big machine,
// not in CI. For example:
//
//	go test ./ingest -run '^$' -bench Ingest -benchtime 1x -ingest.edges 32000000 -ingest.order input
var (
	ingestEdges = flag.Int64("ingest.edges", 1<<20, "edges of the generated Kronecker graph (rounded to 16*2^k)")
	ingestMem   = flag.Int64("ingest.mem", 0, "memory budget in bytes (0: the default)")
	ingestOrder = flag.String("ingest.order", store.OrderDegree, "vertex order: degree (the CLI's default) or input")
	ingestTask  = flag.Int("ingest.taskkeys", 0, "keys of a phase-2 task (0: the pipeline's choice)")
	ingestFill  = flag.Int("ingest.fillkeys", 0, "keys a phase-1 chunk takes at least before it is sorted (0: the pipeline's choice)")
)

// BenchmarkIngest ingests a Graph500 Kronecker edge list (edge factor 16) as text and as
// bin32 and reports, besides ns/op and MB/s of input: a parse-only pass, each phase's
// edges/s and MB/s, the ingest/parse-only time ratio, peak RSS against the budget and
// the stored bytes per directed edge.
func BenchmarkIngest(b *testing.B) {
	scale := max(bits.Len64(uint64(*ingestEdges/16))-1, 4)
	spec := gen.Spec{Kind: "kron", Scale: scale, EdgeFactor: 16, Seed: 1}
	dir := b.TempDir()
	for _, f := range []gen.Format{gen.Text, gen.Bin32} {
		path := filepath.Join(dir, fmt.Sprintf("kron%d.%s", scale, f))
		if f == gen.Text {
			path += ".txt"
		}
		if err := writeSpec(path, spec, f); err != nil {
			b.Fatal(err)
		}
		format := parse.FormatSNAP
		if f == gen.Bin32 {
			format = parse.FormatBin32
		}
		b.Run(f.String(), func(b *testing.B) { benchIngest(b, path, format, spec) })
	}
}

func writeSpec(path string, spec gen.Spec, f gen.Format) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := gen.Write(out, spec, f, 0); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func benchIngest(b *testing.B, path string, format parse.Format, spec gen.Spec) {
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	dest := filepath.Join(b.TempDir(), "g.ooc")
	var parseSecs float64
	var rep *Report
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		t0 := time.Now()
		if err := parseOnly(path, format); err != nil {
			b.Fatal(err)
		}
		parseSecs += time.Since(t0).Seconds()
		b.StartTimer()
		rep, err = File(path, Options{Dest: dest, Force: true, Format: format, Mem: *ingestMem, Order: *ingestOrder, taskKeys: *ingestTask, fillKeys: *ingestFill})
		if err != nil {
			b.Fatal(err)
		}
	}
	m := rep.Manifest
	edges := float64(spec.Edges())
	b.ReportMetric(edges*float64(b.N)/parseSecs, "parse-only-edges/s")
	b.ReportMetric(rep.Seconds*float64(b.N)/parseSecs, "ingest/parse-only")
	for _, ph := range rep.Phases {
		if ph.Edges == 0 {
			b.ReportMetric(ph.Seconds, ph.Name+"-s")
			continue
		}
		b.ReportMetric(float64(ph.Edges)/ph.Seconds, ph.Name+"-edges/s")
		b.ReportMetric(float64(ph.Bytes)/1e6/ph.Seconds, ph.Name+"-MB/s")
		if ph.Name == "sort" { // phase 2 reads the spill files
			b.ReportMetric(float64(ph.Bytes)/float64(m.Edges), "spill-bytes/edge")
		}
	}
	b.ReportMetric(edges/rep.Seconds, "edges/s")
	b.ReportMetric(float64(rep.PeakRSS)/(1<<20), "peak-RSS-MiB")
	b.ReportMetric(float64(rep.Mem)/(1<<20), "mem-MiB")
	b.ReportMetric(float64(m.Bytes)/float64(m.Edges), "bytes/edge")
	b.Logf("%s: %d vertices, %d directed edges, %.2f bits per directed edge, peak RSS %s of a %s budget",
		filepath.Base(path), m.Vertices, m.Edges, 8*float64(m.Bytes)/float64(m.Edges), bytesize.Format(rep.PeakRSS), bytesize.Format(rep.Mem))
}

func parseOnly(path string, format parse.Format) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = parse.ParseOnly(f, parse.ParseOptions{Name: path, Format: format})
	return err
}
