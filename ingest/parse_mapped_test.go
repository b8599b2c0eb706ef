package ingest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestMappedMatchesRead parses random inputs, valid and broken, from a file (the mapped
// path) and from a reader with the same block size and line limit, and wants the same
// edges, counts and error, with blocks small enough that lines cross many boundaries.
func TestMappedMatchesRead(t *testing.T) {
	seed := uint64(os.Getpid())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 5))
	dir := t.TempDir()
	mapped := mappedParses.Load()
	defer func() {
		if mappedParses.Load()-mapped < 40 {
			t.Errorf("only %d of 60 parses mapped their file", mappedParses.Load()-mapped)
		}
	}()
	for i := range 60 {
		in, name := randomInput(rng, i)
		path := filepath.Join(dir, fmt.Sprintf("in%d", i))
		if err := os.WriteFile(path, in, 0o600); err != nil {
			t.Fatal(err)
		}
		bs := []int{1, 3, 7, 64, 200, 1 << 20}[rng.IntN(6)]
		ml := []int{40, 100, 1 << 20}[rng.IntN(3)]
		withBlockSize(t, bs)
		old := maxLineLen
		maxLineLen = ml
		opt := ParseOptions{Name: name, Workers: 1 + rng.IntN(4), MaxID: 1<<32 - 2}
		want, wres, werr := collect(bytes.NewReader(in), opt)
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var progress int64
		opt.Progress = func(n int64) { mu.Lock(); progress += n; mu.Unlock() }
		got, gres, gerr := collect(f, opt)
		f.Close()
		maxLineLen = old
		what := fmt.Sprintf("input %d (%s, %d bytes, block %d, line limit %d)", i, name, len(in), bs, ml)
		if fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Fatalf("%s: mapped error %v, read error %v", what, gerr, werr)
		}
		if werr != nil {
			continue
		}
		if !slices.Equal(got, want) || gres.Lines != wres.Lines || gres.Edges != wres.Edges || gres.Header != wres.Header || gres.Format != wres.Format {
			t.Fatalf("%s: mapped %d edges %d lines %+v, read %d edges %d lines %+v", what, len(got), gres.Lines, gres.Header, len(want), wres.Lines, wres.Header)
		}
		if gres.InBytes != int64(len(in)) || progress != int64(len(in)) {
			t.Fatalf("%s: mapped in-bytes %d progress %d, want %d", what, gres.InBytes, progress, len(in))
		}
	}
}

// randomInput is an edge list in a random format with comments, CRLF lines, extra
// columns, long lines and now and then a bad line or a truncated binary pair.
func randomInput(rng *rand.Rand, i int) ([]byte, string) {
	var b bytes.Buffer
	n := rng.IntN(400)
	switch i % 4 {
	case 0, 1:
		for range n {
			switch rng.IntN(12) {
			case 0:
				b.WriteString("# a comment\n")
			case 1:
				fmt.Fprintf(&b, "%d\t%d\r\n", rng.IntN(1000), rng.IntN(1000))
			case 2:
				fmt.Fprintf(&b, "%d,%d,%s\n", rng.IntN(1000), rng.IntN(1000), strings.Repeat("7", rng.IntN(120)))
			case 3:
				b.WriteString("\n")
			default:
				fmt.Fprintf(&b, "%d %d\n", rng.IntN(1000), rng.IntN(1000))
			}
		}
		if rng.IntN(4) == 0 {
			fmt.Fprintf(&b, "%d x\n", rng.IntN(9))
			fmt.Fprintf(&b, "1 2\n")
		}
		if rng.IntN(3) == 0 {
			fmt.Fprintf(&b, "%d %d", rng.IntN(9), rng.IntN(9)) // no final newline
		}
		return b.Bytes(), "g.txt"
	case 2:
		fmt.Fprintf(&b, "%%%%MatrixMarket matrix coordinate pattern general\n%% c\n1000 1000 %d\n", n)
		for range n {
			fmt.Fprintf(&b, "%d %d\n", 1+rng.IntN(1000), 1+rng.IntN(1000))
		}
		return b.Bytes(), "m.mtx"
	}
	for range n + 1 {
		b.Write([]byte{byte(rng.IntN(256)), byte(rng.IntN(3)), 0, 0, byte(rng.IntN(256)), 0, 0, 0})
	}
	if rng.IntN(4) == 0 {
		b.WriteByte(1) // a trailing partial pair
	}
	return b.Bytes(), "e.bin32"
}

// TestMappedShrunk: a file that shrinks after it was mapped gives a clear error, not a
// crash (the fault on the mapping is recovered).
func TestMappedShrunk(t *testing.T) {
	data, _ := genSNAP(3, 200000, 1000)
	path := filepath.Join(t.TempDir(), "g.txt")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	afterMap = func() {
		if err := os.Truncate(path, 100); err != nil {
			t.Error(err)
		}
	}
	defer func() { afterMap = nil }()
	_, err = ParseOnly(f, ParseOptions{Name: path, Workers: 3})
	if err == nil || !strings.Contains(err.Error(), "changed while it was read") || !strings.Contains(err.Error(), path) {
		t.Fatalf("got %v, want the file named and its change reported", err)
	}
}
