package parquetio

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

// readAll reads every pair of the file in b, sorted (workers read row groups in any
// order).
func readAll(t *testing.T, b []byte, src, dst string, opt ReadOptions) ([][2]uint64, error) {
	t.Helper()
	e, err := OpenEdges(bytes.NewReader(b), int64(len(b)), "in.parquet", src, dst)
	if err != nil {
		return nil, err
	}
	var mu sync.Mutex
	var got [][2]uint64
	err = e.Read(opt, func(s, d []uint64) error {
		if len(s) != len(d) || len(s) > BatchRows {
			t.Errorf("batch of %d and %d ids", len(s), len(d))
		}
		mu.Lock()
		defer mu.Unlock()
		for i := range s {
			got = append(got, [2]uint64{s[i], d[i]})
		}
		return nil
	})
	slices.SortFunc(got, cmpPair)
	return got, err
}

func cmpPair(a, b [2]uint64) int {
	if a[0] != b[0] {
		return cmpU(a[0], b[0])
	}
	return cmpU(a[1], b[1])
}

func cmpU(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func seed(t *testing.T) uint64 {
	s := uint64(1)
	if v := os.Getenv("OOC_SEED"); v != "" {
		s, _ = strconv.ParseUint(v, 10, 64)
	}
	t.Logf("seed %d (OOC_SEED=%d reproduces)", s, s)
	return s
}

// TestWriterRoundTrip writes random edges through Writer in small row groups and reads
// them back with 1 and 3 workers.
func TestWriterRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(seed(t), 1))
	var want [][2]uint64
	for range 50_000 {
		want = append(want, [2]uint64{rng.Uint64N(1 << 40), rng.Uint64N(1000)})
	}
	var buf bytes.Buffer
	w, err := NewWriter(&buf, []Column{{Name: "src"}, {Name: "dst"}, {Name: "weight"}}, 7_000)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range want {
		if err := w.Write(Cell{V: p[0]}, Cell{V: p[1]}, Cell{V: 7}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(want, cmpPair)
	e, err := OpenEdges(bytes.NewReader(buf.Bytes()), int64(buf.Len()), "x", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if e.NumRowGroups() != 8 || e.NumRows() != 50_000 {
		t.Errorf("%d row groups, %d rows; want 8 and 50000", e.NumRowGroups(), e.NumRows())
	}
	for _, workers := range []int{1, 3} {
		got, err := readAll(t, buf.Bytes(), "", "", ReadOptions{Workers: workers, MaxID: math.MaxUint64})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%d workers: read %d pairs, differing from the %d written", workers, len(got), len(want))
		}
	}
	// the columns swapped by name
	swapped := make([][2]uint64, len(want))
	for i, p := range want {
		swapped[i] = [2]uint64{p[1], p[0]}
	}
	slices.SortFunc(swapped, cmpPair)
	got, err := readAll(t, buf.Bytes(), "dst", "src", ReadOptions{Workers: 2, MaxID: math.MaxUint64})
	if err != nil || !slices.Equal(got, swapped) {
		t.Fatalf("columns dst, src: %v, %d pairs differing from the written ones swapped", err, len(got))
	}
}

// writeStruct writes rows of T with the library's own struct writer, as a program
// other than ooc would.
func writeStruct[T any](t *testing.T, rows []T, opts ...parquet.WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[T](&buf, opts...)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestIDTypes reads ids of every integer width, signed and unsigned, plain and
// dictionary-encoded, required and optional.
func TestIDTypes(t *testing.T) {
	type i8 struct {
		Src int8   `parquet:"src"`
		Dst uint16 `parquet:"dst"`
	}
	type u32 struct {
		A   uint32  `parquet:"a"`
		B   int32   `parquet:"b,dict"`
		W   float64 `parquet:"w"`
		Src string  `parquet:"src"`
	}
	type opt struct {
		Src *int64  `parquet:"src,optional"`
		Dst *uint64 `parquet:"dst,optional,dict"`
	}
	one, two := int64(3), uint64(1<<63+5)
	cases := []struct {
		name     string
		file     []byte
		src, dst string
		want     [][2]uint64
	}{
		{"int8/uint16", writeStruct(t, []i8{{1, 2}, {127, 65535}}), "", "", [][2]uint64{{1, 2}, {127, 65535}}},
		{"uint32/dict int32", writeStruct(t, []u32{{A: 4e9, B: 2}, {A: 1, B: 2}, {A: 0, B: 7}}), "a", "b",
			[][2]uint64{{0, 7}, {1, 2}, {4e9, 2}}},
		{"optional", writeStruct(t, []opt{{&one, &two}, {&one, &two}}), "", "", [][2]uint64{{3, 1<<63 + 5}, {3, 1<<63 + 5}}},
	}
	for _, c := range cases {
		got, err := readAll(t, c.file, c.src, c.dst, ReadOptions{Workers: 1, MaxID: math.MaxUint64})
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, %v; want %v", c.name, got, err, c.want)
		}
	}
}

// TestBadInput: every refusal names the file, the row group, the column and the row
// where it applies, and says what was expected.
func TestBadInput(t *testing.T) {
	type edge struct {
		Src int64 `parquet:"src"`
		Dst int64 `parquet:"dst"`
	}
	type strs struct {
		Src string `parquet:"src"`
		Dst int64  `parquet:"dst"`
	}
	type nulls struct {
		Src int64  `parquet:"src"`
		Dst *int64 `parquet:"dst,optional"`
	}
	type list struct {
		Src []int64 `parquet:"src,list"`
		Dst int64   `parquet:"dst"`
	}
	type ts struct {
		Src int64 `parquet:"src,timestamp"`
		Dst int64 `parquet:"dst"`
	}
	five := int64(5)
	good := writeStruct(t, []edge{{0, 1}, {1, 2}, {2, 3}, {3, -4}, {5, 9}}, parquet.MaxRowsPerRowGroup(2))
	large := writeStruct(t, []edge{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {5, 9}}, parquet.MaxRowsPerRowGroup(2))
	cases := []struct {
		name     string
		file     []byte
		src, dst string
		maxID    uint64
		want     []string
	}{
		{"negative", good, "", "", math.MaxUint64, []string{"in.parquet", "row group 1 of 3", `column "dst"`, "row 1", "holds -4; ids must be 0 or more"}},
		{"too large", large, "", "", 8, []string{"row group 2 of 3", `column "dst"`, "row 0", "holds 9, above the largest allowed id 8; use --relabel"}},
		{"no column", good, "from", "", math.MaxUint64, []string{`no column "from"; the file has src, dst`, "--columns"}},
		{"same column", good, "src", "src", math.MaxUint64, []string{`column "src"`, "names both"}},
		{"strings", writeStruct(t, []strs{{"a", 1}}), "", "", math.MaxUint64, []string{`column "src"`, "BYTE_ARRAY", "expected integer ids"}},
		{"timestamp", writeStruct(t, []ts{{1, 1}}), "", "", math.MaxUint64, []string{`column "src"`, "TIMESTAMP", "expected integer ids"}},
		{"null", writeStruct(t, []nulls{{1, &five}, {2, nil}}), "", "", math.MaxUint64, []string{"row group 0 of 1", `column "dst"`, "row 1", "null"}},
		{"list", writeStruct(t, []list{{[]int64{1}, 1}}), "src", "", math.MaxUint64, []string{`column "src"`, "nested column (src.list.element)", "one integer id per row"}},
		{"not parquet", []byte("0 1\n1 2\n"), "", "", math.MaxUint64, []string{"in.parquet", "not a Parquet file: 8 bytes"}},
		{"truncated", good[:len(good)-9], "", "", math.MaxUint64, []string{"not a Parquet file", "not \"PAR1\" (truncated?)"}},
		{"one byte", []byte("P"), "", "", math.MaxUint64, []string{"not a Parquet file: 1 byte, fewer than the 12"}},
		{"footer past the file", []byte("PAR1\x01\x00\x00\x00PAR1"), "", "", math.MaxUint64, []string{"the footer claims 1 byte, more than the file's 12"}},
	}
	for _, c := range cases {
		_, err := readAll(t, c.file, c.src, c.dst, ReadOptions{Workers: 2, MaxID: c.maxID, Hint: "; use --relabel"})
		var pe *Error
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %v, want an *Error", c.name, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q lacks %q", c.name, err, w)
			}
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: message of more than one line: %q", c.name, err)
		}
	}
}

