package parquetio

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
)

// weighted writes rows (src, dst, w) with w as given (signed INT64), or a DOUBLE weight.
func weighted(t *testing.T, ws []int64, float bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, []Column{{Name: "src"}, {Name: "dst"}, {Name: "weight", Float: float}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range ws {
		if err := w.Write(Cell{V: uint64(i)}, Cell{V: uint64(i + 1)}, Cell{V: uint64(x), F: float64(x)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func readWeights(b []byte, col string) ([]uint64, error) {
	e, err := OpenEdges(bytes.NewReader(b), int64(len(b)), "w.parquet", "", "")
	if err != nil {
		return nil, err
	}
	if err := e.WithWeights(col); err != nil {
		return nil, err
	}
	got := make([]uint64, e.NumRows())
	err = e.ReadWeighted(ReadOptions{Workers: 2, MaxID: 100}, func(s, d, w []uint64) error {
		for i := range s {
			if d[i] != s[i]+1 {
				return errors.New("rows misaligned")
			}
			got[s[i]] = w[i]
		}
		return nil
	})
	return got, err
}

func TestReadWeighted(t *testing.T) {
	got, err := readWeights(weighted(t, []int64{5, 0, 1<<32 - 1, 7, 9}, false), "")
	if err != nil || len(got) != 5 || got[0] != 5 || got[2] != 1<<32-1 || got[4] != 9 {
		t.Fatalf("weights %v, %v", got, err)
	}
	for _, c := range []struct {
		ws    []int64
		float bool
		col   string
		msg   string
	}{
		{[]int64{1, -3}, false, "", "weight -3"},
		{[]int64{1, 1 << 32}, false, "", "above the largest weight"},
		{[]int64{1, 2}, false, "src", "names an id column"},
		{[]int64{1, 2}, false, "cost", `no column "cost"`},
	} {
		_, err := readWeights(weighted(t, c.ws, c.float), c.col)
		var pe *Error
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%v (col %q): %v, want an *Error containing %q", c.ws, c.col, err, c.msg)
		}
	}
}

// floatWeighted writes rows (i, i+1, ws[i]) with a DOUBLE weight column.
func floatWeighted(t *testing.T, ws []float64) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, []Column{{Name: "src"}, {Name: "dst"}, {Name: "weight", Float: true}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range ws {
		if err := w.Write(Cell{V: uint64(i)}, Cell{V: uint64(i + 1)}, Cell{F: x}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestReadFloatWeights: a DOUBLE weight column gives each value rounded to float32, as
// its bits (-0 as 0); negative, NaN, infinite and too large values are refused naming
// the row.
func TestReadFloatWeights(t *testing.T) {
	in := []float64{0.5, math.Copysign(0, -1), 1e-3, 3e38, 2, 0.1}
	b := floatWeighted(t, in)
	e, err := OpenEdges(bytes.NewReader(b), int64(len(b)), "w.parquet", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.WithWeights(""); err != nil || !e.FloatWeights() {
		t.Fatalf("WithWeights: %v, FloatWeights %v", err, e.FloatWeights())
	}
	got, err := readWeights(b, "")
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range in {
		if want := uint64(math.Float32bits(float32(x))) &^ (1 << 31); got[i] != want {
			t.Errorf("row %d: bits %#x, want %#x (%g)", i, got[i], want, x)
		}
	}
	for _, bad := range []float64{-1.5, math.NaN(), math.Inf(1), 1e39} {
		_, err := readWeights(floatWeighted(t, []float64{1, bad}), "")
		var pe *Error
		if !errors.As(err, &pe) || pe.Row != 1 || !strings.Contains(err.Error(), "float weights are non-negative and finite") {
			t.Errorf("weight %g: %v, want an *Error at row 1", bad, err)
		}
	}
}
