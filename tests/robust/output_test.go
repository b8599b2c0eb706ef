package robust

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// writer is one way a command writes a file: args builds its command line for an
// output path; graph says the output is a graph directory (ingest, gen NAME.ooc).
type writer struct {
	name  string
	args  func(out string) []string
	graph bool
}

// writers lists every command that writes an output path. The graph g.ooc and the edge
// list e.txt are in the test's directory.
var writers = []writer{
	{name: "bfs", args: func(o string) []string { return []string{"bfs", "--src", "1", "-o", o, "g.ooc"} }},
	{name: "bfs-text", args: func(o string) []string { return []string{"bfs", "--src", "1", "--text", "-o", o, "g.ooc"} }},
	{name: "cc", args: func(o string) []string { return []string{"cc", "-o", o, "g.ooc"} }},
	{name: "cc-text", args: func(o string) []string { return []string{"cc", "--text", "-o", o, "g.ooc"} }},
	{name: "kcore", args: func(o string) []string { return []string{"kcore", "-o", o, "g.ooc"} }},
	{name: "kcore-text", args: func(o string) []string { return []string{"kcore", "--text", "-o", o, "g.ooc"} }},
	{name: "pagerank", args: func(o string) []string { return []string{"pagerank", "-o", o, "g.ooc"} }},
	{name: "pagerank-text", args: func(o string) []string { return []string{"pagerank", "--text", "-o", o, "g.ooc"} }},
	{name: "sssp", args: func(o string) []string { return []string{"sssp", "--unit-weights", "--src", "1", "-o", o, "g.ooc"} }},
	{name: "sssp-text", args: func(o string) []string {
		return []string{"sssp", "--unit-weights", "--src", "1", "--text", "-o", o, "g.ooc"}
	}},
	{name: "export", args: func(o string) []string { return []string{"export", "-q", "-o", o, "g.ooc"} }},
	{name: "gen-edges", args: func(o string) []string {
		return []string{"gen", "urand", "--scale", "6", "-q", "-o", o}
	}},
	{name: "ingest", graph: true, args: func(o string) []string { return []string{"ingest", "-q", "-o", o, "e.txt"} }},
	{name: "gen-graph", graph: true, args: func(o string) []string {
		return []string{"gen", "urand", "--scale", "6", "-q", "-o", o}
	}},
}

// outputDir makes a directory with a small graph g.ooc and its edge list e.txt.
func outputDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	gen(t, dir, "e.txt", 6, 4, "text")
	if r := ooc(t, dir, nil, "ingest", "-q", "-o", "g.ooc", "e.txt"); r.code != 0 {
		t.Fatalf("ingest: %s", r)
	}
	return dir
}

// graphOK requires g.ooc to verify.
func graphOK(t *testing.T, dir string) {
	t.Helper()
	if r := ooc(t, dir, nil, "verify", "g.ooc"); r.code != 0 {
		t.Fatalf("the graph no longer verifies: %s", r)
	}
}

// outName is the output name a writer gets: graph outputs end in .ooc, as gen needs.
func outName(w writer, base string) string {
	if w.graph {
		return base + ".ooc"
	}
	return base
}

// TestOutputNew: a new output appears with mode 0644 (0755 for a graph directory's
// files' directory) less the umask, and nothing else is left beside it.
func TestOutputNew(t *testing.T) {
	dir := outputDir(t)
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			out := outName(w, "new-"+w.name)
			r := ooc(t, dir, nil, w.args(out)...)
			if r.code != 0 {
				t.Fatalf("%s", r)
			}
			st, err := os.Stat(filepath.Join(dir, out))
			if err != nil {
				t.Fatal(err)
			}
			if !w.graph && st.Mode().Perm() != 0o644&^umask() {
				t.Errorf("mode %v, want %v", st.Mode().Perm(), 0o644&^umask())
			}
		})
	}
	for _, n := range listDir(t, dir) {
		if strings.Contains(n, ".tmp-") || strings.HasSuffix(n, ".lock") {
			t.Errorf("left behind: %s", n)
		}
	}
}

