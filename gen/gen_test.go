package gen

import (
	"bytes"
	"cmp"
	"errors"
	"flag"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
)

// collect runs Generate and returns the edges sorted, so runs with different worker
// counts (which emit blocks in different orders) can be compared.
func collect(t *testing.T, s Spec, workers int) []Edge {
	t.Helper()
	var mu sync.Mutex
	var all []Edge
	err := Generate(s, workers, func(batch []Edge) error {
		mu.Lock()
		all = append(all, batch...)
		mu.Unlock()
		return nil
	})
	if err != nil {
		t.Fatalf("%v: %v", s, err)
	}
	slices.SortFunc(all, func(a, b Edge) int { return cmp.Or(cmp.Compare(a.U, b.U), cmp.Compare(a.V, b.V)) })
	return all
}

// sequential returns the edge list in block order, one block at a time.
func sequential(t *testing.T, s Spec) []Edge {
	t.Helper()
	var all []Edge
	for b := range s.Blocks() {
		var err error
		if all, err = s.Block(all, b); err != nil {
			t.Fatal(err)
		}
	}
	return all
}

func specs() []Spec {
	return []Spec{
		{Kind: "kron", Scale: 10, EdgeFactor: 16, Seed: 1},
		{Kind: "kron", Scale: 11, EdgeFactor: 8, Seed: 7}, // odd scale: unbalanced Feistel
		{Kind: "kron", Scale: 0, EdgeFactor: 3, Seed: 1},
		{Kind: "urand", Scale: 9, EdgeFactor: 16, Seed: 2},
		{Kind: "grid", Scale: 9, Seed: 3, Shortcuts: -1},
		{Kind: "grid", Scale: 0, Seed: 3},
	}
}

func TestCounts(t *testing.T) {
	for _, s := range specs() {
		edges := sequential(t, s)
		if uint64(len(edges)) != s.Edges() {
			t.Errorf("%v: %d edges, Edges() says %d", s, len(edges), s.Edges())
		}
		for _, e := range edges {
			if e.U >= s.Vertices() || e.V >= s.Vertices() {
				t.Fatalf("%v: edge %v outside [0, %d)", s, e, s.Vertices())
			}
		}
	}
	if got := (Spec{Kind: "kron", Scale: 22, EdgeFactor: 16}).Edges(); got != 16<<22 {
		t.Errorf("kron 22: %d edges", got)
	}
	if got := (Spec{Kind: "grid", Scale: 5}).Edges(); got != 4*7+3*8 { // 4 rows, 8 cols
		t.Errorf("grid 5: %d edges", got)
	}
}

func TestDeterministicAcrossWorkers(t *testing.T) {
	for _, s := range specs() {
		want := collect(t, s, 1)
		for _, w := range []int{2, 5} {
			if got := collect(t, s, w); !slices.Equal(got, want) {
				t.Errorf("%v: %d workers give other edges than 1 worker", s, w)
			}
		}
		var one, many bytes.Buffer
		if _, err := Write(&one, s, Bin64, 1); err != nil {
			t.Fatal(err)
		}
		if _, err := Write(&many, s, Bin64, 7); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(one.Bytes(), many.Bytes()) {
			t.Errorf("%v: Write output depends on the worker count", s)
		}
		if seq := AppendEdges(nil, Bin64, sequential(t, s)); !bytes.Equal(seq, one.Bytes()) {
			t.Errorf("%v: Write is not the blocks in order", s)
		}
	}
}

func TestSeedMatters(t *testing.T) {
	for _, kind := range Kinds {
		a := Spec{Kind: kind, Scale: 8, EdgeFactor: 4, Seed: 1, Shortcuts: 10}
		b := a
		b.Seed = 2
		if slices.Equal(sequential(t, a), sequential(t, b)) {
			t.Errorf("%s: seeds 1 and 2 give the same graph", kind)
		}
	}
}

