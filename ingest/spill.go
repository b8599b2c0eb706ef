package ingest

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"sort"
	"sync"
)

// A key is one directed edge copy, src<<32 | dst: sorting keys sorts by source, then
// by neighbour, which is CSR order.
func key(src, dst uint32) uint64 { return uint64(src)<<32 | uint64(dst) }
func keySrc(k uint64) uint32     { return uint32(k >> 32) }
func keyDst(k uint64) uint32     { return uint32(k) }

// partShift fixes the partition width at 2^17 source vertices, so edges can be routed
// before the vertex count is known. Narrow partitions give phase 2 tasks that sort
// within the caches and keep every core busy on graphs of a few million vertices;
// phase 2 groups consecutive small partitions into one task. A graph of 2^32 vertices
// has at most 32768 partitions.
const partShift = 17

func partOf(k uint64) uint32 { return uint32(k >> (32 + partShift)) }

// blockKeys bounds the keys of one spill block, and so an encoder's buffer.
const blockKeys = 64 << 10

// blockRef locates one spill block: keys of one partition, in ascending groups.
type blockRef struct {
	part  uint32
	count uint32
	off   int64
	len   int64
}

// spill is one direction's spill: a tape, in memory while the budget allows, and an
// index of its blocks. Encoders append whole blocks; the index keeps file descriptors
// and spill files to one per direction however many partitions there are.
type spill struct {
	t    *tape
	mu   sync.Mutex
	size int64
	refs []blockRef
	keys uint64
	// bySource: phase 1 sorts each group's keys by source (groupSort), so decodeRange
	// can binary-search a partly covered group
	bySource bool
	// gb is the width of the spill's groups, fixed before its first block (setGroups);
	// an input without edges spills nothing and keeps minGroupBits
	gb groupBits
}

func newSpill(dir, name string, pool *memPool) (*spill, error) {
	t, err := newTape(dir, name, pool)
	if err != nil {
		return nil, err
	}
	return &spill{t: t, gb: minGroupBits}, nil
}

// write appends buf, which holds the encoded blocks refs (offsets relative to buf).
// Only the reservation and the index take the lock; the copy runs outside it.
func (s *spill) write(buf []byte, refs []blockRef) error {
	s.mu.Lock()
	base := s.t.reserve(int64(len(buf)))
	for _, r := range refs {
		r.off += base
		s.refs = append(s.refs, r)
		s.keys += uint64(r.count)
	}
	s.size += int64(len(buf))
	s.mu.Unlock()
	return s.t.writeAt(buf, base)
}

// byPart sorts the index by partition and returns each partition's blocks; the order
// of blocks within a partition does not matter, since phase 2 sorts their keys.
func (s *spill) byPart() map[uint32][]blockRef {
	slices.SortFunc(s.refs, func(a, b blockRef) int {
		if a.part != b.part {
			return int(a.part) - int(b.part)
		}
		return int(a.off - b.off)
	})
	m := make(map[uint32][]blockRef)
	for i := 0; i < len(s.refs); {
		j := i
		for j < len(s.refs) && s.refs[j].part == s.refs[i].part {
			j++
		}
		m[s.refs[i].part] = s.refs[i:j:j]
		i = j
	}
	return m
}

func (s *spill) close() error {
	if s == nil {
		return nil
	}
	return s.t.close()
}

// groupBits is the width of a spill's groups, in bits of source: phase 1 orders each
// chunk's keys by group (encodeChunk), a block holds a run of entries per group, and
// phase 2 collects the runs group by group. Sorting a chunk on the group alone takes
// one pass where a full sort took four or more, and the runs let a split partition's
// sub-ranges decode only their own groups.
//
// The width follows the graph (groupsFor): a chunk scatters its keys over all the
// graph's groups, and phase 2 pays for every run it finds, parses and loads. Groups of
// 1024 vertices made kron26 (64K groups) cost 100 ns a stored key against 76 on kron23
// (8192 groups); the scatter, the runs' loads, the block headers and collecting the runs
// cost twice as much a key (docs/log-2026-11-23.md, section 14). A degree-ordered spill keeps 1024:
// its hub groups are cut into many sub-ranges, and there wider groups made kron23's sort
// phase 40% slower (section 15).
type groupBits uint8

const (
	minGroupBits groupBits = 10
	maxGroupBits groupBits = 13
	// groupsWantedBits is about how many groups a graph is cut into: kron23's 8192.
	groupsWantedBits = 13
)

