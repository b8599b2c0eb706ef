// Command ooc ingests edge lists into compressed graph directories and runs BFS,
// connected components, PageRank, k-core and shortest paths on them, on the GPU when one
// is present (a -tags cuda build) and on all CPU cores otherwise.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"syscall"

	"github.com/oocgraph/ooc/store"
)

// Exit codes, the same for every subcommand.
const (
	exitOK      = 0
	exitFailure = 1 // runtime failure
	exitUsage   = 2 // usage or bad input
	exitCorrupt = 3 // corrupt graph
)

// command is one subcommand; each lives in its own file and registers itself in init.
type command struct {
	name    string
	summary string // one line for `ooc help`
	help    string // prose and examples for `ooc help NAME`
	run     func(env *env, args []string) error
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// env is what a subcommand may touch of the process, so tests can run commands in-process.
type env struct {
	stdout, stderr io.Writer
	stdin          io.Reader
	isTerminal     bool // stderr is a terminal: progress bars allowed
}

// usageError marks errors that exit with code 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// exitCode maps an error to the process exit code.
func exitCode(err error) int {
	var u usageError
	var sig signalError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &sig):
		return 128 + int(sig.sig)
	case errors.Is(err, store.ErrCorrupt):
		return exitCorrupt
	case errors.As(err, &u), errors.Is(err, store.ErrNotGraph), errors.Is(err, store.ErrExists), errors.Is(err, store.ErrNoParent), errors.Is(err, store.ErrInsideGraph), errors.Is(err, store.ErrTooManyShards),
		errors.Is(err, store.ErrNoVertex), errors.Is(err, store.ErrOldVersion), errors.Is(err, store.ErrNewVersion), errors.Is(err, errBadInput),
		errors.Is(err, syscall.ENAMETOOLONG): // a path no file system takes is the command line's
		return exitUsage
	}
	return exitFailure
}

// errBadInput is wrapped by errors that blame the input rather than the machine.
var errBadInput = errors.New("bad input")

func main() {
	st, _ := os.Stderr.Stat()
	e := &env{stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin,
		isTerminal: st != nil && st.Mode()&os.ModeCharDevice != 0}
	os.Exit(runMain(e, os.Args[1:]))
}

// runMain runs one command line and returns the exit code, printing any error as one line.
// A write to stdout that failed (a full disk, a closed file) fails the command: exit 1.
func runMain(e *env, args []string) int {
	out := &checkedWriter{w: e.stdout}
	ce := *e
	ce.stdout = out
	code := runCommand(&ce, args)
	if code == exitOK && out.err != nil {
		name := "ooc"
		if len(args) > 0 && commands[args[0]] != nil {
			name += " " + args[0]
		}
		fmt.Fprintf(e.stderr, "%s: %v\n", name, out.err)
		return exitFailure
	}
	return code
}

func runCommand(e *env, args []string) int {
	if len(args) == 0 {
		printUsage(e.stderr)
		return exitUsage
	}
	if args[0] == "-h" || args[0] == "--help" { // asked for: not an error, as with CMD -h
		printUsage(e.stdout)
		return exitOK
	}
	name := args[0]
	if name == "help" {
		return runHelp(e, args[1:])
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(e.stderr, "ooc: unknown command %q (run 'ooc help' for the list)\n", name)
		return exitUsage
	}
	err := runGuarded(c, e, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		// Package errors start with their package's name ("ingest: ..."); drop it when it
		// only repeats the command's.
		msg := strings.TrimPrefix(strings.ReplaceAll(err.Error(), "\n", " "), name+": ")
		fmt.Fprintf(e.stderr, "ooc %s: %s\n", name, msg)
	}
	return exitCode(err)
}

// runGuarded runs a command with memory faults on mapped graph files caught: a file
// truncated under the command is a corrupt graph (exit 3, one line), not a crash. The
// goroutines that read graph bytes hand their faults here (internal/fault).
func runGuarded(c *command, e *env, args []string) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer store.CatchFault(&err)
	return c.run(e, args)
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "ooc: out-of-core graph engine: BFS, connected components, PageRank, k-core and shortest paths\non graphs larger than GPU memory.")
	fmt.Fprintln(w, "\nUsage: ooc COMMAND [flags] [args]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'ooc help COMMAND' for a command's flags and examples.")
	fmt.Fprintln(w, "Exit codes: 0 success, 1 runtime failure, 2 usage or bad input, 3 corrupt graph,")
	fmt.Fprintln(w, "128+N stopped by signal N (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP).")
}

func runHelp(e *env, args []string) int {
	if len(args) > 1 {
		fmt.Fprintf(e.stderr, "ooc help: expected one command, got %d: %s\n", len(args), strings.Join(args, " "))
		return exitUsage
	}
	if len(args) == 0 || args[0] == "help" {
		printUsage(e.stdout)
		return exitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "ooc help: unknown command %q\n", args[0])
		return exitUsage
	}
	fs := c.flags(e)
	fmt.Fprintf(e.stdout, "%s\n\nFlags:\n", strings.TrimSpace(c.help))
	fs.SetOutput(e.stdout)
	fs.PrintDefaults()
	return exitOK
}

// flagSets lets `ooc help` print a command's flags; commands that build their flag set
// through newFlags record it here.
var flagSets = map[string]func(*env) *flag.FlagSet{}

