package main

import (
	"flag"
	"fmt"

	"github.com/oocgraph/ooc/store"
)

func init() {
	register(&command{name: "verify", summary: "check every checksum and the structure of a graph", help: verifyHelp, run: runVerify})
	flagSets["verify"] = func(e *env) *flag.FlagSet { return newFlags(e, "verify") }
}

const verifyHelp = `
Usage: ooc verify [GRAPH]

Check a graph directory end to end: the manifest's checksum, every shard's header,
footer and section checksums, the padding between sections, the tie between each
shard and the manifest, and that every adjacency list decodes to exactly its degree
of neighbours, in range and ascending. It reads every byte of the graph.
Prints "ok: ..." and exits 0 when all is well; prints the file and offset of the
first problem and exits 3 when the graph is corrupt.
Without GRAPH, the only *.ooc graph in the current directory is used.

Examples:
  ooc verify friendster.ooc
  ooc verify || echo "re-ingest: the graph is damaged"
`

func runVerify(e *env, args []string) error {
	pos, err := parseFlags(e, newFlags(e, "verify"), args)
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
	fmt.Fprintf(e.stdout, "ok: %d vertices, %d edges, %d shards, checksums verified\n", m.Vertices, m.Edges, len(m.Out)+len(m.In))
	return nil
}
