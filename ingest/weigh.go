package ingest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/parallel"
	"github.com/oocgraph/ooc/store"
)

// WeighEdges is FromWeightedEdges for edges whose weight is a function of their ends
// alone (generators: gen.WeightSpec): produce passes the edges without weights, the
// unweighted pipeline builds the lists (on the GPU when the backend takes the input, and
// spilling to disk where the weighted ingest holds every edge in memory), and a second
// pass weighs every stored edge u -> v by weight(u, v) in the file's own ids, writing the
// same lists with a WEIGHTS section into opt.Dest. weight must not depend on the
// direction (weight(u, v) = weight(v, u)): every copy of an edge then weighs the same,
// either way round, and the graph is the one FromWeightedEdges builds from the same
// edges with those weights (duplicates keep the smallest weight, here the only one).
func WeighEdges(opt Options, input store.InputInfo, hdr parse.Header, produce func(emit func(batch []parse.Edge) error) error,
	weight func(u, v uint64) uint32) (rep *Report, err error) {
	defer func() { err = namedNoSpace(opt.Dest, err) }()
	tmp, dest, err := tempLists(opt.Dest)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	lists := opt
	lists.inTemp(dest)
	lists.Log = nil
	rep, err = FromEdges(lists, input, hdr, produce)
	if err != nil {
		return nil, err
	}
	g, err := store.Open(lists.Dest)
	if err != nil {
		return nil, err
	}
	defer g.Close()
	t0 := time.Now()
	m, err := weighLists(g, opt, weight)
	if err != nil {
		return nil, err
	}
	rep.Manifest = m
	rep.Phases = append(rep.Phases, Phase{Name: "weigh", Seconds: time.Since(t0).Seconds(), Bytes: m.Bytes, Edges: m.Edges})
	rep.Seconds += time.Since(t0).Seconds()
	rep.PeakRSS = PeakRSS()
	if opt.Log != nil {
		rep.Summary(opt.Log)
	}
	return rep, nil
}

// tempLists makes a directory beside dest for a build of the lists without weights, and
// returns it (the caller removes it) and the graph's path inside it.
func tempLists(dest string) (dir, graph string, err error) {
	if dest == "" {
		return "", "", fmt.Errorf("ingest: no destination")
	}
	dir, err = os.MkdirTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".lists-")
	if err != nil {
		return "", "", fmt.Errorf("ingest: %w", err)
	}
	return dir, filepath.Join(dir, "lists.ooc"), nil
}

// weighLists writes g's lists, byte for byte, with their weights into opt.Dest, and
// returns the manifest: g's, weighted.
func weighLists(g *store.Graph, opt Options, weight func(u, v uint64) uint32) (*store.Manifest, error) {
	return writeWeighted(g, opt, func(bl *store.Builder) error {
		return weighListsInto(bl, g, opt, weight)
	})
}

// writeWeighted creates opt.Dest as a weighted graph with g's vertices, ids and manifest,
// lets fill append the lists and weights, and publishes it; on any error nothing is left.
func writeWeighted(g *store.Graph, opt Options, fill func(bl *store.Builder) error) (*store.Manifest, error) {
	bl, err := store.Create(opt.Dest, store.CreateOptions{Force: opt.Force, Log: opt.Log, ShardBytes: opt.ShardBytes, Weighted: true, FloatWeights: opt.FloatWeights})
	if err != nil {
		return nil, err
	}
	if g.M.IDs != nil {
		err = bl.WriteIDs(int(g.M.Vertices), func(i int) uint64 { return g.External(uint32(i)) })
	}
	if err == nil {
		err = fill(bl)
	}
	if err != nil {
		bl.Abort()
		return nil, err
	}
	src := g.M
	m := &store.Manifest{Vertices: src.Vertices, Directed: src.Directed, IDBase: src.IDBase, Relabeled: src.Relabeled,
		VertexOrder: src.VertexOrder, InputEdges: src.InputEdges, SelfLoopsDropped: src.SelfLoopsDropped,
		DuplicatesDropped: src.DuplicatesDropped, ReciprocalPairs: src.ReciprocalPairs, Input: src.Input, Options: src.Options}
	if err := bl.Commit(m); err != nil {
		return nil, err
	}
	return m, nil
}

// weighListsInto appends g's lists with weight's weights to bl.
func weighListsInto(bl *store.Builder, g *store.Graph, opt Options, weight func(u, v uint64) uint32) error {
	dirs := []store.Direction{store.Out}
	if g.Directed() {
		dirs = append(dirs, store.In)
	}
	workers := defaultWorkers(opt.Workers)
	for _, d := range dirs {
		csr := g.Out()
		if d == store.In {
			csr = g.In()
		}
		w := bl.Writer(d)
		for _, s := range csr.Shards {
			if err := interrupted(opt.Context); err != nil {
				return err
			}
			degrees, offsets, weights, err := weighShard(g, s, d, workers, weight)
			if err == nil {
				err = w.AppendWeightedRange(s.Lo, degrees, offsets, s.Adj, weights)
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// weighShard gives shard s's degrees, list offsets in its ADJ section and the weights of
// its lists (direction d: an in-list of v holds the u of edges u -> v), on workers cores.
func weighShard(g *store.Graph, s *store.Shard, d store.Direction, workers int, weight func(u, v uint64) uint32) (degrees, offsets, weights []uint32, err error) {
	degrees = make([]uint32, s.N)
	s.DegreesAt(degrees, 0)
	offsets = make([]uint32, s.N+1)
	first := make([]uint64, s.N+1) // each list's first weight
	for i := range s.N + 1 {
		offsets[i] = s.ListOffset(i)
		if i < s.N {
			first[i+1] = first[i] + uint64(degrees[i])
		}
	}
	weights = make([]uint32, first[s.N])
	errs := make([]error, workers)
	parallel.For(workers, int(s.N), 1<<12, func(wk, lo, hi int) {
		var buf []uint32
		for i := lo; i < hi && errs[wk] == nil; i++ {
			v := s.Lo + uint32(i)
			nbrs, err := s.Neighbors(buf, v)
			if err != nil {
				errs[wk] = err
				return
			}
			buf = nbrs[:0]
			ws, x := weights[first[i]:first[i+1]], g.External(v)
			for k, u := range nbrs {
				if d == store.In {
					ws[k] = weight(g.External(u), x)
				} else {
					ws[k] = weight(x, g.External(u))
				}
			}
		}
	})
	for _, e := range errs {
		if e != nil {
			return nil, nil, nil, e
		}
	}
	return degrees, offsets, weights, nil
}

// interrupted is the error of a cancelled ctx, or nil.
func interrupted(ctx context.Context) error {
	if ctx == nil || ctx.Err() == nil {
		return nil
	}
	return fmt.Errorf("ingest: interrupted: %w", context.Cause(ctx))
}
