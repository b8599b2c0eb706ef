package ingest

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// encodeChunk encodes a chunk's keys as spill blocks (appendBlock's format) without
// sorting them first: one pass counts the keys of each group, the blocks' headers and
// each group's place among their entries follow from the counts, and a second pass
// writes every key's entry straight to its group's next place. The group sort and the
// block encoding it replaces wrote every key twice more (to the sort's buffer, then
// packed), and were a quarter of phase 1's CPU time.
//
// A block holds consecutive groups of one partition, at most blockKeys keys unless one
// group alone has more, and its entries are as wide as the partition's widest. With
// bySource the keys are first ordered by their source within the group (one counting
// pass into tmp), so that the groups' entries keep sources ascending.
//
// The encoding is written over the memory of tmp (or, with bySource, of keys), which
// the chunk no longer needs: it is smaller than 8 bytes a key. encodeChunk returns the
// encoding and its blocks (offsets relative to it), or ok false when the groups present
// span 1<<encodeSpanBits groups or more, or the encoding would not fit, for the caller to
// sort and encode as before.
//
// Graphs of more than 2^23 vertices have more groups than an L1-sized count: their
// chunks' groups span up to encodeSpanBits bits, whose counts (4 bytes each) and entry
// positions (4 bytes) live in L2. The group sort took two radix passes there.
func encodeChunk(c *chunkCounts, keys, tmp []uint64, refs []blockRef, bySource bool, gb groupBits) (enc []byte, _ []blockRef, ok bool) {
	if len(keys) < 256 {
		return nil, refs, false
	}
	c.gb = gb
	lo, hi := gb.of(keys[0]), gb.of(keys[0])
	for _, k := range keys {
		g := gb.of(k)
		lo, hi = min(lo, g), max(hi, g)
	}
	if hi-lo >= 1<<encodeSpanBits {
		return nil, refs, false
	}
	c.count(keys, lo, hi)
	out := tmp
	if bySource {
		out = keys
	}
	// at most 2^29 bytes, so that entry bits fit a uint32
	enc = unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(out))), min(8*len(out), 1<<29))
	size := c.plan(lo, hi)
	if size > len(enc) {
		return nil, refs, false
	}
	src := keys
	if bySource {
		c.bySrc = grown(c.bySrc, int(gb.mask())+2)
		src = bySourceInGroup(keys, tmp, gb, c.bySrc) // keys' memory is free from here on
	}
	refs, size = c.layout(enc, refs, lo)
	c.scatter(src, enc, lo)
	return enc[:size], refs, true
}

// bySourceInGroup orders keys by their source within the group (src & gb.mask()),
// stably, into tmp, with count (zeroed, gb.mask()+2 long) for the counts.
func bySourceInGroup(keys, tmp []uint64, gb groupBits, count []uint32) []uint64 {
	return gb.loops().bySource(keys, tmp, count)
}

// bySource is bySourceInGroup's loops.
func (l loops[W]) bySource(keys, tmp []uint64, count []uint32) []uint64 {
	mask := uint32(l.width().mask())
	count = count[: mask+2 : mask+2]
	for _, k := range keys {
		count[keySrc(k)&mask+1]++
	}
	for i := 1; i < len(count); i++ {
		count[i] += count[i-1]
	}
	out := tmp[:len(keys)]
	for _, k := range keys {
		b := keySrc(k) & mask
		out[count[b]] = k
		count[b]++
	}
	return out
}

// encodeSpanBits bounds the span of a chunk's groups that encodeChunk encodes: 2^17
// groups, 2^27 to 2^30 vertices.
const encodeSpanBits = 17

// chunkCounts is encodeChunk's state, kept by an encoder from chunk to chunk: per group
// (relative to the lowest) its keys, then the bit at which its next entry goes; per
// partition (relative to the lowest) its widest destination and entry width; the blocks.
type chunkCounts struct {
	n      []uint32
	pos    []uint32
	top    []uint32
	width  []uint8
	partLo uint64
	blocks []chunkBlock
	bySrc  []uint32 // bySourceInGroup's counts
	gb     groupBits
}

// chunkBlock is one block of a chunk: groups [g, end) relative to the lowest, keys
// keys, ngroups of them non-empty.
type chunkBlock struct {
	g, end        uint64
	keys, ngroups int
}

