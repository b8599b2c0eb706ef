package ingest

import "math/bits"

// radixBits is the digit width of radixSort: a 2048-counter histogram (8 KiB) stays in
// L1, and a 64-bit key needs at most 6 passes.
const (
	radixBits    = 11
	radixBuckets = 1 << radixBits
	radixMask    = radixBuckets - 1
	radixPasses  = (64 + radixBits - 1) / radixBits
)

// msdThreshold is the size above which radixSort first splits the keys by their top
// bits: an LSD pass over more than a few MiB scatters across more pages than the TLB
// and caches hold, and measured 4-5x slower per key at 4M keys than at 1M.
const msdThreshold = 1 << 20

// radixSort sorts keys ascending, using tmp (at least len(keys) long) as scratch, and
// returns the sorted slice, which is keys or tmp[:len(keys)]. Large inputs get one MSD
// pass on their top varying bits into buckets of about 32K keys, which then sort in
// cache; smaller ones go straight to lsdSort.
func radixSort(keys, tmp []uint64) []uint64 {
	n := len(keys)
	if n <= msdThreshold {
		return lsdSort(keys, tmp)
	}
	k0, varying := keys[0], uint64(0)
	for _, k := range keys {
		varying |= k ^ k0
	}
	if varying == 0 {
		return keys
	}
	nbits := msdBits(n)
	shift := uint(max(bits.Len64(varying)-int(nbits), 0))
	var count [radixBuckets + 1]int
	for _, k := range keys {
		count[(k>>shift)&(1<<nbits-1)+1]++
	}
	for i := 1; i <= 1<<nbits; i++ {
		count[i] += count[i-1]
	}
	out := tmp[:n]
	scatterBuckets(keys, out, &count, shift, 1<<nbits-1)
	for b := 0; b < 1<<nbits; b++ {
		lo, hi := count[b], count[b+1]
		if sorted := lsdSort(out[lo:hi], keys[lo:hi]); hi > lo && &sorted[0] != &out[lo] {
			copy(out[lo:hi], sorted)
		}
	}
	return out
}

// msdBits is the width of the MSD digit that splits n keys into buckets of about 32K,
// which then sort in cache.
func msdBits(n int) uint { return uint(min(bits.Len(uint(n>>15)), radixBits)) }

// scatterBuckets moves keys into out by their bucket (k>>shift)&mask, stably, bucket b
// from start[b] on: the MSD pass of radixSort and msdSortPacked.
func scatterBuckets(keys, out []uint64, start *[radixBuckets + 1]int, shift uint, mask uint64) {
	next := *start
	shift &= 63
	mask &= radixMask
	for _, k := range keys {
		b := (k >> shift) & mask
		out[next[b]] = k
		next[b]++
	}
}

// lsdSort sorts keys ascending with an LSD radix sort, using tmp (at least len(keys)
// long) as scratch, and returns the sorted slice, which is keys or tmp[:len(keys)].
//
// Only bits that vary between keys are sorted on: digits start at the lowest varying
// bit not yet covered, so the constant bits between a key's dst and src halves (ids of
// a graph with 2^26 vertices leave 6 of each 32 unused) and the partition bits cost no
// pass. The first pass finds the varying bits and counts the first digit; each scatter
// pass counts the next digit.
//
// When the keys' varying bits, packed together, fit in fewer digits of up to
// wideBits bits than lsdSortMask would take, the keys are packed, sorted on wider
// digits and unpacked instead: a phase 2 task's keys vary in about 21 bits of
// destination and 14 of source on kron21, which take 4 passes of 11 bits with the gap
// between the halves but 3 of 12 without it.
func lsdSort(keys, tmp []uint64) []uint64 {
	n := len(keys)
	if n < 256 {
		insertionSort(keys)
		return keys
	}
	k0, varying := keys[0], uint64(0)
	lo, hi := k0, k0
	for _, k := range keys {
		varying |= k ^ k0
		lo, hi = min(lo, k), max(hi, k)
	}
	// Sources are packed as offsets from the smallest: a task's range of sources often
	// straddles a power of two, which would leave its top bits varying.
	srcLo := lo >> 32
	dstBits := uint(bits.Len32(uint32(varying)))
	srcBits := uint(bits.Len64(hi>>32 - srcLo))
	packed := dstBits + srcBits
	passes := (packed + wideBits - 1) / wideBits
	if passes == 0 || passes >= uint(len(digitShifts(varying))) {
		return lsdSortMask(keys, tmp, ^uint64(0))
	}
	width := (packed + passes - 1) / passes
	var count [1 << wideBits]uint32
	dstMask, mask := uint64(1)<<dstBits-1, uint64(1)<<width-1
	for i, k := range keys {
		p := (k>>32-srcLo)<<dstBits | k&dstMask
		keys[i] = p
		count[p&mask]++
	}
	return lsdSortPacked(keys, tmp, &count, width, passes, packing{dstBits: dstBits, srcLo: srcLo, dstHi: uint64(uint32(k0)) &^ dstMask})
}

