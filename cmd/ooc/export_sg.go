package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"math"
	"runtime"

	"github.com/oocgraph/ooc/store"
)

// sg writes GAPBS's serialized graph: a byte that is 1 for a directed graph, the number
// of list entries (int64), the number of vertices (int64), the out-offsets (n+1 int64),
// the out-lists as int32 ids, or with weights as (int32 id, int32 weight) pairs; a
// directed graph then has the in-offsets and in-lists. Every direction is written whole
// (an undirected edge in both lists, a self-loop once), in the file's ids, which must be
// exactly 0..n-1 (GAPBS numbers vertices so); list order is the stored order.
func (x *exporter) sg(out *bufio.Writer, weighted bool) error {
	g := x.g
	n := g.NumVertices()
	if int64(n) > math.MaxInt32 {
		return usagef("-o .sg: %d vertices do not fit GAPBS's int32 ids; write an edge list or Parquet", n)
	}
	if weighted && !g.M.Weighted {
		return usagef("-o .wsg writes edge weights; this graph has none (ingest it with --weights, or write .sg)")
	}
	if weighted && g.M.FloatWeights() {
		return usagef("-o .wsg writes integer weights (GAPBS's int32); this graph's are float32: write .sg, or an edge list")
	}
	if weighted && g.Directed() {
		return usagef("-o .wsg: a directed graph's in-lists hold no weights here; write .sg, or export an undirected graph")
	}
	// byID[i] is the internal vertex of file id i
	byID := make([]uint32, n)
	seen := make([]bool, n)
	for v := range n {
		id := g.External(v)
		if id >= uint64(n) || seen[id] {
			return usagef("-o .sg: vertex id %d: GAPBS numbers the vertices 0..%d, and this graph's ids are not those; write an edge list or Parquet", id, n-1)
		}
		byID[id], seen[id] = v, true
	}
	seen = nil
	dirs := []*store.CSR{g.Out()}
	if g.Directed() {
		dirs = append(dirs, g.In())
	}
	var hdr [17]byte
	if g.Directed() {
		hdr[0] = 1
	}
	binary.LittleEndian.PutUint64(hdr[1:], g.NumEdges())
	binary.LittleEndian.PutUint64(hdr[9:], uint64(n))
	if _, err := out.Write(hdr[:]); err != nil {
		return err
	}
	for _, c := range dirs {
		var off uint64
		var b [8]byte
		for id := range n + 1 {
			binary.LittleEndian.PutUint64(b[:], off)
			if _, err := out.Write(b[:]); err != nil {
				return err
			}
			if id < n {
				v := byID[id]
				off += uint64(c.ShardOf(v).Degree(v))
			}
		}
		if off != g.NumEdges() {
			return fmt.Errorf("export: the lists hold %d entries, the graph says %d", off, g.NumEdges())
		}
		if err := sgLists(out, g, c, byID, weighted); err != nil {
			return err
		}
	}
	x.written = g.NumEdges()
	return nil
}

// sgLists writes the lists of c in file-id order, encoded in parallel in ranges of ids
// and written in order.
func sgLists(out *bufio.Writer, g *store.Graph, c *store.CSR, byID []uint32, weighted bool) error {
	const span = 1 << 14
	n := uint32(len(byID))
	type piece struct {
		b   []byte
		err error
	}
	workers := runtime.GOMAXPROCS(0)
	pieces := make(chan chan piece, 2*workers)
	sem := make(chan struct{}, workers)
	go func() {
		defer close(pieces)
		for lo := uint32(0); lo < n; lo += span {
			ch := make(chan piece, 1)
			pieces <- ch
			sem <- struct{}{}
			go func(lo, hi uint32) {
				defer func() { <-sem }()
				var p piece
				var buf []uint32
			lists:
				for _, v := range byID[lo:hi] {
					s := c.ShardOf(v)
					if buf, p.err = s.Neighbors(buf[:0], v); p.err != nil {
						break
					}
					w := s.WeightsOf(v)
					if weighted && len(w) != len(buf) {
						p.err = fmt.Errorf("export: vertex %d has %d weights for %d neighbours", g.External(v), len(w), len(buf))
						break
					}
					for k, u := range buf {
						p.b = binary.LittleEndian.AppendUint32(p.b, uint32(g.External(u)))
						if weighted {
							if w[k] > math.MaxInt32 { // GAPBS would read a negative weight
								p.err = usagef("-o .wsg writes GAPBS's int32 weights, and the edge %d-%d weighs %d (more than %d): write an edge list",
									g.External(v), g.External(u), w[k], math.MaxInt32)
								break lists
							}
							p.b = binary.LittleEndian.AppendUint32(p.b, w[k])
						}
					}
				}
				ch <- p
			}(lo, min(lo+span, n))
		}
	}()
	var first error
	for ch := range pieces {
		p := <-ch
		if first == nil {
			first = p.err
		}
		if first == nil {
			_, first = out.Write(p.b)
		}
	}
	return first
}