// TestOutputExisting: an existing regular file is kept without --force and replaced with
// it (graph outputs: --force replaces only a graph, so a file is always refused).
func TestOutputExisting(t *testing.T) {
	dir := outputDir(t)
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			out := outName(w, "old-"+w.name)
			path := filepath.Join(dir, out)
			writeFile(t, path, []byte("precious\n"))
			if r := ooc(t, dir, nil, w.args(out)...); r.code != 2 || !oneLine(r.stderr) {
				t.Errorf("without --force: want exit 2 and one line, got %s", r)
			}
			if b := readFile(t, path); string(b) != "precious\n" {
				t.Fatalf("without --force the file changed: %q", clip(string(b)))
			}
			r := ooc(t, dir, nil, append(w.args(out), "--force")...)
			b := readFile(t, path)
			if w.graph {
				if r.code != 2 || string(b) != "precious\n" {
					t.Errorf("--force onto a file that is not a graph: want exit 2 and the file kept, got %s", r)
				}
				return
			}
			if r.code != 0 || string(b) == "precious\n" || len(b) == 0 {
				t.Errorf("--force: want exit 0 and the file replaced, got %s, %d bytes", r, len(b))
			}
		})
	}
}

// TestOutputDevice: a character device is written into and stays a device. As root the
// device is a private null device made with mknod; otherwise /dev/null itself (which a
// non-root process cannot replace). Graph outputs refuse a device.
func TestOutputDevice(t *testing.T) {
	dir := outputDir(t)
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			dev := filepath.Join(dir, outName(w, "null-"+w.name))
			if err := mknodChar(dev, 1, 3); err != nil {
				dev = "/dev/null"
			}
			r := ooc(t, dir, nil, append(w.args(dev), "--force")...)
			want := 0
			if w.graph {
				want = 2
			}
			if r.code != want {
				t.Errorf("want exit %d, got %s", want, r)
			}
			st, err := os.Lstat(dev)
			if err != nil || st.Mode()&os.ModeCharDevice == 0 {
				t.Fatalf("%s is no longer a character device: %v %v", dev, st.Mode(), err)
			}
		})
	}
}

// TestOutputFIFO: a FIFO is written into (a reader gets the whole result) and stays a
// FIFO.
func TestOutputFIFO(t *testing.T) {
	dir := outputDir(t)
	for _, w := range writers {
		if w.graph {
			continue // a graph is a directory: ingest -o FIFO is refused (TestOutputDevice's rule)
		}
		t.Run(w.name, func(t *testing.T) {
			fifo := filepath.Join(dir, "fifo-"+w.name)
			if err := mkfifo(fifo); err != nil {
				t.Skip("mkfifo:", err)
			}
			var got []byte
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				f, err := os.Open(fifo)
				if err == nil {
					got, _ = io.ReadAll(f)
					f.Close()
				}
			}()
			// A second name for the FIFO: if ooc replaced it instead of writing into it, the
			// reader still waits on the old FIFO, released by opening it for writing here.
			keep := fifo + ".keep"
			if err := os.Link(fifo, keep); err != nil {
				t.Fatal(err)
			}
			r := ooc(t, dir, nil, w.args(fifo)...)
			if f, err := os.OpenFile(keep, os.O_WRONLY|oNonblock, 0); err == nil {
				f.Close()
			}
			wg.Wait()
			if r.code != 0 || len(got) == 0 {
				t.Errorf("want exit 0 and bytes through the FIFO, got %s, %d bytes", r, len(got))
			}
			if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
				t.Errorf("%s is no longer a FIFO", fifo)
			}
		})
	}
}

// TestOutputSymlink: a symbolic link is followed (the file it names is written, the link
// stays); an existing target needs --force; a link into a graph directory is refused.
func TestOutputSymlink(t *testing.T) {
	dir := outputDir(t)
	for _, w := range writers {
		if w.graph {
			continue // a link named as a graph output is an existing non-graph: refused (TestOutputExisting)
		}
		t.Run(w.name, func(t *testing.T) {
			target := filepath.Join(dir, "target-"+w.name)
			link := filepath.Join(dir, "link-"+w.name)
			if err := os.Symlink(filepath.Base(target), link); err != nil {
				t.Fatal(err)
			}
			if r := ooc(t, dir, nil, w.args(link)...); r.code != 0 {
				t.Fatalf("dangling link: want the target created, got %s", r)
			}
			first := readFile(t, target)
			if r := ooc(t, dir, nil, w.args(link)...); r.code != 2 {
				t.Errorf("existing target without --force: want exit 2, got %s", r)
			}
			if r := ooc(t, dir, nil, append(w.args(link), "--force")...); r.code != 0 {
				t.Errorf("--force: want exit 0, got %s", r)
			}
			if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
				t.Errorf("the link was replaced")
			}
			if !bytes.Equal(readFile(t, target), first) {
				t.Errorf("the target's content differs between two runs of the same command")
			}
			inside := filepath.Join(dir, "into-"+w.name)
			if err := os.Symlink(filepath.Join("g.ooc", "manifest.json"), inside); err != nil {
				t.Fatal(err)
			}
			if r := ooc(t, dir, nil, append(w.args(inside), "--force")...); r.code != 2 || !oneLine(r.stderr) {
				t.Errorf("link into a graph: want exit 2, got %s", r)
			}
			graphOK(t, dir)
		})
	}
}

