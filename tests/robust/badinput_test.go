package robust

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// badCase is one malformed input or command line. Every case must exit with code 2,
// print one line on stderr that names the file (and, where pos is set, the line or byte
// offset) and says what was wrong, print nothing on stdout, and leave no graph, temporary
// directory or spill file behind.
type badCase struct {
	name  string
	files map[string][]byte
	args  []string
	stdin []byte
	pos   string   // regexp for the position, e.g. `in\.txt:2:`; "" when none applies
	want  []string // substrings of stderr (what was expected, in the program's words)
	setup func(t *testing.T, dir string)
}

// linePos matches "NAME:LINE:", offsetPos "NAME: offset N".
func linePos(name string, line int) string {
	return regexp.QuoteMeta(name) + ":" + strconv.Itoa(line) + ":"
}

func offsetPos(name string) string { return regexp.QuoteMeta(name) + `: offset \d+` }

func txt(s string) map[string][]byte { return map[string][]byte{"in.txt": []byte(s)} }

func badCases(t *testing.T) []badCase {
	edges := edgeText(20000)
	gz, zs := gzipOf(t, edges), zstdOf(t, edges)
	return []badCase{
		{name: "non-numeric id", files: txt("0 1\n1 x\n"), args: []string{"ingest", "in.txt"}, pos: linePos("in.txt", 2), want: []string{"expected two vertex ids"}},
		{name: "negative id", files: txt("0 1\n-1 2\n"), args: []string{"ingest", "in.txt"}, pos: linePos("in.txt", 2), want: []string{"negative"}},
		{name: "id overflows 64 bits", files: txt("0 1\n1 18446744073709551616\n"), args: []string{"ingest", "in.txt"}, pos: linePos("in.txt", 2), want: []string{"overflows 64 bits"}},
		{name: "id overflows 64 bits with --relabel", files: txt("0 1\n99999999999999999999 1\n"), args: []string{"ingest", "--relabel", "in.txt"}, pos: linePos("in.txt", 2), want: []string{"overflows 64 bits"}},
		{name: "id 2^32-1 without --relabel", files: txt("0 1\n4294967295 1\n"), args: []string{"ingest", "in.txt"}, pos: linePos("in.txt", 2), want: []string{"--relabel"}},
		{name: "id 2^40 in bin64 without --relabel", files: map[string][]byte{"in.bin64": u64s(0, 1, 1<<40, 2)}, args: []string{"ingest", "--format", "bin64", "in.bin64"}, pos: offsetPos("in.bin64"), want: []string{"--relabel"}},
		{name: "id with trailing junk", files: txt("0 1\n12abc 3\n"), args: []string{"ingest", "in.txt"}, pos: linePos("in.txt", 2), want: []string{"expected two vertex ids"}},
		{name: "one column", files: txt("0 1\n5\n"), args: []string{"ingest", "in.txt"}, pos: linePos("in.txt", 2), want: []string{"expected two vertex ids"}},
		{name: "truncated gzip", files: map[string][]byte{"in.txt.gz": gz[:len(gz)*2/3]}, args: []string{"ingest", "in.txt.gz"}, pos: offsetPos("in.txt.gz"), want: []string{"truncated gzip"}},
		{name: "damaged gzip", files: map[string][]byte{"in.txt.gz": flipped(gz, len(gz)/2)}, args: []string{"ingest", "in.txt.gz"}, pos: offsetPos("in.txt.gz"), want: []string{"gzip"}},
		{name: "gzip magic then garbage", files: map[string][]byte{"in.txt.gz": append([]byte{0x1f, 0x8b}, bytes.Repeat([]byte{0x55}, 100)...)}, args: []string{"ingest", "in.txt.gz"}, pos: offsetPos("in.txt.gz"), want: []string{"gzip"}},
		{name: "truncated zstd", files: map[string][]byte{"in.txt.zst": zs[:len(zs)*2/3]}, args: []string{"ingest", "in.txt.zst"}, pos: offsetPos("in.txt.zst"), want: []string{"truncated zstd"}},
		{name: "mtx announces more entries", files: map[string][]byte{"in.mtx": []byte(mtxBanner + "3 3 5\n1 2\n2 3\n")}, args: []string{"ingest", "in.mtx"}, pos: `in\.mtx:\d+:`, want: []string{"announces 5 entries, the file has 2"}},
		{name: "mtx announces fewer entries", files: map[string][]byte{"in.mtx": []byte(mtxBanner + "3 3 2\n1 2\n2 3\n3 1\n")}, args: []string{"ingest", "in.mtx"}, pos: `in\.mtx:\d+:`, want: []string{"announces 2 entries"}},
		{name: "mtx index beyond the size line", files: map[string][]byte{"in.mtx": []byte(mtxBanner + "3 3 2\n1 2\n2 4\n")}, args: []string{"ingest", "in.mtx"}, pos: linePos("in.mtx", 4), want: []string{"outside 1..3"}},
		{name: "mtx without size line", files: map[string][]byte{"in.mtx": []byte(mtxBanner + "% only a comment\n")}, args: []string{"ingest", "in.mtx"}, want: []string{"in.mtx", "missing size line"}},
		{name: "dimacs without p line", files: map[string][]byte{"in.gr": []byte("c road\na 1 2 3\n")}, args: []string{"ingest", "in.gr"}, pos: linePos("in.gr", 2), want: []string{`"p sp N M"`}},
		{name: "dimacs arc beyond N", files: map[string][]byte{"in.gr": []byte("p sp 3 2\na 1 2 5\na 2 9 1\n")}, args: []string{"ingest", "in.gr"}, pos: linePos("in.gr", 3), want: []string{"outside 1..3"}},
		{name: "bin32 length not a multiple of 8", files: map[string][]byte{"in.bin32": make([]byte, 8*100+5)}, args: []string{"ingest", "--format", "bin32", "in.bin32"}, pos: offsetPos("in.bin32"), want: []string{"multiple of 8"}},
		{name: "bin64 length not a multiple of 16", files: map[string][]byte{"in.bin64": make([]byte, 16*10+8)}, args: []string{"ingest", "--format", "bin64", "in.bin64"}, pos: offsetPos("in.bin64"), want: []string{"multiple of 16"}},
		{name: "empty file", files: txt(""), args: []string{"ingest", "in.txt"}, want: []string{"in.txt", "no edges"}},
		{name: "comments only", files: txt("# a\n% b\n\n# c\n"), args: []string{"ingest", "in.txt"}, want: []string{"in.txt", "no edges"}},
		{name: "NUL bytes in text", files: txt("0 1\n1\x002\n"), args: []string{"ingest", "in.txt"}, pos: offsetPos("in.txt"), want: []string{"NUL"}},
		{name: "a line of 10 MB", files: txt("0 1\n" + strings.Repeat("7", 10<<20) + " 1\n"), args: []string{"ingest", "in.txt"}, pos: linePos("in.txt", 2), want: []string{"longer than"}},
		{name: "unknown --format", files: txt("0 1\n"), args: []string{"ingest", "--format", "xml", "in.txt"}, want: []string{`"xml"`, "snap, mtx, gr, bin32, bin64 or parquet"}},
		{name: "--format disagrees with the content", files: txt("0 1\n1 2\n"), args: []string{"ingest", "--format", "mtx", "in.txt"}, pos: linePos("in.txt", 1), want: []string{"%%MatrixMarket"}},
		{name: "--format snap on a MatrixMarket file", files: map[string][]byte{"in.mtx": []byte(mtxBanner + "3 4 2\n1 2\n2 4\n")}, args: []string{"ingest", "--format", "snap", "in.mtx"}, pos: linePos("in.mtx", 1), want: []string{"MatrixMarket header", "--format mtx"}},
		{name: "--format snap on a weighted MatrixMarket file", files: map[string][]byte{"in.mtx": []byte("%%MatrixMarket matrix coordinate integer general\n3 4 2\n1 2 5\n2 4 6\n")}, args: []string{"ingest", "--weights", "--format", "snap", "in.mtx"}, pos: linePos("in.mtx", 1), want: []string{"MatrixMarket header", "--format mtx"}},
		{name: "missing input", args: []string{"ingest", "nosuch.txt"}, want: []string{"nosuch.txt", "no such file"}},
		{name: "unreadable input", files: txt("0 1\n"), args: []string{"ingest", "in.txt"}, want: []string{"in.txt", "permission denied"}, setup: unreadable},
		{name: "directory as input", args: []string{"ingest", "adir"}, want: []string{"adir", "directory"}, setup: func(t *testing.T, dir string) { os.Mkdir(filepath.Join(dir, "adir"), 0o755) }},
		{name: "existing output without --force", files: txt("0 1\n"), args: []string{"ingest", "in.txt"}, want: []string{"in.ooc", "exists", "--force"}, setup: existingOutput},
		{name: "standard input, bad line", stdin: []byte("0 1\nx y\n"), args: []string{"ingest", "-o", "s.ooc", "-"}, pos: linePos("<stdin>", 2), want: []string{"expected two vertex ids"}},
		{name: "standard input without -o", stdin: []byte("0 1\n"), args: []string{"ingest", "-"}, want: []string{"-o"}},
		{name: "two inputs", files: txt("0 1\n"), args: []string{"ingest", "in.txt", "in.txt"}, want: []string{"expected one input file"}},
		{name: "--shard-size 12XB", files: txt("0 1\n"), args: []string{"ingest", "--shard-size", "12XB", "in.txt"}, want: []string{"shard-size", "12XB"}},
		{name: "--mem -1", files: txt("0 1\n"), args: []string{"ingest", "--mem", "-1", "in.txt"}, want: []string{"-mem", `"-1"`}},
		{name: "--workers -1", files: txt("0 1\n"), args: []string{"ingest", "--workers", "-1", "in.txt"}, want: []string{"--workers"}},
		{name: "unknown flag", files: txt("0 1\n"), args: []string{"ingest", "--bogus", "in.txt"}, want: []string{"bogus"}},
		{name: "unknown command", args: []string{"injest", "in.txt"}, want: []string{`"injest"`}},
	}
}

