package sssp

import (
	"strings"
	"testing"

	"github.com/oocgraph/ooc/internal/testgraph"
	"github.com/oocgraph/ooc/store"
)

// TestUnreachedPast: after a run that summed past the largest distance, a vertex left
// unreached beside a reached one is named; one reached by a shorter path, or unreached
// with no reached in-neighbour (only its out-edge leads to the reached part), is not.
func TestUnreachedPast(t *testing.T) {
	near := uint32(3 << 30)
	cases := []struct {
		name     string
		n        uint32
		edges    []testgraph.Edge
		directed bool
		dist     []uint32
		want     string // in the error; "" for none
	}{
		{"path past the limit", 3, testgraph.Pairs(0, 1, 1, 2), false, []uint32{0, near, Inf}, "vertex 2 exceeds"},
		{"shorter path beside", 3, testgraph.Pairs(0, 1, 1, 2, 0, 2), false, []uint32{0, near, 1}, ""},
		{"one edge at the limit", 2, testgraph.Pairs(0, 1), false, []uint32{0, Inf - 1}, ""},
		{"only an out-edge into the reached part", 3, testgraph.Pairs(0, 1, 2, 0), true, []uint32{0, near, Inf}, ""},
		{"directed path past the limit", 4, testgraph.Pairs(0, 1, 1, 3, 2, 0), true, []uint32{0, near, Inf, Inf}, "vertex 3 exceeds"},
	}
	for _, c := range cases {
		a := store.NewCompressed(testgraph.Build(t, c.n, c.edges, c.directed, 0))
		for _, float := range []bool{false, true} {
			err := unreachedPast(a, float, c.dist)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("%s, float %v: %v", c.name, float, err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("%s, float %v: %v, want an error naming %q", c.name, float, err, c.want)
			case c.want != "" && float != strings.Contains(err.Error(), "float32"):
				t.Errorf("%s, float %v: %v", c.name, float, err)
			}
		}
	}
}
