package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/oocgraph/ooc/gen"
)

// TestIngestSignal interrupts an ingest running in a child process with SIGINT, SIGTERM
// and SIGHUP (the terminal closed): it must exit 128 plus the signal's number, leave no
// graph and remove its temporary files.
func TestIngestSignal(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a 60 MB input")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Write(f, gen.Spec{Kind: "urand", Scale: 20, EdgeFactor: 4, Seed: 1}, gen.Text, 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	st, _ := os.Stat(in)
	t.Logf("input %d bytes", st.Size())
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		out := filepath.Join(dir, "g.ooc")
		// interrupted once the build spills
		stderr, err := interruptWhen(t, sig, "the ingest never started spilling", func() bool {
			tmp, _ := filepath.Glob(filepath.Join(dir, ".g.ooc.tmp-*", "*.spill"))
			return len(tmp) > 0
		}, "ingest", "-q", "--workers", "1", "-o", out, in)
		if err == nil {
			t.Fatalf("%v: the ingest exited 0 (it finished before the signal?)", sig)
		}
		wantSignalExit(t, sig, err)
		t.Logf("%v: %v, stderr %q", sig, err, stderr.String())
		if !strings.Contains(stderr.String(), "interrupted") {
			t.Errorf("%v: stderr %q, want it to say interrupted", sig, stderr.String())
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: %s exists after the interrupt", sig, out)
		}
		if left, _ := filepath.Glob(filepath.Join(dir, ".g.ooc.tmp-*")); len(left) > 0 {
			t.Errorf("%v: temporary files left: %v", sig, left)
		}
	}
}

// interruptWhen runs ooc with args in a child process (TestHelperMain), sends it sig once
// ready reports true (polled every 5 ms; after 20 s the child is killed and the test
// fails with never), and returns its stderr and its exit error.
func interruptWhen(t *testing.T, sig syscall.Signal, never string, ready func() bool, args ...string) (*strings.Builder, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperMain$")
	cmd.Env = append(os.Environ(), "OOC_MAIN_ARGS="+strings.Join(args, "\x1f"))
	stderr := new(strings.Builder)
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for !ready() {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatal(never)
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Signal(sig)
	return stderr, cmd.Wait()
}

// TestHelperMain runs ooc with the arguments in OOC_MAIN_ARGS (separated by \\x1f) and exits
// with its code, for tests that need a separate process.
func TestHelperMain(t *testing.T) {
	args := os.Getenv("OOC_MAIN_ARGS")
	if args == "" {
		t.Skip("run by other tests")
	}
	e := &env{stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin}
	os.Exit(runMain(e, strings.Split(args, "\x1f")))
}

// TestGenEdgeListSignal interrupts a gen writing an edge list file in a child process:
// it must exit 128 plus the signal's number saying so, with neither the file nor its
// temporary file left (writeAtomic removes it; CleanStale is for a process killed).
func TestGenEdgeListSignal(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "e.txt")
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		// interrupted once its temporary file holds bytes
		stderr, err := interruptWhen(t, sig, "gen never started writing", func() bool {
			tmp, _ := filepath.Glob(filepath.Join(dir, ".e.txt.tmp-*"))
			if len(tmp) == 0 {
				return false
			}
			st, err := os.Stat(tmp[0])
			return err == nil && st.Size() > 0
		}, "gen", "kron", "--scale", "28", "-q", "--workers", "1", "-o", out)
		if err == nil {
			t.Fatalf("%v: gen exited 0 (it finished before the signal?)", sig)
		}
		wantSignalExit(t, sig, err)
		if !strings.Contains(stderr.String(), "interrupted") || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("%v: stderr %q, want one line saying interrupted", sig, stderr.String())
		}
		if left, _ := filepath.Glob(filepath.Join(dir, "*e.txt*")); len(left) > 0 {
			t.Errorf("%v: files left: %v", sig, left)
		}
	}
}

// wantSignalExit fails t unless err is the exit of a child process that exited 128 plus
// sig's number, as a shell reports a process that sig ended.
func wantSignalExit(t *testing.T, sig syscall.Signal, err error) {
	t.Helper()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 128+int(sig) {
		t.Errorf("%v: exit %v, want status %d", sig, err, 128+int(sig))
	}
}

// TestSecondSignal: after the first SIGINT or SIGTERM has cancelled signalContext's
// context (the command cleaning up), a second ends the process at once by the signal's
// default action, in a child process (TestHelperSignal) that would otherwise sleep on.
func TestSecondSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperSignal$")
		cmd.Env = append(os.Environ(), "OOC_SIGNAL_CHILD=1")
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(out)
		next := func(want string) {
			if !lines.Scan() || lines.Text() != want {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("%v: the child said %q, want %q", sig, lines.Text(), want)
			}
		}
		next("ready")
		cmd.Process.Signal(sig)
		next("cancelled: " + sig.String() + " signal received")
		start := time.Now()
		cmd.Process.Signal(sig)
		err = cmd.Wait()
		ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
		if !ws.Signaled() || ws.Signal() != sig {
			t.Fatalf("%v: the second signal: %v, want the child ended by it", sig, err)
		}
		t.Logf("%v: the child ended %v after the second signal", sig, time.Since(start))
	}
}

// TestHelperSignal, in the child process of TestSecondSignal, waits on signalContext,
// says when it is cancelled and what by, and then sleeps for 20 s and exits 0.
func TestHelperSignal(t *testing.T) {
	if os.Getenv("OOC_SIGNAL_CHILD") == "" {
		t.Skip("run by TestSecondSignal")
	}
	ctx, stop := signalContext(context.Background())
	defer stop()
	fmt.Println("ready")
	<-ctx.Done()
	fmt.Println("cancelled:", context.Cause(ctx))
	time.Sleep(20 * time.Second)
	os.Exit(0)
}

// TestBenchSignalExit: a bench stopped by a signal between its searches exits 128 plus
// the signal's number, as gen and ingest do: its error carries signalContext's cause,
// not the bare context.Canceled of ctx.Err().
func TestBenchSignalExit(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(signalError{syscall.SIGTERM})
	err := benchBFS(ctx, nil, nil, nil, nil, []uint32{0}, nil)
	if code := exitCode(err); err == nil || code != 128+int(syscall.SIGTERM) {
		t.Fatalf("benchBFS interrupted: %v, exit %d; want exit %d", err, code, 128+int(syscall.SIGTERM))
	}
}
