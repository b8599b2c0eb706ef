// graph.cuh: the store's shard layout (store/FORMAT.md) as the kernels see it, and the
// list decoder shared by every kernel.
#pragma once
#include <stddef.h>
#include <stdint.h>

#define OOC_BLOCK 64 // neighbours per compressed block (store.BlockSize)
#define OOC_PACKED_MIN 4 // blocks of at least this many carry the packed bit (store.PackedMin)
#define NONE 0xFFFFFFFFu

// One shard as placed by the memory plan: each pointer is device memory or the device
// alias of pinned host memory. The shard table is an array of these; its one Go
// definition is gpu.ShardEntry (gpu/shard.go), whose test reads the static_asserts below,
// so a field changed on one side alone fails nvcc or go test.
struct Shard {
	const uint8_t *adj;
	const uint4 *dir;                // DIRECTORY's group headers, the sentinel's included
	const unsigned long long *bits;  // DIRECTORY's packed pairs, after the headers
	uint32_t lo, n;
	uint32_t pinned; // adj is pinned host memory: list bytes read from it cross the link
	uint32_t pad;
};
static_assert(sizeof(Shard) == 40, "Shard");
static_assert(offsetof(Shard, adj) == 0, "Shard.adj");
static_assert(offsetof(Shard, dir) == 8, "Shard.dir");
static_assert(offsetof(Shard, bits) == 16, "Shard.bits");
static_assert(offsetof(Shard, lo) == 24, "Shard.lo");
static_assert(offsetof(Shard, n) == 28, "Shard.n");
static_assert(offsetof(Shard, pinned) == 32, "Shard.pinned");
static_assert(offsetof(Shard, pad) == 36, "Shard.pad");

// Kernels take a shard as five scalar parameters (the launcher passes 8-byte slots).
#define SHARD_PARAMS const uint8_t *s_adj, const uint4 *s_dir, const unsigned long long *s_bits, uint32_t s_lo, uint32_t s_n
#define SHARD_LOCAL const Shard s = {s_adj, s_dir, s_bits, s_lo, s_n}

// The DIRECTORY section (store/directory.go, FORMAT.md): vertices in groups of 64, each
// with a 16-byte header (x: ADJ offset of its first list, y: first word of its packed
// pairs, z and w's low 8 bits: index of its first neighbour, w bits 8-15: dmin, 16-23 and
// 24-31: the widths wo and wd) and per vertex a pair at bit y*64 + j*(wo+wd) of the
// packed words: zigzag(start - x - j*span/64) in wo bits (32-bit wrapping arithmetic;
// span = the next group's x - x), then degree - dmin in wd bits.
#define DIR_GROUP_SHIFT 6

// dirField reads the w-bit field (w <= 32) at bit p of the packed words; it loads only
// words that hold bits of the field.
__device__ __forceinline__ uint32_t dirField(const unsigned long long *b, uint64_t p, uint32_t w) {
	if (w == 0) return 0;
	uint64_t q = p >> 6;
	uint32_t o = (uint32_t)p & 63;
	unsigned long long x = __ldg(b + q) >> o;
	if (o + w > 64) x |= __ldg(b + q + 1) << (64 - o);
	return (uint32_t)x & (uint32_t)((1ull << w) - 1);
}

// shardDegree is the degree of the shard's i-th vertex.
__device__ __forceinline__ uint32_t shardDegree(const Shard *s, uint32_t i) {
	uint4 h = __ldg(s->dir + (i >> DIR_GROUP_SHIFT));
	uint32_t wo = (h.w >> 16) & 0xFF, wd = h.w >> 24;
	uint64_t p = (uint64_t)h.y * 64 + (i & 63) * (wo + wd) + wo;
	return ((h.w >> 8) & 0xFF) + dirField(s->bits, p, wd);
}