func (c *chunkCounts) count(keys []uint64, lo, hi uint64) {
	groups := int(hi - lo + 1)
	ps := partShift - uint(c.gb)
	c.partLo = lo >> ps
	parts := int(hi>>ps-c.partLo) + 1
	c.n, c.pos = grown(c.n, groups), grown(c.pos, groups)
	c.top, c.width = grown(c.top, parts), grown(c.width, parts)
	c.gb.loops().count(c, keys, lo)
	for p := range c.width {
		c.width[p] = uint8(int(c.gb) + bits.Len32(c.top[p]))
	}
}

// count is chunkCounts.count's loop.
func (l loops[W]) count(c *chunkCounts, keys []uint64, lo uint64) {
	n, top, partLo := c.n, c.top, c.partLo
	gs := 32 + uint(l.width())
	for _, k := range keys {
		n[k>>gs-lo]++
		p := uint64(partOf(k)) - partLo
		top[p] = max(top[p], keyDst(k))
	}
}

// grown returns s with length n, zeroed.
func grown[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// plan cuts the groups [lo, hi] into blocks of consecutive groups of one partition, at
// most blockKeys keys unless the first group alone has more, and returns an upper bound
// of their encoded size.
func (c *chunkCounts) plan(lo, hi uint64) int {
	c.blocks = c.blocks[:0]
	size := 0
	ps := partShift - uint(c.gb)
	for g := lo; g <= hi; {
		part := g >> ps
		b := chunkBlock{g: g - lo, end: g - lo}
		for ; g <= hi && g>>ps == part; g++ {
			n := int(c.n[g-lo])
			if n == 0 {
				continue
			}
			if b.keys > 0 && b.keys+n > blockKeys {
				break
			}
			b.keys += n
			b.ngroups++
		}
		b.end = g - lo
		if b.keys == 0 {
			continue
		}
		c.blocks = append(c.blocks, b)
		w := int(c.width[part-c.partLo])
		// the width byte, the group count, per group its index and keys, the entries
		size += 1 + binary.MaxVarintLen32 + b.ngroups*(1+binary.MaxVarintLen32) + (b.keys*w+7)/8 + blockPad
	}
	return size
}

// layout writes the planned blocks' headers into enc, zeroes their entries and
// blockPad bytes, appends their refs and sets each group's first entry bit. It returns
// the refs and the encoding's size.
func (c *chunkCounts) layout(enc []byte, refs []blockRef, lo uint64) ([]blockRef, int) {
	at := 0
	ps := partShift - uint(c.gb)
	perPart := uint64(c.gb.perPart())
	for _, b := range c.blocks {
		part := (b.g + lo) >> ps
		w := c.width[part-c.partLo]
		start := at
		enc[at] = w - uint8(c.gb)
		at++
		at += binary.PutUvarint(enc[at:], uint64(b.ngroups))
		for g := b.g; g < b.end; g++ {
			if n := c.n[g]; n > 0 {
				at += binary.PutUvarint(enc[at:], (g+lo)%perPart)
				at += binary.PutUvarint(enc[at:], uint64(n))
			}
		}
		entryBytes := (b.keys*int(w) + 7) / 8
		clear(enc[at : at+entryBytes+blockPad])
		bit := uint32(at) * 8 // enc is below 2^29 bytes
		for g := b.g; g < b.end; g++ {
			c.pos[g] = bit
			bit += c.n[g] * uint32(w)
		}
		at += entryBytes + blockPad
		refs = append(refs, blockRef{part: uint32(part), count: uint32(b.keys), off: int64(start), len: int64(at - start)})
	}
	return refs, at
}

// scatter writes each key's entry, dst<<gb | src&gb.mask(), at its group's next bit: an
// 8-byte read, or and write, which the blockPad bytes after each block's entries keep
// within the block.
func (c *chunkCounts) scatter(keys []uint64, enc []byte, lo uint64) {
	c.gb.loops().scatter(c, keys, enc, lo)
}

// scatter is chunkCounts.scatter's loop.
func (l loops[W]) scatter(c *chunkCounts, keys []uint64, enc []byte, lo uint64) {
	pos, width, partLo := c.pos, c.width, c.partLo
	gb := uint(l.width())
	for _, k := range keys {
		g := k>>(32+gb) - lo
		p := uint64(partOf(k)) - partLo
		v := uint64(keyDst(k))<<gb | uint64(keySrc(k))&(1<<gb-1)
		bit := pos[g]
		pos[g] = bit + uint32(width[p])
		i := bit >> 3
		binary.LittleEndian.PutUint64(enc[i:], binary.LittleEndian.Uint64(enc[i:])|v<<(bit&7))
	}
}
