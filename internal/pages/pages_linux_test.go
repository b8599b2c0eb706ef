package pages

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
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

// TestFillLeavesSmall: a Fill of fewer whole pages than populateMin maps none of them
// (the stores fault them in), one of populateMin maps them all.
func TestFillLeavesSmall(t *testing.T) {
	for _, n := range []int{populateMin - int(pageSize), populateMin} {
		m, err := unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
		if err != nil {
			t.Skip(err)
		}
		defer unix.Munmap(m)
		if n == populateMin {
			if err := unix.Madvise(m[:pageSize], unix.MADV_POPULATE_WRITE); err != nil {
				t.Skipf("this kernel refuses MADV_POPULATE_WRITE: %v", err)
			}
		}
		vec := make([]byte, n/int(pageSize))
		Fill(unsafe.Slice((*uint32)(unsafe.Pointer(&m[0])), n/4))
		if err := mincore(m, vec); err != nil {
			t.Skip(err)
		}
		for i, v := range vec {
			if resident := v&1 != 0; resident != (n >= populateMin) {
				t.Fatalf("%d bytes: page %d of %d resident %v after Fill", n, i, len(vec), resident)
			}
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

// TestAdviceAskedBack: a slice's huge-page advice leaves its range once its allocation
// dies, where the system gives huge pages only on request; else a later allocation on
// the range faults in 2 MiB a touch and khugepaged fills out its 2 MiB pages.
func TestAdviceAskedBack(t *testing.T) {
	if !hugeOnRequest() {
		t.Skip("transparent huge pages are not given on request (madvise) here")
	}
	s := make([]uint64, 2*hugeMin/8)
	Fill(s)
	b := bytes(s)
	lo, hi := uintptr(unsafe.Pointer(&b[0])), uintptr(unsafe.Pointer(&b[0]))+uintptr(len(b))
	if !hugeAdvised(t, lo) || !hugeAdvised(t, hi-pageSize) {
		t.Skip("the kernel did not take the huge-page advice")
	}
	s, b = nil, nil
	for i := 0; i < 100; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		if !hugeAdvised(t, lo) && !hugeAdvised(t, hi-pageSize) {
			return
		}
	}
	t.Fatalf("%#x-%#x still advised huge after its slice died", lo, hi)
}

// hugeAdvised reports whether the mapping holding address p carries MADV_HUGEPAGE
// (VmFlags "hg" in /proc/self/smaps).
func hugeAdvised(t *testing.T, p uintptr) bool {
	t.Helper()
	f, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	in := false
	for _, line := range strings.Split(string(f), "\n") {
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 && !strings.HasPrefix(line, "VmFlags") {
			in = lo <= p && p < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return slices.Contains(strings.Fields(line)[1:], "hg")
		}
	}
	t.Fatalf("no mapping holds %#x", p)
	return false
}
