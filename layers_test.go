package ooc_test

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// layers is the layering of the module: a package may import only packages of lower
// layers (the standard library and other modules are not listed). A package missing
// here fails the test, so a new package takes its place on purpose.
var layers = [][]string{
	// 0: leaves
	{"internal/bytesize", "internal/plural", "internal/fault", "internal/hostcxx", "internal/progress", "internal/vexcheck", "internal/pages", "internal/lanes", "internal/testseed", "tools/kernelgen"},
	// 1: helpers over leaves; the CUDA driver shim; the generators, the edge-list parsers
	// and the Parquet reader and writer (their messages count through internal/plural)
	{"internal/parallel", "internal/cuda", "gen", "ingest/parse", "internal/parquetio"},
	// 2: the format and every codec of it
	{"store"},
	// 3: what reads or writes the format: the GPU runtime, the validators, ingest
	{"gpu", "validate", "internal/testgraph", "ingest"},
	// 4: one folder per algorithm (CPU, .cu, GPU driver); none imports another. And the
	// tests' real graphs, ingested (internal/realgraph: above ingest)
	{"bfs", "afforest", "pagerank", "kcore", "sssp", "internal/realgraph"},
	// 5: the API: backends and results
	{""},
	// 6: programs
	{"cmd/ooc", "tools/baseline", "tools/parseonly", "tools/corespeed", "tests/robust"},
}

// TestLayers checks every import of the module's packages against layers, in the default
// and the cuda build (from go list, so it needs the go command).
func TestLayers(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to list the packages")
	}
	const mod = "github.com/oocgraph/ooc"
	layer := map[string]int{}
	for i, l := range layers {
		for _, p := range l {
			layer[p] = i
		}
	}
	rel := func(p string) (string, bool) {
		if p == mod {
			return "", true
		}
		r, ok := strings.CutPrefix(p, mod+"/")
		return r, ok
	}
	name := func(p string) string {
		if p == "" {
			return "ooc (the module root)"
		}
		return p
	}
	for _, tags := range []string{"", "cuda"} {
		out, err := exec.Command("go", "list", "-tags", tags, "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...").Output()
		if err != nil {
			t.Fatalf("go list -tags %q: %v", tags, err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Fields(line)
			from, _ := rel(f[0])
			lf, ok := layer[from]
			if !ok {
				t.Errorf("package %s has no layer in layers_test.go", name(from))
				continue
			}
			for _, imp := range f[1:] {
				to, ok := rel(imp)
				if !ok {
					continue
				}
				if lt, known := layer[to]; !known {
					t.Errorf("package %s has no layer in layers_test.go", name(to))
				} else if lt >= lf {
					t.Errorf("build %q: %s (layer %d) imports %s (layer %d): imports must go down", tags, name(from), lf, name(to), lt)
				}
			}
		}
	}
}

// TestLayoutDoc holds docs/layout.md's table of layers to layers, package by package,
// and its table of packages to naming each of them: the doc a newcomer reads first
// says where a package sits.
func TestLayoutDoc(t *testing.T) {
	b, err := os.ReadFile("docs/layout.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	row := regexp.MustCompile(`(?m)^\| ([0-6]) [^|]*\| ([^|]*) \|$`)
	rows := row.FindAllStringSubmatch(doc, -1)
	if len(rows) != len(layers) {
		t.Fatalf("docs/layout.md has %d rows of layers, layers_test.go %d", len(rows), len(layers))
	}
	seen := map[int]bool{}
	for _, r := range rows {
		i, _ := strconv.Atoi(r[1])
		if seen[i] {
			t.Errorf("docs/layout.md has layer %d twice", i)
		}
		seen[i] = true
		var got []string
		for _, p := range regexp.MustCompile(`[,;]`).Split(r[2], -1) {
			if p = strings.Fields(p)[0]; p == "ooc" {
				p = ""
			}
			got = append(got, p)
		}
		want := slices.Clone(layers[i])
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("docs/layout.md's layer %d holds %q; layers_test.go's %q", i, got, want)
		}
	}
	for _, l := range layers {
		for _, p := range l {
			if p != "" && !strings.Contains(doc, "| `"+p+"`") && !strings.Contains(doc, ", `"+p+"`") {
				t.Errorf("docs/layout.md's table of packages does not name %s", p)
			}
		}
	}
}
