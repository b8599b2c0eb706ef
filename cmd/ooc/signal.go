package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// stopSignals are the signals that stop a command: Ctrl-C, kill's default and the
// terminal closing.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// signalError is the cause of a context that signalContext cancelled: the signal that
// stopped the command, which then exits 128 plus its number (exitCode), as a shell
// reports a process a signal ended. It is a context.Canceled, as signal.NotifyContext's
// cause is, for the code that tells a cancel from a failure.
type signalError struct{ sig syscall.Signal }

func (e signalError) Error() string        { return e.sig.String() + " signal received" }
func (e signalError) Is(target error) bool { return target == context.Canceled }

// signalContext is parent, cancelled by the first of stopSignals with a signalError as
// its cause, so that the command stops and removes what it was writing. From that
// signal on, these signals have their default action again: a second one ends the
// process at once, its cleanup unfinished (a temporary file left to the next write's
// store.CleanStale). stop releases the signals; call it when the work is done.
func signalContext(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, stopSignals...)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			signal.Reset(stopSignals...)
			sig, ok := s.(syscall.Signal)
			if !ok {
				sig = syscall.SIGINT
			}
			cancel(signalError{sig})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(context.Canceled)
	}
}