// groupsFor is the group width for a graph of n vertices: at most about 8192 groups,
// of 2^10 to 2^13 vertices (kron23: 2^10, kron26: 2^13).
func groupsFor(n uint64) groupBits {
	return groupBits(min(max(bits.Len64(max(n, 1)-1)-groupsWantedBits, int(minGroupBits)), int(maxGroupBits)))
}

// widthLoops is the loops over every key that depend on the group width, one
// implementation a width (loops[W], in the table groupBits.loops reads): each compiles
// with its width constant. With the width in a variable the compiler kept those loops'
// values on the stack (x86 shifts take their count in one register), and encodeChunk
// ran 20% slower (BenchmarkEncodeChunk, kron23).
type widthLoops interface {
	count(c *chunkCounts, keys []uint64, lo uint64)
	scatter(c *chunkCounts, keys []uint64, enc []byte, lo uint64)
	bySource(keys, tmp []uint64, count []uint32) []uint64
	unpack(out []uint64, entries []byte, bit uint64, width uint, off uint64, dstBits uint, count *[1 << wideBits]uint32, shift uint, mask uint64)
}

// groupWidth is the types that carry a group width as their length.
type groupWidth interface {
	~[10]byte | ~[11]byte | ~[12]byte | ~[13]byte
}

// loops implements widthLoops for groups as wide as W's length.
type loops[W groupWidth] struct{}

// width is W's group width: a constant in each instantiation, which the loops take
// before they start (read inside, it reloaded the instantiation's dictionary every key).
func (loops[W]) width() groupBits {
	var w W
	return groupBits(len(w))
}

var widthLoopsOf = [maxGroupBits + 1]widthLoops{
	10: loops[[10]byte]{}, 11: loops[[11]byte]{}, 12: loops[[12]byte]{}, 13: loops[[13]byte]{},
}

// loops returns the per-key loops compiled for width gb.
func (gb groupBits) loops() widthLoops { return widthLoopsOf[gb] }

// of is a key's partition and group within it: what phase 1 sorts on.
func (gb groupBits) of(k uint64) uint64 { return k >> (32 + uint(gb)&31) }

// mask is the bits of a source within its group.
func (gb groupBits) mask() uint64 { return 1<<(uint(gb)&31) - 1 }

// perPart is how many groups one partition holds.
func (gb groupBits) perPart() int { return 1 << (partShift - uint(gb)) }

// blockPad follows every block's entries, so that an entry is read with one unaligned
// 64-bit load.
const blockPad = 8

// appendBlock encodes keys of one partition, in ascending groups, as a block:
//
//	byte     w, the bits of the largest destination
//	uvarint  the number of groups, then per group its index in the partition and
//	         its number of keys (uvarints)
//	entries  one per key, dst<<gb | src&gb.mask() in gb+w bits,
//	         packed least significant bit first, then blockPad zero bytes
//
// Fixed-width entries cost no more than the delta varints of fully sorted keys did
// (about 4 bytes a key on kron21) and decode without branches.
func appendBlock(dst []byte, keys []uint64, gb groupBits) []byte {
	var top uint32
	groups := 0
	for i, k := range keys {
		top = max(top, keyDst(k))
		if i == 0 || gb.of(k) != gb.of(keys[i-1]) {
			groups++
		}
	}
	w := uint(bits.Len32(top))
	dst = append(dst, byte(w))
	dst = binary.AppendUvarint(dst, uint64(groups))
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && gb.of(keys[j]) == gb.of(keys[i]) {
			j++
		}
		dst = binary.AppendUvarint(dst, gb.of(keys[i])%uint64(gb.perPart()))
		dst = binary.AppendUvarint(dst, uint64(j-i))
		i = j
	}
	eb := uint(gb) + w
	var acc uint64
	var n uint
	for _, k := range keys {
		v := uint64(keyDst(k))<<gb | uint64(keySrc(k))&gb.mask()
		acc |= v << n
		if n+eb < 64 {
			n += eb
			continue
		}
		dst = binary.LittleEndian.AppendUint64(dst, acc)
		acc, n = v>>(64-n), n+eb-64 // n >= 64-eb > 0, so the shift is below 64
	}
	for ; n > 0; n -= min(n, 8) {
		dst = append(dst, byte(acc))
		acc >>= 8
	}
	return append(dst, make([]byte, blockPad)...)
}