const mtxBanner = "%%MatrixMarket matrix coordinate pattern general\n"

func TestBadInput(t *testing.T) {
	cases := badCases(t)
	if len(cases) < 25 {
		t.Fatalf("only %d bad inputs; the issue asks for at least 25", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.run(t) })
	}
}

func (c badCase) run(t *testing.T) {
	dir := t.TempDir()
	for n, b := range c.files {
		writeFile(t, filepath.Join(dir, n), b)
	}
	if c.setup != nil {
		c.setup(t, dir)
	}
	before := listDir(t, dir)
	keep := map[string]bool{}
	for _, n := range before {
		keep[n] = true
	}
	snapshot := dirDigest(t, dir)
	r := ooc(t, dir, c.stdin, c.args...)
	if r.code != 2 || r.stdout != "" || !oneLine(r.stderr) {
		t.Fatalf("ooc %s: %s; want exit 2, nothing on stdout and one line on stderr", strings.Join(c.args, " "), r)
	}
	if c.pos != "" && !regexp.MustCompile(c.pos).MatchString(r.stderr) {
		t.Errorf("stderr %q does not give the position /%s/", r.stderr, c.pos)
	}
	for _, w := range c.want {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("stderr %q does not say %q", r.stderr, w)
		}
	}
	if left := leftovers(t, dir, keep); len(left) > 0 {
		t.Errorf("left behind %v", left)
	}
	if got := dirDigest(t, dir); got != snapshot {
		t.Errorf("a refused ingest changed what was already there")
	}
}

