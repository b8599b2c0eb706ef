//go:build unix

package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestCancelWaitingInput: an ingest whose input waits (a FIFO no one opened for
// writing, a FIFO or a pipe whose writer is silent, before the first byte or after a
// megabyte) returns an error matching context.Canceled once its context is done,
// leaving neither the graph nor its temporary directory, though the open of the FIFO
// or the read never returns. The contexts are done before the ingest starts, or once
// the writer's megabyte is read; a case still waiting a minute later fails.
func TestCancelWaitingInput(t *testing.T) {
	var mb bytes.Buffer
	for i := 0; mb.Len() < 1<<20; i++ {
		fmt.Fprintf(&mb, "%d %d\n", i, i+1)
	}
	type input struct {
		name    string
		ingest  func(opt Options) (*Report, error)
		release func()        // ends the input: the writer closed, or the FIFO's open released
		read    chan struct{} // closed once the ingest has read the writer's bytes (a pipe's)
	}
	fifo := func(t *testing.T, dir string, writer bool, head []byte) input {
		path := filepath.Join(dir, "in.fifo")
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Skip("mkfifo:", err)
		}
		in := input{name: path, ingest: func(opt Options) (*Report, error) { return File(path, opt) }}
		if !writer {
			in.release = func() { releaseFIFO(path) }
			return in
		}
		w, err := os.OpenFile(path, os.O_RDWR, 0) // a writer that never waits for a reader
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(head[:min(len(head), 32<<10)]); err != nil { // within the FIFO's buffer
			t.Fatal(err)
		}
		in.release = func() { w.Close() }
		return in
	}
	pipe := func(t *testing.T, _ string, _ bool, head []byte) input {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		read := make(chan struct{})
		go func() {
			if _, err := w.Write(head); err == nil { // blocks until read, or fails once r is closed
				close(read)
			}
		}()
		return input{name: "a pipe", ingest: func(opt Options) (*Report, error) { return FileFrom(r, "-", -1, opt) },
			release: func() { w.Close() }, read: read}
	}
	for _, c := range []struct {
		name   string
		open   func(t *testing.T, dir string, writer bool, head []byte) input
		writer bool
		head   []byte
		late   bool // cancelled once the writer's bytes are read, not before the start
		opt    Options
	}{
		{name: "FIFO without a writer", open: fifo},
		{name: "FIFO without a writer, weights", open: fifo, opt: Options{Weights: true}},
		{name: "FIFO without a writer, degree order", open: fifo, opt: Options{Order: "degree"}},
		{name: "FIFO, silent writer", open: fifo, writer: true},
		{name: "FIFO, silent writer, weights", open: fifo, writer: true, opt: Options{Weights: true}},
		{name: "FIFO, silent after 32 KiB", open: fifo, writer: true, head: mb.Bytes()},
		{name: "pipe, silent writer", open: pipe},
		{name: "pipe, silent writer, degree order", open: pipe, opt: Options{Order: "degree"}},
		{name: "pipe, silent after a megabyte", open: pipe, head: mb.Bytes(), late: true},
		{name: "pipe, silent after a megabyte, weights", open: pipe, head: bytes.ReplaceAll(mb.Bytes(), []byte("\n"), []byte(" 1\n")), late: true,
			opt: Options{Weights: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			in := c.open(t, dir, c.writer, c.head)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if !c.late {
				cancel()
			}
			opt := c.opt
			opt.Dest, opt.Context, opt.Mem = filepath.Join(dir, "g.ooc"), ctx, 64<<20
			done := make(chan error, 1)
			go func() {
				_, err := in.ingest(opt)
				done <- err
			}()
			var err error
			waited := time.After(time.Minute)
		wait:
			for {
				select {
				case err = <-done:
					break wait
				case <-waited:
					t.Errorf("%s: the ingest still waits a minute after its context", in.name)
					in.release()
					err = <-done
					break wait
				case <-in.read:
					cancel()
					in.read = nil
				}
			}
			in.release()
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%s: %v, want an error matching context.Canceled", in.name, err)
			}
			if left, _ := filepath.Glob(filepath.Join(dir, "*g.ooc*")); len(left) > 0 {
				t.Errorf("%s: left %v", in.name, left)
			}
		})
	}
}