// packing says how lsdSort packed its keys: the destination's varying bits below the
// source's offset from srcLo, without the destination's bits all keys share (dstHi).
type packing struct {
	dstBits uint
	srcLo   uint64
	dstHi   uint64
}

// wideBits is the widest digit of lsdSortPacked: two 4096-counter histograms (32 KiB)
// still stay in L1.
const wideBits = 12

// lsdSortPacked sorts packed keys, which vary only in their low width*passes bits,
// with passes LSD passes of width bits each (at most wideBits), given the counts of
// the first digit, and unpacks them in the last pass.
func lsdSortPacked(keys, tmp []uint64, cur *[1 << wideBits]uint32, width, passes uint, pk packing) []uint64 {
	var next [1 << wideBits]uint32
	src, dst := keys, tmp[:len(keys)]
	for d := range passes {
		shift := d * width
		var sum uint32
		for i, c := range cur[:1<<width] {
			cur[i], sum = sum, sum+c
		}
		if d+1 < passes {
			next = [1 << wideBits]uint32{}
			scatterCount(src, dst, cur, &next, shift, width)
		} else {
			scatterUnpack(src, dst, cur, shift, width, pk)
		}
		src, dst = dst, src
		*cur = next
	}
	return src
}

// msdSortPacked sorts packed keys (lsdSortPacked's) too many for an LSD sort in cache,
// given the counts of their top digit d: one pass moves them into buckets by it, each of
// which an LSD sort on the bits below then sorts and unpacks. Sorting them unpacked took
// a pass to find the varying bits, one to count, the move, and for each bucket another
// pass to find its varying bits and one to pack, before its LSD passes.
//
// A bucket still too large for the cache, which skew makes common (a hub's own keys:
// in a degree-ordered kron21, the task of the first 78 vertices took 5x as long per key
// as the others), is split again by the digit below, recursively.
func msdSortPacked(keys, tmp []uint64, count *[1 << wideBits]uint32, d digit, pk packing) []uint64 {
	n := len(keys)
	buckets := int(d.mask) + 1
	var start [radixBuckets + 1]int
	for b := range buckets {
		start[b+1] = start[b] + int(count[b])
	}
	out := tmp[:n]
	scatterBuckets(keys, out, &start, d.shift, d.mask)
	passes := (d.shift + wideBits - 1) / wideBits
	if passes == 0 { // nothing below the top digit: the buckets are sorted
		for i, k := range out {
			out[i] = pk.unpack(k)
		}
		return out
	}
	width := (d.shift + passes - 1) / passes
	mask := uint64(1)<<width - 1
	// The buckets LSD-sorted end in keys after an odd number of passes, else in out;
	// the larger ones are copied there.
	res := out
	if passes%2 == 1 {
		res = keys[:n]
	}
	for b := range buckets {
		lo, hi := start[b], start[b+1]
		if lo == hi {
			continue
		}
		var c [1 << wideBits]uint32
		if hi-lo > msdBucketMax {
			nbits := min(msdBits(hi-lo), d.shift)
			sub := digit{shift: d.shift - nbits, mask: uint64(1)<<nbits - 1}
			for _, k := range out[lo:hi] {
				c[(k>>sub.shift)&sub.mask&(1<<wideBits-1)]++
			}
			if got := msdSortPacked(out[lo:hi], keys[lo:hi], &c, sub, pk); &got[0] != &res[lo] {
				copy(res[lo:hi], got)
			}
			continue
		}
		for _, k := range out[lo:hi] {
			c[k&mask&(1<<wideBits-1)]++
		}
		lsdSortPacked(out[lo:hi], keys[lo:hi], &c, width, passes, pk)
	}
	return res
}

// msdBucketMax is the largest bucket of msdSortPacked that an LSD sort sorts (1 MiB
// with its buffer); a larger one is split again.
const msdBucketMax = 1 << 16

// unpack undoes the packing of one key.
func (pk packing) unpack(k uint64) uint64 {
	dstBits := pk.dstBits & 63
	return unpackKey(k, dstBits, uint64(1)<<dstBits-1, pk.srcLo, pk.dstHi)
}

// unpackKey is packing.unpack given its fields, and the mask of dstBits, in variables
// (scatterUnpack keeps them in registers across its loop).
func unpackKey(k uint64, dstBits uint, dstMask, srcLo, dstHi uint64) uint64 {
	return (k>>dstBits+srcLo)<<32 | dstHi | k&dstMask
}

// scatterCount is one pass of lsdSortPacked: it moves each key of src to its place in
// dst by the digit at shift, width bits wide, and counts the next digit in next. The
// passes are separate functions so that their few variables stay in registers: within
// lsdSortPacked the compiler kept the key and the loop index on the stack.
func scatterCount(src, dst []uint64, cur, next *[1 << wideBits]uint32, shift, width uint) {
	mask := uint64(1)<<width - 1
	shift &= 63
	nshift := (shift + width) & 63
	for _, k := range src {
		b := (k >> shift) & mask & (1<<wideBits - 1)
		i := cur[b]
		cur[b] = i + 1
		dst[i] = k
		next[(k>>nshift)&mask&(1<<wideBits-1)]++
	}
}