var errBlock = errors.New("malformed spill block")

// groupRun is one group of a block: its first source vertex, and its entries.
type groupRun struct {
	base       uint32
	start, end uint32
}

// spillBlock is a parsed spill block.
type spillBlock struct {
	groups  []groupRun
	entries []byte
	width   uint   // bits of one entry
	skip    uint64 // bits of entries before entries[0], a multiple of 8
	gb      groupBits
}

// openBlock reads the header of the block buf of partition part with count keys,
// reusing groups.
func openBlock(buf []byte, part, count uint32, groups []groupRun, gb groupBits) (spillBlock, error) {
	b, hdr, err := parseHeader(buf, part, count, groups, int64(len(buf)), gb)
	if err != nil {
		return spillBlock{}, err
	}
	b.entries = buf[hdr:]
	return b, nil
}

// parseHeader parses the header at the start of buf of a block of size bytes, groups
// gb wide, and returns the block, without its entries, and the header's length.
func parseHeader(buf []byte, part, count uint32, groups []groupRun, size int64, gb groupBits) (spillBlock, int, error) {
	if len(buf) == 0 || buf[0] > 32 {
		return spillBlock{}, 0, errBlock
	}
	b := spillBlock{width: uint(gb) + uint(buf[0]), groups: groups[:0], gb: gb}
	pos := 1
	ng, n := binary.Uvarint(buf[pos:])
	perPart := uint64(gb.perPart())
	if n <= 0 || ng > perPart {
		return spillBlock{}, 0, errBlock
	}
	pos += n
	var at uint32
	for range ng {
		g, n := binary.Uvarint(buf[pos:])
		if n <= 0 || g >= perPart {
			return spillBlock{}, 0, errBlock
		}
		pos += n
		c, n := binary.Uvarint(buf[pos:])
		if n <= 0 || c > uint64(count-at) || len(b.groups) > 0 && part<<partShift|uint32(g)<<gb <= b.groups[len(b.groups)-1].base {
			return spillBlock{}, 0, errBlock
		}
		pos += n
		b.groups = append(b.groups, groupRun{base: part<<partShift | uint32(g)<<gb, start: at, end: at + uint32(c)})
		at += uint32(c)
	}
	if at != count || uint64(size-int64(pos)) < (uint64(count)*uint64(b.width)+7)/8+blockPad {
		return spillBlock{}, 0, errBlock
	}
	return b, pos, nil
}

// entryAt returns entry i, width bits wide, of a block's entries, of which data holds
// those from bit skip on: dst<<gb | src-base. The blockPad bytes after the last
// entry let it read 8 bytes at once.
func entryAt(data []byte, skip uint64, width uint, i uint32) uint64 {
	bit := entryBit(i, width, skip)
	return binary.LittleEndian.Uint64(data[bit>>3:]) >> (bit & 7) & (1<<width - 1)
}

// entryBit is where entry i, width bits wide, starts in entries that begin at bit skip.
func entryBit(i uint32, width uint, skip uint64) uint64 { return uint64(i)*uint64(width) - skip }

// key returns the key of entry i of group g.
func (b *spillBlock) key(g *groupRun, i uint32) uint64 {
	x := entryAt(b.entries, b.skip, b.width, i)
	return key(g.base|uint32(x&b.gb.mask()), uint32(x>>b.gb))
}

// readBuf is where a task's spill reads land when they do not lie inside one of the
// tape's slabs (which are read in place): headers in scratch, reused by the next read,
// and entries in the arena, kept until reset, since a task collects the runs of all its
// blocks before it decodes any. The arena is a list of chunks reused from task to task:
// grown by doubling one array, it held up to twice a task's entries, the old arrays
// staying alive behind the runs until the task ended.
type readBuf struct {
	scratch []byte
	pack    []byte   // compactRun's
	chunks  [][]byte // the arena: chunks[:cur+1] hold the task's reads
	cur     int
}

// arenaChunk is the least size of an arena chunk.
const arenaChunk = 1 << 20

func (rb *readBuf) reset() {
	for i := range rb.chunks {
		rb.chunks[i] = rb.chunks[i][:0]
	}
	rb.cur = 0
}

