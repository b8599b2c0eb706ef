package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOrdersSameAnswers: one edge list ingested in every vertex order gives the same
// BFS levels and the same components, in the file's own ids, undirected and directed;
// the file has isolated ids, a component apart and self-loops.
func TestOrdersSameAnswers(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 22))
	var b strings.Builder
	for range 1500 {
		fmt.Fprintf(&b, "%d %d\n", 3*rng.IntN(200), 3*rng.IntN(200)) // ids 0, 3, ... 597
	}
	for range 60 {
		fmt.Fprintf(&b, "%d %d\n", 700+rng.IntN(30), 700+rng.IntN(30))
	}
	b.WriteString("801 801\n") // a vertex with only a self-loop
	dir := t.TempDir()
	text := filepath.Join(dir, "g.txt")
	if err := os.WriteFile(text, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, directed := range []bool{false, true} {
		var refLevels map[string]string
		var refParts map[string]string
		for _, order := range []string{"input", "degree", "bfs", "bisect", "auto"} {
			g := filepath.Join(dir, fmt.Sprintf("%s-%v.ooc", order, directed))
			args := []string{"ingest", "-q", "--order", order, "-o", g, text}
			if directed {
				args = append(args, "--directed")
			}
			if code, _, stderr := runCLI(t, "", args...); code != exitOK {
				t.Fatalf("%v: exit %d: %s", args, code, stderr)
			}
			code, bfsOut, stderr := runCLI(t, "", "bfs", "--src", "3", "--validate", "--backend", "cpu", "--text", "-o", "-", g)
			if code != exitOK {
				t.Fatalf("bfs, order %s: exit %d: %s", order, code, stderr)
			}
			levels := map[string]string{}
			for _, line := range strings.Split(strings.TrimSpace(bfsOut), "\n") {
				f := strings.Fields(line)
				if len(f) != 3 {
					t.Fatalf("bfs line %q", line)
				}
				levels[f[0]] = f[2]
			}
			code, ccOut, stderr := runCLI(t, "", "cc", "--validate", "--backend", "cpu", "--text", "-o", "-", g)
			if code != exitOK {
				t.Fatalf("cc, order %s: exit %d: %s", order, code, stderr)
			}
			parts := partition(t, ccOut)
			if refLevels == nil {
				refLevels, refParts = levels, parts
				if len(levels) < 150 || len(parts) < 200 {
					t.Fatalf("%d vertices reached, %d labelled: the graph is not what the test means", len(levels), len(parts))
				}
				continue
			}
			if !sameMap(levels, refLevels) {
				t.Errorf("directed %v, order %s: BFS levels differ from the file's order's", directed, order)
			}
			if !sameMap(parts, refParts) {
				t.Errorf("directed %v, order %s: components differ from the file's order's", directed, order)
			}
		}
	}
}

// partition maps each vertex of "vertex label" lines to the smallest vertex of its
// label: the components, whatever the labels.
func partition(t *testing.T, out string) map[string]string {
	t.Helper()
	type vl struct{ v, l string }
	var lines []vl
	least := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			t.Fatalf("cc line %q", line)
		}
		var v int
		fmt.Sscan(f[0], &v)
		if m, ok := least[f[1]]; !ok || v < m {
			least[f[1]] = v
		}
		lines = append(lines, vl{f[0], f[1]})
	}
	p := map[string]string{}
	for _, x := range lines {
		p[x.v] = fmt.Sprint(least[x.l])
	}
	return p
}

func sameMap(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
