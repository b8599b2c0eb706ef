package ooc_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/oocgraph/ooc"
	"github.com/oocgraph/ooc/ingest"
	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/store"
)

// Example ingests a small edge list, opens the graph, picks a backend and runs BFS,
// connected components, PageRank, k-core and shortest paths on it.
func Example() {
	dir, err := os.MkdirTemp("", "ooc-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	dest := filepath.Join(dir, "g.ooc")

	// a path 0-1-2-3 and an edge 4-5
	edges := []parse.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}, {U: 4, V: 5}}
	_, err = ingest.FromEdges(ingest.Options{Dest: dest}, store.InputInfo{Name: "example"}, parse.Header{},
		func(emit func([]parse.Edge) error) error { return emit(edges) })
	if err != nil {
		log.Fatal(err)
	}

	g, err := store.Open(dest)
	if err != nil {
		log.Fatal(err)
	}
	defer g.Close()
	e, err := ooc.Open(g, "cpu", ooc.Options{}) // "auto" takes the GPU when there is one
	if err != nil {
		log.Fatal(err)
	}
	defer e.Close()

	bfs, err := e.BFS(0)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("bfs from 0: %d vertices reached, depth %d, %d edges\n", bfs.Reached, bfs.Depth, bfs.EdgesTraversed)
	fmt.Println("vertex 5 reached:", bfs.Level[5] != ooc.Unreached)

	var cc *ooc.CCResult
	if cc, err = e.CC(); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d components, the largest of %d vertices\n", cc.Components, cc.Largest)

	pr, err := e.PageRank(ooc.PageRankOptions{}) // tolerance 1e-4, at most 100 iterations
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("highest PageRank:", pr.Top(2), "converged:", pr.Converged)

	core, err := e.KCore()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("max core:", core.MaxCore, "core numbers:", core.Core)

	// The store holds no edge weights yet: every edge weighs 1, as in BFS.
	sp, err := e.SSSP(0, ooc.SSSPOptions{UnitWeights: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("distance 0 -> 3:", sp.Dist[3], "vertex 4 reached:", sp.Dist[4] != ooc.Infinity)
	// Output:
	// bfs from 0: 4 vertices reached, depth 3, 3 edges
	// vertex 5 reached: false
	// 2 components, the largest of 4 vertices
	// highest PageRank: [1 2] converged: true
	// max core: 1 core numbers: [1 1 1 1 1 1]
	// distance 0 -> 3: 3 vertex 4 reached: false
}
