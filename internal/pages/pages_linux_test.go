package pages

import (
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestFillMapsPages: after Fill every whole page of a fresh mapping is resident
// (mincore), where the kernel knows MADV_POPULATE_WRITE.
func TestFillMapsPages(t *testing.T) {
	const n = 64 << 10 // 64 pages of uint32
	m, err := unix.Mmap(-1, 0, 4*n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		t.Skip(err)
	}
	defer unix.Munmap(m)
	probe, err := unix.Mmap(-1, 0, int(pageSize), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		t.Skip(err)
	}
	defer unix.Munmap(probe)
	if err := unix.Madvise(probe, unix.MADV_POPULATE_WRITE); err != nil {
		t.Skipf("this kernel refuses MADV_POPULATE_WRITE: %v", err)
	}
	vec := make([]byte, len(m)/int(pageSize))
	if err := mincore(m, vec); err != nil {
		t.Skip(err)
	}
	if vec[0]&1 != 0 {
		t.Skip("a fresh mapping is resident before any store")
	}
	Fill(unsafe.Slice((*uint32)(unsafe.Pointer(&m[0])), n))
	if err := mincore(m, vec); err != nil {
		t.Fatal(err)
	}
	for i, v := range vec {
		if v&1 == 0 {
			t.Fatalf("page %d of %d not resident after Fill", i, len(vec))
		}
	}
}

func mincore(b, vec []byte) error {
	_, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), uintptr(unsafe.Pointer(&vec[0])))
	if e != 0 {
		return e
	}
	return nil
}
