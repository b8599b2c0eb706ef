package ingest

import (
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/cheggaaa/pb/v3"
	"github.com/cheggaaa/pb/v3/termutil"

	"github.com/oocgraph/ooc/internal/bytesize"
)

// progress is one phase's bar; a nil *progress (no writer) does nothing, so the
// pipeline calls it unconditionally.
type progress struct {
	bar     *pb.ProgressBar
	isBytes bool
	edges   atomic.Int64
	start   time.Time
}

// progressKey is where a bar keeps its *progress for the counts element.
const progressKey = "ooc.progress"

// The counts element is drawn from the bar's own value at each refresh, so that the
// numbers always agree with the bar beside them.
func init() {
	pb.RegisterElement("ooccounts", pb.ElementFunc(func(s *pb.State, _ ...string) string {
		p, _ := s.Get(progressKey).(*progress)
		if p == nil {
			return ""
		}
		return counts(s.Value(), s.Total(), p.isBytes, p.edges.Load(), time.Since(p.start))
	}), false)
}

// newProgress starts a bar named phase counting to total (bytes when isBytes, edges
// otherwise), with edges per second shown beside it. With total <= 0 (a generated input,
// whose size is not known) it shows no bar, only the edges counted and their rate.
func newProgress(w io.Writer, phase string, total int64, isBytes bool) *progress {
	if w == nil {
		return nil
	}
	cols, _ := termutil.TerminalWidth()
	p := &progress{isBytes: isBytes, start: time.Now()}
	p.bar = barTemplate(pb.New64(max(total, 0)), phase, total, cols, p).SetWriter(w).SetRefreshRate(250 * time.Millisecond)
	p.bar.Set(pb.Terminal, true)
	p.bar.Start()
	return p
}

// barTemplate lays a line out as phase, bar, percentage, then the counts: the counts
// are at most about 40 columns, so that at 80 columns the bar keeps about 25. The line
// stops a column short of the terminal's cols (when known), so that it never wraps.
func barTemplate(bar *pb.ProgressBar, phase string, total int64, cols int, p *progress) *pb.ProgressBar {
	bar.Set(progressKey, p)
	if cols > 1 {
		bar.SetWidth(cols - 1)
	}
	if total <= 0 {
		return bar.SetTemplateString(fmt.Sprintf(`{{ "%-9s" }} {{ooccounts . }}`, phase))
	}
	return bar.SetTemplateString(fmt.Sprintf(`{{ "%-9s" }} {{bar . "[" "=" ">" " " "]" }} {{percent . "%%3.0f%%%%" }} {{ooccounts . }}`, phase))
}

// counts is the text after the bar: how far of how much, in MiB or edges, and the edge
// rate.
func counts(cur, total int64, isBytes bool, edges int64, elapsed time.Duration) string {
	rate := humanCount(float64(edges) / max(elapsed.Seconds(), 1e-9))
	switch {
	case total <= 0:
		return fmt.Sprintf("%s edges, %s edges/s", humanCount(float64(edges)), rate)
	case isBytes: // padded so that the bar keeps its width while the numbers change
		return fmt.Sprintf("%-38s", fmt.Sprintf("%s of %s, %s edges/s", bytesize.Format(cur), bytesize.Format(total), rate))
	}
	return fmt.Sprintf("%-38s", fmt.Sprintf("%s of %s edges, %s/s", humanCount(float64(cur)), humanCount(float64(total)), rate))
}

// add counts n units of the bar's total (bytes or edges).
func (p *progress) add(n int64) {
	if p != nil {
		p.bar.Add64(n)
	}
}

// addEdges counts edges for the edges-per-second display.
func (p *progress) addEdges(n int64) {
	if p != nil {
		p.edges.Add(n)
	}
}

func (p *progress) finish() {
	if p == nil {
		return
	}
	p.bar.Finish()
}

func humanCount(x float64) string {
	switch {
	case x >= 1e9:
		return fmt.Sprintf("%.2fG", x/1e9)
	case x >= 1e6:
		return fmt.Sprintf("%.1fM", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.1fk", x/1e3)
	}
	return fmt.Sprintf("%.0f", x)
}