// scatterUnpack is the last pass of lsdSortPacked: it moves each key to its place and
// unpacks it.
func scatterUnpack(src, dst []uint64, cur *[1 << wideBits]uint32, shift, width uint, pk packing) {
	mask := uint64(1)<<width - 1
	shift &= 63
	dstBits := pk.dstBits & 63
	dstMask := uint64(1)<<dstBits - 1
	srcLo, dstHi := pk.srcLo, pk.dstHi
	for _, k := range src {
		b := (k >> shift) & mask & (1<<wideBits - 1)
		i := cur[b]
		cur[b] = i + 1
		dst[i] = unpackKey(k, dstBits, dstMask, srcLo, dstHi)
	}
}

// groupSort orders keys by group (gb.of) and, when bySource is set, by source within
// each group, and otherwise leaves them as they are: the spill needs the groups, and
// sources ascending within a group let a split partition's sub-range find its part of a
// group by binary search (decodeRange) instead of decoding the whole group. The
// degree order needs that: its hub groups are split many ways (kron22: phase 2 took 3x as
// long without it). The input order rarely splits a group, and the extra radix pass cost
// its phase 1 a quarter of its speed (kron21 text, 2 cores: 42.0 -> 30.7M edges/s), so it
// sorts by group alone. Phase 2's full sort would not gain from sorting destinations too.
func groupSort(keys, tmp []uint64, bySource bool, gb groupBits) []uint64 {
	if bySource {
		return lsdSortMask(keys, tmp, ^uint64(1<<32-1))
	}
	if sorted, ok := groupSortOnePass(keys, tmp, gb); ok {
		return sorted
	}
	return lsdSortMask(keys, tmp, ^(uint64(1)<<(32+uint(gb)) - 1))
}

// onePassBits is the widest group field groupSortOnePass sorts in one counting pass: an
// 8192-counter histogram (32 KiB) stays in L1. Graphs of up to 2^23 vertices have at most
// 13 bits of group; lsdSortMask's 11-bit digits took two passes for them.
const onePassBits = 13

// groupSortOnePass sorts keys by group with one counting pass when the groups present
// span at most onePassBits bits, and reports whether it did.
func groupSortOnePass(keys, tmp []uint64, gb groupBits) ([]uint64, bool) {
	if len(keys) < 256 {
		return keys, false
	}
	lo, hi := gb.of(keys[0]), gb.of(keys[0])
	for _, k := range keys {
		g := gb.of(k)
		lo, hi = min(lo, g), max(hi, g)
	}
	if hi-lo >= 1<<onePassBits {
		return keys, false
	}
	var count [1<<onePassBits + 1]uint32
	for _, k := range keys {
		count[gb.of(k)-lo+1]++
	}
	for i := 1; i < len(count); i++ {
		count[i] += count[i-1]
	}
	out := tmp[:len(keys)]
	for _, k := range keys {
		g := gb.of(k) - lo
		out[count[g]] = k
		count[g]++
	}
	return out, true
}

// lsdSortMask sorts keys by the bits of mask (stably, so with mask ^0 fully).
func lsdSortMask(keys, tmp []uint64, mask uint64) []uint64 {
	n := len(keys)
	if n < 256 {
		insertionSort(keys)
		return keys
	}
	var cur, next [radixBuckets]uint32
	k0, varying := keys[0], uint64(0)
	if mask&1 == 0 { // the first digit is not at bit 0: count it once it is known
		for _, k := range keys {
			varying |= k ^ k0
		}
	} else {
		for _, k := range keys {
			varying |= k ^ k0
			cur[k&radixMask]++
		}
	}
	shifts := digitShifts(varying & mask)
	if len(shifts) == 0 {
		return keys
	}
	if shifts[0] != 0 {
		cur = [radixBuckets]uint32{}
		for _, k := range keys {
			cur[(k>>shifts[0])&radixMask]++
		}
	}
	src, dst := keys, tmp[:n]
	for d, shift := range shifts {
		var sum uint32
		for i, c := range cur {
			cur[i], sum = sum, sum+c
		}
		if d+1 < len(shifts) {
			ns := shifts[d+1]
			next = [radixBuckets]uint32{}
			for _, k := range src {
				b := (k >> shift) & radixMask
				dst[cur[b]] = k
				cur[b]++
				next[(k>>ns)&radixMask]++
			}
		} else {
			for _, k := range src {
				b := (k >> shift) & radixMask
				dst[cur[b]] = k
				cur[b]++
			}
		}
		src, dst = dst, src
		cur = next
	}
	return src
}

// digitShifts returns the shifts of the digits that cover the set bits of varying.
func digitShifts(varying uint64) []uint {
	var s []uint
	for shift := uint(0); shift < 64; shift += radixBits {
		rest := varying >> shift
		if rest == 0 {
			break
		}
		shift += uint(bits.TrailingZeros64(rest))
		s = append(s, shift)
	}
	return s
}

func insertionSort(a []uint64) {
	for i := 1; i < len(a); i++ {
		x, j := a[i], i
		for ; j > 0 && a[j-1] > x; j-- {
			a[j] = a[j-1]
		}
		a[j] = x
	}
}