// alloc returns n bytes of the arena, valid until reset.
func (rb *readBuf) alloc(n int) []byte {
	for ; rb.cur < len(rb.chunks); rb.cur++ {
		if c := rb.chunks[rb.cur]; cap(c)-len(c) >= n {
			rb.chunks[rb.cur] = c[:len(c)+n]
			return c[len(c) : len(c)+n : len(c)+n]
		}
	}
	rb.chunks = append(rb.chunks, make([]byte, n, max(n, arenaChunk)))
	return rb.chunks[rb.cur][:n:n]
}

// readBlock returns the bytes of ref: in the tape's memory, or read into rb (kept in its
// arena when keep is set).
func (s *spill) readBlock(rb *readBuf, ref blockRef, keep bool) ([]byte, error) {
	if !keep || s.t.inSlab(ref.off, ref.len) { // read returns a slab's bytes in place
		data, scratch, err := s.t.read(rb.scratch, ref.off, ref.len)
		rb.scratch = scratch
		return data, err
	}
	data, _, err := s.t.read(rb.alloc(int(ref.len)), ref.off, ref.len)
	return data, err
}

// entryRun is the entries of one group of one block that a task decodes: those of
// sources base+[0, 2^gb), indices [start, end) of the block's entries. filter says the
// group straddles the task's range, whose sources the decoder then checks; skipLoops
// drops self-loops.
type entryRun struct {
	entries    []byte
	skip       uint64
	width      uint
	base       uint32
	start, end uint32
	filter     bool
	skipLoops  bool
	gb         groupBits
}

// appendRuns reads block ref and appends the runs of its groups that overlap [lo, hi).
// A bySource group that straddles the range is narrowed to its sub-run by binary search.
// Another keeps its entries of the range's sources: where the block is read from disk
// its kept entries are packed into the arena (compactRun) and the others of the block
// copied, so that a task cut from a large group holds its own entries, not the group's
// (a dense graph's group of 8.4M keys took every task's arena to 24 MB under a 48 MiB
// budget); from memory the run is filtered as it is decoded.
// head, when not nil, is the block's header as split parsed it.
func (s *spill) appendRuns(runs []entryRun, rb *readBuf, groups []groupRun, ref blockRef, head *blockHead, r srcRange, skipLoops bool) ([]entryRun, []groupRun, error) {
	lo, hi := r.lo, r.hi
	compact := !s.bySource && (lo&s.gb.mask() != 0 || hi&s.gb.mask() != 0) && !s.t.inSlab(ref.off, ref.len)
	b, err := s.readRange(rb, groups, ref, head, r, !compact)
	if err != nil {
		return runs, groups, err
	}
	for gi := range b.groups {
		g := &b.groups[gi]
		first, last := uint64(g.base), uint64(g.base)+s.gb.mask()
		if last < lo || first >= hi {
			continue
		}
		r := entryRun{entries: b.entries, skip: b.skip, width: b.width, base: g.base, start: g.start, end: g.end, skipLoops: skipLoops, gb: s.gb}
		if first < lo || last >= hi {
			if s.bySource {
				// sources ascend within the group: find the sub-run of [lo, hi)
				n := int(g.end - g.start)
				at := func(x uint64) uint32 {
					return g.start + uint32(sort.Search(n, func(i int) bool { return uint64(keySrc(b.key(g, g.start+uint32(i)))) >= x }))
				}
				r.start, r.end = at(lo), at(hi)
			} else if compact {
				r = rb.compactRun(r, lo, hi)
			} else {
				r.filter = true
			}
		} else if compact && r.end > r.start {
			r = rb.copyRun(r)
		}
		if r.end > r.start {
			runs = append(runs, r)
		}
	}
	return runs, b.groups, nil
}

// compactRun packs the entries of r whose sources lie in [lo, hi) into the arena, at
// r's width, and returns the run of them.
func (rb *readBuf) compactRun(r entryRun, lo, hi uint64) entryRun {
	w := uint64(r.width)
	need := int((uint64(r.end-r.start)*w+7)/8) + blockPad
	buf := reuse(rb.pack, need)[:need]
	clear(buf)
	var kept uint64
	for i := r.start; i < r.end; i++ {
		x := r.entry(i)
		if src := uint64(r.base) + x&r.gb.mask(); src < lo || src >= hi {
			continue
		}
		bit := kept * w
		j := bit >> 3
		binary.LittleEndian.PutUint64(buf[j:], binary.LittleEndian.Uint64(buf[j:])|x<<(bit&7))
		kept++
	}
	rb.pack = buf
	size := int((kept*w+7)/8) + blockPad
	data := rb.alloc(size)
	copy(data, buf[:size])
	return entryRun{entries: data, width: r.width, base: r.base, end: uint32(kept), skipLoops: r.skipLoops, gb: r.gb}
}

