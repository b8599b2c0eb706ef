//go:build linux

package fault

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestGroupCarriesFault: a read of a mapped page whose file was truncated, on a Group's
// goroutine, comes back as a panic from Wait carrying the faulting address, where it
// would otherwise kill the process.
func TestGroupCarriesFault(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, make([]byte, 3*4096), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := syscall.Mmap(int(f.Fd()), 0, 3*4096, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(b)
	os.Truncate(path, 4096)
	var p any
	func() {
		defer func() { p = recover() }()
		var g Group
		var sum byte
		g.Go(func() { sum += b[4096*2+5] })
		g.Wait()
	}()
	addr, ok := Addr(p)
	if !ok || addr == 0 {
		t.Fatalf("Wait raised %v, want a memory fault", p)
	}
	if _, ok := Addr("not a fault"); ok {
		t.Errorf("Addr took a string for a fault")
	}
}
