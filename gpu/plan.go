// Package gpu is the GPU runtime of ooc; it knows no algorithm. It places a graph in the
// memory of a GPU smaller than the graph: it decides which shard sections are copied to
// the device and stay there and which stay in host memory, pinned read-only and read by
// the kernels zero-copy (the plan, pure Go), and in a -tags cuda build it carries the plan
// out (Load), streams pinned shards through staging buffers for an algorithm's launches
// (Graph.SweepIn), probes the link, and lends the algorithms a workspace from which each
// run carves the typed buffers it owns (Workspace, Take). The algorithms (bfs, afforest,
// pagerank, kcore) load their own kernels; docs/design-memory-plan.md states the rules.
//
// The plan is greedy in the order of value per byte: the per-vertex state first (it must
// fit, or nothing runs), then every shard's DEGREES and OFFSETS (4 bytes per vertex each,
// read at random by every level: over the link they would cost a request per vertex),
// then the ADJ sections in shard order until the budget is spent (those of long lists
// before a bottom-up check's first neighbours past the fourth, those of short lists after:
// morePositions). The rest is pinned and read through the link; kernels touch one shard
// per launch, so random reads stay inside a window of one shard
// (docs/design-link-policy.md: up to about 512 MB keeps the link full).
package gpu

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"unsafe"

	"github.com/oocgraph/ooc/internal/bytesize"
	"github.com/oocgraph/ooc/store"
)

// Where says where a section lives while the engine runs.
type Where int

const (
	Resident Where = iota // copied to device memory once
	Pinned                // host memory registered with the device, read zero-copy
)

func (w Where) String() string {
	if w == Resident {
		return "resident"
	}
	return "pinned"
}

// ShardSize is the part of a shard the plan needs.
type ShardSize struct {
	Dir            store.Direction
	Index          int // position among the shards of its direction
	Lo, N          uint32
	Edges          uint64
	Directory, Adj int64 // section lengths in bytes
	// Long bounds the vertices whose degree may exceed LongDegree (from the directory's
	// group headers): the lists kernels spread over many threads, a block each.
	Long uint64
}

// LongDegree is the degree above which a list is long: more than two compressed blocks.
const LongDegree = 2 * store.BlockSize

// Item is one planned device allocation.
type Item struct {
	Name  string
	Bytes int64
}

// Placement is the plan of one shard.
type Placement struct {
	ShardSize
	IndexAt Where // DIRECTORY
	AdjAt   Where
}

// Plan is the memory plan of one graph under one budget.
type Plan struct {
	Budget   int64
	Vertices uint32
	State    []Item // per-vertex state, always on the device: the workspace's items, then the shard table
	Work     int64  // bytes of the workspace (the items of State but the last)
	Shards   []Placement
	FirstK   int   // first neighbours per vertex kept on the device (0: none)
	First    int64 // bytes of that array (FirstBytes)
	Stage    int64 // bytes per staging buffer for streamed sweeps; 0: none
	Stages   int   // staging buffers: StageRing when they fit, else 2; 0 with Stage 0
	// Cache lists the pinned shards whose ADJ the staging buffers hold while no step
	// streams (see Cached); CacheBytes is their ADJ bytes.
	Cache      []Cached
	CacheBytes int64
	Resident   int64 // bytes of graph sections on the device
	Pinned     int64 // bytes of graph sections read through the link
	DeviceUse  int64 // everything the plan allocates on the device
}

// Align is the granularity the allocator counts allocations in.
const Align = 256

func align(n int64) int64 { return (n + Align - 1) &^ (Align - 1) }

// alignSection is what placing a section takes: empty sections take nothing.
func alignSection(n int64) int64 {
	if n == 0 {
		return 0
	}
	return align(n)
}

// TableItem is the device shard table for shards shards (ShardEntry rows; at least one).
func TableItem(shards int) Item {
	return Item{"shard-table", int64(unsafe.Sizeof(ShardEntry{})) * int64(max(shards, 1))}
}

// MaxDirEdges is the directed edges of the larger direction of shards, for algorithms
// that size a buffer by the edges of a whole direction.
func MaxDirEdges(shards []ShardSize) uint64 {
	var perDir [2]uint64
	for _, s := range shards {
		perDir[s.Dir&1] += s.Edges
	}
	return max(perDir[0], perDir[1])
}

// Largest returns the set of items with the largest Sum: the workspace that holds the
// state of any one of the algorithms whose sets these are.
func Largest(sets ...[]Item) []Item {
	var best []Item
	for _, s := range sets {
		if best == nil || Sum(s) > Sum(best) {
			best = s
		}
	}
	return best
}

