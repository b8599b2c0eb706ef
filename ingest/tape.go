package ingest

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
)

// tape is an append-only byte stream that holds its first bytes in memory, in slabs
// taken from a memPool, and the rest in a file once the pool runs dry: the spills of an
// input that fits in the budget never touch the disk (kron21 text on 2 cores spent a
// fifth of its CPU time in the spill's write and read calls), and one that does not fit
// spills only its excess. Writers reserve a range under the lock and copy into it
// outside, in parallel; reads come after the last write.
type tape struct {
	path string
	f    *os.File
	pool *memPool
	slab int64

	mu     sync.Mutex
	slabs  [][]byte // slabs[i] holds bytes [i*slab, (i+1)*slab); fixed length, filled in order
	mapped []sync.Once
	nslabs int   // slabs claimed from the pool
	spilt  bool  // the stream goes on in f, from byte nslabs*slab (its offset 0) on
	size   int64 // bytes reserved
}

func newTape(dir, name string, pool *memPool) (*tape, error) {
	path := dir + string(os.PathSeparator) + name
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("ingest: spill file: %w", err)
	}
	t := &tape{path: path, f: f, pool: pool, slab: 1}
	if pool != nil {
		t.slab = pool.slab
		t.slabs = make([][]byte, pool.slots)
		t.mapped = make([]sync.Once, len(t.slabs))
	}
	return t, nil
}

// append writes b at the end of the stream and returns its offset.
func (t *tape) append(b []byte) (int64, error) {
	off := t.reserve(int64(len(b)))
	return off, t.writeAt(b, off)
}

// reserve claims the next n bytes of the stream, with the slabs that hold them and one
// slab beyond, which is mapped in the background. Slabs are mapped outside the lock:
// mapping one populates its pages (several milliseconds for 8 MiB on the H100 host), and
// done under the lock it held up every worker appending to the tape.
func (t *tape) reserve(n int64) int64 {
	t.mu.Lock()
	off := t.size
	t.size += n
	ahead := int64(-1)
	for !t.spilt && int64(t.nslabs)*t.slab < t.size+t.slab {
		if t.nslabs == len(t.slabs) || !t.pool.take(t.slab) {
			// Out of slabs: the stream goes on in the file once it passes them.
			t.spilt = int64(t.nslabs)*t.slab < t.size
			break
		}
		t.nslabs++
		if int64(t.nslabs-1)*t.slab >= t.size {
			ahead = int64(t.nslabs - 1)
		}
	}
	t.mu.Unlock()
	if ahead >= 0 {
		go t.mapSlab(ahead)
	}
	return off
}

// mapSlab maps slab i, which reserve claimed, unless it is mapped.
func (t *tape) mapSlab(i int64) {
	t.mapped[i].Do(func() { t.slabs[i] = allocSlab(t.slab) })
}

// slabAt returns slab i, which reserve claimed, mapping it on first use.
func (t *tape) slabAt(i int64) []byte {
	t.mapSlab(i)
	return t.slabs[i]
}

// memEnd is where the file's part of the stream starts. Only a reserved range's own
// slabs are read outside the lock, and those are never replaced.
func (t *tape) memEnd() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return int64(t.nslabs) * t.slab
}

// writeAt copies b into the reserved range at off.
func (t *tape) writeAt(b []byte, off int64) error {
	end := t.memEnd()
	for len(b) > 0 && off < end {
		n := copy(t.slabAt(off / t.slab)[off%t.slab:], b)
		b, off = b[n:], off+int64(n)
	}
	if len(b) == 0 {
		return nil
	}
	if _, err := t.f.WriteAt(b, off-end); err != nil {
		return fmt.Errorf("ingest: writing spill file %s: %w", t.path, unwrapPath(err))
	}
	return nil
}

