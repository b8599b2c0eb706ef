package main

import (
	"flag"
	"fmt"

	"github.com/oocgraph/ooc/internal/plural"
	"github.com/oocgraph/ooc/store"
)

func init() {
	register(&command{name: "verify", summary: "check every checksum and the structure of a graph", help: verifyHelp, run: runVerify})
	flagSets["verify"] = func(e *env) *flag.FlagSet { return newVerifyFlags(e, new(bool)) }
}

const verifyHelp = `
Usage: ooc verify [--json] [GRAPH]

Check a graph directory end to end: the manifest's checksum, every shard's header,
footer and section checksums, the padding between sections, the tie between each
shard and the manifest (its header checksum and the graph's identity), that every
adjacency list decodes to exactly its degree of neighbours, in range and ascending,
without self-loops unless they were kept, and that the lists agree with each other:
an undirected graph's are symmetric, a directed graph's in-lists are the transpose of
its out-lists, and in a graph with edge weights (ooc ingest --weights) every edge
weighs the same in both lists that hold it. It reads every byte of the graph.
Prints "ok: ..." (with --json, one JSON object) and exits 0 when all is well; prints
the file and offset of the first problem and exits 3 when the graph is corrupt.
Without GRAPH, the only *.ooc graph in the current directory is used.

Examples:
  ooc verify friendster.ooc
  ooc verify --json friendster.ooc
  ooc verify || echo "re-ingest: the graph is damaged"
`

func newVerifyFlags(e *env, json *bool) *flag.FlagSet {
	fs := newFlags(e, "verify")
	fs.BoolVar(json, "json", false, "print the result as one JSON object on stdout")
	return fs
}

// verifyJSON is verify's --json output; a corrupt graph is an error, not an object.
type verifyJSON struct {
	OK       bool   `json:"ok"`
	Vertices uint32 `json:"vertices"`
	Edges    uint64 `json:"edges"`
	Shards   int    `json:"shards"`
	Weighted bool   `json:"weighted,omitempty"`
	// WeightType is "float32" for float weights (every one checked non-negative and
	// finite); absent for integer weights.
	WeightType string `json:"weight_type,omitempty"`
}

func runVerify(e *env, args []string) error {
	var asJSON bool
	pos, err := parseFlags(e, newVerifyFlags(e, &asJSON), args)
	if err != nil {
		return err
	}
	dir, err := findGraph(pos)
	if err != nil {
		return err
	}
	m, err := store.Verify(dir)
	if err != nil {
		return err
	}
	if asJSON {
		return printJSON(e.stdout, verifyJSON{OK: true, Vertices: m.Vertices, Edges: m.Edges, Shards: len(m.Out) + len(m.In), Weighted: m.Weighted, WeightType: m.WeightType})
	}
	edges := plural.Of(m.Edges, "edge")
	if m.Weighted {
		edges = plural.Of(m.Edges, "weighted edge")
	}
	if m.FloatWeights() {
		edges = plural.Of(m.Edges, "float32-weighted edge")
	}
	fmt.Fprintf(e.stdout, "ok: %s, %s, %s, checksums verified\n", plural.Of(m.Vertices, "vertex"), edges, plural.Of(len(m.Out)+len(m.In), "shard"))
	return nil
}