// copyRun copies r's entries into the arena (from a read buffer the next read reuses).
func (rb *readBuf) copyRun(r entryRun) entryRun {
	w := uint64(r.width)
	from := (uint64(r.start)*w - r.skip) >> 3
	to := min((uint64(r.end)*w-r.skip+7)>>3+blockPad, uint64(len(r.entries)))
	data := rb.alloc(int(to - from))
	copy(data, r.entries[from:to])
	r.entries, r.skip = data, r.skip+from*8
	return r
}

// firstByte returns the byte that holds the run's first entry.
func (r *entryRun) firstByte() byte {
	return r.entries[entryBit(r.start, r.width, r.skip)>>3]
}

// entry returns entry i of the run's block.
func (r *entryRun) entry(i uint32) uint64 { return entryAt(r.entries, r.skip, r.width, i) }

// keep says whether the key with entry x is the task's: its source lies in [lo, hi)
// and it is not a self-loop to drop.
func (r *entryRun) keep(x uint64, lo, hi uint64) bool {
	src := uint64(r.base) + x&r.gb.mask()
	if r.filter && (src < lo || src >= hi) {
		return false
	}
	return !r.skipLoops || src != x>>r.gb
}

// appendKeys appends the run's keys of the task [lo, hi).
func (r *entryRun) appendKeys(dst []uint64, lo, hi uint64) []uint64 {
	for i := r.start; i < r.end; i++ {
		if x := r.entry(i); !(r.filter || r.skipLoops) || r.keep(x, lo, hi) {
			dst = append(dst, key(r.base|uint32(x&r.gb.mask()), uint32(x>>r.gb)))
		}
	}
	return dst
}

// appendPacked appends the run's keys of the task [lo, hi) packed for lsdSortPacked,
// (src-base+off)<<dstBits | dst, and counts their digits (p>>d.shift)&d.mask in count.
func (r *entryRun) appendPacked(dst []uint64, lo, hi uint64, off uint64, dstBits uint, count *[1 << wideBits]uint32, d digit) []uint64 {
	if !r.filter && !r.skipLoops {
		bit := entryBit(r.start, r.width, r.skip)
		return unpackRun(dst, r.entries, bit, int(r.end-r.start), r.width, off, dstBits, r.gb, count, d)
	}
	for i := r.start; i < r.end; i++ {
		if x := r.entry(i); r.keep(x, lo, hi) {
			p := packEntry(x, off, dstBits, r.gb)
			count[(p>>(d.shift&63))&d.mask&(1<<wideBits-1)]++
			dst = append(dst, p)
		}
	}
	return dst
}

// packEntry packs entry x (dst<<gb | src-base) of a group whose first source lies off
// sources after the unit's first as the radix sorts take it: (src-unit base)<<dstBits |
// dst.
func packEntry(x, off uint64, dstBits uint, gb groupBits) uint64 {
	return (x&gb.mask()+off)<<dstBits | x>>(gb&31)
}

// digit is the radix digit the decode counts: (p >> shift) & mask.
type digit struct {
	shift uint
	mask  uint64
}

// unpackRun appends n entries, width bits wide, of entries from bit on, packed as
// appendPacked packs them, and counts their digits d (the first LSD digit, or the top
// digit of an MSD pass). A function of its own, so that
// its variables stay in registers: within appendPacked the compiler reloaded the run's
// fields and kept the bit position on the stack, every entry.
func unpackRun(dst []uint64, entries []byte, bit uint64, n int, width uint, off uint64, dstBits uint, gb groupBits, count *[1 << wideBits]uint32, d digit) []uint64 {
	start := len(dst)
	dst = slices.Grow(dst, n)[:start+n]
	gb.loops().unpack(dst[start:], entries, bit, width, off, dstBits, count, d.shift, d.mask)
	return dst
}

// unpack is unpackRun's loop, over the entries out has room for.
func (l loops[W]) unpack(out []uint64, entries []byte, bit uint64, width uint, off uint64, dstBits uint, count *[1 << wideBits]uint32, shift uint, mask uint64) {
	width &= 63
	dstBits &= 63
	shift &= 63
	gb := l.width()
	wmask, w := uint64(1)<<width-1, uint64(width)
	mask &= 1<<wideBits - 1
	for i := range out {
		j := bit >> 3
		x := binary.LittleEndian.Uint64(entries[j:j+8]) >> (bit & 7) & wmask
		p := packEntry(x, off, dstBits, gb)
		count[(p>>shift)&mask]++
		out[i] = p
		bit += w
	}
}