func TestValidate(t *testing.T) {
	bad := []Spec{
		{Kind: "rmat", Scale: 4, EdgeFactor: 1},
		{Kind: "kron", Scale: 4},
		{Kind: "urand", Scale: 32, EdgeFactor: 1},
		{Kind: "grid", Scale: -1},
		{Kind: "grid", Scale: 4, Shortcuts: -2}, // -1 is the default; below it was taken for it too
		{Kind: "grid", Scale: 3, Shortcuts: 65}, // 8 vertices: 64 ordered pairs
		{Kind: "grid", Scale: 0, Shortcuts: 2},
	}
	for _, s := range bad {
		if err := Generate(s, 1, func([]Edge) error { return nil }); !errors.Is(err, ErrSpec) {
			t.Errorf("%+v: got %v, want ErrSpec", s, err)
		}
	}
	// the counts in words: one vertex, not "1 vertices"
	if err := (Spec{Kind: "grid", Scale: 0, Shortcuts: 2}).Validate(); err == nil || !strings.Contains(err.Error(), "2 shortcuts on 1 vertex, want at most 1") {
		t.Errorf("2 shortcuts at scale 0: %v", err)
	}
	// Products of user-given numbers that wrap around (8589934592<<31 is 2^64: 0 edges)
	// or would run for ages: refused by Validate, before anything is generated.
	huge := []Spec{
		{Kind: "kron", Scale: 31, EdgeFactor: min(8589934592, math.MaxInt)}, // 2^31-1 where int has 32 bits
		{Kind: "urand", Scale: 31, EdgeFactor: min(1<<40, math.MaxInt)},
	}
	if math.MaxInt > MaxEdges { // an int past 2^48 edges: only where int has 64 bits
		huge = append(huge, Spec{Kind: "kron", Scale: 1, EdgeFactor: math.MaxInt}, Spec{Kind: "grid", Scale: 4, Shortcuts: math.MaxInt})
	}
	for _, s := range huge {
		if err := s.Validate(); !errors.Is(err, ErrSpec) {
			t.Errorf("%+v (%d edges): got %v, want ErrSpec", s, s.Edges(), err)
		}
	}
	// A grid takes one shortcut for each ordered pair of its vertices, and the default
	// count whatever the scale.
	good := []Spec{
		{Kind: "grid", Scale: 3, Shortcuts: 64},
		{Kind: "grid", Scale: 0, Shortcuts: 1},
		{Kind: "grid", Scale: 0, Shortcuts: -1},
		{Kind: "grid", Scale: 1, Shortcuts: -1},
		{Kind: "grid", Scale: 24, Shortcuts: min(1<<47, math.MaxInt)},
	}
	for _, s := range good {
		if err := s.Validate(); err != nil {
			t.Errorf("%+v: %v", s, err)
		}
	}
}

