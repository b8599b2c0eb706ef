package gen

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"
)

func TestParseWeightSpec(t *testing.T) {
	for s, want := range map[string]WeightSpec{"uniform:1:255": {1, 255}, "uniform:0:0": {0, 0}, "uniform:7:4294967295": {7, 1<<32 - 1}} {
		if got, err := ParseWeightSpec(s); err != nil || got != want || got.String() != s {
			t.Errorf("%q: %v %v, want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "uniform:1", "uniform:5:1", "uniform:-1:3", "normal:1:3", "uniform:1:4294967296", "uniform:a:b"} {
		if _, err := ParseWeightSpec(s); !errors.Is(err, ErrSpec) {
			t.Errorf("%q: %v, want ErrSpec", s, err)
		}
	}
}

// TestWeightsUniform: every weight lies in the range, every value of a small range
// occurs about equally often, and the weight depends on the seed.
func TestWeightsUniform(t *testing.T) {
	ws := WeightSpec{10, 13}
	counts := map[uint32]int{}
	differ := 0
	for u := range uint64(200) {
		for v := range uint64(50) {
			w := ws.Weight(1, u, v)
			counts[w]++
			if w != ws.Weight(2, u, v) {
				differ++
			}
		}
	}
	for w := uint32(10); w <= 13; w++ {
		if c := counts[w]; c < 2200 || c > 2800 {
			t.Errorf("weight %d drawn %d times of 10000, want about 2500", w, c)
		}
	}
	if len(counts) != 4 || differ < 5000 {
		t.Errorf("weights drawn %v; %d of 10000 change with the seed", counts, differ)
	}
}

// TestWriteWeighted: the weighted edge list holds Write's edges, each with its weight,
// and is the same with any number of workers.
func TestWriteWeighted(t *testing.T) {
	s := Spec{Kind: "kron", Scale: 9, EdgeFactor: 8, Seed: 3}
	ws := WeightSpec{1, 255}
	var plain, one, four bytes.Buffer
	if _, err := Write(&plain, s, Text, 2); err != nil {
		t.Fatal(err)
	}
	WriteWeighted(&one, s, ws, 1)
	WriteWeighted(&four, s, ws, 4)
	if !bytes.Equal(one.Bytes(), four.Bytes()) {
		t.Fatal("weighted output differs between 1 and 4 workers")
	}
	pl, wl := strings.Split(plain.String(), "\n"), strings.Split(one.String(), "\n")
	if len(pl) != len(wl) || len(pl) != int(s.Edges())+1 {
		t.Fatalf("%d plain and %d weighted lines for %d edges", len(pl), len(wl), s.Edges())
	}
	for i := range len(pl) - 1 {
		f := strings.Fields(wl[i])
		u, _ := strconv.ParseUint(f[0], 10, 64)
		v, _ := strconv.ParseUint(f[1], 10, 64)
		if f[0]+" "+f[1] != pl[i] || f[2] != strconv.Itoa(int(ws.Weight(s.Seed, u, v))) {
			t.Fatalf("line %d: %q, plain %q", i+1, wl[i], pl[i])
		}
	}
}

// TestWeightBothWays: an edge weighs the same either way round (ingest.WeighEdges relies
// on it), and the pair, not each end alone, decides the weight.
func TestWeightBothWays(t *testing.T) {
	ws := WeightSpec{1, 1 << 20}
	same := 0
	for u := range uint64(300) {
		for v := range uint64(300) {
			w := ws.Weight(9, u, v)
			if w != ws.Weight(9, v, u) {
				t.Fatalf("edge %d-%d weighs %d one way, %d the other", u, v, w, ws.Weight(9, v, u))
			}
			if u > 0 && w == ws.Weight(9, u-1, v) {
				same++
			}
		}
	}
	if same > 300 {
		t.Errorf("%d of 90000 weights equal their neighbour's: the pair's hash is weak", same)
	}
}
