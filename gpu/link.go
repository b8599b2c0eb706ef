package gpu

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Mode says how bottom-up sweeps read the adjacency of pinned shards.
type Mode int

const (
	Auto   Mode = iota // per level and shard, by the cost model (Choose)
	Always             // always stream through the device double buffer
	Never              // always read zero-copy
)

func (m Mode) String() string { return [...]string{"auto", "always", "never"}[m] }

// ParseMode reads OOC_GPU_STREAM's value; empty means Auto.
func ParseMode(s string) (Mode, error) {
	switch s {
	case "", "auto":
		return Auto, nil
	case "always":
		return Always, nil
	case "never":
		return Never, nil
	}
	return Auto, fmt.Errorf("stream: OOC_GPU_STREAM=%q: want auto, always or never", s)
}

// Link is the measured behaviour of the host-device link (docs/design-link-policy.md: it differs a lot
// between a server's PCIe Gen5 behind an IOMMU and a laptop's Gen4 x8, so it is measured).
type Link struct {
	Device   string  `json:"device"`
	CopyBps  float64 `json:"copy_bytes_per_second"`      // cuMemcpyHtoDAsync from registered memory
	Chunk    int64   `json:"copy_chunk_bytes"`           // in copies of this size (the staging buffer's)
	ZeroBps  float64 `json:"zero_copy_bytes_per_second"` // kernel reads of 128 B at random inside a window
	Window   int64   `json:"zero_copy_window_bytes"`     // the window of those reads
	ProbeSec float64 `json:"probe_seconds"`
}

func (l Link) valid() bool {
	return l.CopyBps > 1e6 && l.ZeroBps > 1e6 && l.CopyBps < 1e13 && l.ZeroBps < 1e13
}

func (l Link) String() string {
	return fmt.Sprintf("link: copy %.1f GB/s, zero-copy 128 B random reads in %d MiB %.1f GB/s (probe %.1f ms)",
		l.CopyBps/1e9, l.Window>>20, l.ZeroBps/1e9, 1e3*l.ProbeSec)
}

// Choose decides whether a bottom-up sweep of one pinned shard streams its adjacency:
// streaming costs the shard's adjacency bytes over the copy bandwidth (the sweep of a
// chunk overlaps the copy of the next, so the copy is the bound); reading zero-copy costs
// the bytes the sweep will decode over the zero-copy bandwidth of scattered 128-byte
// reads. est is that byte count, from measurements of earlier levels or searches (the
// BFS's estimate, bfs/gpu_cuda.go; 0 when there are none, which reads zero-copy). Streaming wins
// when est/zero > adj/copy.
func Choose(m Mode, l Link, adj, est int64) bool {
	switch m {
	case Always:
		return true
	case Never:
		return false
	}
	if !l.valid() || adj <= 0 {
		return false
	}
	return float64(est)/l.ZeroBps > float64(adj)/l.CopyBps
}

// linkPath is the cache file of a device's probe with copies of chunk bytes:
// <user cache>/ooc/link-<name>-<chunk>.json. The copy rate depends on the chunk (the first
// device run cached 0.2 GB/s from a test's 504-byte staging, which a 64 MiB staging then
// read back and never streamed), so each staging size has its own probe.
func linkPath(device string, chunk int64) (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
			return r
		}
		return '_'
	}, device)
	return filepath.Join(dir, "ooc", fmt.Sprintf("link-%s-%d.json", name, chunk)), nil
}

// LoadLink reads the cached probe of device; ok is false when there is none or it is
// unreadable, malformed, for another device or chunk size or implausible (the caller
// probes again).
func LoadLink(device string, chunk int64) (l Link, ok bool) {
	p, err := linkPath(device, chunk)
	if err != nil {
		return Link{}, false
	}
	b, err := os.ReadFile(p)
	if err != nil || json.Unmarshal(b, &l) != nil || l.Device != device || l.Chunk != chunk || !l.valid() {
		return Link{}, false
	}
	return l, true
}

// SaveLink caches a probe (best effort: the cache only saves the next start a probe).
func SaveLink(l Link) error {
	p, err := linkPath(l.Device, l.Chunk)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return err
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}