// shardList gives the degree of the shard's i-th vertex and where its list starts in adj.
__device__ __forceinline__ uint32_t shardList(const Shard *s, uint32_t i, uint32_t *start) {
	uint32_t g = i >> DIR_GROUP_SHIFT, j = i & 63;
	uint4 h = __ldg(s->dir + g);
	uint32_t span = __ldg(&s->dir[g + 1].x) - h.x;
	uint32_t wo = (h.w >> 16) & 0xFF, wd = h.w >> 24;
	uint64_t p = (uint64_t)h.y * 64 + j * (wo + wd);
	uint32_t z = dirField(s->bits, p, wo);
	*start = h.x + (uint32_t)(((uint64_t)j * span) >> DIR_GROUP_SHIFT) + ((z >> 1) ^ (0u - (z & 1)));
	return ((h.w >> 8) & 0xFF) + dirField(s->bits, p + wo, wd);
}

// shardSpan is shardList with where the list ends in adj: where the next vertex's starts,
// or, for a group's last vertex, the next group's first list (Check holds start <= end <=
// the ADJ length for every vertex).
__device__ __forceinline__ uint32_t shardSpan(const Shard *s, uint32_t i, uint32_t *start, uint32_t *end) {
	uint32_t g = i >> DIR_GROUP_SHIFT, j = i & 63;
	uint4 h = __ldg(s->dir + g);
	uint32_t next = __ldg(&s->dir[g + 1].x), span = next - h.x;
	uint32_t wo = (h.w >> 16) & 0xFF, wd = h.w >> 24;
	uint64_t p = (uint64_t)h.y * 64 + j * (wo + wd);
	uint32_t z = dirField(s->bits, p, wo);
	*start = h.x + (uint32_t)(((uint64_t)j * span) >> DIR_GROUP_SHIFT) + ((z >> 1) ^ (0u - (z & 1)));
	*end = next;
	if (j != 63 && i + 1 < s->n) {
		uint32_t y = dirField(s->bits, p + wo + wd, wo);
		*end = h.x + (uint32_t)(((uint64_t)(j + 1) * span) >> DIR_GROUP_SHIFT) + ((y >> 1) ^ (0u - (y & 1)));
	}
	return ((h.w >> 8) & 0xFF) + dirField(s->bits, p + wo, wd);
}

// findShard returns the shard holding v; shards are sorted by lo and cover [0, N).
__device__ __forceinline__ const Shard *findShard(const Shard *s, int ns, uint32_t v) {
	int a = 0, b = ns - 1;
	while (a < b) {
		int m = (a + b + 1) >> 1;
		if (s[m].lo <= v) a = m; else b = m - 1;
	}
	return &s[a];
}

// firstAt is entry j of vertex v's first K neighbours in the first-neighbour array (gpu's
// FirstBits: entries packed at W bits, vertex v's entry j at bit (v*K+j)*W, NONE stored as
// W one bits), NONE past the vertex's degree.
__device__ __forceinline__ uint32_t firstAt(const unsigned long long *first, uint32_t K, uint32_t W, uint32_t v,
                                            uint32_t j) {
	uint32_t x = dirField(first, ((uint64_t)v * K + j) * W, W);
	return x == (uint32_t)((1ull << W) - 1) ? NONE : x;
}

// Damaged lists. Graph.Check (ooc.Open runs it) verifies the checksums and the directory
// but decodes no list, so a graph written with valid checksums may hold a list shorter
// than its degree, a neighbour at or past the vertex count, or a block index pointing
// outside its list. The decoders below read a list's bytes only inside [start, end) of the
// directory, yield only neighbours below ooc_vertices, and on anything else stop the block
// and record the first fault in ooc_fault (the vertex whose list it is, and why). The host
// sets ooc_vertices when it loads a module and reads ooc_fault once a run, where it waits
// for the device anyway (gpu.Graph.ListFault): a run that faulted returns an error naming
// the list, never an answer.
__constant__ uint32_t ooc_vertices;
__device__ unsigned long long ooc_fault; // 0, or FAULT_SET | reason << 32 | vertex
#define FAULT_NEIGHBOUR 1 // a neighbour at or past the vertex count
#define FAULT_BYTES 2     // a block read past its bytes, or ended before its last byte
#define FAULT_INDEX 3     // the block index puts a block outside its list
#define FAULT_SET_BIT 63

// listFault records that vertex v's list is damaged (reason: a FAULT_ code), unless a
// fault is recorded already.
__device__ __forceinline__ void listFault(uint32_t reason, uint32_t v) {
	atomicCAS(&ooc_fault, 0ull, 1ull << FAULT_SET_BIT | (unsigned long long)reason << 32 | v);
}

