//go:build linux

package main

import (
	"context"
	"io"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/oocgraph/ooc"
)

// TestPGOWorkload runs one workload of the profile scripts/pgo-profile.sh builds into
// default.pgo, in-process under -test.cpuprofile, and is skipped unless
// OOC_PGO_WORKLOAD is set: =bfs runs the searches `ooc bfs --seed I --backend cpu
// --workers 1 GRAPH` runs for I = 1, 2, ... (a random source each, parents alone, as the
// CPU table times them), =cc the run of `ooc cc --backend cpu --workers 1 GRAPH`, again
// and again on one open graph (OOC_PGO_GRAPH) and engine, until the process has used
// OOC_PGO_SECONDS of CPU time (default 4): every workload then weighs the same in the
// merged profile, whatever its graph's size, and the graph's open little.
func TestPGOWorkload(t *testing.T) {
	algo := os.Getenv("OOC_PGO_WORKLOAD")
	if algo == "" {
		t.Skip("OOC_PGO_WORKLOAD not set: run by scripts/pgo-profile.sh")
	}
	graph := os.Getenv("OOC_PGO_GRAPH")
	secs := 4.0
	if s := os.Getenv("OOC_PGO_SECONDS"); s != "" {
		var err error
		if secs, err = strconv.ParseFloat(s, 64); err != nil {
			t.Fatal(err)
		}
	}
	if algo != "bfs" && algo != "cc" {
		t.Fatalf("OOC_PGO_WORKLOAD=%q: want bfs or cc", algo)
	}
	g, _, err := openGraph([]string{graph})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	a := engineArgs{backend: "cpu", workers: 1, noLevels: true}
	which := ooc.AlgoBFS
	if algo == "cc" {
		which = ooc.AlgoCC
	}
	eng, err := openEngine(&env{stdout: io.Discard, stderr: io.Discard}, "bfs", g, a, false, which)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	start := cpuTime(t)
	runs := 0
	for i := 1; cpuTime(t)-start < time.Duration(secs*float64(time.Second)); i++ {
		if algo == "cc" {
			_, err = eng.CC()
		} else {
			var srcs []uint32
			if srcs, err = pickSources(context.Background(), g, "random", 1, uint64(i)); err == nil {
				_, err = eng.BFS(srcs[0])
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		runs++
	}
	t.Logf("%s on %s: %d runs", algo, graph, runs)
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
