package ingest

import (
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/cheggaaa/pb/v3"
)

// progress is one phase's bar; a nil *progress (no writer) does nothing, so the
// pipeline calls it unconditionally.
type progress struct {
	bar   *pb.ProgressBar
	edges atomic.Int64
	start time.Time
	stop  chan struct{}
	done  chan struct{}
}

// newProgress starts a bar named phase counting to total (bytes when isBytes, edges
// otherwise; total <= 0 means unknown), with edges per second shown beside it.
func newProgress(w io.Writer, phase string, total int64, isBytes bool) *progress {
	if w == nil {
		return nil
	}
	tmpl := fmt.Sprintf(`{{ "%-10s" }} {{counters . }} {{bar . "[" "=" ">" " " "]" }} {{percent . }} {{speed . "%%s/s" "?/s" }} {{string . "edges" }}`, phase)
	bar := pb.New64(max(total, 0)).SetTemplateString(tmpl).SetWriter(w).SetRefreshRate(250 * time.Millisecond)
	if isBytes {
		bar.Set(pb.Bytes, true)
	}
	bar.Set(pb.Terminal, true)
	p := &progress{bar: bar.Start(), start: time.Now(), stop: make(chan struct{}), done: make(chan struct{})}
	go p.tick()
	return p
}

func (p *progress) tick() {
	defer close(p.done)
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.showEdges()
		}
	}
}

func (p *progress) showEdges() {
	e := p.edges.Load()
	rate := float64(e) / max(time.Since(p.start).Seconds(), 1e-9)
	p.bar.Set("edges", fmt.Sprintf("%s edges, %s edges/s", humanCount(float64(e)), humanCount(rate)))
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
	close(p.stop)
	<-p.done
	p.showEdges()
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
