package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ManifestName is the file whose presence and validity make a directory a graph.
const ManifestName = "manifest.json"

const manifestMagic = "ooc-graph"

// InputInfo describes what a graph was built from.
type InputInfo struct {
	Name   string `json:"name"`
	Bytes  int64  `json:"bytes"`
	Format string `json:"format"`
}

// BuildOptions records the options that shaped the stored graph.
type BuildOptions struct {
	KeepSelfLoops  bool  `json:"keep_self_loops"`
	KeepDuplicates bool  `json:"keep_duplicates"`
	ShardBytes     int64 `json:"shard_bytes"`
	BlockSize      int   `json:"block_size"`
}

// Vertex orders (manifest field vertex_order; FORMAT.md).
const (
	OrderInput  = "input"  // internal ids are the file's ids (or their ranks, relabeled)
	OrderDegree = "degree" // internal ids by descending input degree; ids.bin maps them back
	OrderBFS    = "bfs"    // internal ids in breadth-first (Cuthill-McKee) order; ids.bin maps them back
	OrderBisect = "bisect" // internal ids by recursive graph bisection; ids.bin maps them back
)

// knownOrder says whether o is a vertex order this reader knows.
func knownOrder(o string) bool {
	return o == OrderInput || o == OrderDegree || o == OrderBFS || o == OrderBisect
}

// HasIDs says whether a graph of this numbering carries ids.bin: relabeled, or numbered
// in any order but the file's.
func HasIDs(relabeled bool, order string) bool { return relabeled || order != OrderInput }

// IDsInfo records the ids.bin file of a relabeled or degree-ordered graph.
type IDsInfo struct {
	File  string `json:"file"`
	Bytes int64  `json:"bytes"`
	CRC   string `json:"crc32c"`
}

// Manifest is the content of manifest.json (FORMAT.md, "manifest.json").
type Manifest struct {
	Magic             string       `json:"magic"`
	FormatVersion     uint32       `json:"format_version"`
	GraphID           string       `json:"graph_id,omitempty"` // version 3: 16 hex digits, in every shard's header
	Vertices          uint32       `json:"vertices"`
	Edges             uint64       `json:"edges"`
	Directed          bool         `json:"directed"`
	Weighted          bool         `json:"weighted,omitempty"`    // version 4: every shard holds WEIGHTS
	WeightType        string       `json:"weight_type,omitempty"` // version 7: "float32"; absent: uint32 weights
	IDBase            uint32       `json:"id_base"`
	Relabeled         bool         `json:"relabeled"`
	VertexOrder       string       `json:"vertex_order"`
	InputEdges        uint64       `json:"input_edges"`
	SelfLoopsDropped  uint64       `json:"self_loops_dropped"`
	DuplicatesDropped uint64       `json:"duplicates_dropped"`
	ReciprocalPairs   *uint64      `json:"reciprocal_pairs_merged,omitempty"` // u v / v u merged apart from DuplicatesDropped; nil: counted there (FORMAT.md)
	Input             InputInfo    `json:"input"`
	Options           BuildOptions `json:"options"`
	Bytes             int64        `json:"bytes"`
	Out               []ShardInfo  `json:"out"`
	In                []ShardInfo  `json:"in"`
	IDs               *IDsInfo     `json:"ids"`
	Created           string       `json:"created"`

	manifestBytes int64 // size of the manifest counted in Bytes, while committing
}

// WeightFloat32 is the manifest's weight_type of a graph whose WEIGHTS hold float32 bit
// patterns (non-negative and finite, so that they order as their uint32 bits do).
const WeightFloat32 = "float32"

// FloatWeights says whether the graph's weights are float32 bit patterns.
func (m *Manifest) FloatWeights() bool { return m.WeightType == WeightFloat32 }

// MergedEdges is the input edges an ingest merged into others: the duplicates and the
// reciprocal pairs (which an undirected graph stores as one edge).
func (m *Manifest) MergedEdges() uint64 {
	if m.ReciprocalPairs == nil {
		return m.DuplicatesDropped
	}
	return m.DuplicatesDropped + *m.ReciprocalPairs
}

