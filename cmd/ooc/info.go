package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/internal/plural"
	"github.com/oocgraph/ooc/store"
)

func init() {
	register(&command{name: "info", summary: "print a graph's size, counts, degree summary and shards", help: infoHelp, run: runInfo})
	flagSets["info"] = func(e *env) *flag.FlagSet { return newInfoFlags(e, new(bool)) }
}

const infoHelp = `
Usage: ooc info [--json] [GRAPH]

Print what a graph directory holds: vertices, edges, whether it is directed, what
ingest dropped, its size in bytes and in bits per stored directed edge (the vertex
directory included; the transpose of a directed graph counts as a second copy of its
edges), that size split by section (the lists, the vertex directory, edge weights,
ids.bin, marked "(differences)" when it holds varints of the differences between
consecutive ids, and headers, padding and the manifest), a degree summary (largest, mean,
vertices of degree zero) and the shards.
It reads only the manifest and the directories (whose checksums it checks), so it is
quick on a graph of any size and says nothing of the lists: a graph whose list bytes
are damaged is described as the manifest says (exit 0), and refused by 'ooc verify',
which checks everything, and by every search.
Without GRAPH, the only *.ooc graph in the current directory is used.

Examples:
  ooc info friendster.ooc
  ooc info --json | jq .bits_per_edge
`

func newInfoFlags(e *env, asJSON *bool) *flag.FlagSet {
	fs := newFlags(e, "info")
	fs.BoolVar(asJSON, "json", false, "print one JSON object")
	return fs
}

// graphInfo is the --json form of ooc info.
type graphInfo struct {
	Graph string `json:"graph"`
	graphCounts
	IDBase    uint32             `json:"id_base"`
	Relabeled bool               `json:"relabeled"`
	Order     string             `json:"vertex_order"`
	Sections  sectionSizes       `json:"sections"`
	Degree    degreeSummary      `json:"degree"`
	InDegree  *degreeSummary     `json:"in_degree,omitempty"`
	Input     store.InputInfo    `json:"input"`
	Options   store.BuildOptions `json:"options"`
	ShardList []store.ShardInfo  `json:"shard_list"`
	Created   string             `json:"created"`
}

// sectionSizes is the graph's size split by what the bytes hold, each in bytes and in
// bits per stored directed edge (as bits_per_edge counts them).
type sectionSizes struct {
	Lists     sectionSize `json:"lists"`     // ADJ sections
	Directory sectionSize `json:"directory"` // DIRECTORY sections: degrees and list starts
	Weights   sectionSize `json:"weights"`   // WEIGHTS sections
	IDs       sectionSize `json:"ids"`       // ids.bin
	// IDsLayout is how ids.bin stores the ids: "raw" (4 or 8 bytes each) or
	// "differences" (varints of the differences, store/FORMAT.md); absent without one
	IDsLayout string      `json:"ids_layout,omitempty"`
	Other     sectionSize `json:"other"` // shard headers, footers, padding, the manifest
}

type sectionSize struct {
	Bytes       int64   `json:"bytes"`
	BitsPerEdge float64 `json:"bits_per_edge"`
}

// sectionsOf splits g's bytes by section.
func sectionsOf(g *store.Graph) sectionSizes {
	var s sectionSizes
	for _, sh := range g.Shards() {
		for _, sec := range sh.Sections {
			switch sec.ID {
			case store.SecAdj:
				s.Lists.Bytes += sec.Length
			case store.SecDirectory:
				s.Directory.Bytes += sec.Length
			case store.SecWeights:
				s.Weights.Bytes += sec.Length
			}
		}
	}
	if g.M.IDs != nil {
		s.IDs.Bytes, s.IDsLayout = g.M.IDs.Bytes, "raw"
		if g.IDsCompact() {
			s.IDsLayout = "differences"
		}
	}
	s.Other.Bytes = g.M.Bytes - s.Lists.Bytes - s.Directory.Bytes - s.Weights.Bytes - s.IDs.Bytes
	copies := g.M.Edges
	if g.M.Directed {
		copies *= 2
	}
	for _, x := range []*sectionSize{&s.Lists, &s.Directory, &s.Weights, &s.IDs, &s.Other} {
		if copies > 0 {
			x.BitsPerEdge = 8 * float64(x.Bytes) / float64(copies)
		}
	}
	return s
}

type degreeSummary struct {
	Max  uint32  `json:"max"`
	Mean float64 `json:"mean"`
	Zero uint64  `json:"zero"` // vertices of degree 0
}

func runInfo(e *env, args []string) error {
	var asJSON bool
	pos, err := parseFlags(e, newInfoFlags(e, &asJSON), args)
	if err != nil {
		return err
	}
	g, dir, err := openGraph(pos)
	if err != nil {
		return err
	}
	defer g.Close()
	for _, s := range g.Shards() { // the degree summary reads them: no number from bad bytes
		if err := s.CheckDirectory(); err != nil {
			return err
		}
	}
	m := g.M
	info := graphInfo{Graph: dir, graphCounts: countsOf(m), IDBase: m.IDBase, Relabeled: m.Relabeled, Order: m.VertexOrder, Sections: sectionsOf(g), Degree: degrees(g.Out()), Input: m.Input, Options: m.Options,
		ShardList: append(append([]store.ShardInfo{}, m.Out...), m.In...), Created: m.Created}
	if m.Directed {
		d := degrees(g.In())
		info.InDegree = &d
	}
	if asJSON {
		return printJSON(e.stdout, info)
	}
	printInfo(e.stdout, &info)
	return nil
}