// TestOutputInsideGraph: nothing lands inside a graph directory, with or without
// --force, at any depth.
func TestOutputInsideGraph(t *testing.T) {
	dir := outputDir(t)
	os.Mkdir(filepath.Join(dir, "g.ooc", "sub"), 0o755) // a stray directory: outputs below it are inside too
	for _, w := range writers {
		for _, out := range []string{"g.ooc/manifest.json", "g.ooc/out-00000.shard", outName(w, "g.ooc/new"), outName(w, "g.ooc/sub/new")} {
			t.Run(w.name+"/"+out, func(t *testing.T) {
				r := ooc(t, dir, nil, append(w.args(out), "--force")...)
				if r.code != 2 || !oneLine(r.stderr) || !strings.Contains(r.stderr, "graph") {
					t.Errorf("want exit 2 and one line naming the graph, got %s", r)
				}
			})
		}
	}
	os.Remove(filepath.Join(dir, "g.ooc", "sub"))
	graphOK(t, dir)
}

// TestOutputUnwritable: a place where no file can be created fails at once with exit 1
// (or 2 where the place does not exist) and one line. /proc refuses new files even to
// root; a read-only directory serves the same purpose for other users.
func TestOutputUnwritable(t *testing.T) {
	dir := outputDir(t)
	places := []string{"/proc"}
	if os.Geteuid() != 0 {
		ro := filepath.Join(dir, "ro")
		os.Mkdir(ro, 0o555)
		places = append(places, ro)
	}
	for _, w := range writers {
		for _, p := range places {
			t.Run(w.name+p, func(t *testing.T) {
				out := filepath.Join(p, outName(w, "x"))
				r := ooc(t, dir, nil, w.args(out)...)
				if (r.code != 1 && r.code != 2) || !oneLine(r.stderr) {
					t.Errorf("want exit 1 or 2 and one line, got %s", r)
				}
			})
		}
	}
}

// TestOutputFull: a full device fails with exit 1 and one line naming the problem, as
// does standard output on a full device (every command that prints), named once and in
// the same words whichever way the command wrote to it. As root the device
// is a private full device made with mknod, so that a binary that replaces devices
// cannot replace /dev/full; otherwise /dev/full itself.
func TestOutputFull(t *testing.T) {
	dir := outputDir(t)
	dev := filepath.Join(dir, "full")
	if err := mknodChar(dev, 1, 7); err != nil {
		dev = "/dev/full"
	}
	if st, err := os.Stat(dev); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Skip("no full device")
	}
	for _, w := range writers {
		if w.graph {
			continue
		}
		t.Run(w.name, func(t *testing.T) {
			r := ooc(t, dir, nil, w.args(dev)...)
			if r.code != 1 || !oneLine(r.stderr) || !strings.Contains(r.stderr, "no space") {
				t.Errorf("want exit 1 and one line saying no space, got %s", r)
			}
		})
	}
	full, err := os.OpenFile(dev, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer full.Close()
	stdouts := [][]string{
		{"info", "g.ooc"}, {"info", "--json", "g.ooc"}, {"verify", "g.ooc"},
		{"bfs", "--src", "1", "g.ooc"}, {"bfs", "--src", "1", "--text", "g.ooc"}, {"bfs", "--src", "1", "-o", "-", "g.ooc"},
		{"cc", "g.ooc"}, {"cc", "--text", "g.ooc"}, {"cc", "--json", "g.ooc"},
		{"kcore", "g.ooc"}, {"kcore", "--text", "g.ooc"}, {"pagerank", "--json", "g.ooc"}, {"pagerank", "--text", "g.ooc"},
		{"sssp", "--unit-weights", "--src", "1", "--json", "g.ooc"}, {"sssp", "--unit-weights", "--src", "1", "--text", "g.ooc"},
		{"gen", "urand", "--scale", "6", "-q", "-o", "-"}, {"ingest", "-q", "--json", "--force", "-o", "h.ooc", "e.txt"},
		{"export", "-o", "-", "g.ooc"}, {"bench", "--sources", "1", "g.ooc"}, {"upgrade", "--json", "g.ooc"},
		{"help"}, {"help", "bfs"},
	}
	for _, args := range stdouts {
		t.Run("stdout/"+strings.Join(args, " "), func(t *testing.T) {
			cmd := exec.Command(oocBin, args...)
			cmd.Dir = dir
			var errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = full, &errb
			cmd.Run()
			r := result{code: cmd.ProcessState.ExitCode(), stderr: errb.String()}
			noPanic(t, r, args)
			if r.code != 1 || !strings.Contains(r.stderr, ": writing standard output: no space left on device\n") ||
				strings.Count(r.stderr, "standard output") != 1 || strings.Contains(r.stderr, "/dev/stdout") {
				t.Errorf("want exit 1 and a line saying writing standard output: no space left on device, once, got %s", r)
			}
		})
	}
}