// Marshal encodes the manifest with its trailing checksum and end marker.
func (m *Manifest) Marshal() ([]byte, error) {
	m.Magic, m.FormatVersion = manifestMagic, Version
	if m.WeightType != "" {
		m.FormatVersion = FloatVersion
	}
	if m.Out == nil {
		m.Out = []ShardInfo{}
	}
	if m.In == nil {
		m.In = []ShardInfo{}
	}
	body, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	body = body[:len(body)-1] // drop the closing brace
	crc := CRC32C(body)
	return fmt.Appendf(body, `,"crc32c":"%08x","end":"%s"}`+"\n", crc, manifestMagic), nil
}

// ParseManifest checks and decodes manifest bytes read from path.
func ParseManifest(path string, b []byte) (*Manifest, error) {
	const key = `,"crc32c":"`
	if !bytes.HasPrefix(b, []byte(`{"magic":"`+manifestMagic+`"`)) {
		return nil, corrupt(path, 0, "does not start with the manifest magic {\"magic\":%q", manifestMagic)
	}
	i := bytes.LastIndex(b, []byte(key))
	tail := `","end":"` + manifestMagic + `"}`
	if i < 0 || len(b) < i+len(key)+8+len(tail) {
		return nil, corrupt(path, int64(len(b)), "missing the trailing checksum and end marker (truncated?)")
	}
	rest := b[i+len(key):]
	if got := strings.TrimRight(string(rest[8:]), "\n"); got != tail {
		return nil, corrupt(path, int64(i+len(key)+8), "expected the end marker %s", tail)
	}
	want, err := strconv.ParseUint(string(rest[:8]), 16, 32)
	if err != nil {
		return nil, corrupt(path, int64(i+len(key)), "checksum %q is not 8 hex digits", rest[:8])
	}
	if got := CRC32C(b[:i]); uint32(want) != got {
		return nil, corrupt(path, int64(i+len(key)), "checksum %08x, computed %08x", want, got)
	}
	var m Manifest
	obj := append(append([]byte{}, b[:i]...), '}')
	dec := json.NewDecoder(bytes.NewReader(obj))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, corrupt(path, dec.InputOffset(), "not a manifest: %v", err)
	}
	if len(bytes.TrimSpace(obj[dec.InputOffset():])) != 0 {
		return nil, corrupt(path, dec.InputOffset(), "bytes after the manifest object")
	}
	if m.Magic != manifestMagic {
		return nil, corrupt(path, 0, "magic %q, expected %q", m.Magic, manifestMagic)
	}
	if m.FormatVersion > MaxVersion {
		return nil, &NewVersionError{Path: path, Version: m.FormatVersion}
	}
	if m.FormatVersion < MinVersion {
		return nil, corrupt(path, -1, "format version %d, this ooc reads versions %d to %d", m.FormatVersion, MinVersion, MaxVersion)
	}
	if float := m.FormatVersion == FloatVersion; float != (m.WeightType != "") || (float && (m.WeightType != WeightFloat32 || !m.Weighted)) {
		return nil, corrupt(path, -1, "weight_type %q, weighted %v in a version %d manifest, expected weight_type %q and weighted exactly in version %d",
			m.WeightType, m.Weighted, m.FormatVersion, WeightFloat32, FloatVersion)
	}
	if _, err := strconv.ParseUint(m.GraphID, 16, 64); (m.FormatVersion >= 3) != (err == nil && len(m.GraphID) == 16) {
		return nil, corrupt(path, -1, "graph_id %q in a version %d manifest, expected 16 hex digits from version 3 on and none before", m.GraphID, m.FormatVersion)
	}
	if m.FormatVersion < 5 && m.Weighted != (m.FormatVersion == 4) {
		return nil, corrupt(path, -1, "weighted is %v in a version %d manifest, expected true exactly in version 4 (before version 5)", m.Weighted, m.FormatVersion)
	}
	if err := m.validate(path); err != nil {
		return nil, err
	}
	return &m, nil
}