// Sum adds the aligned sizes of items.
func Sum(items []Item) int64 {
	var t int64
	for _, it := range items {
		t += align(it.Bytes)
	}
	return t
}

// FirstK and FirstKMax bound how many first neighbours per vertex the plan keeps on the
// device when the adjacency does not fit (firstK says how many).
const (
	FirstK    = 2
	FirstKMax = 4
)

// firstK is how many first neighbours per vertex to keep, given the bytes left after the
// state, the indexes' bytes and the whole graph's: FirstKMax while that array takes at most
// half the graph's bytes (on graphs of short lists the lists are the better use of device
// memory: they answer every check), else FirstK; the most of these that fits beside the
// indexes, or 0. A neighbour position past the first two ends most bottom-up checks on
// graphs without hubs first: at a level whose frontier holds a share p of the vertices, the
// first neighbour in it is at position j with probability p(1-p)^j (urand26's largest
// bottom-up level: p = 0.42, positions 2-3 answer 22% of its vertices, 3x fewer lists read).
func firstK(n uint32, left, index, all int64) (int, int64) {
	for _, k := range []int{FirstKMax, FirstK} {
		b := FirstBytes(n, k)
		if (k == FirstK || 2*b <= all) && index+b <= left {
			return k, b
		}
	}
	return 0, 0
}

// FirstKMore is the most first neighbours per vertex the plan keeps: the positions past
// FirstKMax come after the ADJ sections of long lists and before the others (morePositions).
const FirstKMore = 8

// morePositions is how many first neighbours per vertex to keep, more than FirstKMax,
// given room bytes for the whole array: the most up to FirstKMore that fit while the array
// takes at most half the graph's bytes, with its size; FirstKMax and its size when no more
// fit. A position past FirstKMax is worth more than a shard of short lists on the device:
// a short list read across the link costs a few link requests, at the rate the link
// answers them, and is read by a search only where its vertex is in a top-down frontier
// or reaches that position in a bottom-up check, while the position ends, at a bottom-up
// level whose frontier holds a share p of the vertices, the checks of a share p(1-p)^j of
// the unvisited vertices, each a list read saved (urand26 at 3 GiB: its largest bottom-up
// level reads 3-8 million lists past position 4 through the link; a resident shard holds
// 1/12 of the lists). A shard of long lists is read at the link's copy rate, whole, by
// every search whose top-down levels reach its hubs: those stay first.
func morePositions(n uint32, room, all int64) (int, int64) {
	for k := FirstKMore; k > FirstKMax; k-- {
		if b := FirstBytes(n, k); b <= room && 2*b <= all {
			return k, b
		}
	}
	return FirstKMax, FirstBytes(n, FirstKMax)
}

// FirstBits is the width of an entry of the first-neighbour array of a graph of n
// vertices: the fewest bits that hold every vertex id and, apart from them, NONE (all
// ones). The array packs the entries at that width (vertex v's entry j at bit
// (v*K+j)*FirstBits), so positions cost 27 bits a vertex each on urand26, not 32.
func FirstBits(n uint32) int { return max(bits.Len32(n), 1) }

// FirstBytes is the device size of the first-neighbour array of n vertices at k
// positions: its 64-bit words (for n+1 vertices, as the other per-vertex arrays) and one
// spare word (graph.cuh's firstAt loads only words that hold an entry's bits).
func FirstBytes(n uint32, k int) int64 {
	words := (int64(k)*int64(FirstBits(n))*(int64(n)+1) + 63) / 64
	return align(8 * (words + 1))
}

// longLists says whether shard s holds long lists on average: more than LongDegree
// neighbours a vertex.
func longLists(s ShardSize) bool { return s.N > 0 && s.Edges > uint64(LongDegree)*uint64(s.N) }

// ceilMiB is n bytes in MiB, rounded up.
func ceilMiB(n int64) int64 { return (n + 1<<20 - 1) >> 20 }

// ErrStateTooBig is wrapped when the budget cannot hold even the per-vertex state.
var ErrStateTooBig = fmt.Errorf("device budget too small for the per-vertex state")

// Make plans shards (in vertex order, out direction first) for n vertices within budget
// bytes of device memory. work is the algorithms' workspace (see Workspace and Largest);
// the plan places it, and the shard table, before any graph section.
func Make(n uint32, shards []ShardSize, budget int64, work []Item) (*Plan, error) {
	return MakeFor(n, shards, budget, work, true)
}