// headMax bounds a block's header: a width byte and, for each of at most 128 groups (a
// partition's, the narrowest), two uvarints below 2^17 (fewer than 256+128*4 bytes).
const headMax = 1 << 10

// readRange reads the header of block ref and the entries of the groups that overlap
// [lo, hi) (into rb's arena when keep is set). A split partition's sub-ranges each read
// every block of the partition, so reading whole blocks read the spill several times
// over; large blocks now cost a sub-range little more than its share of them.
//
// head, when not nil, is the block's parsed header (split's, shared by the sub-ranges of
// a partition), which is then neither read nor parsed again.
func (s *spill) readRange(rb *readBuf, groups []groupRun, ref blockRef, head *blockHead, r srcRange, keep bool) (spillBlock, error) {
	lo, hi := r.lo, r.hi
	if ref.len <= 4*headMax {
		if head == nil {
			return s.readSmall(rb, groups, ref, keep)
		}
		data, err := s.readBlock(rb, ref, keep)
		if err != nil {
			return spillBlock{groups: groups}, err
		}
		return head.block(groups, data[head.hdr:], s.gb), nil
	}
	var b spillBlock
	var hdr int
	var err error
	if head != nil {
		b, hdr = head.block(groups, nil, s.gb), int(head.hdr)
	} else if b, hdr, err = s.readHeader(rb, groups, ref); err != nil {
		return b, err
	}
	if s.bySource && keep && !s.t.inSlab(ref.off, ref.len) {
		if err := s.narrow(rb, &b, ref, hdr, r); err != nil {
			return b, err
		}
	}
	first, last := uint32(0), uint32(0) // the entries of the overlapping groups
	for gi := range b.groups {
		g := &b.groups[gi]
		if uint64(g.base)+s.gb.mask() < lo || uint64(g.base) >= hi {
			continue
		}
		if first == last {
			first = g.start
		}
		last = g.end
	}
	if first == last {
		b.entries = nil
		return b, nil
	}
	from := uint64(first) * uint64(b.width) / 8
	to := min((uint64(last)*uint64(b.width)+7)/8+blockPad, uint64(ref.len)-uint64(hdr))
	data, err := s.readBlock(rb, blockRef{off: ref.off + int64(hdr) + int64(from), len: int64(to - from)}, keep)
	if err != nil {
		return b, err
	}
	b.entries, b.skip = data, from*8
	return b, nil
}

// srcRange is the sources [lo, hi) a task reads. Where lo or hi lies inside a group, loAt
// or hiAt is the share of that group's entries (all blocks together) whose sources lie
// below it: in a degree-ordered spill, where sources ascend within a group, about where
// each block's run of the group crosses it (narrow).
type srcRange struct {
	lo, hi     uint64
	loAt, hiAt float64
}

// narrowWindow is the bytes narrow reads around the estimated crossing.
const narrowWindow = 4 << 10