// dirDigest summarises the non-hidden files under dir, to see that nothing existing was
// touched.
func dirDigest(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		data, _ := os.ReadFile(p)
		b.WriteString(p)
		b.WriteString(string(data))
		return nil
	})
	return b.String()
}

func unreadable(t *testing.T, dir string) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: mode 000 does not stop root from reading the file")
	}
	os.Chmod(filepath.Join(dir, "in.txt"), 0)
}

func existingOutput(t *testing.T, dir string) {
	if r := ooc(t, dir, nil, "ingest", "-q", "in.txt"); r.code != 0 {
		t.Fatalf("first ingest: %s", r)
	}
}

func edgeText(n int) []byte {
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%d %d\n", i, i+1)
	}
	return b.Bytes()
}

func gzipOf(t *testing.T, b []byte) []byte {
	var out bytes.Buffer
	w := gzip.NewWriter(&out)
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func zstdOf(t *testing.T, b []byte) []byte {
	w, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	return w.EncodeAll(b, nil)
}

func flipped(b []byte, at int) []byte {
	b = slices.Clone(b)
	b[at] ^= 0xff
	return b
}

func u64s(v ...uint64) []byte {
	var b []byte
	for _, x := range v {
		b = binary.LittleEndian.AppendUint64(b, x)
	}
	return b
}

// TestStdinDirectory: a directory as standard input (ooc ingest - < dir) is bad input,
// exit 2, named as <stdin> once: it was "read <stdin>: read /dev/stdin: is a
// directory", exit 1, as if the machine had failed. Nothing is left.
func TestStdinDirectory(t *testing.T) {
	dir := t.TempDir()
	for _, f := range [][]string{nil, {"--weights"}, {"--format", "bin32"}} {
		d, err := os.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		args := append(append([]string{"ingest", "-q"}, f...), "-o", "g.ooc", "-")
		cmd := exec.Command(oocBin, args...)
		cmd.Dir, cmd.Stdin = dir, d
		var errb bytes.Buffer
		cmd.Stderr = &errb
		cmd.Run()
		d.Close()
		r := result{code: cmd.ProcessState.ExitCode(), stderr: errb.String()}
		noPanic(t, r, args)
		if r.code != 2 || !oneLine(r.stderr) || !strings.Contains(r.stderr, "<stdin>: is a directory, not an edge list") || strings.Contains(r.stderr, "/dev/stdin") {
			t.Errorf("%v < a directory: want exit 2 and one line naming <stdin>, got %s", args, r)
		}
	}
	if left := listDir(t, dir); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}
