package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/oocgraph/ooc/internal/plural"
	"github.com/oocgraph/ooc/store"
)

func init() {
	register(&command{name: "upgrade", summary: "rewrite a graph of an older format version in the current one", help: upgradeHelp, run: runUpgrade})
	flagSets["upgrade"] = func(e *env) *flag.FlagSet { return newUpgradeFlags(e, new(bool)) }
}

const upgradeHelp = `
Usage: ooc upgrade [--json] [GRAPH]

Rewrite a graph directory written by an older ooc (format versions 2 to 5) in the
current format version, in place: every section checksum of the old graph is checked,
its lists, edge weights and original ids are written again through the current writer
into a temporary directory beside it, the new graph is verified end to end (as
'ooc verify' does), and only then does it replace the old one, in one step. A failure
at any point leaves the old graph as it was. The manifest's counts, input, options and
vertex order are kept. GRAPH may be a symbolic link: the graph it names is rewritten
and the link kept. Every other command refuses a graph of an older version and
names this one. A graph already in the current version is left alone (exit 0) once
its manifest, shard headers and directories check out as 'ooc info' checks them; its
lists are not read ('ooc verify' finds a damaged list, as every search does).
Without GRAPH, the only *.ooc graph in the current directory is used.

Examples:
  ooc upgrade friendster.ooc
  ooc upgrade --json friendster.ooc
`

func newUpgradeFlags(e *env, asJSON *bool) *flag.FlagSet {
	fs := newFlags(e, "upgrade")
	fs.BoolVar(asJSON, "json", false, "print the result as one JSON object on stdout")
	return fs
}

// upgradeJSON is upgrade's --json output.
type upgradeJSON struct {
	Graph    string `json:"graph"`
	From     uint32 `json:"from_version"`
	To       uint32 `json:"to_version"`
	Upgraded bool   `json:"upgraded"` // false: the graph was already in the current version
	graphCounts
}

func runUpgrade(e *env, args []string) error {
	var asJSON bool
	pos, err := parseFlags(e, newUpgradeFlags(e, &asJSON), args)
	if err != nil {
		return err
	}
	dir, err := findGraph(pos)
	if err != nil {
		return err
	}
	old, err := store.ReadManifest(dir)
	if err != nil {
		return err
	}
	m, err := store.Upgrade(dir, store.UpgradeOptions{Log: e.stderr})
	upToDate := errors.Is(err, store.ErrUpToDate)
	if err != nil && !upToDate {
		return err
	}
	if asJSON {
		r := upgradeJSON{Graph: dir, From: old.FormatVersion, To: max(old.FormatVersion, store.Version), Upgraded: !upToDate, graphCounts: countsOf(old)}
		if m != nil {
			r.graphCounts = countsOf(m)
		}
		return printJSON(e.stdout, r)
	}
	if upToDate {
		fmt.Fprintf(e.stdout, "%s is already format version %d: nothing to do\n", dir, old.FormatVersion)
		return nil
	}
	fmt.Fprintf(e.stdout, "upgraded %s from format version %d to %d: %s, %s, %s, verified\n", dir, old.FormatVersion, m.FormatVersion,
		plural.Of(m.Vertices, "vertex"), plural.Of(m.Edges, "edge"), plural.Of(len(m.Out)+len(m.In), "shard"))
	return nil
}