// MakeFor is Make for algorithms that read first neighbours (bottom-up BFS, Afforest's
// sampling) when first is set, or none.
func MakeFor(n uint32, shards []ShardSize, budget int64, work []Item, first bool) (*Plan, error) {
	p := &Plan{Budget: budget, Vertices: n, Work: Sum(work), State: append(slices.Clip(work), TableItem(len(shards)))}
	need := Sum(p.State)
	if need > budget {
		// Whole MiB, rounded up: rounded to a tenth of a GiB, the need and the budget can
		// print alike, and the suggestion must be a --vram that runs.
		return nil, fmt.Errorf("stream: %d vertices need %d MiB of device memory for their BFS/CC state, more than the budget of %d MiB (--vram %dMiB or more would run, with the whole graph pinned in host memory): %w",
			n, ceilMiB(need), budget>>20, ceilMiB(need+need/64+(1<<20)), ErrStateTooBig)
	}
	left := budget - need
	p.DeviceUse = need
	// When the adjacency will not all fit, keep every vertex's first neighbours (in the
	// direction bottom-up reads; firstK says how many) on the device, before any adjacency:
	// they answer most bottom-up checks and all of Afforest's sampling
	// (docs/design-link-policy.md: ~81% of bottom-up parents at positions 0-1 on kron).
	var all, index int64
	for _, s := range shards {
		index += alignSection(s.Directory)
		all += alignSection(s.Directory) + alignSection(s.Adj)
	}
	if first && all > left {
		p.FirstK, p.First = firstK(n, left, index, all)
		left -= p.First
	}
	p.Shards = make([]Placement, len(shards))
	for i, s := range shards {
		p.Shards[i] = Placement{ShardSize: s, IndexAt: Pinned, AdjAt: Pinned}
		if b := alignSection(s.Directory); b <= left {
			p.Shards[i].IndexAt = Resident
			left -= b
		}
	}
	// When some adjacency will stay pinned, staging buffers let sweeps stream it instead
	// of reading it zero-copy; they come before the adjacency, whose largest shard they
	// need not exceed (8 bytes of slack: the decoder's aligned word loads). StageRing
	// buffers let the copies run that many chunks ahead of the launches; two, the least
	// that overlaps a copy with a launch, when the ring does not fit.
	var adj, buMax int64
	for i, s := range shards {
		adj += alignSection(s.Adj)
		if bottomUpReads(shards, i) {
			buMax = max(buMax, s.Adj)
		}
	}
	stage, err := stageChunk()
	if err != nil {
		return nil, err
	}
	if c := min(stage, buMax); adj > left && c > 0 {
		for _, k := range []int{StageRing, 2} {
			// the ring only when it leaves at least half the budget's adjacency room:
			// a buffer more is a chunk more streamed every iteration
			if b := int64(k) * StageBuffer(c); b <= left && (k == 2 || 2*b <= left) {
				p.Stage, p.Stages = c, k
				left -= b
				break
			}
		}
	}
	// ADJ sections of long lists first, then first neighbours past FirstKMax, then the
	// other ADJ sections (see morePositions)
	place := func(long bool) {
		for i, s := range shards {
			if b := alignSection(s.Adj); p.Shards[i].IndexAt == Resident && longLists(s) == long && b <= left {
				p.Shards[i].AdjAt = Resident
				left -= b
			}
		}
	}
	place(true)
	if p.FirstK == FirstKMax {
		if k, b := morePositions(n, left+p.First, all); k > p.FirstK {
			left -= b - p.First
			p.FirstK, p.First = k, b
		}
	}
	place(false)
	p.Cache, p.CacheBytes = cache(p.Shards, int64(p.Stages)*StageBuffer(p.Stage))
	for _, s := range p.Shards {
		for _, sec := range []struct {
			w Where
			b int64
		}{{s.IndexAt, s.Directory}, {s.AdjAt, s.Adj}} {
			if sec.w == Resident {
				p.Resident += sec.b
			} else {
				p.Pinned += sec.b
			}
		}
	}
	p.DeviceUse = budget - left
	return p, nil
}

// Cached is a pinned shard whose ADJ section the staging buffers hold while no step
// streams: the list cache. The staging buffers are one allocation, and the shard's copy
// starts Off bytes into it.
type Cached struct {
	Shard int // index into Plan.Shards
	Off   int64
}

