package ingest

import (
	"context"
	"errors"
	"io"
	"os"
)

// An input that is not a regular file (a pipe, a FIFO, a terminal) may keep a read, or
// a FIFO's open, waiting for as long as nothing writes: a cancelled ingest must not
// wait with it, since its partial graph is removed only once the pipeline returns. So
// with Options.Context set, such an input is opened (openWaiting) and read
// (waitingReader) on a helper goroutine that the ingest leaves to wait alone when the
// context is done.

// interruptedBy is the error of an input read or open that the context ended.
func interruptedBy(ctx context.Context) error { return &inputInterrupted{context.Cause(ctx)} }

// inputInterrupted is what File and FileFrom return, unwrapped (bareInterrupt), when it
// comes up through the parser: its words around a failed read ("read NAME: ...") would
// blame the input for the interruption.
type inputInterrupted struct{ cause error }

func (e *inputInterrupted) Error() string { return "ingest: interrupted: " + e.cause.Error() }
func (e *inputInterrupted) Unwrap() error { return e.cause }

func bareInterrupt(err error) error {
	if ie, ok := errors.AsType[*inputInterrupted](err); ok {
		return ie
	}
	return err
}

// openWaiting opens path for reading; a FIFO (fifo true) is opened on a helper
// goroutine, and a done ctx returns interruptedBy at once while the open waits on for
// a writer. The file it then opens is closed; releaseFIFO ends the wait where it can.
func openWaiting(ctx context.Context, path string, fifo bool) (*os.File, error) {
	if ctx == nil || !fifo {
		return os.Open(path)
	}
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		done <- opened{f, err}
	}()
	select {
	case o := <-done:
		return o.f, o.err
	case <-ctx.Done():
		go func() {
			if o := <-done; o.f != nil {
				o.f.Close()
			}
		}()
		releaseFIFO(path)
		return nil, interruptedBy(ctx)
	}
}

// waitingInput is r read through a waitingReader when ctx is set and r is a file that
// is not a regular file, else r itself (a regular file never waits, and keeps the
// offset reads and rewinds that a regular *os.File allows).
func waitingInput(ctx context.Context, r io.Reader) io.Reader {
	f, ok := r.(*os.File)
	if ctx == nil || !ok {
		return r
	}
	if st, err := f.Stat(); err != nil || st.Mode().IsRegular() {
		return r
	}
	return &waitingReader{ctx: ctx, r: f}
}

// waitingReader reads r on a goroutine a read, into a buffer of its own (a read given
// up on may still fill it), and returns interruptedBy once ctx is done, then and on
// every later call.
type waitingReader struct {
	ctx context.Context
	r   io.Reader
	buf []byte
	err error
}

// waitingBuf bounds the buffer: a read returns at most this many bytes.
const waitingBuf = 1 << 20

type readResult struct {
	n   int
	err error
}

func (w *waitingReader) Read(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	if err := w.ctx.Err(); err != nil {
		w.err = interruptedBy(w.ctx)
		return 0, w.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	n := min(len(p), waitingBuf)
	if len(w.buf) < n {
		w.buf = make([]byte, n)
	}
	buf := w.buf[:n]
	done := make(chan readResult, 1)
	go func() {
		n, err := w.r.Read(buf)
		done <- readResult{n, err}
	}()
	select {
	case res := <-done:
		return copy(p, buf[:res.n]), res.err
	case <-w.ctx.Done():
		w.err, w.buf = interruptedBy(w.ctx), nil // the goroutine keeps buf
		return 0, w.err
	}
}
