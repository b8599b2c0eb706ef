package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/oocgraph/ooc/internal/bytesize"
)

// DefaultMem is the memory budget when Options.Mem is 0: half of the physical memory,
// or of the cgroup's limit when that is lower, leaving the rest to the page cache that
// the spill files and shards go through.
func DefaultMem() int64 {
	m := MachineMem()
	if m <= 0 {
		m = 2 << 30
	}
	return m / 2
}

// MachineMem is the memory this process may use: the physical memory, or the cgroup's
// limit when that is lower; 0 when neither is known.
func MachineMem() int64 {
	m := physicalMem()
	if c := cgroupLimit(); c > 0 && (c < m || m <= 0) {
		m = c
	}
	return m
}

func physicalMem() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := procField(sc.Text(), "MemTotal:"); ok {
			return v
		}
	}
	return 0
}

// cgroupLimit reads the memory limit of a cgroup v2 (memory.max) or v1 hierarchy.
func cgroupLimit() int64 {
	for _, p := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		v, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64)
		if err == nil && v > 0 && v < 1<<60 {
			return v
		}
	}
	return 0
}

// procField parses a "/proc" line such as "VmHWM:   1234 kB" into bytes.
func procField(line, name string) (int64, bool) {
	if !strings.HasPrefix(line, name) {
		return 0, false
	}
	f := strings.Fields(line[len(name):])
	if len(f) == 0 {
		return 0, false
	}
	v, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil {
		return 0, false
	}
	if len(f) > 1 && strings.EqualFold(f[1], "kB") {
		v <<= 10
	}
	return v, true
}

// PeakRSS is the process's peak resident set (VmHWM), what the kernel charges, not just
// Go's heap; 0 where /proc is missing.
func PeakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := procField(line, "VmHWM:"); ok {
			return v
		}
	}
	return 0
}

// diskNeed estimates the disk an ingest of inBytes of input needs: the spill files and
// the shards together take about 10 bytes per stored directed edge, and an edge costs
// about 12 bytes of text (compressed text ~4x less, bin32 8 bytes, bin64 16).
func diskNeed(name string, inBytes int64, copies int64) int64 {
	perEdge := int64(12)
	lower := strings.ToLower(name)
	switch {
	case strings.HasSuffix(lower, ".gz"), strings.HasSuffix(lower, ".zst"):
		perEdge = 3
	case strings.Contains(lower, ".bin64") || strings.HasSuffix(lower, ".b64"):
		perEdge = 16
	case strings.Contains(lower, ".bin"):
		perEdge = 8
	}
	return inBytes / perEdge * copies * 10
}

// checkDisk fails early when nothing can be created in dir (permissions, a read-only or
// virtual file system), naming that, or when its file system has clearly too little
// room for need.
func checkDisk(dir string, need int64) error {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil // store.Create names a missing parent
	}
	probe, err := os.MkdirTemp(dir, ".ooc-probe-")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("ingest: cannot create files in %s: %v (write elsewhere with -o)", dir, err)
	}
	os.Remove(probe)
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return nil // no estimate possible; the writes will tell
	}
	free := int64(st.Bavail) * int64(st.Bsize)
	if need > free {
		return fmt.Errorf("ingest: %s has %s free, the ingest needs about %s for spill files and shards (free some space or write elsewhere with -o)",
			dir, bytesize.Format(free), bytesize.Format(need))
	}
	return nil
}
