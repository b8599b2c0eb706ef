// Command parseonly times a parse-only pass over an edge list: the input read and parsed
// by ingest's parser on all workers, the edges discarded. The ingest's cost is measured
// against it (issue 2: the whole ingest within 3x of it).
//
//	parseonly [-workers N] FILE
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/oocgraph/ooc/ingest/parse"
)

func main() {
	workers := flag.Int("workers", 0, "parse workers (0: all cores)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: parseonly [-workers N] FILE")
		os.Exit(2)
	}
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "parseonly:", err)
		os.Exit(1)
	}
	defer f.Close()
	t0 := time.Now()
	res, err := parse.ParseOnly(f, parse.ParseOptions{Name: flag.Arg(0), Workers: *workers})
	if err != nil {
		fmt.Fprintln(os.Stderr, "parseonly:", err)
		os.Exit(1)
	}
	s := time.Since(t0).Seconds()
	fmt.Printf("parse-only %s: %d edges in %.3f s, %.1fM edges/s\n", flag.Arg(0), res.Edges, s, float64(res.Edges)/s/1e6)
}