// cache chooses the list cache. The staging buffers sit idle while no step streams: a
// BFS's top-down levels read lists where they lie, and on a graph of short lists (a
// grid's) the buffers are most of the pinned bytes. So they hold copies of pinned ADJ
// sections, which kernels then read as resident lists, until a step streams: it takes
// the buffers back and those shards are read where they lie again (Graph.ReleaseCache;
// BFS fills the cache, Graph.CacheLists). A shard is cached whole or not (the kernels
// address a shard's lists from one base), only when its directory is resident (it then
// reads exactly like a resident shard), first fit in shard order, each copy at a
// multiple of Align: the decoder's aligned 16-byte loads stay inside the 16 bytes that
// hold a valid byte, hence inside the region. region is the staging buffers' bytes.
func cache(shards []Placement, region int64) ([]Cached, int64) {
	var out []Cached
	var off, bytes int64
	for i, s := range shards {
		if s.AdjAt != Pinned || s.IndexAt != Resident || s.Adj == 0 || off+align(s.Adj) > region {
			continue
		}
		out = append(out, Cached{Shard: i, Off: off})
		off += align(s.Adj)
		bytes += s.Adj
	}
	return out, bytes
}

// bottomUpReads says whether bottom-up sweeps read shard i: the in shards of a directed
// graph, every shard of an undirected one (which has no in shards).
func bottomUpReads(shards []ShardSize, i int) bool {
	for _, s := range shards {
		if s.Dir == store.In {
			return shards[i].Dir == store.In
		}
	}
	return true
}

// StageRing is the number of staging buffers the plan reserves when they fit.
const StageRing = 4

// StageBuffer is the device size of one staging buffer for a chunk size of c bytes: 16
// bytes of slack, the widest aligned load a list decoder makes past a chunk's last byte.
func StageBuffer(c int64) int64 { return align(c + 16) }

// String prints the plan for -v.
func (p *Plan) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "memory plan: budget %s, planned %s on the device\n", bytesize.Format(p.Budget), bytesize.Format(p.DeviceUse))
	fmt.Fprintf(&b, "  per-vertex state: %s (", bytesize.Format(Sum(p.State)))
	for i, it := range p.State {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %s", it.Name, bytesize.Format(it.Bytes))
	}
	b.WriteString(")\n")
	if p.FirstK > 0 {
		fmt.Fprintf(&b, "  first %d neighbours of every vertex (%d bits each): %s\n", p.FirstK, FirstBits(p.Vertices), bytesize.Format(p.First))
	}
	if p.Stage > 0 {
		fmt.Fprintf(&b, "  staging: %d x %s (chunks of <= %s streamed from pinned shards)\n",
			p.Stages, bytesize.Format(StageBuffer(p.Stage)), bytesize.Format(p.Stage))
	}
	fmt.Fprintf(&b, "  graph: %s resident, %s pinned in host memory (zero-copy)\n", bytesize.Format(p.Resident), bytesize.Format(p.Pinned))
	if len(p.Cache) > 0 {
		fmt.Fprintf(&b, "  list cache: while no step streams, the staging buffers hold %s of the pinned lists (", bytesize.Format(p.CacheBytes))
		for i, c := range p.Cache {
			if i > 0 {
				b.WriteString(", ")
			}
			s := p.Shards[c.Shard]
			fmt.Fprintf(&b, "%s shard %d", s.Dir, s.ShardSize.Index)
		}
		b.WriteString(")\n")
	}
	for _, s := range p.Shards {
		fmt.Fprintf(&b, "  %s shard %d [%d,%d): directory %s %s, adj %s %s\n", s.Dir, s.ShardSize.Index, s.Lo, s.Lo+s.N,
			bytesize.Format(s.Directory), s.IndexAt, bytesize.Format(s.Adj), s.AdjAt)
	}
	return b.String()
}

// Sizes describes the shards of g for Make: out shards first, then in shards.
func Sizes(g *store.Graph) []ShardSize {
	var out []ShardSize
	for _, c := range []*store.CSR{g.Out(), g.In()} {
		if c == nil || (c == g.In() && c == g.Out() && len(out) > 0) {
			continue // an undirected graph's In is its Out
		}
		for i, s := range c.Shards {
			out = append(out, ShardSize{Dir: s.Dir, Index: i, Lo: s.Lo, N: s.N, Edges: s.Edges,
				Directory: int64(len(s.DirectoryBytes())), Adj: int64(len(s.Adj)), Long: s.DegreeAboveBound(LongDegree)})
		}
	}
	return out
}
