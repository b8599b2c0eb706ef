package testgraph

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestBuildMatchesLists(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, c := range append(Cases(), Case{"random", 500, Random(r, 500, 3000), false}, Case{"random-dir", 500, Random(r, 500, 3000), true}) {
		g := Build(t, c.N, c.Edges, c.Directed, 256)
		out, in := Lists(c.N, c.Edges, c.Directed)
		for v := uint32(0); v < c.N; v++ {
			o, err := g.Out().ShardOf(v).Neighbors(nil, v)
			i, err2 := g.In().ShardOf(v).Neighbors(nil, v)
			if err != nil || err2 != nil || !slices.Equal(o, out[v]) || !slices.Equal(i, in[v]) {
				t.Fatalf("%v: vertex %d: out %v in %v (%v %v), want %v %v", c, v, o, i, err, err2, out[v], in[v])
			}
		}
	}
}
