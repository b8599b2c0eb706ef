package ingest

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cheggaaa/pb/v3"

	"github.com/oocgraph/ooc/internal/bytesize"
)

// TestProgressFits80Columns renders each kind of bar at 80 columns, at the start, midway
// and at the end: the line fits, the counts are in MiB or M edges (never raw integers)
// and agree with the bar's value, and a known total keeps a bar of at least 20 cells.
func TestProgressFits80Columns(t *testing.T) {
	cases := []struct {
		name    string
		phase   string
		total   int64
		isBytes bool
	}{
		{"file", "partition", 19 << 30, true},
		{"sort", "sort", 2_147_483_648, false},
		{"generated", "scan", 0, false},
	}
	for _, c := range cases {
		for _, frac := range []float64{0, 0.43, 1} {
			p := &progress{isBytes: c.isBytes, start: time.Now().Add(-40 * time.Second)}
			bar := barTemplate(pb.New64(max(c.total, 0)), c.phase, c.total, 80, p)
			cur := int64(frac * float64(c.total))
			bar.SetCurrent(cur)
			p.edges.Store(int64(frac * 2.1e9))
			line := bar.String()
			want := humanCount(float64(cur)) + " of " // the counts agree with the bar's value
			if c.isBytes {
				want = bytesize.Format(cur) + " of "
			}
			if c.total > 0 && !strings.Contains(line, want) {
				t.Errorf("%s at %.0f%%: %q does not show %q", c.name, 100*frac, line, want)
			}
			if n := utf8.RuneCountInString(line); n > 79 {
				t.Errorf("%s at %.0f%%: %d columns: %q", c.name, 100*frac, n, line)
			}
			if strings.Contains(line, "?") || strings.Contains(line, "2147483648") {
				t.Errorf("%s at %.0f%%: unknown or raw values: %q", c.name, 100*frac, line)
			}
			cells := strings.Count(line, "=") + strings.Count(line, " ") // at least the bar's
			if c.total > 0 && (!strings.Contains(line, "[") || cells < 20) {
				t.Errorf("%s at %.0f%%: the bar has no room: %q", c.name, 100*frac, line)
			}
			if c.total <= 0 && strings.Contains(line, "[") {
				t.Errorf("%s: a bar for an unknown total: %q", c.name, line)
			}
			t.Logf("%q", line)
		}
	}
}