// TestOutputDash: - is standard output for every writer of files; no file named - appears.
func TestOutputDash(t *testing.T) {
	dir := outputDir(t)
	for _, w := range writers {
		if w.graph {
			continue
		}
		t.Run(w.name, func(t *testing.T) {
			r := ooc(t, dir, nil, w.args("-")...)
			if r.code != 0 || len(r.stdout) == 0 {
				t.Errorf("want exit 0 and the result on stdout, got %s", r)
			}
			if _, err := os.Lstat(filepath.Join(dir, "-")); err == nil {
				t.Errorf("a file named - was written")
				os.Remove(filepath.Join(dir, "-"))
			}
		})
	}
}

// TestOutputDirectory: a directory named as a file output is refused, untouched.
func TestOutputDirectory(t *testing.T) {
	dir := outputDir(t)
	for _, d := range []string{"d", "d.ooc"} {
		os.Mkdir(filepath.Join(dir, d), 0o755)
		writeFile(t, filepath.Join(dir, d, "keep"), []byte("x"))
	}
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			d := outName(w, "d")
			r := ooc(t, dir, nil, append(w.args(d), "--force")...)
			if r.code != 2 || !oneLine(r.stderr) {
				t.Errorf("want exit 2 and one line, got %s", r)
			}
			if _, err := os.Stat(filepath.Join(dir, d, "keep")); err != nil {
				t.Errorf("the directory lost its file")
			}
		})
	}
}

// TestOutputFullFileSystem: a regular file on a full file system (a 64 KiB tmpfs filled
// up first) fails with exit 1 and one line naming the output, not the temporary file
// that failed (".out.tmp-ooc-N", which it named), and leaves no temporary file behind.
// Mounting needs root; elsewhere the test is skipped.
func TestOutputFullFileSystem(t *testing.T) {
	dir := outputDir(t)
	mnt := filepath.Join(dir, "mnt")
	os.Mkdir(mnt, 0o755)
	mountTmpfs(t, mnt, "64k")
	filler, err := os.Create(filepath.Join(mnt, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	for _, err = filler.Write(make([]byte, 4096)); err == nil; _, err = filler.Write(make([]byte, 4096)) {
	}
	filler.Close()
	for _, w := range writers {
		if w.graph {
			continue
		}
		t.Run(w.name, func(t *testing.T) {
			out := filepath.Join(mnt, "out-"+w.name)
			r := ooc(t, dir, nil, w.args(out)...)
			if r.code != 1 || !oneLine(r.stderr) || !strings.Contains(r.stderr, "writing "+out+": no space left on device") ||
				strings.Contains(r.stderr, ".tmp-") {
				t.Errorf("want exit 1 and one line saying writing %s: no space left on device, got %s", out, r)
			}
		})
	}
	if left := listDir(t, mnt); len(left) != 1 {
		t.Errorf("left on the full file system: %v", left)
	}
}
