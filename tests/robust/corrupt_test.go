package robust

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/internal/testseed"
)

// refuses runs cmd on a damaged graph and requires exit 3, nothing on stdout (no answer
// from bad data) and one line on stderr naming the damaged path.
func refuses(t *testing.T, dir, path string, args ...string) result {
	t.Helper()
	r := ooc(t, dir, nil, args...)
	if r.code != 3 || r.stdout != "" || !oneLine(r.stderr) || !strings.Contains(r.stderr, path) {
		t.Fatalf("ooc %s: %s; want exit 3, no answer, one line naming %s", strings.Join(args, " "), r, path)
	}
	return r
}

// newerVersion lists the fixtures of store/testdata/broken that are not damaged but
// name a newer format version in a valid manifest: every command refuses them with exit
// 2 (as it does an older version), one line naming the manifest.
var newerVersion = map[string]bool{"version-manifest": true}

// answersOnlyWhenTouched lists the broken fixtures whose damage carries valid checksums:
// a BFS may legitimately never read the bad list (store/fuzz_fixtures_test.go), and
// never reads a weight (a NaN or negative float weight).
var answersOnlyWhenTouched = map[string]bool{"bad-neighbour": true, "unsorted-blocks": true, "duplicate-neighbour": true,
	"asymmetric": true, "self-loop": true, "weights-asymmetric": true, "float-weight-nan": true, "float-weight-negative": true}

// decodesClean lists the broken fixtures whose every list decodes: cc, which reads
// them all, may answer; only verify's cross-checks find the damage.
var decodesClean = map[string]bool{"unsorted-blocks": true, "duplicate-neighbour": true, "asymmetric": true, "self-loop": true,
	"weights-asymmetric": true, "float-weight-nan": true, "float-weight-negative": true}

// TestBrokenFixturesCLI runs verify, bfs and cc on every broken fixture of the store.
func TestBrokenFixturesCLI(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("..", "..", "store", "testdata", "broken", "*.ooc"))
	if len(dirs) < 20 {
		t.Fatalf("found %d broken fixtures in store/testdata/broken", len(dirs))
	}
	work := t.TempDir()
	for _, d := range dirs {
		name := strings.TrimSuffix(filepath.Base(d), ".ooc")
		t.Run(name, func(t *testing.T) {
			abs, _ := filepath.Abs(d)
			if newerVersion[name] {
				for _, args := range [][]string{{"verify", abs}, {"bfs", "--src", "0", abs}, {"cc", abs}, {"info", abs}, {"upgrade", abs}} {
					r := ooc(t, work, nil, args...)
					if r.code != 2 || r.stdout != "" || !oneLine(r.stderr) || !strings.Contains(r.stderr, abs) || !strings.Contains(r.stderr, "newer") {
						t.Errorf("ooc %s: %s; want exit 2, no answer, one line naming %s as newer", strings.Join(args, " "), r, abs)
					}
				}
				return
			}
			r := refuses(t, work, abs, "verify", abs)
			if !strings.HasPrefix(name, "missing") && !strings.HasPrefix(name, "version-manifest") && !strings.HasPrefix(name, "weighted-manifest") && !strings.HasPrefix(name, "float-manifest") && !strings.Contains(r.stderr, "at offset ") {
				t.Errorf("verify names no offset: %s", r.stderr)
			}
			if !answersOnlyWhenTouched[name] {
				refuses(t, work, abs, "bfs", "--src", "random", abs)
				refuses(t, work, abs, "bfs", "--json", "--src", "random", abs)
			}
			if !decodesClean[name] {
				refuses(t, work, abs, "cc", abs)
			}
			if strings.HasPrefix(name, "float-weight") { // SSSP reads every weight
				refuses(t, work, abs, "sssp", "--src", "random", abs)
			}
		})
	}
}

// TestCorruptCLI flips and truncates random bytes of ingested graphs: verify, bfs and
// cc must all exit 3 naming the damaged file, verify with the offset of a flip.
func TestCorruptCLI(t *testing.T) {
	trials := 24
	if longMode() {
		trials = 400
	}
	work := t.TempDir()
	input := gen(t, work, "in.txt", 11, 8, "text")
	var graphs []string
	for _, g := range []struct {
		name  string
		extra []string
	}{{"u.ooc", nil}, {"d.ooc", []string{"--directed"}}} {
		args := append([]string{"ingest", "-q", "--shard-size", "4KiB", "-o", g.name}, g.extra...)
		if r := ooc(t, work, nil, append(args, input)...); r.code != 0 {
			t.Fatalf("ingest: %s", r)
		}
		graphs = append(graphs, filepath.Join(work, g.name))
	}
	seed := testseed.Seed(t)
	t.Logf("%d trials", trials)
	r := rand.New(rand.NewPCG(seed, 9))
	offset := regexp.MustCompile(`at offset \d+`)
	for trial := 0; trial < trials; trial++ {
		src := graphs[r.IntN(len(graphs))]
		dst := filepath.Join(work, "c", filepath.Base(src))
		os.RemoveAll(filepath.Dir(dst))
		copyDir(t, src, dst)
		files := listDir(t, dst)
		victim := filepath.Join(dst, files[r.IntN(len(files))])
		b := readFile(t, victim)
		flip := r.IntN(3) > 0
		if flip {
			b[r.IntN(len(b))] ^= byte(1 + r.IntN(255))
		} else {
			b = b[:r.IntN(len(b)-1)] // not only the manifest's trailing newline
		}
		writeFile(t, victim, b)
		what := map[bool]string{true: "flip", false: "truncation"}[flip]
		t.Logf("trial %d: %s of %s", trial, what, strings.TrimPrefix(victim, work))
		v := refuses(t, work, victim, "verify", dst)
		if flip && !offset.MatchString(v.stderr) {
			t.Errorf("seed %d trial %d: verify gives no offset for a flipped byte: %s", seed, trial, v.stderr)
		}
		refuses(t, work, victim, "bfs", "--src", "random", dst)
		refuses(t, work, victim, "cc", dst)
	}
}
