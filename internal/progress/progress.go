// Package progress draws one line that tells how a long run is going, for a terminal:
// nothing during the run's first second, then the line redrawn in place at most five
// times a second, and erased when the run ends. A short run prints nothing, and a long
// one leaves nothing behind in what is printed after it.
package progress

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Defaults for New: how long a run goes before its line is first drawn, and the least
// time between two draws.
const (
	DefaultDelay    = time.Second
	DefaultInterval = 200 * time.Millisecond
)

// Line is one run's progress line. Its methods are called from the goroutine that drives
// the run; they do nothing on a nil *Line, so a run without a terminal passes nil.
type Line struct {
	w        io.Writer
	name     string
	start    time.Time
	next     time.Time
	interval time.Duration
	width    int // columns the line takes on screen, 0 when none is drawn
}

// New returns the progress line of a run named name ("pagerank") on w, with the default
// delay and interval (none on a writer from Immediate); nil when w is nil.
func New(w io.Writer, name string) *Line {
	if i, ok := w.(immediate); ok {
		return NewAfter(i.Writer, name, 0, 0)
	}
	return NewAfter(w, name, DefaultDelay, DefaultInterval)
}

// Immediate returns w marked so that the lines New draws on it skip the delay and the
// interval: every step is drawn, which tests of the runs that draw want.
func Immediate(w io.Writer) io.Writer { return immediate{w} }

type immediate struct{ io.Writer }

// NewAfter is New with the delay before the first draw and the least interval between
// draws given.
func NewAfter(w io.Writer, name string, delay, interval time.Duration) *Line {
	if w == nil {
		return nil
	}
	now := time.Now()
	return &Line{w: w, name: name, start: now, next: now.Add(delay), interval: interval}
}

// Due reports whether Show would draw now. Callers whose words cost something to
// gather ask first.
func (l *Line) Due() bool {
	return l != nil && !time.Now().Before(l.next)
}

// Show draws "name: what, 12.3 s" over the line before, when Due; what is format
// applied to args.
func (l *Line) Show(format string, args ...any) {
	if !l.Due() {
		return
	}
	now := time.Now()
	l.next = now.Add(l.interval)
	s := fmt.Sprintf("%s: %s, %.1f s", l.name, fmt.Sprintf(format, args...), now.Sub(l.start).Seconds())
	n := len([]rune(s))
	pad := max(0, l.width-n)
	fmt.Fprintf(l.w, "\r%s%s", s, strings.Repeat(" ", pad))
	l.width = max(l.width, n) // the blanks count: they cover the longer line before
}

// Done erases the line, if one was drawn.
func (l *Line) Done() {
	if l == nil || l.width == 0 {
		return
	}
	fmt.Fprintf(l.w, "\r%s\r", strings.Repeat(" ", l.width))
	l.width = 0
}