func (c *command) flags(e *env) *flag.FlagSet {
	if f, ok := flagSets[c.name]; ok {
		return f(e)
	}
	return flag.NewFlagSet(c.name, flag.ContinueOnError)
}

// newFlags makes a subcommand's flag set that reports errors as usage errors and prints
// help on -h.
func newFlags(e *env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseFlags parses args, allowing flags after positional arguments
// (`ooc bfs g.ooc --src 3`), and turns flag errors into usage errors.
func parseFlags(e *env, fs *flag.FlagSet, args []string) ([]string, error) {
	unwrap := once(fs)
	defer unwrap()
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				unwrap() // PrintDefaults tells defaults by the values' own types
				c := commands[fs.Name()]
				fmt.Fprintf(e.stdout, "%s\n\nFlags:\n", strings.TrimSpace(c.help))
				fs.SetOutput(e.stdout)
				fs.PrintDefaults()
				return nil, flag.ErrHelp
			}
			return nil, usagef("%v (run 'ooc help %s')", err, fs.Name())
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, emptyValues(fs)
		}
		if args[0] == "-" || !strings.HasPrefix(args[0], "-") {
			pos = append(pos, args[0])
			args = args[1:]
			continue
		}
	}
}

// onceValue refuses a flag's second value: the flag package keeps the last, so
// "--src 1 --src 2" ran one search where two were asked for.
type onceValue struct {
	flag.Value
	set bool
}

func (o *onceValue) Set(s string) error {
	if o.set {
		return errors.New("given twice (each flag takes one value)")
	}
	o.set = true
	return o.Value.Set(s)
}

// IsBoolFlag keeps a boolean flag valid without a value (-v).
func (o *onceValue) IsBoolFlag() bool {
	b, ok := o.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// once wraps every flag of fs in a onceValue and returns what unwraps them (any number
// of times).
func once(fs *flag.FlagSet) (unwrap func()) {
	fs.VisitAll(func(f *flag.Flag) { f.Value = &onceValue{Value: f.Value} })
	return func() {
		fs.VisitAll(func(f *flag.Flag) {
			if o, ok := f.Value.(*onceValue); ok {
				f.Value = o.Value
			}
		})
	}
}

// given says whether the command line set the flag name (to any value, its default too).
func given(fs *flag.FlagSet, name string) (set bool) {
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// emptyValues refuses an -o given as the empty string (-o "$OUT" with OUT unset): the
// commands would take it for no -o and drop the result, or write a default name the
// user did not ask for. --backend, --format and --columns given empty are refused
// alike, as --order, --src and --weights are by their own checks: "" is no value of
// theirs, and each would take it for its default.
func emptyValues(fs *flag.FlagSet) (err error) {
	fs.Visit(func(f *flag.Flag) {
		switch {
		case err != nil:
		case (f.Name == "backend" || f.Name == "format" || f.Name == "columns") && f.Value.String() == "":
			err = usagef("--%s: an empty value; give one (run 'ooc help %s'), or leave --%s out", f.Name, fs.Name(), f.Name)
		case f.Name != "o":
		case f.Value.String() == "" && fs.Name() == "ingest":
			err = usagef("-o: an empty name; give a graph directory, or leave -o out")
		case f.Value.String() == "":
			err = usagef("-o: an empty name; give a file (- for standard output), or leave -o out")
		case stdoutName(f.Value.String()) && fs.Name() != "ingest":
			// -o /dev/stdout is -o - (ingest's -o is a graph directory): the summary then
			// goes to stderr, not into the result
			if o, ok := f.Value.(*onceValue); ok {
				o.Value.Set("-")
			} else {
				f.Value.Set("-")
			}
		}
	})
	return err
}

// printJSON writes v as one JSON object on a line.
func printJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// findGraph resolves the graph argument of bfs, cc, info and verify: the one given, or
// the only *.ooc graph directory in the current directory.
func findGraph(args []string) (string, error) {
	switch len(args) {
	case 1:
		if args[0] == "" {
			return "", usagef("an empty graph name: name a graph directory, or none to use the only *.ooc here")
		}
		return args[0], nil
	case 0:
	default:
		return "", usagef("expected one graph directory, got %d arguments: %s", len(args), strings.Join(args, " "))
	}
	matches, _ := filepath.Glob("*.ooc")
	var graphs []string
	for _, m := range matches {
		if st, err := os.Stat(filepath.Join(m, store.ManifestName)); err == nil && !st.IsDir() {
			graphs = append(graphs, m)
		}
	}
	switch len(graphs) {
	case 1:
		return graphs[0], nil
	case 0:
		return "", usagef("no graph named and no *.ooc graph directory here (run 'ooc ingest FILE' first)")
	}
	return "", usagef("no graph named and several here: %s (name one)", strings.Join(graphs, ", "))
}

// openGraph opens the graph named by the positional arguments (see findGraph) and
// returns it with the directory it was found at.
func openGraph(args []string) (*store.Graph, string, error) {
	dir, err := findGraph(args)
	if err != nil {
		return nil, "", err
	}
	g, err := store.Open(dir)
	if err != nil {
		return nil, "", err
	}
	return g, dir, nil
}
