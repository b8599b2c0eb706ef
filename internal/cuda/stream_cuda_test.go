//go:build cuda

package cuda

import (
	"bytes"
	"os"
	"syscall"
	"testing"
	"unsafe"
)

// TestStreamCopy copies a registered host window to the device in pieces with
// cuMemcpyHtoDAsync on a non-blocking stream, orders the default stream after it with an
// event, reads it back and compares; then launches link_probe in the stream.
func TestStreamCopy(t *testing.T) {
	if err := Available(); err != nil {
		t.Skipf("no GPU: %v", err)
	}
	d, err := Open(0, 64<<20, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	const n = 8 << 20
	win, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(win)
	for i := range win {
		win[i] = byte(i*7 + i>>11)
	}
	back := make([]byte, n)
	err = d.Do(func(c *Ctx) error {
		pin, err := c.Register(win)
		if err != nil {
			return err
		}
		defer c.Unregister(pin)
		buf, err := c.Alloc("dst", n)
		if err != nil {
			return err
		}
		s, err := c.NewStream()
		if err != nil {
			return err
		}
		defer c.DestroyStream(s)
		a, err := c.NewEvent(true)
		if err != nil {
			return err
		}
		defer c.DestroyEvent(a)
		b, err := c.NewEvent(true)
		if err != nil {
			return err
		}
		defer c.DestroyEvent(b)
		if err := c.Record(a, s); err != nil {
			return err
		}
		for off := int64(0); off < n; off += 1 << 20 {
			if err := c.HtoDAsync(buf.Ptr+DevPtr(off), unsafe.Pointer(&win[off]), 1<<20, s); err != nil {
				return err
			}
		}
		if err := c.Record(b, s); err != nil {
			return err
		}
		if err := c.Wait(nil, b); err != nil {
			return err
		}
		if err := c.DtoH(unsafe.Pointer(&back[0]), buf.Ptr, n); err != nil {
			return err
		}
		if err := c.EventSync(b); err != nil {
			return err
		}
		sec, err := c.Elapsed(a, b)
		if err != nil {
			return err
		}
		t.Logf("8 MiB in 1 MiB async copies: %.3f ms, %.1f GB/s", 1e3*sec, n/sec/1e9)
		img, err := os.ReadFile("../../gpu/runtime.fatbin") // link_probe (gpu/runtime.cu)
		if err != nil {
			return err
		}
		m, err := c.Load("runtime", img)
		if err != nil {
			return err
		}
		defer c.Unload(m)
		if err := c.LaunchOn(s, m, "link_probe", 16, 256, uint64(pin.Dev), n/128, 1<<12, uint64(buf.Ptr)); err != nil {
			return err
		}
		if err := c.StreamSync(s); err != nil {
			return err
		}
		return c.Sync()
	})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back, win) {
		t.Fatal("bytes copied with cuMemcpyHtoDAsync differ from the host window")
	}
}
