//go:build cuda

package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/oocgraph/ooc/internal/cuda"
)

// TestKernelFault: a kernel that faults ends the command with exit 1 and one line that
// names the CUDA error, within faultWait: no crash dump, no hang. Each command runs in a
// child test process (TestHelperFaultCLI) where OOC_TEST_CUDA_FAULT=any points every
// kernel's device buffers at unmapped memory (internal/cuda honours it in test binaries
// only); the same command without it must succeed, so the fault is what fails it.
func TestKernelFault(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skipf("no GPU: %v", err)
	}
	dir := t.TempDir()
	txt, g := filepath.Join(dir, "k.txt"), filepath.Join(dir, "k.ooc")
	if code, _, stderr := runCLI(t, "", "gen", "kron", "--scale", "14", "-o", txt); code != exitOK {
		t.Fatal(stderr)
	}
	if code, _, stderr := runCLI(t, "", "ingest", "-q", "--backend", "cpu", "-o", g, txt); code != exitOK {
		t.Fatal(stderr)
	}
	for _, args := range [][]string{
		{"bfs", "--backend", "gpu", "--src", "1", g},
		{"cc", "--backend", "gpu", g},
		{"pagerank", "--backend", "gpu", g},
		{"kcore", "--backend", "gpu", g},
		{"ingest", "-q", "--backend", "gpu", "--force", "-o", filepath.Join(dir, "again.ooc"), txt},
	} {
		t.Run(args[0], func(t *testing.T) {
			if code, stderr := runFaultChild(t, "", args); code != exitOK {
				t.Fatalf("without a fault: exit %d: %s", code, stderr)
			}
			code, stderr := runFaultChild(t, "any", args)
			lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			if code != exitFailure || len(lines) != 1 || !strings.Contains(stderr, "CUDA_ERROR_ILLEGAL_ADDRESS") {
				t.Errorf("a faulting kernel: exit %d (want %d), stderr of %d lines (want one naming CUDA_ERROR_ILLEGAL_ADDRESS):\n%s",
					code, exitFailure, len(lines), stderr)
			}
			t.Logf("%s", stderr)
		})
	}
}

// runFaultChild runs ooc args in a child test process with OOC_TEST_CUDA_FAULT=fault and
// returns its exit code and standard error; a child still running after faultWait hangs.
func runFaultChild(t *testing.T, fault string, args []string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), faultWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperFaultCLI$")
	cmd.Env = append(os.Environ(), "OOC_TEST_CUDA_FAULT="+fault, "OOC_TEST_FAULT_ARGS="+strings.Join(args, "\n"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("ooc %s hung for %v with OOC_TEST_CUDA_FAULT=%q:\n%s", strings.Join(args, " "), faultWait, fault, stderr.String())
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), stderr.String()
}

// faultWait is how long a command of TestKernelFault's small graph may take (about a
// second each on an H200) before it counts as hung.
const faultWait = 20 * time.Second

// TestHelperFaultCLI is the child of TestKernelFault: it runs one command line and exits
// with its code.
func TestHelperFaultCLI(t *testing.T) {
	args := os.Getenv("OOC_TEST_FAULT_ARGS")
	if args == "" {
		t.Skip("run by TestKernelFault")
	}
	os.Exit(runMain(&env{stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin}, strings.Split(args, "\n")))
}