// sat32 is x, or 2^32-1 (past any vertex) when x does not fit 32 bits.
__device__ __forceinline__ uint32_t sat32(uint64_t x) { return x > 0xFFFFFFFFull ? 0xFFFFFFFFu : (uint32_t)x; }

// lo32 is an address's low 32 bits; lo32Diff(q, e) is q - e for the address whose low 32
// bits are e, exact while they lie within 2^31 bytes of each other.
__device__ __forceinline__ uint32_t lo32(const void *q) { return (uint32_t)(uintptr_t)q; }
__device__ __forceinline__ int32_t lo32Diff(const void *q, uint32_t e) { return (int32_t)(lo32(q) - e); }

// ByteReader reads a byte string through aligned 8-byte loads, so zero-copy lists cost one
// link request per 8 bytes instead of one per byte. It loads only the aligned words that
// hold a byte of [p, end) as init gave it, hence never past the list nor the page
// (sections are 4096-aligned): a byte read at or past end without a load is 0 (which ends
// a varint), and p passing end tells the caller it read too far.
//
// end and the cached word's address wa are kept as their low 32 bits, and compared by
// lo32Diff: p and any address compared with end lie within 2^31 bytes of it (a block's
// bytes are fewer than 2^30: List::block; p passes end by at most a few KiB).
struct ByteReader {
	const uint8_t *p;
	uint32_t end, wa;
	uint64_t w;
	__device__ __forceinline__ static uint64_t load64(const unsigned long long *q) { return __ldg(q); }
	__device__ __forceinline__ void init(const uint8_t *q, const uint8_t *e) { p = q; end = lo32(e); wa = 1; }
	__device__ __forceinline__ void seek(const uint8_t *q) { p = q; wa = 1; }
	// past(q): q lies beyond end; atEnd: p is at end.
	__device__ __forceinline__ bool past(const uint8_t *q) const { return lo32Diff(q, end) > 0; }
	__device__ __forceinline__ bool atEnd() const { return lo32(p) == end; }
	__device__ __forceinline__ uint32_t byte() {
		uint32_t a = lo32(p) & ~7u;
		if (a != wa) {
			if (lo32Diff(p, end) >= 0) {
				p++;
				return 0;
			}
			w = __ldg((const unsigned long long *)((uintptr_t)p & ~(uintptr_t)7));
			wa = a;
		}
		uint32_t b = (uint32_t)(w >> (((uintptr_t)p & 7) * 8)) & 0xFF;
		p++;
		return b;
	}
	// uvarint reads LEB128; a first value's code can reach 34 bits. A code of more than 5
	// bytes is no value of the format: it reads 5 and returns one past any neighbour.
	__device__ __forceinline__ uint64_t uvarint() {
		uint64_t x = 0;
		for (int s = 0; s < 35; s += 7) {
			uint32_t b = byte();
			x |= (uint64_t)(b & 0x7F) << s;
			if (b < 0x80) return x;
		}
		return x | 1ull << 40;
	}
	__device__ __forceinline__ uint32_t u32() {
		uint32_t x = byte();
		x |= byte() << 8;
		x |= byte() << 16;
		x |= byte() << 24;
		return x;
	}
};