func TestEmitErrorStops(t *testing.T) {
	boom := errors.New("boom")
	var calls int
	var mu sync.Mutex
	s := Spec{Kind: "urand", Scale: 16, EdgeFactor: 16}
	err := Generate(s, 4, func([]Edge) error {
		mu.Lock()
		defer mu.Unlock()
		calls++
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("got %v", err)
	}
	if uint64(calls) >= s.Blocks() {
		t.Errorf("%d of %d blocks emitted after the first error", calls, s.Blocks())
	}
}

func TestPermBijection(t *testing.T) {
	for bits := uint(0); bits <= 16; bits++ {
		for _, seed := range []uint64{0, 1, 99} {
			p := NewPerm(bits, seed)
			n := uint64(1) << bits
			seen := make([]bool, n)
			fixed := 0
			for x := range n {
				y := p.At(x)
				if y >= n || seen[y] {
					t.Fatalf("bits %d seed %d: At(%d) = %d repeats or is out of range", bits, seed, x, y)
				}
				seen[y] = true
				if p.Inverse(y) != x {
					t.Fatalf("bits %d seed %d: Inverse(At(%d)) = %d", bits, seed, x, p.Inverse(y))
				}
				if y == x {
					fixed++
				}
			}
			// A random permutation has one fixed point on average.
			if bits >= 8 && fixed > 8 {
				t.Errorf("bits %d seed %d: %d fixed points, not a shuffle", bits, seed, fixed)
			}
		}
	}
}

// TestKronAlias checks that each alias table draws every (row, col) outcome with the
// product of the initiator probabilities of its levels.
func TestKronAlias(t *testing.T) {
	quad := [2][2]float64{{KronA, KronB}, {KronC, 1 - KronA - KronB - KronC}}
	for levels := uint(1); levels <= 4; levels++ {
		tab := newAliasTable(levels)
		n := len(tab.bucket)
		got := make(map[[2]uint64]float64)
		for bkt, e := range tab.bucket {
			keep := float64(e.thr) / float64(uint64(1)<<tab.shift)
			// Decode through draw so the test covers it: x with bucket bkt and low bits 0
			// keeps the bucket's own outcome unless thr is 0.
			x := uint32(bkt) << tab.shift
			if e.thr > 0 {
				r, c := tab.draw(x)
				got[[2]uint64{r, c}] += keep / float64(n)
			}
			if e.thr < 1<<tab.shift {
				r, c := tab.draw(x | (1<<tab.shift - 1))
				got[[2]uint64{r, c}] += (1 - keep) / float64(n)
			}
		}
		for row := range uint64(1) << levels {
			for col := range uint64(1) << levels {
				want := 1.0
				for l := range levels {
					want *= quad[row>>l&1][col>>l&1]
				}
				if g := got[[2]uint64{row, col}]; g < want-1e-8 || g > want+1e-8 {
					t.Errorf("levels %d: outcome row %b col %b drawn with %.9f, want %.9f", levels, row, col, g, want)
				}
			}
		}
	}
}

// degrees counts each edge at both endpoints.
func degrees(s Spec, edges []Edge) []uint64 {
	deg := make([]uint64, s.Vertices())
	for _, e := range edges {
		deg[e.U]++
		deg[e.V]++
	}
	return deg
}

// bitZeroShare is the share of endpoint occurrences on vertices whose id has the bit
// clear.
func bitZeroShare(deg []uint64, bit int) float64 {
	var zero, all uint64
	for v, d := range deg {
		if v>>bit&1 == 0 {
			zero += d
		}
		all += d
	}
	return float64(zero) / float64(all)
}

// lowHalfShare is the share of endpoint occurrences on vertices below n/2. The unpermuted
// Kronecker graph puts A+B = 76% of them there; permuted ids should put about half.
func lowHalfShare(deg []uint64) float64 {
	var lo, all uint64
	for v, d := range deg {
		if v < len(deg)/2 {
			lo += d
		}
		all += d
	}
	return float64(lo) / float64(all)
}

func TestKronSkewedAndPermuted(t *testing.T) {
	s := Spec{Kind: "kron", Scale: 14, EdgeFactor: 16, Seed: 5}
	deg := degrees(s, sequential(t, s))
	mean := float64(2*s.Edges()) / float64(s.Vertices())
	top := slices.Max(deg)
	if float64(top) < 20*mean {
		t.Errorf("max degree %d, mean %.0f: not the skew of a Kronecker graph", top, mean)
	}
	isolated := 0
	for _, d := range deg {
		if d == 0 {
			isolated++
		}
	}
	// Graph500 Kronecker graphs leave a large share of vertices isolated (about a quarter
	// at these parameters); uniform graphs of the same density leave none.
	if isolated < len(deg)/10 {
		t.Errorf("%d of %d vertices isolated, expected many more", isolated, len(deg))
	}
	// Unpermuted, each id bit is 0 at A+B = 76% of the endpoints.
	for bit := range s.Scale {
		if share := bitZeroShare(deg, bit); share < 0.4 || share > 0.6 {
			t.Errorf("ids with bit %d clear hold %.2f of the endpoints: the permutation leaks degree", bit, share)
		}
	}
	if top := slices.Index(deg, top); top == 0 {
		t.Errorf("vertex 0 has the largest degree: the permutation did not move it")
	}
}

func TestURandUniform(t *testing.T) {
	s := Spec{Kind: "urand", Scale: 12, EdgeFactor: 16, Seed: 3}
	deg := degrees(s, sequential(t, s))
	// Each degree is Binomial(2*16*4096, 1/4096): mean 32, sd about 5.7.
	lo, hi := slices.Min(deg), slices.Max(deg)
	if lo < 5 || hi > 70 {
		t.Errorf("degrees in [%d, %d], want within about 5 sd of 32", lo, hi)
	}
	if share := lowHalfShare(deg); share < 0.49 || share > 0.51 {
		t.Errorf("low half of the ids holds %.3f of the endpoints", share)
	}
}

// bfsDepth returns the number of vertices reached from 0 and the largest level.
func bfsDepth(n uint64, edges []Edge) (reached, depth uint64) {
	adj := make([][]uint64, n)
	for _, e := range edges {
		adj[e.U] = append(adj[e.U], e.V)
		adj[e.V] = append(adj[e.V], e.U)
	}
	level := make([]int64, n)
	for i := range level {
		level[i] = -1
	}
	level[0] = 0
	queue := []uint64{0}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		reached++
		depth = max(depth, uint64(level[v]))
		for _, w := range adj[v] {
			if level[w] < 0 {
				level[w] = level[v] + 1
				queue = append(queue, w)
			}
		}
	}
	return reached, depth
}

