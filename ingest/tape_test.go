package ingest

import (
	"bytes"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/oocgraph/ooc/internal/testseed"
)

// TestTape appends random pieces from several goroutines to tapes that hold none, part
// or all of the stream in memory, and reads back every piece, and ranges across pieces,
// slabs and the memory/file boundary.
func TestTape(t *testing.T) {
	seed := testseed.Seed(t)
	for _, c := range []struct {
		name        string
		limit, slab int64
	}{{"disk", -1, 1 << 10}, {"mixed", 10 << 10, 1000}, {"memory", 1 << 20, 4 << 10}, {"pool-smaller-than-slab", 100, 4096}} {
		t.Run(c.name, func(t *testing.T) {
			var pool *memPool
			if c.limit >= 0 {
				pool = newMemPool(c.limit, c.slab)
			}
			tp, err := newTape(t.TempDir(), "tape", pool)
			if err != nil {
				t.Fatal(err)
			}
			defer tp.close()
			type piece struct {
				off  int64
				data []byte
			}
			var mu sync.Mutex
			var pieces []piece
			var wg sync.WaitGroup
			for g := range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					rng := rand.New(rand.NewPCG(seed, uint64(g)))
					for range 50 {
						b := make([]byte, rng.IntN(700))
						for i := range b {
							b[i] = byte(rng.Uint32())
						}
						off, err := tp.append(b)
						if err != nil {
							t.Error(err)
							return
						}
						mu.Lock()
						pieces = append(pieces, piece{off, b})
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			whole := make([]byte, tp.size)
			var total int64
			for _, p := range pieces {
				copy(whole[p.off:], p.data)
				total += int64(len(p.data))
			}
			if total != tp.size {
				t.Fatalf("pieces hold %d bytes, the tape %d", total, tp.size)
			}
			var scratch []byte
			for _, p := range pieces {
				var got []byte
				if got, scratch, err = tp.read(scratch, p.off, int64(len(p.data))); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, p.data) {
					t.Fatalf("piece at %d (%d bytes) reads back wrong", p.off, len(p.data))
				}
			}
			rng := rand.New(rand.NewPCG(seed, 99))
			for range 200 {
				off := rng.Int64N(tp.size)
				n := rng.Int64N(tp.size - off + 1)
				got, _, err := tp.read(nil, off, n)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, whole[off:off+n]) {
					t.Fatalf("range [%d, %d) reads back wrong", off, off+n)
				}
			}
			inMem := tp.size - tp.fileBytes()
			switch {
			case c.name == "disk" && inMem != 0, c.name == "memory" && tp.fileBytes() != 0,
				c.name == "mixed" && (inMem == 0 || tp.fileBytes() == 0):
				t.Errorf("%d bytes in memory, %d in the file", inMem, tp.fileBytes())
			}
			if pool != nil && pool.used() != int64(tp.nslabs)*tp.slab {
				t.Errorf("pool lends %d bytes, the tape holds %d slabs of %d", pool.used(), tp.nslabs, tp.slab)
			}
			tp.close()
			if pool.used() != 0 {
				t.Errorf("closed tape leaves %d bytes taken", pool.used())
			}
		})
	}
}