// read returns the n bytes at off: a slice of a slab where they lie in one, else a copy
// in scratch (grown as needed), which read returns too. The data must not be modified.
func (t *tape) read(scratch []byte, off, n int64) (data, _ []byte, err error) {
	if t.inSlab(off, n) {
		return t.slabAt(off / t.slab)[off%t.slab : off%t.slab+n], scratch, nil
	}
	end := int64(t.nslabs) * t.slab // no writes any more: no lock needed
	if int64(cap(scratch)) < n {
		scratch = make([]byte, n)
	}
	data = scratch[:n]
	b, at := data, off
	for len(b) > 0 && at < end {
		c := copy(b, t.slabAt(at / t.slab)[at%t.slab:])
		b, at = b[c:], at+int64(c)
	}
	if len(b) > 0 {
		if _, err := t.f.ReadAt(b, at-end); err != nil {
			return data, scratch, fmt.Errorf("ingest: reading spill file %s at offset %d: %w", t.path, at-end, unwrapPath(err))
		}
	}
	return data, scratch, nil
}

// inSlab says whether the n bytes at off lie inside one slab; reads only.
func (t *tape) inSlab(off, n int64) bool {
	return off < int64(t.nslabs)*t.slab && off%t.slab+n <= t.slab
}

// fileBytes is the part of the stream in the file.
func (t *tape) fileBytes() int64 { return max(t.size-int64(t.nslabs)*t.slab, 0) }

// dropFile closes and removes the tape's file, once.
func (t *tape) dropFile() error {
	if t == nil || t.f == nil {
		return nil
	}
	err := t.f.Close()
	os.Remove(t.path)
	t.f = nil
	return err
}

// close removes the file and returns the slabs to the pool.
func (t *tape) close() error {
	if t == nil {
		return nil
	}
	err := t.dropFile()
	for i := range int64(t.nslabs) {
		t.mapped[i].Do(func() {}) // waits for a background mapping; none starts after
		if t.slabs[i] != nil {
			freeSlab(t.slabs[i])
		}
	}
	t.pool.give(int64(t.nslabs) * t.slab)
	t.slabs, t.nslabs = nil, 0
	return err
}

// memPool is the budget the tapes of one ingest share for their slabs.
type memPool struct {
	limit int64
	slab  int64 // the size of a slab
	slots int   // the most slabs one tape holds: the limit's, within the machine's memory
	left  atomic.Int64
	// onUse, when set, hears the bytes taken after each change: slabs live outside
	// the Go heap, so the pipeline lowers the collector's limit by them
	onUse func(used int64)
}

// tapeSlab is the size of a tape's slabs: fine enough that a small budget still holds
// some of the stream, coarse enough that a slab covers many blocks and raw chunks (a
// multiple of their size, so that a raw chunk is never copied).
const tapeSlab = 8 << 20

func newMemPool(limit, slab int64) *memPool {
	m := &memPool{limit: max(limit, 0), slab: slab}
	m.left.Store(m.limit)
	// A tape's slab table is sized for the slabs it may hold, and a budget past the
	// machine's memory (--mem 1EiB is accepted, with a warning) would make the table
	// itself too large to allocate; a tape whose table is full spills to its file.
	held := m.limit
	if mm := MachineMem(); mm > 0 {
		held = min(held, mm)
	}
	m.slots = int(min(held, maxTapeBytes)/slab) + 1
	return m
}

// maxTapeBytes bounds the bytes a tape holds in slabs where the machine's memory is
// unknown: a table of 8 Mi slabs at 8 MiB.
const maxTapeBytes = 1 << 46

func (m *memPool) take(n int64) bool {
	if m == nil {
		return false
	}
	for {
		l := m.left.Load()
		if l < n {
			return false
		}
		if m.left.CompareAndSwap(l, l-n) {
			m.changed()
			return true
		}
	}
}

func (m *memPool) give(n int64) {
	if m != nil {
		m.left.Add(n)
		m.changed()
	}
}

func (m *memPool) changed() {
	if m.onUse != nil {
		m.onUse(m.used())
	}
}

// used is the memory the tapes hold.
func (m *memPool) used() int64 {
	if m == nil {
		return 0
	}
	return m.limit - m.left.Load()
}