// validate checks the manifest's own consistency: shard ranges contiguous and covering
// the vertices, safe file names, edge totals.
func (m *Manifest) validate(path string) error {
	check := func(dir string, shards []ShardInfo) error {
		next, edges := uint32(0), uint64(0)
		for i, s := range shards {
			if s.File != filepath.Base(s.File) || !strings.HasSuffix(s.File, ".shard") || strings.HasPrefix(s.File, ".") {
				return corrupt(path, -1, "%s shard %d has an unsafe file name %q", dir, i, s.File)
			}
			if s.Lo != next || s.Hi < s.Lo {
				return corrupt(path, -1, "%s shard %d covers [%d, %d), expected to start at %d", dir, i, s.Lo, s.Hi, next)
			}
			next, edges = s.Hi, edges+s.Edges
		}
		if next != m.Vertices {
			return corrupt(path, -1, "%s shards cover [0, %d), expected [0, %d)", dir, next, m.Vertices)
		}
		if edges != m.Edges {
			return corrupt(path, -1, "%s shards hold %d edges, manifest says %d", dir, edges, m.Edges)
		}
		return nil
	}
	if err := check("out", m.Out); err != nil {
		return err
	}
	if m.Directed {
		if err := check("in", m.In); err != nil {
			return err
		}
	} else if len(m.In) != 0 {
		return corrupt(path, -1, "undirected graph lists in-shards")
	}
	if m.IDBase > 1 {
		return corrupt(path, -1, "id_base %d, expected 0 or 1", m.IDBase)
	}
	if !knownOrder(m.VertexOrder) {
		return corrupt(path, -1, "vertex_order %q, expected %q, %q, %q or %q", m.VertexOrder, OrderInput, OrderDegree, OrderBFS, OrderBisect)
	}
	if want := HasIDs(m.Relabeled, m.VertexOrder); want != (m.IDs != nil) {
		return corrupt(path, -1, "relabeled is %v and vertex_order %q but ids is %v", m.Relabeled, m.VertexOrder, m.IDs)
	}
	return nil
}

// ReadManifest reads and checks dir/manifest.json.
func ReadManifest(dir string) (*Manifest, error) { return readManifest(graphDir{path: dir}) }

func readManifest(d graphDir) (*Manifest, error) {
	dir := d.path
	path := filepath.Join(dir, ManifestName)
	f, err := d.open(ManifestName)
	if err != nil {
		st, serr := os.Stat(dir)
		switch {
		case serr != nil && os.IsNotExist(serr):
			if left := buildsOf(dir); len(left) > 0 {
				return nil, fmt.Errorf("store: %s: no such graph directory (%s beside it is an ingest of it, running or killed; "+
					"the next ingest there removes a killed one's): %w", dir, left[0], ErrNotGraph)
			}
			return nil, fmt.Errorf("store: %s: no such graph directory: %w", dir, ErrNotGraph)
		case serr == nil && !st.IsDir() && isGraphDir(filepath.Dir(dir)):
			return nil, fmt.Errorf("store: %s is a file of the graph %s, not a graph directory (name the graph): %w", dir, filepath.Dir(dir), ErrNotGraph)
		case serr == nil && !st.IsDir():
			return nil, fmt.Errorf("store: %s is a file, not a graph directory: %w", dir, ErrNotGraph)
		case os.IsNotExist(err):
			// ingest publishes a graph whole, manifest included: shards without one are
			// what is left of a graph, not something else.
			if shards, _ := filepath.Glob(filepath.Join(dir, "*.shard")); len(shards) > 0 {
				return nil, corrupt(path, -1, "missing, where the directory holds %d shard files", len(shards))
			}
			return nil, fmt.Errorf("store: %s holds no %s, so no ooc graph: %w", dir, ManifestName, ErrNotGraph)
		}
		return nil, openFailed(err)
	}
	defer f.Close()
	const limit = 256 << 20
	b, err := readAllLimit(f, limit)
	if err != nil {
		return nil, fmt.Errorf("store: reading %s: %w", path, err)
	}
	return ParseManifest(path, b)
}
