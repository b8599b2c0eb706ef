package gen

import (
	"encoding/binary"
	"fmt"
	"io"
	"runtime"
	"strconv"
)

// Format is an edge list encoding.
type Format int

// The edge list formats: Text is one "u v\n" line per edge in decimal; Bin32 and Bin64
// are little-endian (u, v) pairs of uint32 or uint64, with no header.
const (
	Text Format = iota
	Bin32
	Bin64
)

var formatNames = [...]string{Text: "text", Bin32: "bin32", Bin64: "bin64"}

func (f Format) String() string {
	if f >= 0 && int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// ParseFormat returns the Format named s ("text", "bin32" or "bin64").
func ParseFormat(s string) (Format, error) {
	for f, name := range formatNames {
		if s == name {
			return Format(f), nil
		}
	}
	return 0, fmt.Errorf("gen: unknown edge list format %q, want text, bin32 or bin64", s)
}

// AppendEdges appends edges to dst in format f.
func AppendEdges(dst []byte, f Format, edges []Edge) []byte {
	switch f {
	case Bin32:
		for _, e := range edges {
			dst = binary.LittleEndian.AppendUint32(dst, uint32(e.U))
			dst = binary.LittleEndian.AppendUint32(dst, uint32(e.V))
		}
	case Bin64:
		for _, e := range edges {
			dst = binary.LittleEndian.AppendUint64(dst, e.U)
			dst = binary.LittleEndian.AppendUint64(dst, e.V)
		}
	default:
		for _, e := range edges {
			dst = strconv.AppendUint(dst, e.U, 10)
			dst = append(dst, ' ')
			dst = strconv.AppendUint(dst, e.V, 10)
			dst = append(dst, '\n')
		}
	}
	return dst
}

// Write writes the edge list of s to w in format f and returns the bytes written. Blocks
// are generated and encoded on workers goroutines (0 means GOMAXPROCS) and written in
// block order, so the output is the same for a Spec whatever the number of workers.
func Write(w io.Writer, s Spec, f Format, workers int) (int64, error) {
	return s.write(w, workers, func(dst []byte, edges []Edge) []byte { return AppendEdges(dst, f, edges) })
}

// write generates s's blocks on workers goroutines (0 means GOMAXPROCS; below 0 or past
// 4096 is refused), appends each block's edges to a buffer by enc and writes the buffers to w in
// block order.
func (s Spec) write(w io.Writer, workers int, enc func(dst []byte, edges []Edge) []byte) (int64, error) {
	gen, err := s.source()
	if err != nil {
		return 0, err
	}
	if err := checkWorkers(workers); err != nil {
		return 0, err
	}
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	p := newPipeline(s.Blocks(), workers, func(dst []byte, edges []Edge, b uint64) ([]byte, []Edge) {
		edges = gen(edges[:0], b)
		return enc(dst, edges), edges
	})
	return p.writeTo(w)
}

// writeTo writes the encoded blocks to w in block order.
func (p *pipeline) writeTo(w io.Writer) (int64, error) {
	var n int64
	for buf := range p.results() {
		m, err := w.Write(buf)
		n += int64(m)
		p.recycle(buf)
		if err != nil {
			p.stop()
			return n, fmt.Errorf("gen: writing edge list: %w", err)
		}
	}
	return n, nil
}

// pipeline encodes blocks in parallel and hands them back in block order. The window of
// blocks in flight is bounded (2 per worker), so memory stays at a few MiB per worker
// however large the graph.
type pipeline struct {
	order chan chan []byte // one result channel per block, in block order
	free  chan []byte
	done  chan struct{}
}

type encodeFunc func(dst []byte, edges []Edge, b uint64) ([]byte, []Edge)

func newPipeline(blocks uint64, workers int, encode encodeFunc) *pipeline {
	window := 2 * workers
	p := &pipeline{
		order: make(chan chan []byte, window),
		free:  make(chan []byte, window+workers),
		done:  make(chan struct{}),
	}
	type job struct {
		b   uint64
		out chan []byte
	}
	jobs := make(chan job)
	go func() {
		defer close(jobs)
		defer close(p.order)
		for b := range blocks {
			j := job{b, make(chan []byte, 1)}
			select {
			case p.order <- j.out:
			case <-p.done:
				return
			}
			select {
			case jobs <- j:
			case <-p.done:
				return
			}
		}
	}()
	for range workers {
		go func() {
			edges := make([]Edge, 0, BlockEdges)
			for j := range jobs {
				var buf []byte
				select {
				case buf = <-p.free:
				default:
				}
				buf, edges = encode(buf[:0], edges, j.b)
				j.out <- buf
			}
		}()
	}
	return p
}

// results yields the encoded blocks in order.
func (p *pipeline) results() func(yield func([]byte) bool) {
	return func(yield func([]byte) bool) {
		for out := range p.order {
			if !yield(<-out) {
				return
			}
		}
	}
}

// recycle returns a written buffer for reuse.
func (p *pipeline) recycle(buf []byte) {
	select {
	case p.free <- buf:
	default:
	}
}

// stop abandons the remaining blocks; workers finish the block in hand and exit.
func (p *pipeline) stop() { close(p.done) }