// ByteReader16T is ByteReader through aligned 16-byte loads: a short list costs one link
// request where 8-byte loads take two whenever it crosses an 8-byte boundary. Loads never
// leave the aligned 16 bytes that hold a byte of [p, end), hence never the page nor a
// device allocation (multiples of 256 bytes). LDG reads through the read-only data cache
// (__ldg: global memory only); without it the loads are generic, so the bytes may lie in
// shared memory (a warp's staged copy of its lists: bfs.cu's expandLong).
template <bool LDG> struct ByteReader16T {
	const uint8_t *p, *end;
	uint64_t w0, w1;
	uintptr_t wa;
	__device__ __forceinline__ static uint64_t load64(const unsigned long long *q) { return LDG ? __ldg(q) : *q; }
	__device__ __forceinline__ void init(const uint8_t *q, const uint8_t *e) { p = q; end = e; wa = ~(uintptr_t)0; }
	__device__ __forceinline__ void seek(const uint8_t *q) { p = q; wa = ~(uintptr_t)0; }
	// as ByteReader's, on whole addresses (32-bit ones cost td_levels_staged spills, sm_90)
	__device__ __forceinline__ bool past(const uint8_t *q) const { return q > end; }
	__device__ __forceinline__ bool atEnd() const { return p == end; }
	__device__ __forceinline__ uint32_t byte() {
		uintptr_t a = (uintptr_t)p & ~(uintptr_t)15;
		if (a != wa) {
			if (p >= end) { // as ByteReader's
				p++;
				return 0;
			}
			ulonglong2 v = LDG ? __ldg((const ulonglong2 *)a) : *(const ulonglong2 *)a;
			w0 = v.x, w1 = v.y;
			wa = a;
		}
		uint64_t w = ((uintptr_t)p & 8) ? w1 : w0;
		uint32_t b = (uint32_t)(w >> (((uintptr_t)p & 7) * 8)) & 0xFF;
		p++;
		return b;
	}
	// uvarint reads LEB128; a first value's code can reach 34 bits. A code of more than 5
	// bytes is no value of the format: it reads 5 and returns one past any neighbour.
	__device__ __forceinline__ uint64_t uvarint() {
		uint64_t x = 0;
		for (int s = 0; s < 35; s += 7) {
			uint32_t b = byte();
			x |= (uint64_t)(b & 0x7F) << s;
			if (b < 0x80) return x;
		}
		return x | 1ull << 40;
	}
	__device__ __forceinline__ uint32_t u32() {
		uint32_t x = byte();
		x |= byte() << 8;
		x |= byte() << 16;
		x |= byte() << 24;
		return x;
	}
};
typedef ByteReader16T<true> ByteReader16;

// List is the compressed list of vertex v.
struct List {
	const uint8_t *base; // start of the list (its block index, if any)
	const uint8_t *end;  // the list's end: its bytes are [base, end)
	uint32_t v, deg, nb;
	__device__ __forceinline__ void at(const Shard *s, uint32_t vv) {
		uint32_t i = vv - s->lo;
		v = vv;
		uint32_t start, stop;
		deg = shardSpan(s, i, &start, &stop);
		nb = (deg + OOC_BLOCK - 1) / OOC_BLOCK;
		base = s->adj + start;
		end = s->adj + stop;
	}
	// block k (k < nb): its first byte, its end (the next block's first byte, or the
	// list's end) and its neighbour count. A block index that puts the block outside the
	// list, its end before its start, or 2^30 bytes or more in it (a block of the format
	// holds at most a few KiB; the readers' 32-bit compares need fewer than 2^31) is a
	// fault: the block is then empty.
	__device__ __forceinline__ const uint8_t *block(uint32_t k, uint32_t *count, const uint8_t **stop) const {
		uint32_t head = 4 * (nb - 1), len = (uint32_t)(end - base), a = head, b = len;
		if (nb > 1 && head <= len) {
			ByteReader r;
			r.init(base + 4 * (k > 0 ? k - 1 : 0), base + head);
			if (k > 0) a = r.u32();
			if (k + 1 < nb) b = r.u32();
		}
		*count = min((uint32_t)OOC_BLOCK, deg - k * OOC_BLOCK);
		if (head > len || a < head || a > b || b > len || b - a >= 1u << 30) {
			listFault(FAULT_INDEX, v);
			*count = 0;
			a = b = 0;
		}
		*stop = base + b;
		return base + a;
	}
};

// The codings of a block (FORMAT.md, "ADJ: one list"), as BlockDecoder tells them apart.
#define OOC_VARINT 0   // varints (and every block of fewer than OOC_PACKED_MIN)
#define OOC_PACKED 1   // packed at w bits above the smallest gap, (index, varint) exceptions
#define OOC_COMPACT 2  // packed at w bits above 1, exceptions in the same bit stream
#define OOC_MIRRORED 3 // the lower half of a list symmetric about its vertex
#define OOC_MIRROR_MAX 8 // store.MirrorMax

