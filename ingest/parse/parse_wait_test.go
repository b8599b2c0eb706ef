package parse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// afterReturn watches one Parse call: whether emit or the input's Read ran after Parse
// returned (or panicked), which no goroutine Parse started may do.
type afterReturn struct {
	returned atomic.Bool
	inEmit   atomic.Int64 // emit calls under way
	late     atomic.Int64 // calls of emit or Read under way or made after Parse returned
}

// parseWaiting reports whether a goroutine waits for the parser's workers: the caller's,
// in run or runAt.
func parseWaiting() bool {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		if bytes.Contains(g, []byte("sync.(*WaitGroup).Wait")) && bytes.Contains(g, []byte("parse.(*parser).run")) {
			return true
		}
	}
	return false
}

// hold keeps a worker in emit until Parse waits for its workers or has returned, so that
// a worker Parse does not wait for is still running when Parse returns.
func (a *afterReturn) hold() {
	if a.returned.Load() {
		a.late.Add(1)
	}
	a.inEmit.Add(1)
	defer a.inEmit.Add(-1)
	for !a.returned.Load() && !parseWaiting() {
		runtime.Gosched()
	}
}

// done marks Parse returned, counting an emit still under way.
func (a *afterReturn) done() {
	if a.inEmit.Load() > 0 {
		a.late.Add(1)
	}
	a.returned.Store(true)
}

// waitReader gives data, then fails with err or panics with it at byte failAt.
type waitReader struct {
	a      *afterReturn
	data   []byte
	failAt int
	err    error
	panics bool
}

func (r *waitReader) Read(b []byte) (int, error) {
	if r.a.returned.Load() {
		r.a.late.Add(1)
	}
	if r.failAt <= 0 {
		if r.panics {
			panic(r.err)
		}
		return 0, r.err
	}
	n := copy(b[:min(len(b), r.failAt)], r.data)
	r.data, r.failAt = r.data[n:], r.failAt-n
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

// TestParseWaitsForWorkers: on every way out of Parse (success, bad input, an error of
// the reader or of emit, a panic of the reader) no worker runs emit and nothing reads the
// input once Parse has returned, nor is a goroutine it started left behind.
func TestParseWaitsForWorkers(t *testing.T) {
	withBlockSize(t, 4096)
	var text strings.Builder
	for i := range 40000 {
		fmt.Fprintf(&text, "%d %d\n", i, i+1)
	}
	in := []byte(text.String())
	bad := append(append([]byte{}, in[:300000]...), "1 x\n"...)
	bad = append(bad, in[300000:]...)
	var zbuf bytes.Buffer
	zw, err := zstd.NewWriter(&zbuf)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(in)
	zw.Close()
	zin := zbuf.Bytes()
	file := filepath.Join(t.TempDir(), "g.txt")
	if err := os.WriteFile(file, in, 0o644); err != nil {
		t.Fatal(err)
	}
	errRead, errEmit := errors.New("read failed"), errors.New("emit failed")
	cases := []struct {
		name    string
		data    []byte
		failAt  int // the reader fails here (0: not at all)
		panics  bool
		emitErr bool
		file    bool
		want    error // nil: Parse succeeds
	}{
		{name: "whole", data: in},
		{name: "read error", data: in, failAt: 200000, want: errRead},
		{name: "read panic", data: in, failAt: 200000, panics: true, want: errRead},
		{name: "read panic early", data: in, failAt: 100000, panics: true, want: errRead},
		{name: "emit error", data: in, emitErr: true, want: errEmit},
		{name: "bad line", data: bad, want: ErrBadInput},
		{name: "zstd read error", data: zin, failAt: len(zin) / 2, want: errRead},
		{name: "zstd emit error", data: zin, emitErr: true, want: errEmit},
		{name: "file emit error", file: true, emitErr: true, want: errEmit},
		{name: "file", file: true},
	}
	for _, tc := range cases {
		for _, workers := range []int{1, 4} {
			t.Run(fmt.Sprintf("%s/%d", tc.name, workers), func(t *testing.T) {
				before := runtime.NumGoroutine()
				a := &afterReturn{}
				var r io.Reader
				if tc.file {
					f, err := os.Open(file)
					if err != nil {
						t.Fatal(err)
					}
					defer f.Close()
					r = f
				} else {
					failAt := tc.failAt
					if failAt == 0 {
						failAt = len(tc.data) + 1
					}
					r = &waitReader{a: a, data: tc.data, failAt: failAt, err: errRead, panics: tc.panics}
				}
				emit := func([]Edge) error {
					a.hold()
					if tc.emitErr {
						return errEmit
					}
					return nil
				}
				err := func() (err error) {
					defer func() {
						a.done()
						if v := recover(); v != nil {
							e, ok := v.(error)
							if !ok {
								panic(v)
							}
							err = fmt.Errorf("panic: %w", e)
						}
					}()
					_, err = Parse(r, ParseOptions{Workers: workers}, emit)
					return err
				}()
				switch {
				case tc.want == nil && err != nil:
					t.Fatalf("Parse: %v", err)
				case tc.want != nil && !errors.Is(err, tc.want):
					t.Fatalf("Parse: %v, want %v", err, tc.want)
				}
				// A worker left running ends soon after Parse returned (hold lets it
				// go), so its emit is counted below once it has.
				if !settled(before) {
					buf := make([]byte, 1<<20)
					t.Errorf("%d goroutines after Parse returned, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
				}
				if n := a.late.Load(); n > 0 {
					t.Errorf("emit or Read ran %d times after Parse returned", n)
				}
			})
		}
	}
}

// settled reports whether the goroutine count is back at n, yielding to goroutines that
// are about to exit a bounded number of times: a worker between its wg.Done and its end,
// the zstd decoder's goroutines after Close, a worker hold let go once Parse returned.
func settled(n int) bool {
	for range 100000 {
		if runtime.NumGoroutine() <= n {
			return true
		}
		runtime.Gosched()
	}
	return false
}
