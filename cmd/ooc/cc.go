package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/oocgraph/ooc"
	"github.com/oocgraph/ooc/internal/plural"
	"github.com/oocgraph/ooc/store"
	"github.com/oocgraph/ooc/validate"
)

func init() {
	register(&command{name: "cc", summary: "connected components: a label per vertex, count, largest", help: ccHelp + outputRules, run: runCC})
	flagSets["cc"] = func(e *env) *flag.FlagSet { return newCCFlags(e, &ccArgs{}) }
}

const ccHelp = `
Usage: ooc cc [-o labels.bin] [--text] [--force] [--validate] [-v] [--json]
              [--backend auto|cpu|gpu] [--vram SIZE] [--workers N] [GRAPH]

Connected components with Afforest (Sutton, Ben-Nun, Barak, IPDPS 2018): every vertex
is linked with its first few neighbours, the component that then holds most vertices is
found by sampling, and only the vertices outside it read the rest of their lists. On a
directed graph the components are weakly connected. With no GRAPH named, the only
*.ooc graph directory in the current directory is used.

The summary gives the number of components (isolated vertices count as components of
one), the size of the largest, the time and the backend.

-o FILE writes the labels in binary, little-endian:

  magic "OOCCC001" (8 bytes) | vertices n (uint64) | id base (uint32)
  | flags (uint32; bit 0: ids.bin maps the ids) | label (n x uint32)

Entry i belongs to internal vertex i (own id i + id base, or the i-th id of ids.bin
when flagged); vertices with equal labels are in one component, and each label is the
internal id of a vertex of its component. With --text the labels are "vertex label"
lines in the file's own ids, on stdout unless -o is given. A FILE ending in .parquet
gets a Parquet table instead: columns id and component (the id of a vertex of the
component, the same for all its vertices),
` + parquetHelp + `

--validate checks that every edge joins equal labels and that there are as many labels
as components, counted by a sequential union-find.

Examples:
  ooc cc
  ooc cc -o labels.bin --json friendster.ooc
  ooc cc --validate --backend cpu kron24.ooc
`

type ccArgs struct {
	resultFlags
	engineArgs
}

func newCCFlags(e *env, a *ccArgs) *flag.FlagSet {
	fs := newFlags(e, "cc")
	a.resultFlags.add(fs, resultHelp{result: "the labels", lines: "vertex label", check: "check the partition against a union-find", table: "the engine's plan and phases"})
	addEngineFlags(fs, &a.engineArgs)
	return fs
}

// ccJSON is cc's --json output.
type ccJSON struct {
	Components uint64  `json:"components"`
	Largest    uint64  `json:"largest"`
	Seconds    float64 `json:"seconds"`
	Backend    string  `json:"backend"`
	Validated  bool    `json:"validated"`
}

func runCC(e *env, args []string) error {
	var a ccArgs
	pos, err := parseFlags(e, newCCFlags(e, &a), args)
	if err != nil {
		return err
	}
	run, err := openRun(e, "cc", pos, a.resultFlags, &a.engineArgs, ooc.AlgoCC, nil)
	if err != nil {
		return err
	}
	defer run.close()
	dest, g, eng := run.dest, run.g, run.eng
	r, err := eng.CC()
	if err != nil {
		return err
	}
	if a.validate {
		t := time.Now()
		p, err := validate.CC(g, r.Labels)
		if a.verbose {
			fmt.Fprintf(e.stderr, "cc: check took %.3f s\n", time.Since(t).Seconds())
		}
		if err != nil {
			return fmt.Errorf("cc (%s backend): %w", eng.Name(), err)
		}
		if p.Components != r.Components || p.Largest != r.Largest {
			return fmt.Errorf("cc (%s backend): reported %d components, largest %d; the labels give %d and %d: %w",
				eng.Name(), r.Components, r.Largest, p.Components, p.Largest, validate.ErrInvalid)
		}
	}
	summary := a.summaryTo(e, dest)
	fmt.Fprintf(summary, "cc: %s, largest %s, %.6f s, backend %s%s\n",
		plural.Of(r.Components, "component"), plural.Of(r.Largest, "vertex"), r.Seconds, eng.Name(), validatedNote(a.validate))
	return a.finish(e, dest, func(d *output) error { return writeCC(d, g, r, a.text) },
		ccJSON{Components: r.Components, Largest: r.Largest, Seconds: r.Seconds, Backend: eng.Name(), Validated: a.validate})
}

const ccMagic = "OOCCC001"

// writeCC writes the labels to dest; the table and the lines show each as the file id
// of the vertex it names.
func writeCC(dest *output, g *store.Graph, r *ooc.CCResult, text bool) error {
	return writeVertexValues(dest, g, ccMagic, r.Labels, text, "component", true, func(v uint32) uint64 {
		if l := r.Labels[v]; l < g.NumVertices() {
			return g.External(l)
		}
		return uint64(r.Labels[v])
	})
}