// BlockDecoderR yields the neighbours of one block in order (store/decode.go's DecodeBlock,
// a neighbour at a time), reading bytes through a Reader (ByteReader or ByteReader16);
// BlockDecoder reads through ByteReader. A block of varints is read through r. A packed or compact
// block's gaps are read at w bits each from aligned 8-byte words (a shift and a mask each,
// a second word only when a gap straddles two); a packed block's exceptions are then read
// through r, a compact block's from the same words, and each patches the high bits of the
// gap it names. A mirrored block's lower half (at most 4 neighbours) is decoded at init
// and kept in registers; its upper half is 2v minus it, in reverse.
template <class Reader> struct BlockDecoderR {
	Reader r;
	uint32_t x, left;
	bool first;
	uint32_t mode;
	uint32_t w, base, i, exc, excLeft; // packed, compact: width, smallest gap, gaps read, next exception's gap
	uint32_t ebit, wi, wh;             // compact: the next exception's bit, its fields' widths
	uint64_t excHi;                    // compact: the next exception's high part
	const unsigned long long *words;   // packed, compact: the aligned word holding the first packed bit
	uint32_t bit0;                     // packed, compact: the first packed bit's offset in *words
	uint32_t cwi;                      // packed, compact: index (from words) of the cached word cw
	uint64_t cw;
	uint32_t m0, m1, m2, m3, half;     // mirrored: the lower half, its size
	uint32_t vtx;                      // the list's vertex
	uint32_t start;                    // the block's first byte's address, low 32 bits (lo32)
	__device__ __forceinline__ void init(const List &l, uint32_t k) {
		const uint8_t *e, *p = l.block(k, &left, &e);
		start = lo32(p);
		r.init(p, e);
		begin(l.v);
	}
	// initAt starts the block of c neighbours of vertex v whose bytes are [p, e).
	__device__ __forceinline__ void initAt(const uint8_t *p, const uint8_t *e, uint32_t c, uint32_t v) {
		start = lo32(p);
		left = c;
		r.init(p, e);
		begin(v);
	}
	// fail stops the block at a fault of vertex vtx's list.
	__device__ __forceinline__ void fail(uint32_t reason) {
		left = 0;
		listFault(reason, vtx);
	}
	// begin decodes the head of the block at start (r reads it), of left neighbours of
	// vertex v. A packed or compact block whose packed bits would pass its bytes fails here,
	// before next reads them; every other read past them is caught by next.
	__device__ __forceinline__ void begin(uint32_t v) {
		vtx = v;
		first = true;
		mode = OOC_VARINT;
		excLeft = 0;
		uint32_t c = left;
		uint64_t z = r.uvarint();
		bool packed = c >= OOC_PACKED_MIN && (z & 1);
		if (c >= OOC_PACKED_MIN) z >>= 1;
		// zigzag-decoded offset from the vertex (FORMAT.md); a sum outside 32 bits is kept as
		// 2^32-1, past any vertex, for next to refuse
		int64_t f = (int64_t)v + ((int64_t)(z >> 1) ^ -(int64_t)(z & 1));
		x = f < 0 || f > 0xFFFFFFFFll ? 0xFFFFFFFFu : (uint32_t)f;
		if (!packed) return;
		uint32_t h = r.byte();
		if (h == 0xFFu) {
			mode = OOC_MIRRORED;
			half = c / 2;
			i = 1;
			m0 = x, m1 = m2 = m3 = 0;
			uint64_t y = x; // sums past 32 bits kept as 2^32-1, as the first value
			if (half > 1) m1 = sat32(y += r.uvarint());
			if (half > 2) m2 = sat32(y += r.uvarint());
			if (half > 3) m3 = sat32(y += r.uvarint());
			// an even count of at most OOC_MIRROR_MAX, the lower half at most the vertex
			if (c % 2 || c > OOC_MIRROR_MAX || y > v) fail(FAULT_BYTES);
			return;
		}
		w = h & 0x3Fu;
		if (w > 32) {
			fail(FAULT_BYTES);
			return;
		}
		i = 0;
		cwi = 0xFFFFFFFFu;
		if (h & 0x80u) {
			mode = OOC_COMPACT;
			base = 1;
			setWords(r.p);
			uint32_t end = bit0 + (c - 1) * w;
			excLeft = 0;
			exc = 0xFFFFFFFFu;
			if (h & 0x40u) {
				if (r.past((const uint8_t *)words + (end + 14 + 7) / 8)) {
					fail(FAULT_BYTES);
					return;
				}
				uint32_t hd = (uint32_t)field(end, 14);
				excLeft = hd & 63u;
				wi = (hd >> 6) & 7u;
				wh = (hd >> 9) + 1;
				if (excLeft == 0 || excLeft > c - 1) {
					fail(FAULT_BYTES);
					return;
				}
				ebit = end + 14;
				end = ebit + excLeft * (wi + wh);
				exc = 0xFFFFFFFFu; // the index of the exception before the first
			}
			r.seek(r.p + (end - bit0 + 7) / 8); // r.p is the block's end: used() counts it all
			if (r.past(r.p)) {
				fail(FAULT_BYTES);
				return;
			}
			if (excLeft) nextException();
			return;
		}
		mode = OOC_PACKED;
		base = sat32(r.uvarint());
		excLeft = (h & 0x40u) ? r.byte() : 0;
		setWords(r.p);
		r.seek(r.p + ((c - 1) * w + 7) / 8);
		if (r.past(r.p) || ((h & 0x40u) && (excLeft == 0 || excLeft > c - 1))) {
			fail(FAULT_BYTES);
			return;
		}
		exc = excLeft ? r.byte() : 0xFFFFFFFFu;
	}
	__device__ __forceinline__ void setWords(const uint8_t *p) {
		uintptr_t a = (uintptr_t)p;
		words = (const unsigned long long *)(a & ~(uintptr_t)7);
		bit0 = (uint32_t)(a & 7) * 8;
	}
	__device__ __forceinline__ uint64_t word(uint32_t k) {
		if (k != cwi) {
			cw = Reader::load64(words + k);
			cwi = k;
		}
		return cw;
	}
	// field reads the n-bit field (n <= 32) at bit b of words.
	__device__ __forceinline__ uint64_t field(uint32_t b, uint32_t n) {
		if (n == 0) return 0;
		uint32_t sh = b & 63;
		uint64_t g = word(b >> 6) >> sh;
		if (sh + n > 64) g |= word((b >> 6) + 1) << (64 - sh);
		return g & ((1ull << n) - 1);
	}
	// nextException reads a compact block's next (index step, high part) pair.
	__device__ __forceinline__ void nextException() {
		uint32_t step = (uint32_t)field(ebit, wi);
		excHi = field(ebit + wi, wh);
		ebit += wi + wh;
		exc += 1 + step;
	}
	__device__ __forceinline__ uint32_t lower(uint32_t j) const { return j == 0 ? m0 : j == 1 ? m1 : j == 2 ? m2 : m3; }
	__device__ __forceinline__ bool next(uint32_t *u) {
		if (left == 0) return false;
		left--;
		uint64_t y = x; // the neighbour, summed in 64 bits: a sum past 32 bits is no vertex
		if (first) {
			first = false;
		} else if (mode == OOC_VARINT) {
			y += r.uvarint();
		} else if (mode == OOC_MIRRORED) {
			uint32_t j = i++;
			y = j < half ? lower(j) : 2ull * vtx - lower(2 * half - 1 - j);
		} else {
			uint64_t g = field(bit0 + i * w, w);
			if (i == exc) {
				// a gap with its high part, below the vertex count as the CPU's checks
				// hold it (else kept as 2^40, past any vertex: the sum below then fits 64
				// bits); a packed block's high part is 1 to the vertex count, so that
				// its shift by w (at most 32) fits 64 bits too
				if (mode == OOC_PACKED) {
					uint64_t hi = r.uvarint();
					g = hi == 0 || hi >= ooc_vertices ? 1ull << 40 : g | hi << w;
					exc = --excLeft ? r.byte() : 0xFFFFFFFFu;
				} else {
					g |= excHi << w; // excHi < 2^32
					if (--excLeft) nextException();
					else exc = 0xFFFFFFFFu;
				}
				if (g >= ooc_vertices) g = 1ull << 40;
			}
			i++;
			y += base + g;
		}
		// a neighbour past the vertex count, a byte read past the block, or a block whose
		// last neighbour leaves bytes or exceptions unread (the CPU's ListIter refuses each)
		if (y >= ooc_vertices || r.past(r.p) || (left == 0 && (!r.atEnd() || excLeft != 0))) {
			fail(y >= ooc_vertices ? FAULT_NEIGHBOUR : FAULT_BYTES);
			return false;
		}
		x = (uint32_t)y;
		*u = x;
		return true;
	}
	// used is how many of the block's bytes were read so far (for the link traffic
	// count); a packed block counts its packed gaps as read from the start, a compact
	// block all its bytes.
	__device__ __forceinline__ uint32_t used() const { return lo32(r.p) - start; }
};
typedef BlockDecoderR<ByteReader> BlockDecoder;