// narrow cuts the groups of block b (a bySource block not in memory, whose header is
// hdr bytes long) that straddle r down to the entries of sources in it, so that readRange
// reads no more. A degree-ordered graph's hub groups are cut into many sub-ranges, and
// each read its whole group: kron20 under a 48 MiB budget peaked at 77 MiB, kron22 at 512
// MiB with 16 workers at 2.1 GiB (the arenas of the workers' tasks), its sort phase 3.4x
// slower. Each crossing is looked for in a window of the block around where r's share
// puts it (one read, which holds it unless the block's run is far from typical), and
// else by binary search on entries read one at a time.
func (s *spill) narrow(rb *readBuf, b *spillBlock, ref blockRef, hdr int, r srcRange) error {
	var err error
	base := ref.off + int64(hdr)
	src := func(data []byte, bit uint64) uint64 {
		return binary.LittleEndian.Uint64(data[bit>>3:]) >> (bit & 7) & s.gb.mask()
	}
	// at returns the index of the first entry of group g whose source is x or above.
	at := func(g *groupRun, x uint64, share float64) uint32 {
		if x <= uint64(g.base) {
			return g.start
		}
		if x > uint64(g.base)+s.gb.mask() {
			return g.end
		}
		x -= uint64(g.base)
		n := g.end - g.start
		w := uint64(b.width)
		span := uint32(narrowWindow * 8 / w)
		if n > span {
			guess := g.start + uint32(share*float64(n))
			from := min(max(guess, g.start+span/2)-span/2, g.end-span)
			bit0 := uint64(from) * w &^ 7
			data, scratch, e := s.t.read(rb.scratch, base+int64(bit0>>3), int64((uint64(from+span)*w+7)/8-bit0/8+8))
			rb.scratch = scratch
			if e != nil {
				err = cmp.Or(err, e)
				return g.start
			}
			// Inside the window when its first source is below x (or it starts the run)
			// and its last is x or above (or it ends it).
			first, last := src(data, uint64(from)*w-bit0), src(data, uint64(from+span-1)*w-bit0)
			if (from == g.start || first < x) && (from+span == g.end || last >= x) {
				return from + uint32(sort.Search(int(span), func(i int) bool {
					return src(data, uint64(from+uint32(i))*w-bit0) >= x
				}))
			}
		}
		return g.start + uint32(sort.Search(int(n), func(i int) bool {
			bit := uint64(g.start+uint32(i)) * w
			data, scratch, e := s.t.read(rb.scratch, base+int64(bit>>3), 8)
			rb.scratch = scratch
			if e != nil {
				err = cmp.Or(err, e)
				return true
			}
			return src(data, bit&7) >= x
		}))
	}
	for gi := range b.groups {
		g := &b.groups[gi]
		if first, last := uint64(g.base), uint64(g.base)+s.gb.mask(); last < r.lo || first >= r.hi || first >= r.lo && last < r.hi {
			continue
		}
		g.start, g.end = at(g, r.lo, r.loAt), at(g, r.hi, r.hiAt)
	}
	return err
}

// readSmall reads block ref, of at most 4*headMax bytes, whole (into rb's arena when
// keep is set) and parses it: reading its header apart would cost more than its entries.
func (s *spill) readSmall(rb *readBuf, groups []groupRun, ref blockRef, keep bool) (spillBlock, error) {
	data, err := s.readBlock(rb, ref, keep)
	if err != nil {
		return spillBlock{groups: groups}, err
	}
	b, err := openBlock(data, ref.part, ref.count, groups, s.gb)
	if err != nil {
		return spillBlock{groups: groups}, fmt.Errorf("ingest: spill file %s at offset %d: %w", s.t.path, ref.off, err)
	}
	return b, nil
}

// readHeader reads and parses the header of block ref, which is larger than headMax,
// and returns the block without its entries and the header's length.
func (s *spill) readHeader(rb *readBuf, groups []groupRun, ref blockRef) (spillBlock, int, error) {
	data, err := s.readBlock(rb, blockRef{off: ref.off, len: headMax}, false)
	if err != nil {
		return spillBlock{groups: groups}, 0, err
	}
	b, hdr, err := parseHeader(data, ref.part, ref.count, groups, ref.len, s.gb)
	if err != nil {
		return spillBlock{groups: groups}, 0, fmt.Errorf("ingest: spill file %s at offset %d: %w", s.t.path, ref.off, err)
	}
	return b, hdr, nil
}

// blockHead is a block's parsed header: its groups, the header's length and the
// entries' width. split keeps those of a partition it cuts for the sub-ranges, which
// otherwise each read and parsed every header of the partition again (parseHeader was
// 3.5% of the CPU time on kron23, 5% on kron26, input order, 16 cores; a read each from
// a spill on disk). The gain measured within the H100 host's noise (docs/log-2026-11-23.md, section 14).
type blockHead struct {
	groups []groupRun // shared: copied before use (narrow changes them)
	hdr    int32
	width  uint8
}

// block returns the block of head with entries, its groups copied into groups.
func (h *blockHead) block(groups []groupRun, entries []byte, gb groupBits) spillBlock {
	return spillBlock{groups: append(groups[:0], h.groups...), width: uint(h.width), entries: entries, gb: gb}
}

// head reads and parses the header of block ref (the whole block where it is small),
// reusing groups, and returns it with the header's length.
func (s *spill) head(rb *readBuf, groups []groupRun, ref blockRef) (spillBlock, int, error) {
	if ref.len > 4*headMax {
		return s.readHeader(rb, groups, ref)
	}
	b, err := s.readSmall(rb, groups, ref, false)
	return b, int(ref.len) - len(b.entries), err
}
