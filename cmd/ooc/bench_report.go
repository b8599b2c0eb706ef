package main

import (
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/oocgraph/ooc/gen"
	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/internal/plural"
	"github.com/oocgraph/ooc/store"
)

// benchReport is everything `ooc bench` measured; --json prints it whole, so scripts on
// machines without Go (the GPU hosts) get every number of the table and more.
type benchReport struct {
	Graph     string         `json:"graph"`         // generator spec, or the input the graph was built from
	Dir       string         `json:"dir,omitempty"` // the graph directory, unless temporary
	Generator *generatorInfo `json:"generator"`     // null for an existing graph directory

	graphCounts            // edges: directed edges stored (each undirected edge twice)
	UndirectedEdges uint64 `json:"undirected_edges,omitempty"`

	Ingest *ingestInfo `json:"ingest"` // null when the graph was not built by this run

	Backend string  `json:"backend"`
	Plan    string  `json:"plan"`
	BFS     bfsInfo `json:"bfs"`
	CC      *ccInfo `json:"cc"` // null with --no-cc

	Valid  bool     `json:"valid"` // every validated result passed (true when not validating)
	Errors []string `json:"errors,omitempty"`

	PeakRSS     int64       `json:"peak_rss"`     // VmHWM of the whole run, bytes
	WallSeconds float64     `json:"wall_seconds"` // the whole run: gen, ingest, searches, checks
	Params      benchParams `json:"params"`
	Host        hostData    `json:"host"`
	Started     string      `json:"started"`
}

type generatorInfo struct {
	Kind       string `json:"kind"`
	Scale      int    `json:"scale"`
	EdgeFactor int    `json:"edgefactor,omitempty"`
	Seed       uint64 `json:"seed"`
	Shortcuts  *int   `json:"shortcuts,omitempty"`
	Edges      uint64 `json:"edges"` // generated, before dropping self-loops and duplicates
}

func newGeneratorInfo(s gen.Spec) *generatorInfo {
	r := newGenResult(s, "", "", 0, 0)
	return &generatorInfo{Kind: s.Kind, Scale: s.Scale, EdgeFactor: r.EdgeFactor, Seed: s.Seed,
		Shortcuts: r.Shortcuts, Edges: s.Edges()}
}

type ingestInfo struct {
	Seconds        float64 `json:"seconds"` // generation and ingest together (they are one pipeline)
	EdgesPerSecond float64 `json:"edges_per_second"`
	InputEdges     uint64  `json:"input_edges"`
	PeakRSS        int64   `json:"peak_rss"` // VmHWM when the ingest finished
	Mem            int64   `json:"mem"`      // the ingest's memory budget
	Workers        int     `json:"workers"`
}

// benchBFSRun is one search: the fields of 'ooc bfs --json' (source is the graph's own
// id) and whether it passed validation.
type benchBFSRun struct {
	bfsRun
	Valid *bool `json:"valid,omitempty"` // absent when not validated

	// host-device link traffic of the GPU engine (absent on the CPU):
	// bytes copied to device staging buffers, list bytes read zero-copy from pinned
	// memory, and their sum over the seconds of the levels that had any
	BytesCopied   int64   `json:"link_bytes_copied,omitempty"`
	BytesZeroCopy int64   `json:"link_bytes_zero_copy,omitempty"`
	LinkSeconds   float64 `json:"link_seconds,omitempty"`
	LinkGBps      float64 `json:"link_gb_per_second,omitempty"`
}

type bfsInfo struct {
	Runs          []benchBFSRun `json:"runs"`
	MedianSeconds float64       `json:"median_seconds"`
	MedianGTEPS   float64       `json:"median_gteps"` // median of the per-run GTEPS
	HMeanGTEPS    float64       `json:"hmean_gteps"`  // harmonic mean, as Graph500 reports
	MinSeconds    float64       `json:"min_seconds"`
	MaxSeconds    float64       `json:"max_seconds"`

	ValidateSeconds float64 `json:"validate_seconds"` // all the runs' checks together
}

// summarize computes the statistics over the runs. The median of an even count is the
// mean of the two middle values.
func (b *bfsInfo) summarize() {
	runs := make([]bfsRun, len(b.Runs))
	var inv float64
	b.MinSeconds, b.MaxSeconds = math.Inf(1), 0
	for i, r := range b.Runs {
		runs[i] = r.bfsRun
		inv += 1 / math.Max(r.GTEPS, 1e-12)
		b.MinSeconds, b.MaxSeconds = min(b.MinSeconds, r.Seconds), max(b.MaxSeconds, r.Seconds)
	}
	b.MedianSeconds = median(runs, func(r bfsRun) float64 { return r.Seconds })
	b.MedianGTEPS = median(runs, func(r bfsRun) float64 { return r.GTEPS })
	b.HMeanGTEPS = float64(len(b.Runs)) / inv
}

type ccInfo struct {
	Components uint64  `json:"components"`
	Largest    uint64  `json:"largest"`
	Seconds    float64 `json:"seconds"`
	Valid      *bool   `json:"valid,omitempty"`

	// GPU engine: adjacency bytes copied to the device and list bytes read zero-copy
	// from pinned memory, and the rate over the run
	BytesCopied   int64   `json:"link_bytes_copied,omitempty"`
	BytesZeroCopy int64   `json:"link_bytes_zero_copy,omitempty"`
	LinkGBps      float64 `json:"link_gb_per_second,omitempty"`

	ValidateSeconds float64 `json:"validate_seconds"`
}