__device__ __forceinline__ unsigned laneId() { return threadIdx.x & 31; }

// shflList is lane q's list l, for a warp that shares one lane's list. All 32 lanes must call it.
__device__ __forceinline__ List shflList(const List &l, int q) {
	List c;
	c.base = (const uint8_t *)__shfl_sync(0xffffffffu, (unsigned long long)l.base, q);
	c.end = (const uint8_t *)__shfl_sync(0xffffffffu, (unsigned long long)l.end, q);
	c.v = __shfl_sync(0xffffffffu, l.v, q);
	c.deg = __shfl_sync(0xffffffffu, l.deg, q);
	c.nb = __shfl_sync(0xffffffffu, l.nb, q);
	return c;
}

// warpAppend appends item to q when want holds, with one atomicAdd per warp: the active
// lanes vote, the first of them reserves room for all, and each writes its own slot
// (warp-aggregated atomics).
__device__ __forceinline__ void warpAppend(uint32_t *q, uint32_t *count, bool want, uint32_t item) {
	unsigned mask = __activemask();
	unsigned vote = __ballot_sync(mask, want);
	if (vote == 0) return;
	int leader = __ffs(mask) - 1;
	uint32_t base = 0;
	if ((int)laneId() == leader) base = atomicAdd(count, __popc(vote));
	base = __shfl_sync(mask, base, leader);
	if (want) q[base + __popc(vote & ((1u << laneId()) - 1))] = item;
}