func TestGridDiameter(t *testing.T) {
	for _, scale := range []int{6, 7, 12} {
		s := Spec{Kind: "grid", Scale: scale, Seed: 1}
		rows, cols := s.GridShape()
		if rows*cols != s.Vertices() {
			t.Fatalf("scale %d: %dx%d grid", scale, rows, cols)
		}
		reached, depth := bfsDepth(s.Vertices(), sequential(t, s))
		if reached != s.Vertices() || depth != rows+cols-2 {
			t.Errorf("scale %d: reached %d of %d, depth %d, want %d", scale, reached, s.Vertices(), depth, rows+cols-2)
		}
		s.Shortcuts = 64
		_, short := bfsDepth(s.Vertices(), sequential(t, s))
		if short >= depth {
			t.Errorf("scale %d: 64 shortcuts left the depth at %d", scale, short)
		}
	}
}

func benchmarkGenerate(b *testing.B, s Spec) {
	for b.Loop() {
		if err := Generate(s, 0, func([]Edge) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(s.Edges())*float64(b.N)/b.Elapsed().Seconds(), "edges/s")
}

// benchScale sets the scale of BenchmarkKron and BenchmarkURand: small by default, for a
// shared 2-core machine; use e.g. -gen.scale 24 on a many-core one.
var benchScale = flag.Int("gen.scale", 16, "scale of the generator benchmarks")

func BenchmarkKron(b *testing.B) {
	benchmarkGenerate(b, Spec{Kind: "kron", Scale: *benchScale, EdgeFactor: 16, Seed: 1})
}

func BenchmarkKron24Block(b *testing.B) {
	// One block at scale 24: the per-edge cost grows with the scale (one draw per two levels).
	s := Spec{Kind: "kron", Scale: 24, EdgeFactor: 16, Seed: 1}
	f, _ := s.source()
	buf := make([]Edge, 0, BlockEdges)
	for b.Loop() {
		buf = f(buf[:0], 7)
	}
	b.ReportMetric(float64(BlockEdges)*float64(b.N)/b.Elapsed().Seconds(), "edges/s")
}

func BenchmarkURand(b *testing.B) {
	benchmarkGenerate(b, Spec{Kind: "urand", Scale: *benchScale, EdgeFactor: 16, Seed: 1})
}

func BenchmarkWriteText(b *testing.B) {
	s := Spec{Kind: "kron", Scale: 14, EdgeFactor: 16, Seed: 1}
	var n int64
	for b.Loop() {
		n, _ = Write(discard{}, s, Text, 0)
	}
	b.SetBytes(n)
	b.ReportMetric(float64(s.Edges())*float64(b.N)/b.Elapsed().Seconds(), "edges/s")
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func BenchmarkPerm(b *testing.B) {
	p := NewPerm(24, 1)
	var sink uint64
	for i := range uint64(b.N) {
		sink += p.At(i & (1<<24 - 1))
	}
	_ = sink
}

// TestNegativeWorkersRefused: Generate, Write and WriteWeighted refuse a worker count
// below 0 or past maxWorkers (0 is GOMAXPROCS) before an edge is made (Write's pipeline
// holds channel slots and buffers a worker), and Write takes maxWorkers.
func TestNegativeWorkersRefused(t *testing.T) {
	s := Spec{Kind: "urand", Scale: 4, EdgeFactor: 2, Seed: 1}
	for _, workers := range []int{-1, maxWorkers + 1, math.MaxInt} {
		emitted := false
		errs := map[string]error{"Generate": Generate(s, workers, func([]Edge) error { emitted = true; return nil })}
		var buf bytes.Buffer
		_, errs["Write"] = Write(&buf, s, Text, workers)
		_, errs["WriteWeighted"] = WriteWeighted(&buf, s, WeightSpec{Lo: 1, Hi: 9}, workers)
		for name, err := range errs {
			if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("workers %d", workers)) {
				t.Errorf("%s: %v, want a refusal naming workers %d", name, err, workers)
			}
		}
		if emitted || buf.Len() > 0 {
			t.Errorf("workers %d: edges made: emitted %v, %d bytes written", workers, emitted, buf.Len())
		}
	}
	var buf bytes.Buffer
	if _, err := Write(&buf, s, Text, maxWorkers); err != nil || buf.Len() == 0 {
		t.Errorf("Write on %d workers: %v, %d bytes", maxWorkers, err, buf.Len())
	}
}
