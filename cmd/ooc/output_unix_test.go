//go:build unix

package main

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOutputFIFOReaderGone: a FIFO whose reader closes before the result is written
// fails with one error naming the FIFO once, as a full disk's does: "writing NAME:
// broken pipe", not the file's own "write NAME: broken pipe" after it.
func TestOutputFIFOReaderGone(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "out.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	// a reader, so that the open for writing does not wait; closed inside fill
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{stdout: io.Discard, stderr: io.Discard}
	o, err := checkOutput(e, fifo, false)
	if err != nil {
		t.Fatal(err)
	}
	err = o.write(func(w *bufio.Writer) error {
		r.Close()
		_, err := w.WriteString("0 1\n")
		return err
	})
	if !errors.Is(err, syscall.EPIPE) || strings.Count(err.Error(), fifo) != 1 {
		t.Errorf("write to a FIFO whose reader closed: %v; want EPIPE, the FIFO named once", err)
	}
}