type benchParams struct {
	Sources    int    `json:"sources"`
	SourceSeed uint64 `json:"source_seed"`
	Validate   bool   `json:"validate"`
	Backend    string `json:"backend_requested"`
	VRAM       int64  `json:"vram"` // 0: the backend's default
	Workers    int    `json:"workers"`
}

type hostData struct {
	Hostname   string `json:"hostname"`
	OS         string `json:"os"`
	Arch       string `json:"arch"`
	CPUs       int    `json:"cpus"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	Go         string `json:"go"`
}

// describe fills the graph's fields from its manifest.
func (r *benchReport) describe(g *store.Graph, dir string, showDir bool) {
	m := g.M
	if r.Graph == "" {
		r.Graph = m.Input.Name
	}
	if showDir {
		r.Dir = dir
	}
	r.graphCounts = countsOf(m)
	if !m.Directed {
		r.UndirectedEdges = m.Edges / 2 // self-loops, when kept, are stored once: Summarize counts the same way
	}
}

// table prints the report as one two-column table.
func (r *benchReport) table(w io.Writer) {
	rows := [][2]string{{"graph", r.Graph}}
	if r.Dir != "" {
		rows = append(rows, [2]string{"directory", r.Dir})
	}
	kind := "undirected"
	if r.Directed {
		kind = "directed"
	}
	rows = append(rows,
		[2]string{"vertices", fmt.Sprint(r.Vertices)},
		[2]string{"edges", fmt.Sprintf("%d stored (%s), %d input, %s",
			r.Edges, kind, r.InputEdges, r.dropped())},
		[2]string{"size", fmt.Sprintf("%s in %s, %.2f bits per edge", bytesize.Format(r.Bytes), plural.Of(r.Shards, "shard"), r.BitsPerEdge)})
	if in := r.Ingest; in != nil {
		rows = append(rows, [2]string{"gen+ingest", fmt.Sprintf("%s, %s edges/s, peak RSS %s",
			seconds(in.Seconds), humanRate(in.EdgesPerSecond), bytesize.Format(in.PeakRSS))})
	}
	rows = append(rows, [2]string{"backend", r.Backend})
	b := r.BFS
	rows = append(rows, [2]string{"bfs", fmt.Sprintf("%s: median %s, %.3f GTEPS (min %s, max %s, harmonic mean %.3f GTEPS)",
		plural.Of(len(b.Runs), "source"), seconds(b.MedianSeconds), b.MedianGTEPS, seconds(b.MinSeconds), seconds(b.MaxSeconds), b.HMeanGTEPS)})
	if i := slices.IndexFunc(b.Runs, func(x benchBFSRun) bool { return x.LinkSeconds > 0 }); i >= 0 {
		var cp, zc int64
		var sec float64
		for _, x := range b.Runs {
			cp, zc, sec = cp+x.BytesCopied, zc+x.BytesZeroCopy, sec+x.LinkSeconds
		}
		rows = append(rows, [2]string{"bfs link", fmt.Sprintf("levels over the link: %s copied, %s zero-copy in %s: %.1f GB/s (all runs)",
			bytesize.Format(cp), bytesize.Format(zc), seconds(sec), float64(cp+zc)/sec/1e9)})
	}
	if c := r.CC; c != nil {
		rows = append(rows, [2]string{"cc", fmt.Sprintf("%s, %s, largest %d", seconds(c.Seconds), plural.Of(c.Components, "component"), c.Largest)})
		if c.BytesCopied+c.BytesZeroCopy > 0 {
			rows = append(rows, [2]string{"cc link", fmt.Sprintf("%s copied, %s zero-copy: %.1f GB/s",
				bytesize.Format(c.BytesCopied), bytesize.Format(c.BytesZeroCopy), c.LinkGBps)})
		}
	}
	rows = append(rows, [2]string{"validation", r.validation()},
		[2]string{"peak RSS", bytesize.Format(r.PeakRSS)},
		[2]string{"wall time", seconds(r.WallSeconds)},
		[2]string{"parameters", fmt.Sprintf("source seed %d, %s on %s, vram %s",
			r.Params.SourceSeed, plural.Of(r.workers(), "worker"), plural.Of(r.Host.CPUs, "core"), r.vramString())})
	writeTable(w, rows)
}

func (r *benchReport) validation() string {
	if !r.Params.Validate {
		return "off"
	}
	if r.Valid {
		n, t := fmt.Sprintf("%d BFS", len(r.BFS.Runs)), r.BFS.ValidateSeconds
		if r.CC != nil {
			n, t = n+" and CC", t+r.CC.ValidateSeconds
		}
		return fmt.Sprintf("passed (%s, checked in %s)", n, seconds(t))
	}
	return fmt.Sprintf("FAILED: %d errors (the first: %s)", len(r.Errors), r.Errors[0])
}

// vramString is the --vram asked for, and whether the engine that ran used it.
func (r *benchReport) vramString() string {
	v := r.Params.VRAM
	switch {
	case v <= 0:
		return "default"
	case r.Backend != "gpu":
		return bytesize.Format(v) + " (unused by the " + r.Backend + " engine)"
	}
	return bytesize.Format(v)
}

// workers is the thread count the run asked for (GOMAXPROCS unless --workers).
func (r *benchReport) workers() int {
	if r.Params.Workers > 0 {
		return r.Params.Workers
	}
	return r.Host.GOMAXPROCS
}

// seconds prints a duration in ms below a second, so BFS times on small graphs keep
// their digits.
func seconds(s float64) string {
	if s < 1 {
		return fmt.Sprintf("%.3f ms", s*1e3)
	}
	return fmt.Sprintf("%.3f s", s)
}
