package main

import (
	"bytes"
	"flag"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/store"
)

// runCLI runs one command line in-process and returns its exit code, stdout and stderr.
func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runMain(&env{stdout: &out, stderr: &errb, stdin: strings.NewReader(stdin)}, args)
	return code, out.String(), errb.String()
}

// wantUsage runs cmd followed by each of lines and wants every one refused as a usage
// error (exit 2) with a message from cmd[0].
func wantUsage(t *testing.T, cmd []string, lines [][]string) {
	t.Helper()
	for _, args := range lines {
		code, _, stderr := runCLI(t, "", append(slices.Clone(cmd), args...)...)
		if code != exitUsage || !strings.HasPrefix(stderr, "ooc "+cmd[0]+": ") {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 with a message", args, code, stderr)
		}
	}
}

func TestUnknownCommand(t *testing.T) {
	code, _, stderr := runCLI(t, "", "frobnicate")
	if code != exitUsage || !strings.Contains(stderr, "unknown command") {
		t.Fatalf("code %d, stderr %q", code, stderr)
	}
}

// TestTopLevelHelp: ooc -h and --help print the usage on stdout and succeed, as CMD -h
// does, and its first lines name every algorithm a command runs; ooc alone is a usage
// error.
func TestTopLevelHelp(t *testing.T) {
	for _, arg := range []string{"-h", "--help"} {
		code, stdout, _ := runCLI(t, "", arg)
		if code != exitOK || !strings.Contains(stdout, "ingest") {
			t.Errorf("ooc %s: code %d, stdout %q", arg, code, stdout)
		}
	}
	_, stdout, _ := runCLI(t, "", "--help")
	head, _, _ := strings.Cut(stdout, "Usage:")
	for _, algo := range []string{"BFS", "connected components", "PageRank", "k-core", "shortest paths"} {
		if !strings.Contains(head, algo) {
			t.Errorf("ooc --help opens with %q: it names no %s", head, algo)
		}
	}
	if code, _, stderr := runCLI(t, ""); code != exitUsage || !strings.Contains(stderr, "ingest") {
		t.Errorf("ooc: code %d, stderr %q", code, stderr)
	}
	// ooc help help is the usage ("unknown command" before); a second argument is
	// refused (ignored before)
	if code, stdout, _ := runCLI(t, "", "help", "help"); code != exitOK || !strings.Contains(stdout, "ingest") {
		t.Errorf("ooc help help: code %d, stdout %q", code, stdout)
	}
	if code, _, stderr := runCLI(t, "", "help", "bfs", "extra"); code != exitUsage || !strings.Contains(stderr, "expected one command, got 2: bfs extra") {
		t.Errorf("ooc help bfs extra: code %d, stderr %q", code, stderr)
	}
}

// TestEveryCommandTakesJSON: the README promises --json on every command.
func TestEveryCommandTakesJSON(t *testing.T) {
	e := &env{stdout: new(bytes.Buffer), stderr: new(bytes.Buffer)}
	for name, fs := range flagSets {
		if fs(e).Lookup("json") == nil {
			t.Errorf("ooc %s has no --json", name)
		}
	}
}

// TestHelpLines: every line of a command's help text (outputRules and parquetHelp
// included; the flags' lines are the flag package's) is at most 91 characters, the
// longest Usage line: a paragraph rewrapped after an edit, or a quoted paragraph joined
// to a line, made lines of 95 to 142.
func TestHelpLines(t *testing.T) {
	for name, c := range commands {
		for i, line := range strings.Split(c.help, "\n") {
			if n := len([]rune(line)); n > 91 {
				t.Errorf("ooc help %s, line %d: %d characters: %q", name, i+1, n, line)
			}
		}
	}
}

// TestFlagHelp: the flag lists of 'ooc help CMD' say what each flag takes and do not
// speak of another command's outputs: no flag's value is shown as the flag package's
// bare "value" (--mem, --shard-size, --vram were), a stated default of --shard-size is
// the store's, and bench's flags, borrowed from gen, speak of --keep, not of an edge list.
func TestFlagHelp(t *testing.T) {
	e := &env{stdout: new(bytes.Buffer), stderr: new(bytes.Buffer)}
	for name, newFS := range flagSets {
		newFS(e).VisitAll(func(f *flag.Flag) {
			if arg, _ := flag.UnquoteUsage(f); arg == "value" {
				t.Errorf("ooc %s --%s: its value is shown as %q; name it in the usage (`SIZE`)", name, f.Name, arg)
			}
			if f.Name == "shard-size" {
				stated := ""
				if m := regexp.MustCompile(`\(default (\S+)\)`).FindStringSubmatch(f.Usage); m != nil {
					stated = m[1]
				}
				if n, err := bytesize.Parse(stated); err != nil || n != store.DefaultShardBytes {
					t.Errorf("ooc %s --shard-size: %q states a default other than %d", name, f.Usage, store.DefaultShardBytes)
				}
			}
			if name == "bench" && strings.Contains(f.Usage, "edge list") {
				t.Errorf("ooc bench --%s speaks of an edge list, which bench does not write: %q", f.Name, f.Usage)
			}
		})
	}
	if u := flagSets["bench"](e).Lookup("force").Usage; !strings.Contains(u, "--keep") {
		t.Errorf("ooc bench --force: %q does not say it replaces the --keep graph", u)
	}
}

// TestUsageLines: a command's Usage lines name each of its flags, or say [flags] (then
// the list below them does): bfs's left out --seed and --force, gen's every flag of the
// graph it writes.
func TestUsageLines(t *testing.T) {
	e := &env{stdout: new(bytes.Buffer), stderr: new(bytes.Buffer)}
	for name, c := range commands {
		usage, _, _ := strings.Cut(strings.TrimLeft(c.help, "\n"), "\n\n")
		if !strings.HasPrefix(usage, "Usage: ooc "+name) {
			t.Errorf("ooc help %s does not start with its Usage lines: %.40q", name, usage)
			continue
		}
		if strings.Contains(usage, "[flags]") {
			continue
		}
		flagSets[name](e).VisitAll(func(f *flag.Flag) {
			if !regexp.MustCompile(`(^|[\s\[])` + regexp.QuoteMeta(flagName(f.Name)) + `($|[\s\]=])`).MatchString(usage) {
				t.Errorf("ooc %s: its Usage lines do not name %s:\n%s", name, flagName(f.Name), usage)
			}
		})
	}
}

// A path longer than the file system takes is the command line's fault, whichever command
// meets it: exit 2, as for a graph that is not there.
func TestNameTooLong(t *testing.T) {
	long := filepath.Join(t.TempDir(), strings.Repeat("a", 300))
	for _, args := range [][]string{
		{"info", long},
		{"bfs", long},
		{"verify", long},
		{"gen", "kron", "--scale", "4", "-o", long + ".ooc"},
		{"ingest", long, "-o", filepath.Join(t.TempDir(), "g.ooc")},
	} {
		code, _, stderr := runCLI(t, "", args...)
		if code != exitUsage || !strings.Contains(stderr, "too long") {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 naming the long name", args[0], code, stderr)
		}
	}
}