// degrees summarizes the degrees of one direction, from the DIRECTORY sections.
func degrees(c *store.CSR) degreeSummary {
	var s degreeSummary
	var n uint64
	for _, sh := range c.Shards {
		deg := make([]uint32, sh.N)
		sh.DegreesAt(deg, 0)
		for _, d := range deg {
			s.Max = max(s.Max, d)
			if d == 0 {
				s.Zero++
			}
		}
		n += uint64(sh.N)
	}
	if n > 0 {
		s.Mean = float64(c.Edges) / float64(n)
	}
	return s
}

func printInfo(w io.Writer, i *graphInfo) {
	kind := "undirected (each edge stored both ways)"
	if i.Directed {
		kind = "directed (out-edges and their transpose)"
	}
	fmt.Fprintf(w, "graph       %s\n", i.Graph)
	fmt.Fprintf(w, "vertices    %d", i.Vertices)
	switch {
	case i.Relabeled && i.Order == store.OrderDegree:
		fmt.Fprintf(w, " (relabeled, numbered by degree: original ids in ids.bin)\n")
	case i.Relabeled && i.Order == store.OrderBFS:
		fmt.Fprintf(w, " (relabeled, numbered breadth-first: original ids in ids.bin)\n")
	case i.Relabeled && i.Order == store.OrderBisect:
		fmt.Fprintf(w, " (relabeled, numbered by bisection: original ids in ids.bin)\n")
	case i.Relabeled:
		fmt.Fprintf(w, " (relabeled: original ids in ids.bin)\n")
	case i.Order == store.OrderDegree:
		fmt.Fprintf(w, " (numbered by degree, hubs first: original ids in ids.bin)\n")
	case i.Order == store.OrderBFS:
		fmt.Fprintf(w, " (numbered breadth-first, neighbours near: original ids in ids.bin)\n")
	case i.Order == store.OrderBisect:
		fmt.Fprintf(w, " (numbered by recursive bisection, similar lists near: original ids in ids.bin)\n")
	case i.Vertices > 0:
		fmt.Fprintf(w, " (ids %d..%d)\n", i.IDBase, uint64(i.IDBase)+uint64(i.Vertices)-1)
	default:
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "edges       %s, %s\n", plural.Of(i.Edges, "directed edge"), kind)
	switch {
	case i.Weighted && i.WeightType == store.WeightFloat32:
		fmt.Fprintf(w, "weights     a float32 weight per stored edge\n")
	case i.Weighted:
		fmt.Fprintf(w, "weights     an integer weight per stored edge\n")
	}
	size := "size unknown"
	if i.Input.Bytes >= 0 {
		size = plural.Of(i.Input.Bytes, "byte")
	}
	fmt.Fprintf(w, "input       %s (%s, %s): %s, %s\n",
		i.Input.Name, i.Input.Format, size, plural.Of(i.InputEdges, "edge"), i.dropped())
	if i.BitsPerEdge == 0 {
		fmt.Fprintf(w, "size        %s, no edges\n", bytesize.Format(i.Bytes))
	} else {
		fmt.Fprintf(w, "size        %s, %.2f bits (%.2f bytes) per directed edge\n", bytesize.Format(i.Bytes), i.BitsPerEdge, i.BitsPerEdge/8)
	}
	sec := &i.Sections
	var parts []string
	for _, x := range []struct {
		name string
		s    sectionSize
		show bool
	}{{"lists", sec.Lists, true}, {"directory", sec.Directory, true}, {"weights", sec.Weights, sec.Weights.Bytes > 0},
		{"ids.bin", sec.IDs, sec.IDs.Bytes > 0 && sec.IDsLayout != "differences"},
		{"ids.bin (differences)", sec.IDs, sec.IDs.Bytes > 0 && sec.IDsLayout == "differences"},
		{"headers and padding", sec.Other, true}} {
		switch {
		case !x.show:
		case i.BitsPerEdge > 0:
			parts = append(parts, fmt.Sprintf("%s %s (%.2f bits)", x.name, bytesize.Format(x.s.Bytes), x.s.BitsPerEdge))
		default:
			parts = append(parts, fmt.Sprintf("%s %s", x.name, bytesize.Format(x.s.Bytes)))
		}
	}
	fmt.Fprintf(w, "sections    %s\n", strings.Join(parts, ", "))
	fmt.Fprintf(w, "degree      max %d, mean %.2f, %s of degree 0\n", i.Degree.Max, i.Degree.Mean, plural.Of(i.Degree.Zero, "vertex"))
	if i.InDegree != nil {
		fmt.Fprintf(w, "in-degree   max %d, mean %.2f, %s of in-degree 0\n", i.InDegree.Max, i.InDegree.Mean, plural.Of(i.InDegree.Zero, "vertex"))
	}
	fmt.Fprintf(w, "shards      %d (at most %s of adjacency each)\n", i.Shards, bytesize.Format(i.Options.ShardBytes))
	for _, s := range i.ShardList {
		fmt.Fprintf(w, "  %-16s vertices [%d, %d)  %s  %s\n", s.File, s.Lo, s.Hi, plural.Of(s.Edges, "edge"), bytesize.Format(s.Bytes))
	}
}
