package ingest

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"

	"github.com/oocgraph/ooc/ingest/parse"
	"github.com/oocgraph/ooc/internal/parallel"
	"github.com/oocgraph/ooc/internal/plural"
)

// With several windows, the two-pass weighted ingest reads the text once more, not once a
// window: that read maps each edge's ends to vertices and appends its arcs, 12 bytes each
// (the list's vertex, the neighbour, the weight), to a spill file of the window and
// direction its list lies in, beside the first graph; each window then reads its own
// spills, sequentially, instead of parsing the whole file again. Past maxSpillFiles files
// (windows times directions) the file is parsed once a window instead.

// maxSpillFiles bounds the spill files (a variable: tests lower it).
var maxSpillFiles = 512

const arcBytes = 12

// arcSpill holds the spill files of the windows: files[window][direction].
type arcSpill struct {
	files [][]*os.File
	bufs  [][]*bufio.Writer
}

func (w *weigher) newArcSpill(windows, dirs int) (*arcSpill, error) {
	sp := &arcSpill{}
	size := int(min(max(w.window/2/int64(windows*dirs), 4<<10), 1<<20))
	for i := range windows {
		var fs []*os.File
		var bs []*bufio.Writer
		for d := range dirs {
			f, err := os.Create(filepath.Join(w.tmp, fmt.Sprintf("arcs-%d-%d", i, d)))
			if err != nil {
				sp.close()
				return nil, fmt.Errorf("ingest: %w", err)
			}
			fs, bs = append(fs, f), append(bs, bufio.NewWriterSize(f, size))
		}
		sp.files, sp.bufs = append(sp.files, fs), append(sp.bufs, bs)
	}
	return sp, nil
}

// reset empties the spills, for a read again.
func (sp *arcSpill) reset() error {
	for i, fs := range sp.files {
		for d, f := range fs {
			if err := f.Truncate(0); err != nil {
				return fmt.Errorf("ingest: %w", err)
			}
			if _, err := f.Seek(0, io.SeekStart); err != nil {
				return fmt.Errorf("ingest: %w", err)
			}
			sp.bufs[i][d].Reset(f)
		}
	}
	return nil
}

func (sp *arcSpill) flush() error {
	for _, bs := range sp.bufs {
		for _, b := range bs {
			if err := b.Flush(); err != nil {
				return fmt.Errorf("ingest: writing the weights' spill: %w", err)
			}
		}
	}
	return nil
}

// drop closes and removes window i's spills.
func (sp *arcSpill) drop(i int) {
	for d, f := range sp.files[i] {
		if f != nil {
			f.Close()
			os.Remove(f.Name())
			sp.files[i][d] = nil
		}
	}
}

func (sp *arcSpill) close() {
	for i := range sp.files {
		sp.drop(i)
	}
}

// distribute reads the file once, spilling each arc to its window's spill.
func (w *weigher) distribute(bounds []uint32, dirs int) (*arcSpill, error) {
	sp, err := w.newArcSpill(len(bounds)-1, dirs)
	if err != nil {
		return nil, err
	}
	window := func(x uint32) int {
		i, found := slices.BinarySearch(bounds, x)
		if found {
			return i
		}
		return i - 1
	}
	var rec [arcBytes]byte
	var werr error
	put := func(d int, x, u, wt uint32) {
		binary.LittleEndian.PutUint32(rec[0:], x)
		binary.LittleEndian.PutUint32(rec[4:], u)
		binary.LittleEndian.PutUint32(rec[8:], wt)
		if _, err := sp.bufs[window(x)][d].Write(rec[:]); err != nil && werr == nil {
			werr = fmt.Errorf("ingest: writing the weights' spill: %w", err)
		}
	}
	directed := w.g.Directed()
	err = w.pass(true, func() {
		if err := sp.reset(); err != nil && werr == nil {
			werr = err
		}
	}, func(batch []parse.WEdge, at uint64) error {
		ends, err := w.mapEnds(batch, at)
		if err != nil {
			return err
		}
		for i, x := range ends {
			u, v, wt := x[0], x[1], batch[i].W
			if u == noVertex {
				continue
			}
			put(0, u, v, wt)
			switch {
			case !directed:
				if u != v {
					put(0, v, u, wt)
				}
			default:
				put(1, v, u, wt)
				if w.sym && u != v {
					put(0, v, u, wt)
					put(1, u, v, wt)
				}
			}
		}
		return werr
	})
	if err == nil {
		err = werr
	}
	if err == nil {
		err = sp.flush()
	}
	if err != nil {
		sp.close()
		return nil, err
	}
	sp.bufs = nil // their memory goes to the windows
	debug.FreeOSMemory()
	return sp, nil
}

// placeSpilled places the arcs of window i's spills in its lists, on all cores (each
// core the lists of its part of the window, w.parts), and removes the spills.
func (w *weigher) placeSpilled(lists []*wwindow, sp *arcSpill, i int) error {
	defer sp.drop(i)
	buf := make([]byte, (1<<20)/arcBytes*arcBytes)
	workers := len(w.parts) - 1
	placed, bad := make([]int, workers), make([]bool, workers)
	for d, l := range lists {
		f := sp.files[i][d]
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("ingest: reading the weights' spill: %w", err)
		}
		for {
			if err := interrupted(w.opt.Context); err != nil {
				return err
			}
			n, err := io.ReadFull(f, buf)
			if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF || n%arcBytes != 0 {
				return fmt.Errorf("ingest: reading the weights' spill %s: %s: %v", f.Name(), plural.Of(n, "byte"), err)
			}
			recs := buf[:n]
			w.onParts(func(k int, lo, hi uint32) {
				placed[k] = 0
				for o := 0; o < len(recs); o += arcBytes {
					x := binary.LittleEndian.Uint32(recs[o:])
					if x < lo || x >= hi {
						continue
					}
					if !l.put(x, binary.LittleEndian.Uint32(recs[o+4:]), binary.LittleEndian.Uint32(recs[o+8:]), lo, hi) {
						bad[k] = true
						return
					}
					placed[k]++
				}
			})
			total := 0
			for k := range workers {
				total += placed[k]
				if bad[k] {
					return w.changed("an edge pass 1 did not store")
				}
			}
			if total != n/arcBytes {
				return w.changed("an edge outside the lists pass 1 stored")
			}
			if n < len(buf) {
				break
			}
		}
	}
	return nil
}

// mapEnds maps the ends of a batch's edges to vertices on all cores, into w.ends:
// {noVertex, noVertex} for a self-loop dropped.
func (w *weigher) mapEnds(batch []parse.WEdge, at uint64) ([][2]uint32, error) {
	ends := w.ends[:len(batch)]
	parallel.For(defaultWorkers(w.opt.Workers), len(batch), 1<<12, func(wk, lo, hi int) {
		for i := lo; i < hi; i++ {
			e := batch[i]
			if e.U == e.V && !w.opt.KeepSelfLoops {
				ends[i] = [2]uint32{noVertex, noVertex}
				continue
			}
			u, ok1 := w.vertex(e.U)
			v, ok2 := w.vertex(e.V)
			if !ok1 || !ok2 {
				ends[i] = [2]uint32{noVertex, 0}
				continue
			}
			ends[i] = [2]uint32{u, v}
		}
	})
	for i, x := range ends {
		if x[0] == noVertex && x[1] != noVertex {
			return nil, w.changed(fmt.Sprintf("an id pass 1 did not read, on edge %d", at+uint64(i)+1))
		}
	}
	return ends, nil
}