// addWarp adds each lane's x into *sum (when not null) with one atomic per warp; all 32
// lanes must call it.
__device__ __forceinline__ void addWarp(unsigned long long *sum, unsigned long long x) {
	for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(0xffffffffu, x, o);
	if (sum != NULL && laneId() == 0 && x) atomicAdd(sum, x);
}

__device__ __forceinline__ bool testBit(const uint32_t *bits, uint32_t v) {
	return (bits[v >> 5] >> (v & 31)) & 1;
}

// warpScan is the inclusive prefix sum of x over the warp's lanes: lane i gets the sum of
// lanes 0..i. All 32 lanes must call it.
__device__ __forceinline__ uint32_t warpScan(uint32_t x) {
	for (int o = 1; o < 32; o <<= 1) {
		uint32_t y = __shfl_up_sync(0xffffffffu, x, o);
		if ((int)laneId() >= o) x += y;
	}
	return x;
}

// warpOwner is the lane whose share holds item k of items laid end to end, incl being
// warpScan of the lanes' counts: the number of lanes whose items end at or before k. All
// 32 lanes must call it.
__device__ __forceinline__ uint32_t warpOwner(uint32_t incl, uint32_t k) {
	uint32_t q = 0;
	for (uint32_t o = 16; o > 0; o >>= 1)
		if (__shfl_sync(0xffffffffu, incl, q + o - 1) <= k) q += o;
	return q;
}

// pickList is the queue i of the three a kernel rotates through (the control words say
// which holds what).
__device__ __forceinline__ uint32_t *pickList(uint32_t *l0, uint32_t *l1, uint32_t *l2, uint32_t i) {
	return i == 0 ? l0 : i == 1 ? l1 : l2;
}

// globalTimer is the device's global nanosecond timer, which the level and round records
// carry.
__device__ __forceinline__ unsigned long long globalTimer() {
	unsigned long long t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}