// TestCallbackError: the callback's error comes back unchanged.
func TestCallbackError(t *testing.T) {
	type edge struct {
		Src, Dst int32
	}
	b := writeStruct(t, []edge{{1, 2}}, parquet.MaxRowsPerRowGroup(1))
	e, err := OpenEdges(bytes.NewReader(b), int64(len(b)), "x", "Src", "Dst")
	if err != nil {
		t.Fatal(err)
	}
	stop := errors.New("stop")
	if err := e.Read(ReadOptions{Workers: 1, MaxID: 10}, func(_, _ []uint64) error { return stop }); err != stop {
		t.Fatalf("got %v, want the callback's error", err)
	}
}

// TestNullableColumns writes a result table with nulls and reads it back with the
// library's own row reader.
func TestNullableColumns(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, []Column{{Name: "id", Unsigned: true}, {Name: "level", Nullable: true}, {Name: "score", Float: true}}, 3)
	if err != nil {
		t.Fatal(err)
	}
	for i := range uint64(10) {
		if err := w.Write(Cell{V: i << 60}, Cell{V: i, Null: i%3 == 0}, Cell{F: float64(i) / 4}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Write(Cell{Null: true}, Cell{}, Cell{}); err == nil {
		t.Error("a null in a required column was accepted")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	type row struct {
		ID    uint64  `parquet:"id"`
		Level *int64  `parquet:"level,optional"`
		Score float64 `parquet:"score"`
	}
	rows, err := parquet.Read[row](bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 10 {
		t.Fatalf("%d rows, want 10", len(rows))
	}
	for i, r := range rows {
		if r.ID != uint64(i)<<60 || (r.Level == nil) != (i%3 == 0) || r.Level != nil && *r.Level != int64(i) || r.Score != float64(i)/4 {
			t.Errorf("row %d: %+v", i, r)
		}
	}
	f, err := parquet.OpenFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(f.Schema().Columns()[1], "."); got != "level" || len(f.RowGroups()) != 4 {
		t.Errorf("second column %q, %d row groups; want level and 4", got, len(f.RowGroups()))
	}
}

// TestPageMem: with a page budget smaller than one row group's pages, row groups are
// read one at a time whatever the worker count, and all of them are read.
func TestPageMem(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, []Column{{Name: "src"}, {Name: "dst"}}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for i := range uint64(20_000) {
		if err := w.Write(Cell{V: i}, Cell{V: i + 1}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		mem     int64
		maxBusy int64 // the most callbacks running at once allowed
	}{{1, 1}, {0, 4}} {
		e, err := OpenEdges(bytes.NewReader(buf.Bytes()), int64(buf.Len()), "x", "", "")
		if err != nil {
			t.Fatal(err)
		}
		var busy, most, rows atomic.Int64
		err = e.Read(ReadOptions{Workers: 4, MaxID: math.MaxUint64, PageMem: c.mem}, func(s, _ []uint64) error {
			n := busy.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			time.Sleep(time.Millisecond)
			rows.Add(int64(len(s)))
			busy.Add(-1)
			return nil
		})
		if err != nil || rows.Load() != 20_000 || most.Load() > c.maxBusy {
			t.Errorf("PageMem %d: %v, %d rows, %d callbacks at once (at most %d allowed)", c.mem, err, rows.Load(), most.Load(), c.maxBusy)
		}
	}
}
